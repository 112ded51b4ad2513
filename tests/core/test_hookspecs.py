"""Hook specifications, checked the way datasette checks its own: every hook is documented
(each parameter described) and every hook is exercised by a test named after it."""

from __future__ import annotations

import inspect
import re
import sys
import types
from importlib import metadata
from pathlib import Path

import pluggy
import pytest

from formatbook_core import check, hookimpl, hookspecs
from formatbook_core import registry as registry_module
from formatbook_core.expectations import parse_expectations
from formatbook_core.registry import PluginLoadWarning, Registry
from formatbook_core.results import ExpectationError, Violation

TESTS = Path(__file__).resolve().parents[1]


def hook_specs() -> dict[str, types.FunctionType]:
    marker = f"{hookspecs.PROJECT_NAME}_spec"
    return {name: fn for name, fn in vars(hookspecs).items() if inspect.isfunction(fn) and hasattr(fn, marker)}


def test_the_hooks_are_the_documented_ones():
    assert set(hook_specs()) == {"register_formats", "register_units", "register_expectation_kinds"}


@pytest.mark.parametrize("name", sorted(hook_specs()))
def test_every_hook_is_documented_with_its_parameters(name):
    fn = hook_specs()[name]
    doc = inspect.getdoc(fn)
    assert doc and len(doc.splitlines()) >= 3, f"hook {name} needs a docstring"
    for param in inspect.signature(fn).parameters:
        assert re.search(rf":param {param}:\s*\S", doc), f"hook {name}: parameter {param!r} is not described"


@pytest.mark.parametrize("name", sorted(hook_specs()))
def test_every_hook_has_a_test(name):
    # datasette's rule: a test function named test_hook_<name> somewhere under tests/
    pattern = re.compile(rf"^\s*def test_hook_{name}\b", re.MULTILINE)
    found = [p for p in TESTS.rglob("test_*.py") if pattern.search(p.read_text(encoding="utf-8"))]
    assert found, f"no test named test_hook_{name} under tests/"


def test_the_markers_belong_to_the_project():
    assert hookspecs.PROJECT_NAME == "formatbook"
    assert isinstance(hookimpl, pluggy.HookimplMarker)
    assert hookimpl.project_name == "formatbook"


class _Format:
    aliases = ("dt",)
    mime_types = ("text/x-dummy",)
    scope_kind = None

    def __init__(self, name):
        self.name = name


def test_hook_register_formats():
    calls = []

    class Plugin:
        @hookimpl
        def register_formats(self, register):
            calls.append(register)
            register(_Format("dummy"))
            register(_Format("other"), alias="dummy2", options={"x": 1})
            return "ignored"

    registry = Registry(autoload=False)
    registry.register_plugin(Plugin(), "dummy-plugin")
    assert len(calls) == 1  # called once, when the plugin is added
    assert registry.get("DT").name == "dummy"
    assert registry.get("text/x-dummy").name == "dummy"
    assert registry.entry("dummy2").options == {"x": 1}
    assert [e.name for e in registry.formats()] == ["dummy"]
    # pluggy validated the implementation against the spec when it was added
    assert registry.pm.hook.register_formats.get_hookimpls()[0].plugin_name == "dummy-plugin"


def test_hook_register_units():
    class Unit:
        name = "widgets"
        aliases = ("widget",)

        def count(self, text):
            return text.count("w")

    class Plugin:
        @hookimpl
        def register_units(self, register):
            register(Unit())

    registry = Registry(autoload=False)
    registry.register_plugin(Plugin(), "widget-plugin")
    assert registry.unit("Widget").count("wow w") == 3
    assert "widgets" in registry.unit_names() and "widget" in registry.unit_names()


def test_hook_register_expectation_kinds():
    class NoShouting:
        def __init__(self, word):
            self.word = word

        def describe(self):
            return f'NO SHOUTING "{self.word}"'

        def check(self, text):
            at = text.find(self.word.upper())
            return [] if at < 0 else [Violation("shout.found", f"{self.word.upper()} shouted at {at}")]

        def guidance(self):
            return f"Do not write {self.word.upper()}."

        def stream(self):
            return None

    class Kind:
        phrase = "no shouting"
        description = "a word never written in capitals"

        def parse(self, args, line):
            assert [a.quoted for a in args] == [True]
            return NoShouting(args[0].text)

    calls = []

    class Plugin:
        @hookimpl
        def register_expectation_kinds(self, register):
            calls.append(register)
            register(Kind())
            return "ignored"

    registry = Registry(autoload=False)
    registry.register_plugin(Plugin(), "shout-plugin")
    assert len(calls) == 1
    assert registry.kind("No  Shouting").phrase == "no shouting"  # case and spacing do not matter
    assert registry.kind_phrases() == ["no shouting"]
    exp = parse_expectations('EXPECT NO SHOUTING "stop"', registry=registry)
    assert [i.describe() for i in exp.instructions] == ['NO SHOUTING "stop"']
    result = check("please STOP now", exp)
    assert not result.ok and [v.code for v in result.violations] == ["shout.found"]
    assert result.violations[0].message == "STOP shouted at 7"
    assert check("please stop now", exp).ok

    # a second plugin claiming the phrase makes it fail with both names
    class Other:
        @hookimpl
        def register_expectation_kinds(self, register):
            register(Kind())

    registry.register_plugin(Other(), "other-plugin")
    with pytest.raises(ExpectationError, match=r"other-plugin.*shout-plugin"):
        parse_expectations('EXPECT NO SHOUTING "x"', registry=registry)


def test_a_hookimpl_not_in_the_specs_is_rejected():
    class Plugin:
        @hookimpl
        def register_gadgets(self, register):
            pass

    registry = Registry(autoload=False)
    with pytest.raises(pluggy.PluginValidationError, match="register_gadgets"):
        registry.register_plugin(Plugin(), "gadgets")
    assert not registry.pm.has_plugin("gadgets")


def test_a_misspelled_hook_in_an_entry_point_plugin_is_a_load_warning(monkeypatch):

    module = types.ModuleType("fb_fake_typo")

    @hookimpl
    def register_format(register):  # singular: not a hook formatbook calls
        register(_Format("typo"))

    module.register_format = register_format
    monkeypatch.setitem(sys.modules, "fb_fake_typo", module)
    monkeypatch.setattr(
        registry_module, "_entry_points", lambda: [metadata.EntryPoint("typo", "fb_fake_typo", "formatbook")]
    )
    monkeypatch.delenv("FORMATBOOK_DISABLE_PLUGINS", raising=False)
    monkeypatch.delenv("FORMATBOOK_BLOCK_PLUGINS", raising=False)
    registry = Registry()
    with pytest.warns(PluginLoadWarning, match="typo.*register_format"):
        assert registry.formats() == []
