"""The plugin registry: lookup, aliases with options, conflicts, broken plugins, blocking.

Every test builds a fresh ``Registry`` (never the process-wide one) and registers
throwaway plugins on it, as simonw/llm's tests do.
"""

from __future__ import annotations

import inspect
import sys
import types
import warnings
from importlib import metadata

import pytest

from formatbook_core import BaseFormat, ConflictError, FormatDefinition, UnknownFormatError, hookimpl
from formatbook_core import registry as registry_module
from formatbook_core.registry import BoundFormat, PluginLoadWarning, Registry
from formatbook_core.testing import check_protocol


class Recording(BaseFormat):
    """A format that records the options each call receives."""

    def __init__(self, name, aliases=(), mime_types=()):
        self.name = name
        self.aliases = tuple(aliases)
        self.mime_types = tuple(mime_types)
        self.calls = []

    def is_valid(self, value, schema=None, **options):
        self.calls.append(("is_valid", value, schema, options))
        return True

    def extract_values(self, value, schema=None, **options):
        self.calls.append(("extract_values", value, schema, options))
        return value.split(options.get("delimiter", ","))


def plugin(*formats, alias=None, units=()):
    """A throwaway plugin object registering ``formats`` (and ``alias`` pairs) and ``units``."""

    class Plugin:
        @hookimpl
        def register_formats(self, register):
            for fmt in formats:
                register(fmt)
            for fmt, name, options in alias or ():
                register(fmt, alias=name, options=options)

        @hookimpl
        def register_units(self, register):
            for unit in units:
                register(unit)

    return Plugin()


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.delenv("FORMATBOOK_DISABLE_PLUGINS", raising=False)
    monkeypatch.delenv("FORMATBOOK_BLOCK_PLUGINS", raising=False)
    return Registry(autoload=False)


# --- lookup ---------------------------------------------------------------------------


def test_lookup_by_name_alias_and_mime_type_case_insensitive(fresh):
    csv = Recording("csv", aliases=("comma",), mime_types=("text/csv",))
    fresh.register_plugin(plugin(csv), "csvplugin")
    for key in ("csv", "CSV", " Csv ", "comma", "COMMA", "text/csv", "Text/CSV"):
        assert fresh.get(key) is csv, key
    assert fresh.entry("comma").plugin == "csvplugin"
    assert [e.format for e in fresh.formats()] == [csv]


def test_alias_with_options_gives_every_call_those_options(fresh):
    csv = Recording("csv")
    fresh.register_plugin(plugin(csv, alias=[(csv, "tsv", {"delimiter": "\t"})]), "csvplugin")
    tsv = fresh.get("TSV")
    assert isinstance(tsv, BoundFormat)
    assert tsv.name == "csv"
    assert tsv.extract_values("a\tb,c") == ["a", "b,c"]
    assert tsv.is_valid("x", None) is True
    assert csv.calls[-1] == ("is_valid", "x", None, {"delimiter": "\t"})
    # an option given by the caller wins over the alias's
    assert tsv.extract_values("a;b", delimiter=";") == ["a", "b"]
    # the plain name carries no options, and the alias is not a second format
    assert fresh.get("csv").extract_values("a\tb,c") == ["a\tb", "c"]
    assert [e.format.name for e in fresh.formats()] == ["csv"]


def test_a_bound_alias_is_a_format_definition_even_to_static_lookup(fresh):
    # Python >= 3.12 checks runtime protocols with inspect.getattr_static, which does not
    # see attributes served by __getattr__: the protocol's members must be real ones.

    csv = Recording("csv", aliases=("comma",), mime_types=("text/csv",))
    csv.samples = ("a,b",)
    fresh.register_plugin(plugin(csv, alias=[(csv, "tsv", {"delimiter": "\t"})]), "p")
    tsv = fresh.get("tsv")
    for member in (
        "name",
        "aliases",
        "mime_types",
        "scope_kind",
        "is_valid",
        "can_be_valid",
        "heal",
        "extract_values",
        "locate",
        "stream",
    ):
        inspect.getattr_static(tsv, member)  # raises AttributeError when only __getattr__ knows it
    assert isinstance(tsv, FormatDefinition)
    assert (tsv.aliases, tsv.mime_types, tsv.scope_kind) == (("comma",), ("text/csv",), None)
    check_protocol(tsv)
    assert tsv.locate("x") == [(0, 1)]
    assert tsv.can_be_valid("a") is True
    assert tsv.heal("a").text == "a"
    assert all(call[3] == {"delimiter": "\t"} for call in csv.calls)


def test_stream_through_an_alias_gets_the_options(fresh):
    seen = {}

    class Streaming(Recording):
        def stream(self, schema=None, *, strict=True, **options):
            seen.update(options, strict=strict)
            return super().stream(schema, strict=strict, **options)

    csv = Streaming("csv")
    fresh.register_plugin(plugin(csv, alias=[(csv, "tsv", {"delimiter": "\t"})]), "p")
    checker = fresh.get("tsv").stream(strict=False)
    assert seen == {"delimiter": "\t", "strict": False}
    assert checker.feed("a\tb")


def test_two_plugins_claiming_one_name_fail_only_that_name(fresh):
    mine = Recording("yaml", aliases=("yml",), mime_types=("application/yaml",))
    theirs = Recording("yaml", aliases=("yaml-ng",))
    fresh.register_plugin(plugin(mine), "formatbook_yaml")
    fresh.register_plugin(plugin(theirs), "yaml_fork")
    fresh.register_plugin(plugin(Recording("json")), "formatbook_json")
    with pytest.raises(ConflictError) as err:
        fresh.get("YAML")
    assert "formatbook_yaml" in str(err.value) and "yaml_fork" in str(err.value)
    assert isinstance(err.value, LookupError)
    # every other name still works
    assert fresh.get("yml") is mine
    assert fresh.get("application/yaml") is mine
    assert fresh.get("yaml-ng") is theirs
    assert fresh.get("json").name == "json"
    assert len(fresh.formats()) == 3


def test_unknown_format_suggests_the_nearest_name(fresh):
    fresh.register_plugin(plugin(Recording("json"), Recording("yaml")), "p")
    with pytest.raises(UnknownFormatError) as err:
        fresh.get("jsn")
    assert err.value.suggestion == "json"
    assert "JSON" in str(err.value) and "'jsn'" in str(err.value)
    assert isinstance(err.value, LookupError)
    with pytest.raises(UnknownFormatError) as err:
        fresh.get("qqqqqq")
    assert err.value.suggestion is None
    assert "did you mean" not in str(err.value)


def test_units_are_registered_and_looked_up_case_insensitively(fresh):
    unit = types.SimpleNamespace(name="widgets", aliases=("widget",), count=lambda text: text.count("w"))
    fresh.register_plugin(plugin(units=[unit]), "widgets")
    assert fresh.unit("WIDGET") is unit
    assert fresh.unit("widgets").count("wow") == 2
    assert "widgets" in fresh.units()
    assert fresh.unit("gadgets") is None


# --- loading from entry points --------------------------------------------------------


def _module(name, *formats):
    module = types.ModuleType(name)

    @hookimpl
    def register_formats(register):
        for fmt in formats:
            register(fmt)

    module.register_formats = register_formats
    return module


@pytest.fixture
def fake_entry_points(monkeypatch):
    """Two importable fake plugin modules and one that does not exist, as entry points."""
    monkeypatch.setitem(sys.modules, "fb_fake_alpha", _module("fb_fake_alpha", Recording("alpha")))
    monkeypatch.setitem(sys.modules, "fb_fake_beta", _module("fb_fake_beta", Recording("beta", aliases=("b",))))
    eps = [
        metadata.EntryPoint("alpha", "fb_fake_alpha", "formatbook"),
        metadata.EntryPoint("broken", "fb_fake_module_that_does_not_exist", "formatbook"),
        metadata.EntryPoint("beta", "fb_fake_beta", "formatbook"),
    ]
    calls = []

    def entry_points():
        calls.append(1)
        return eps

    monkeypatch.setattr(registry_module, "_entry_points", entry_points)
    monkeypatch.delenv("FORMATBOOK_DISABLE_PLUGINS", raising=False)
    monkeypatch.delenv("FORMATBOOK_BLOCK_PLUGINS", raising=False)
    return calls


def test_a_plugin_that_fails_to_import_warns_and_the_others_load(fake_entry_points):
    registry = Registry()
    with pytest.warns(PluginLoadWarning, match="broken") as caught:
        names = [e.format.name for e in registry.formats()]
    assert names == ["alpha", "beta"]
    assert registry.get("b").name == "beta"
    assert "fb_fake_module_that_does_not_exist" in str(caught[0].message)
    assert "ModuleNotFoundError" in registry.load_errors["broken"]
    assert set(registry.load_errors) == {"broken"}


def test_a_plugin_whose_hook_breaks_warns_and_the_others_load(fake_entry_points, monkeypatch):
    bad = types.ModuleType("fb_fake_bad_hook")

    @hookimpl
    def register_formats(register):
        raise RuntimeError("boom")

    bad.register_formats = register_formats
    monkeypatch.setitem(sys.modules, "fb_fake_alpha", bad)
    registry = Registry(blocked=["broken"])
    with pytest.warns(PluginLoadWarning, match="alpha.*boom"):
        names = [e.format.name for e in registry.formats()]
    assert names == ["beta"]


def test_a_hookimpl_with_a_wrong_signature_is_reported(fake_entry_points, monkeypatch):
    # pluggy validates hookimpls against the specs: an argument the spec does not offer
    bad = types.ModuleType("fb_fake_bad_signature")

    @hookimpl
    def register_formats(registrar):
        raise AssertionError("never called")

    bad.register_formats = register_formats
    monkeypatch.setitem(sys.modules, "fb_fake_alpha", bad)
    registry = Registry(blocked=["broken"])
    with pytest.warns(PluginLoadWarning, match="alpha"):
        names = [e.format.name for e in registry.formats()]
    assert names == ["beta"]


def test_blocking_single_plugins(fake_entry_points):
    registry = Registry(blocked=["alpha", "broken"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the blocked broken plugin is not even imported
        assert [e.format.name for e in registry.formats()] == ["beta"]
    with pytest.raises(UnknownFormatError):
        registry.get("alpha")


def test_blocking_by_module_name(fake_entry_points):
    registry = Registry(blocked=["FB_FAKE_BETA", "broken"])
    assert [e.format.name for e in registry.formats()] == ["alpha"]


def test_blocking_through_the_environment(fake_entry_points, monkeypatch):
    monkeypatch.setenv("FORMATBOOK_BLOCK_PLUGINS", " beta , broken ")
    registry = Registry()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [e.format.name for e in registry.formats()] == ["alpha"]


def test_blocked_plugins_cannot_be_registered_by_hand_either(fresh):
    registry = Registry(autoload=False, blocked=["mine"])
    registry.register_plugin(plugin(Recording("alpha")), "mine")
    assert registry.formats() == []


def test_autoload_off_reads_no_entry_points(fake_entry_points):
    registry = Registry(autoload=False)
    assert registry.formats() == []
    assert fake_entry_points == []
    # a plugin added by hand still works
    registry.register_plugin(plugin(Recording("alpha")), "by-hand")
    assert registry.get("alpha").name == "alpha"


@pytest.mark.parametrize("value", ["1", "true", "yes"])
def test_autoload_off_through_the_environment(fake_entry_points, monkeypatch, value):
    monkeypatch.setenv("FORMATBOOK_DISABLE_PLUGINS", value)
    assert Registry().formats() == []
    assert fake_entry_points == []


def test_autoload_stays_on_when_the_variable_says_no(fake_entry_points, monkeypatch):
    monkeypatch.setenv("FORMATBOOK_DISABLE_PLUGINS", "0")
    with pytest.warns(PluginLoadWarning):
        assert [e.format.name for e in Registry().formats()] == ["alpha", "beta"]


def test_entry_points_are_read_once(fake_entry_points):
    registry = Registry(blocked=["broken"])
    registry.formats()
    registry.get("alpha")
    registry.names()
    assert len(fake_entry_points) == 1


def test_module_functions_use_the_default_registry(monkeypatch, fresh):
    fresh.register_plugin(plugin(Recording("alpha")), "p")
    monkeypatch.setattr(registry_module, "_default", fresh)
    assert registry_module.get_format("ALPHA").name == "alpha"
    assert [e.name for e in registry_module.list_formats()] == ["alpha"]
    assert registry_module.default_registry() is fresh


# --- the built-in plugins -------------------------------------------------------------


def test_each_builtin_plugin_has_exactly_one_entry_point():
    eps = list(metadata.entry_points(group="formatbook"))
    for name, module in (("text", "formatbook_text"), ("json", "formatbook_json"), ("markdown", "formatbook_markdown")):
        matching = [ep for ep in eps if ep.name == name]
        assert len(matching) == 1, (name, matching)
        assert matching[0].value == module


def test_the_default_registry_loads_the_text_plugin_through_its_entry_point():
    registry = Registry(autoload=True)
    entry = registry.entry("text")
    assert entry.plugin == "text"
    assert type(entry.format).__module__ == "formatbook_text"
    assert registry.get("text/plain") is entry.format


def test_no_two_installed_plugins_claim_one_name():
    registry = Registry(autoload=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a plugin still being written may fail to load
        names = registry.names()
    assert "text" in names
    for name in names:
        registry.entry(name)  # raises ConflictError when two plugins claim it


# --- hooks are called through pluggy ---------------------------------------------------


def test_a_function_named_like_the_hook_without_hookimpl_is_not_called(fresh):
    called = []
    unmarked = types.ModuleType("fb_unmarked")

    def register_formats(register):  # no @hookimpl: not a hook implementation
        called.append(register)
        register(Recording("unmarked"))

    unmarked.register_formats = register_formats
    fresh.register_plugin(unmarked, "unmarked")
    assert called == []
    with pytest.raises(UnknownFormatError):
        fresh.get("unmarked")


def test_a_hookimpl_with_specname_is_called(fresh):
    fmt = Recording("named-by-spec")

    class Plugin:
        @hookimpl(specname="register_formats")
        def add_my_formats(self, register):
            register(fmt)

    fresh.register_plugin(Plugin(), "specname-plugin")
    assert fresh.get("named-by-spec") is fmt
    assert fresh.entry("named-by-spec").plugin == "specname-plugin"


def test_each_plugin_is_recorded_for_what_it_registered_and_hooks_run_once(fresh):
    first, second = Recording("first"), Recording("second")
    calls = []

    class Counting:
        def __init__(self, fmt):
            self.fmt = fmt

        @hookimpl
        def register_formats(self, register):
            calls.append(self.fmt.name)
            register(self.fmt)

    fresh.register_plugin(Counting(first), "one")
    fresh.register_plugin(Counting(second), "two")
    assert calls == ["first", "second"]  # registering "two" did not call "one" again
    assert [(e.name, e.plugin) for e in fresh.formats()] == [("first", "one"), ("second", "two")]


def test_a_hook_that_raises_after_registering_leaves_nothing_behind(fresh):
    half = Recording("half")

    class Broken:
        @hookimpl
        def register_formats(self, register):
            register(half)
            raise RuntimeError("boom")

    broken = Broken()
    with pytest.raises(RuntimeError, match="boom"):
        fresh.register_plugin(broken, "broken-halfway")
    assert not fresh.pm.is_registered(broken)
    with pytest.raises(UnknownFormatError):
        fresh.get("half")
    assert fresh.formats() == []
