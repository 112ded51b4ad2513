"""The plugin manager: loads plugins from entry points and looks formats up.

Lookup is by name, alias or MIME type, case-insensitive. An alias may carry options
(``tsv`` is ``csv`` with ``delimiter="\\t"``). Two plugins claiming one name make that one
name fail with an error naming both; every other name still works. A plugin that fails to
import is reported with a warning and the others still load.

Set ``FORMATBOOK_DISABLE_PLUGINS=1`` (or call ``Registry(autoload=False)``) to switch
auto-loading off; ``FORMATBOOK_BLOCK_PLUGINS=json,yaml`` blocks single plugins.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs
from .definition import FORMAT_DEFAULTS, UNIT_DEFAULTS, FormatDefinition, give_defaults
from .results import FormatbookError

ENTRY_POINT_GROUP = "formatbook"

#: Modules of the core that register things the same way plugins do (the counting units).
CORE_PLUGINS = ("formatbook_core.counting",)


class UnknownFormatError(FormatbookError, LookupError):
    """No registered format answers to this name; ``suggestion`` is the nearest name."""

    def __init__(self, name: str, suggestion: str | None = None):
        hint = f" (did you mean {suggestion.upper()}?)" if suggestion else ""
        super().__init__(f"unknown format {name!r}{hint}")
        self.name = name
        self.suggestion = suggestion


class ConflictError(FormatbookError, LookupError):
    """Two plugins claim the same name."""


class PluginLoadWarning(UserWarning):
    """A plugin could not be imported or registered; the others still load."""


@dataclass(frozen=True)
class FormatEntry:
    """A registered format, how it was reached, and the plugin that provided it."""

    format: FormatDefinition
    plugin: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.format.name


class Registry:
    """Formats, units and expectation kinds registered by plugins."""

    def __init__(self, *, autoload: bool | None = None, blocked: Iterable[str] = ()):
        if autoload is None:
            autoload = os.environ.get("FORMATBOOK_DISABLE_PLUGINS", "") not in ("1", "true", "yes")
        env_blocked = [b.strip() for b in os.environ.get("FORMATBOOK_BLOCK_PLUGINS", "").split(",") if b.strip()]
        self.blocked = {b.lower() for b in [*blocked, *env_blocked]}
        self.pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
        self.pm.add_hookspecs(hookspecs)
        self._autoload = autoload
        # formatbook's own plugins not imported yet, by entry point name (None: not read)
        self._pending: dict[str, Any] | None = None
        self._formats: list[FormatEntry] = []
        self._keys: dict[str, list[FormatEntry]] = {}
        self._units: dict[str, Any] = {}
        self._unit_keys: dict[str, Any] = {}
        self._kinds: dict[str, list[tuple[Any, str]]] = {}  # phrase -> [(kind, plugin)]
        self._option_aliases: dict[int, list[str]] = {}  # id(format) -> aliases carrying options
        self.load_errors: dict[str, str] = {}
        #: bumped whenever a plugin's formats, units or kinds are indexed: what was read
        #: through the registry before (parsed EXPECT text) may read otherwise after
        self.generation = 0

    # --- loading ---------------------------------------------------------------------
    def register_plugin(self, plugin: Any, name: str | None = None) -> None:
        """Add a plugin (a module or an object with ``@hookimpl`` methods) by hand."""
        name = name or getattr(plugin, "__name__", None) or type(plugin).__name__
        if name.lower() in self.blocked:
            return
        self.pm.register(plugin, name=name)
        try:
            # A hook the specs do not know (a typo such as `register_format`) would
            # otherwise be ignored in silence and the plugin would register nothing.
            self.pm.check_pending()
        except pluggy.PluginValidationError:
            self.pm.unregister(plugin)
            raise
        self._collect(plugin, name)

    def load(self) -> None:
        """Register the core's plugins and the installed ones now (lookups do it on first
        use, once): for a caller that registers a plugin of its own after them."""
        self._ensure_loaded()

    def _ensure_started(self) -> None:
        """The core's plugins registered and the entry points read, once. Plugins of other
        distributions load now (a name two of them claim is then always seen as a conflict);
        formatbook's own load when a lookup needs one (:meth:`_load_named`)."""
        if self._pending is not None:
            return
        self._pending = {}
        for module_name in CORE_PLUGINS:
            self.register_plugin(importlib.import_module(module_name), module_name)
        if not self._autoload:
            return
        for ep in _entry_points():
            if ep.name.lower() in self.blocked or ep.value.lower() in self.blocked:
                continue
            if _is_builtin(ep):
                self._pending[ep.name.lower()] = ep
            else:
                self._load_entry_point(ep)

    def _ensure_loaded(self) -> None:
        """Every plugin registered: what listing or searching all of them needs."""
        self._ensure_started()
        assert self._pending is not None  # set by _ensure_started
        while self._pending:
            self._load_entry_point(self._pending.pop(next(iter(self._pending))))

    def _load_named(self, name: str) -> None:
        """Formatbook's own plugin whose entry point is named ``name``, loaded if it is
        not yet (a built-in format's entry point is named like the format)."""
        self._ensure_started()
        assert self._pending is not None  # set by _ensure_started
        ep = self._pending.pop(name, None)
        if ep is not None:
            self._load_entry_point(ep)

    def _load_entry_point(self, ep: Any) -> None:
        if self.pm.has_plugin(ep.name):
            return
        try:
            module = ep.load()
            self.register_plugin(module, ep.name)
        except Exception as exc:  # a broken plugin must not take the others down
            self.load_errors[ep.name] = f"{type(exc).__name__}: {exc}"
            warnings.warn(
                f"formatbook plugin {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}",
                PluginLoadWarning,
                stacklevel=4,
            )

    def _collect(self, plugin: Any, plugin_name: str) -> None:
        """Call one plugin's hooks (not all plugins' again) and index what it registers.

        What the hooks register is staged and indexed only once they all returned: a
        plugin whose hook raises registers nothing and is unregistered again. A format or
        unit that lacks a declared optional attribute gets its default here, once.
        """
        formats: list[tuple[Any, str | None, dict[str, Any]]] = []
        units: list[Any] = []
        kinds: list[Any] = []

        def register_format(fmt: Any, alias: str | None = None, options: dict[str, Any] | None = None) -> None:
            formats.append((fmt, alias, dict(options or {})))

        # Through the plugin manager, so that only @hookimpl functions run (a function
        # merely named register_formats does not) and @hookimpl(specname=...) is honoured;
        # the subset caller runs this one plugin's implementations, so that what it
        # registers is recorded as its own.
        others = [p for p in self.pm.get_plugins() if p is not plugin]
        try:
            self.pm.subset_hook_caller("register_formats", others)(register=register_format)
            self.pm.subset_hook_caller("register_units", others)(register=units.append)
            self.pm.subset_hook_caller("register_expectation_kinds", others)(register=kinds.append)
            for fmt, _, _ in formats:
                give_defaults(fmt, FORMAT_DEFAULTS, "format")
            for unit in units:
                give_defaults(unit, UNIT_DEFAULTS, "unit")
        except BaseException:
            self.pm.unregister(plugin)
            raise
        for fmt, alias, options in formats:
            entry = FormatEntry(fmt, plugin_name, options)
            if alias is not None:
                self._add_key(alias, entry)
                self._option_aliases.setdefault(id(fmt), []).append(alias)
                continue
            self._formats.append(entry)
            for key in (fmt.name, *fmt.aliases, *fmt.mime_types):
                self._add_key(key, entry)
        for unit in units:
            self._units[unit.name] = unit
            for key in (unit.name, *unit.aliases):
                self._unit_keys[key.lower()] = unit
        for kind in kinds:
            phrase = " ".join(str(kind.phrase).lower().split())
            bucket = self._kinds.setdefault(phrase, [])
            if all(k is not kind for k, _ in bucket):
                bucket.append((kind, plugin_name))
        self.generation += 1

    def _add_key(self, key: str, entry: FormatEntry) -> None:
        bucket = self._keys.setdefault(key.lower(), [])
        if all(e.plugin != entry.plugin or e.format is not entry.format for e in bucket):
            bucket.append(entry)

    # --- lookup ----------------------------------------------------------------------
    def entry(self, name: str) -> FormatEntry:
        """The registered format for ``name`` (name, alias or MIME type)."""
        key = name.strip().lower()
        self._load_named(key)
        bucket = self._keys.get(key)
        if not bucket:  # an alias or a MIME type: only the plugins themselves know theirs
            self._ensure_loaded()
            bucket = self._keys.get(key)
        if not bucket:
            raise UnknownFormatError(name, self.suggest(name))
        if len(bucket) > 1:
            plugins = sorted({e.plugin for e in bucket})
            raise ConflictError(f"format name {name!r} is claimed by several plugins: {', '.join(plugins)}")
        return bucket[0]

    def get(self, name: str) -> FormatDefinition:
        """The format object for ``name``; options carried by an alias are bound in."""
        entry = self.entry(name)
        if entry.options:
            return BoundFormat(entry.format, entry.options)
        return entry.format

    def knows_format(self, name: str) -> bool:
        """``name`` is a registered format's name, alias or MIME type, looked up without
        importing every plugin: formatbook's own format plugin of that name is imported
        if need be, others are not (an alias of a plugin not imported yet is not found)."""
        key = name.strip().lower()
        self._load_named(key)
        return key in self._keys

    def formats(self) -> list[FormatEntry]:
        """Every registered format (not alias entries), in registration order."""
        self._ensure_loaded()
        return list(self._formats)

    def option_aliases(self, fmt: Any) -> list[str]:
        """The aliases registered for ``fmt`` with options (``tsv`` for ``csv``)."""
        self._ensure_loaded()
        return list(self._option_aliases.get(id(fmt), ()))

    def names(self) -> list[str]:
        self._ensure_loaded()
        return sorted(self._keys)

    def suggest(self, name: str) -> str | None:
        match = difflib.get_close_matches(name.lower(), self.names(), n=1, cutoff=0.6)
        return match[0] if match else None

    def unit(self, name: str) -> Any:
        self._ensure_started()
        key = name.strip().lower()
        found = self._unit_keys.get(key)
        if found is None and self._pending:
            self._ensure_loaded()
            found = self._unit_keys.get(key)
        return found

    def units(self) -> dict[str, Any]:
        self._ensure_loaded()
        return dict(self._units)

    def unit_names(self) -> list[str]:
        self._ensure_loaded()
        return sorted(self._unit_keys)

    def kind(self, phrase: str) -> Any:
        """The expectation kind registered for ``phrase`` (``"ends with"``), or ``None``;
        raises ``ConflictError`` when several plugins registered it."""
        self._ensure_started()
        key = " ".join(phrase.lower().split())
        if key not in self._kinds and self._pending:
            self._ensure_loaded()
        bucket = self._kinds.get(key)
        if not bucket:
            return None
        if len(bucket) > 1:
            plugins = ", ".join(sorted(p for _, p in bucket))
            raise ConflictError(f"expectation kind {phrase.upper()!r} is claimed by several plugins: {plugins}")
        return bucket[0][0]

    def kinds(self) -> dict[str, Any]:
        """Every expectation kind by phrase (a phrase claimed twice: the first one)."""
        self._ensure_loaded()
        return {phrase: bucket[0][0] for phrase, bucket in sorted(self._kinds.items())}

    def kind_phrases(self) -> list[str]:
        self._ensure_loaded()
        return sorted(self._kinds)


class BoundFormat:
    """A format seen through an alias that carries options (``tsv``): every call gets them."""

    def __init__(self, fmt: Any, options: dict[str, Any]):
        self._fmt = fmt
        self._options = options

    def __getattr__(self, attr: str) -> Any:
        target = getattr(self._fmt, attr)
        if not callable(target):
            return target

        def bound(*args: Any, **kwargs: Any) -> Any:
            return target(*args, **{**self._options, **kwargs})

        return bound

    # The protocol's members, spelled out: since Python 3.12, isinstance() against a
    # runtime-checkable Protocol looks attributes up statically and does not see those
    # served by __getattr__, so a bound format would not count as a FormatDefinition.
    name = property(lambda self: self._fmt.name)
    aliases = property(lambda self: self._fmt.aliases)
    mime_types = property(lambda self: self._fmt.mime_types)
    scope_kind = property(lambda self: self._fmt.scope_kind)
    description = property(lambda self: self._fmt.description)
    samples = property(lambda self: self._fmt.samples)
    structured = property(lambda self: self._fmt.structured)
    option_specs = property(lambda self: self._fmt.option_specs)
    whole_reply_locate = property(lambda self: self._fmt.whole_reply_locate)
    think_tags = property(lambda self: self._fmt.think_tags)
    surrounding_space = property(lambda self: self._fmt.surrounding_space)

    def validate_scope(self, scope: str) -> str | None:
        return self._fmt.validate_scope(scope)  # takes no options: not bound

    def analyze(self, value: str, schema: Any = None, **options: Any) -> Any:
        return self.__getattr__("analyze")(value, schema, **options)

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        return self.__getattr__("extract_scope")(value, scope, schema, **options)

    def guidance(self, schema: Any = None, **options: Any) -> str:
        return self.__getattr__("guidance")(schema, **options)

    def load_schema(self, schema: Any, **options: Any) -> Any:
        return self.__getattr__("load_schema")(schema, **options)

    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        return self.__getattr__("is_valid")(value, schema, **options)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        return self.__getattr__("can_be_valid")(partial, schema, **options)

    def heal(self, value: str, schema: Any = None, **options: Any) -> Any:
        return self.__getattr__("heal")(value, schema, **options)

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        return self.__getattr__("extract_values")(value, schema, **options)

    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Any]:
        return self.__getattr__("locate")(reply, schema, **options)

    def candidates(self, reply: str, schema: Any = None, **options: Any) -> Any:
        return self.__getattr__("candidates")(reply, schema, **options)

    def heal_analyzed(self, analysis: Any, text: str, schema: Any = None, **options: Any) -> Any:
        return self.__getattr__("heal_analyzed")(analysis, text, schema, **options)

    def values_of(self, analysis: Any, text: str, schema: Any = None, **options: Any) -> list[str]:
        return self.__getattr__("values_of")(analysis, text, schema, **options)

    def scope_of(self, analysis: Any, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        return self.__getattr__("scope_of")(analysis, text, scope, schema, **options)

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> Any:
        return self.__getattr__("stream")(schema, strict=strict, **options)

    def grammar(self, schema: Any = None, **options: Any) -> Any:
        return self.__getattr__("grammar")(schema, **options)

    def response_format(self, schema: Any = None, **options: Any) -> Any:
        return self.__getattr__("response_format")(schema, **options)

    def __repr__(self) -> str:
        return f"<format {self._fmt.name} {self._options}>"


def _is_builtin(ep: Any) -> bool:
    """``ep`` belongs to formatbook's own distribution (its built-in plugins)."""
    dist = ep.dist
    return dist is not None and dist.metadata["Name"] == "formatbook"


def _entry_points() -> list[Any]:
    from importlib import metadata  # noqa: PLC0415 - read only when plugins load: keeps imports fast

    return sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


_default: Registry | None = None


def default_registry() -> Registry:
    """The process-wide registry, loaded on first use."""
    global _default
    if _default is None:
        _default = Registry()
    return _default


def set_default_registry(registry: Registry | None) -> None:
    """Replace the process-wide registry (tests, embedding); ``None`` resets it."""
    global _default
    _default = registry


def get_format(name: str) -> FormatDefinition:
    """The format registered under ``name``, an alias or a MIME type (case-insensitive)."""
    return default_registry().get(name)


def list_formats() -> list[FormatEntry]:
    """Every registered format with the plugin that provided it."""
    return default_registry().formats()


def plugin_module(entry: FormatEntry) -> ModuleType | None:
    return sys.modules.get(entry.plugin)
