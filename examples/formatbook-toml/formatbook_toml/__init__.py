"""The ``toml`` format: a third-party formatbook plugin, and the model to copy for one.

One entry point in the ``formatbook`` group registers it (``pyproject.toml``); the core gives
schemas under its security rules (``DataFormat``), pointers, locating and streaming (README.md).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from typing import Any

from formatbook_core import Analysis, Healed, HealError, Repair, ScopeNotFound, Span, Violation, hookimpl
from formatbook_core.data_schema import DataFormat, build_model
from formatbook_core.pointers import resolve, scope_problem
from formatbook_core.serialising import dumps_json, json_ready

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI (see pyproject.toml)
    import tomli as tomllib

_EMPTY = Violation("toml.empty", "the reply carries no TOML data (no key = value)")
_AT = re.compile(r"\(at line (\d+), column (\d+)\)")  # where tomllib's message points
# `debug = True`, a Python habit: a whole value after `key =`, never text inside a one-line string
_KEY = r"""(?:[A-Za-z0-9_\-]+|"[^"\n]*"|'[^'\n]*')"""
_PY_BOOL = re.compile(
    rf"^(?P<lead>[ \t]*{_KEY}(?:[ \t]*\.[ \t]*{_KEY})*[ \t]*=[ \t]*)(?P<value>True|False)(?=[ \t]*(?:#[^\n]*)?$)", re.M
)


def _read(text: str) -> tuple[Any, Violation | None]:
    """The parsed document, or ``None`` and a violation spanning where tomllib stopped."""
    try:
        return tomllib.loads(text), None
    except RecursionError:
        return None, Violation("toml.depth", "the TOML document is nested too deeply")
    except tomllib.TOMLDecodeError as err:
        at, start = _AT.search(str(err)), len(text)  # no line and column: at the end of the document
        if at is not None:
            start = min(len(text), sum(len(line) + 1 for line in text.split("\n")[: int(at[1]) - 1]) + int(at[2]) - 1)
        return None, Violation("toml.syntax", f"not valid TOML: {err}", span=Span(start, min(start + 1, len(text))))


def _leaves(value: Any) -> list[str]:
    """Strings, numbers, booleans and dates as text in document order, keys left out."""
    out: list[str] = []
    stack = [value]
    while stack:  # iterative: a deep document cannot exhaust the stack
        item = stack.pop()
        if isinstance(item, (dict, list)):
            stack.extend(reversed(list(item.values()) if isinstance(item, dict) else item))
        elif isinstance(item, (dt.date, dt.time)):
            out.append(item.isoformat())
        else:
            out.append(str(item).lower() if isinstance(item, bool) else str(item))
    return [v for v in out if v.strip()]


def _lowered(text: str) -> tuple[str, tuple[Repair, ...]]:
    """``text`` with its Python-style booleans written as TOML's, and a repair for each."""
    found = tuple(
        Repair("toml.boolean_case", f"{m['value']} written as {m['value'].lower()}", Span(*m.span("value")))
        for m in _PY_BOOL.finditer(text)
    )
    return _PY_BOOL.sub(lambda m: m["lead"] + m["value"].lower(), text), found


class TomlFormat(DataFormat):
    """TOML 1.0 (``tomllib``; ``tomli`` on Python 3.10): valid when it parses and holds a
    key; a JSON Schema or pydantic model applies to it as JSON (dates as ISO strings)."""

    name = "toml"
    aliases = ("tml",)
    mime_types = ("application/toml",)
    scope_kind = "JSON pointer"
    description = "TOML 1.0 configuration documents (third-party example plugin)."
    samples = (
        'title = "TOML example"\n\n[owner]\nname = "Tom Preston-Werner"\ndob = 1979-05-27T07:32:00-08:00\n',
        '[database]\nenabled = true\nports = [ 8000, 8001, 8002 ]\ndata = [ ["delta", "phi"], [3.14] ]\n'
        "temp_targets = { cpu = 79.5, case = 72.0 }\n",
        'name = "formatbook"\ndescription = """\nChecks what an LLM wrote.\n"""\n\n[[tags]]\nname = "llm"\n',
        'quote = "say \\"hi\\" # not a comment"\nraw = \'C:\\\\dir [x]\'\nml = """two ""quotes"" here"""""\n'
        "lit = '''it's\n[not a table]'''\nempty = \"\"\n# done\n",
    )

    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """One read, then the schema; the parse is the document, a pydantic instance the value."""
        data, violation = _read(value)
        if violation is not None or not data:
            return Analysis(None, (violation or _EMPTY,))
        js = self._schema(schema, options)
        violations = js.violations(json_ready(data)) if js is not None else ()
        if violations or js is None or js.model is None:
            return Analysis(None if violations else data, violations, document=data)
        instance, violations = build_model(js.model, dumps_json(data))
        return Analysis(None if violations else instance, violations, document=data)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """False when tomllib stops on a complete line: no continuation changes what it read."""
        return (stop := _read(partial)[1]) is None or (stop.span is not None and stop.span.start > partial.rfind("\n"))

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Lower Python-style booleans (``debug = True``); nothing else is repaired."""
        return self.heal_analyzed(self.analyze(value, schema, **options), value, schema, **options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """:meth:`heal` of ``text``, from the ``analysis`` the pipeline has already made."""
        healed, repairs = _lowered(text) if not analysis.ok else (text, ())
        after = self.analyze(healed, schema, **options) if repairs else analysis
        if after.ok:
            return Healed(healed, repairs, analysis=after)
        raise HealError(f"cannot heal TOML: {analysis.violations[0].message}", analysis.violations)

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """The leaves (see :func:`_leaves`); none for text that is not TOML."""
        return self.values_of(Analysis(), value)

    def values_of(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> list[str]:
        """The leaves of the parse ``analysis`` holds; ``text`` is read only without one."""
        data = _read(text)[0] if analysis.document is None else analysis.document
        return [] if data is None else _leaves(data)

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The leaves under the JSON pointer ``scope``; raises ``ScopeNotFound``."""
        return self.scope_of(Analysis(), value, scope)

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The leaves under ``scope`` in the parse ``analysis`` holds, as :meth:`values_of` reads."""
        if (data := _read(text)[0] if analysis.document is None else analysis.document) is None:
            raise ScopeNotFound(f"cannot find {scope!r}: the text is not valid TOML")
        return _leaves(resolve(data, scope, "TOML")[0])

    def validate_scope(self, scope: str) -> str | None:
        """A scope is a JSON pointer (``"/server/port"``)."""
        return scope_problem(scope, "TOML")

    def guidance(self, schema: Any = None, **options: Any) -> str:
        """TOML only, and the JSON Schema when there is one."""
        js = self._schema(schema, options)
        shape = "" if js is None else f"\nThe document must follow this JSON Schema:\n{json.dumps(js.schema, indent=2)}"
        return "Reply in TOML only: `key = value` lines and `[table]` headers, no prose around it." + shape


@hookimpl
def register_formats(register: Any) -> None:
    """Register the ``toml`` format (called by formatbook's plugin manager)."""
    register(TomlFormat())
