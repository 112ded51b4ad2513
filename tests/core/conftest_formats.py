"""A throwaway format used by the core's tests, so they do not depend on any plugin.

``kv``: one ``key: value`` pair per line. Healing turns ``key = value`` into ``key: value``
(a listed repair); a line without either separator cannot be healed. Values are the text
after the colon; a scope is a key.
"""

from __future__ import annotations

import re
from typing import Any

from formatbook_core import (
    BaseFormat,
    Healed,
    HealError,
    Option,
    Repair,
    ScopeNotFound,
    Span,
    StreamStatus,
    Violation,
    hookimpl,
)
from formatbook_core.registry import Registry

_LINE = re.compile(r"^([A-Za-z_]+): (.*)$")
_HEALABLE = re.compile(r"^([A-Za-z_]+) ?= ?(.*)$")


class KvChecker:
    """Strict: a line may only be a key, then ': ', then anything."""

    def __init__(self, strict: bool = True):
        self.strict = strict
        self.line = ""
        self.offset = 0
        self.failed: StreamStatus | None = None

    def feed(self, chunk: str) -> StreamStatus:
        if self.failed is not None:
            return self.failed
        values: list[str] = []
        for ch in chunk:
            self.offset += 1
            if ch == "\n":
                m = _LINE.match(self.line)
                if m and m.group(2).strip():
                    values.append(m.group(2))
                self.line = ""
                continue
            self.line += ch
            if self.strict and not re.match(r"^[A-Za-z_]*(:( .*)?)?$", self.line):
                self.failed = StreamStatus(False, "not a key: value line", self.offset - 1)
                return self.failed
        return StreamStatus(True, values=tuple(values))

    def copy(self) -> KvChecker:
        clone = KvChecker(self.strict)
        clone.line, clone.offset, clone.failed = self.line, self.offset, self.failed
        return clone

    def finish(self) -> StreamStatus:
        status = self.feed("\n")
        return StreamStatus(bool(status), status.reason, status.position, complete=bool(status), values=status.values)


class KvFormat(BaseFormat):
    name = "kv"
    aliases = ("keyvalue",)
    mime_types = ("text/x-kv",)
    scope_kind = "key"
    samples = ("a: 1\nb: two words",)
    option_specs = (
        Option("delimiter", str, ";", "a test option written as text"),
        Option("level", int, 1, "a test option holding a whole number", choices=(0, 1, 2, 3)),
        Option("strict", bool, False, "a test option holding a flag"),
        Option("tab", str, "\t", "a test option holding an escape"),
        Option("separator", str, ":", "the option the colon-kv alias carries"),
    )

    def _lines(self, value: str) -> list[str]:
        return [line for line in value.split("\n") if line.strip()]

    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        out = []
        pos = 0
        for line in value.split("\n"):
            if line.strip() and not _LINE.match(line):
                out.append(Violation("kv.syntax", f"not a key: value line: {line!r}", span=Span(pos, pos + len(line))))
            pos += len(line) + 1
        if not self._lines(value):
            out.append(Violation("kv.empty", "no key: value line"))
        if schema and not out:
            keys = {(_LINE.match(l) or [None, None])[1] for l in self._lines(value)}
            for required in schema.get("required", []):
                if required not in keys:
                    out.append(
                        Violation("schema.required", f"missing key {required}", path=(required,), keyword="required")
                    )
        return out

    def parse(self, value: str, schema: Any = None, **options: Any) -> dict[str, str]:
        return {m.group(1): m.group(2) for m in map(_LINE.match, self._lines(value)) if m}

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        return bool(KvChecker().feed(partial))

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        if not self.validate(value, schema):
            return Healed(value)
        lines, repairs, pos = [], [], 0
        for line in value.split("\n"):
            m = _HEALABLE.match(line)
            if line.strip() and not _LINE.match(line) and m:
                repairs.append(Repair("separator", f"'=' replaced by ':' in {line!r}", Span(pos, pos + len(line))))
                line = f"{m.group(1)}: {m.group(2)}"
            lines.append(line)
            pos += len(line) + 1
        text = "\n".join(lines)
        violations = self.validate(text, schema)
        if violations:
            raise HealError(violations[0].message, violations)
        return Healed(text, tuple(repairs))

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        return [v for v in self.parse(value).values() if v.strip()]

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        parsed = self.parse(value)
        if scope not in parsed:
            raise ScopeNotFound(scope)
        return [parsed[scope]] if parsed[scope].strip() else []

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> KvChecker:
        return KvChecker(strict)


class KvPlugin:
    __name__ = "kv-plugin"

    @hookimpl
    def register_formats(self, register):
        register(KvFormat())
        register(KvFormat(), alias="colon-kv", options={"separator": ":"})


def kv_registry() -> Registry:
    """A fresh registry holding the core's units and the throwaway kv format only."""
    registry = Registry(autoload=False)
    registry.register_plugin(KvPlugin(), "kv-plugin")
    return registry
