"""A third-party formatbook plugin: the TOML format.

It is registered exactly as the built-in formats are, through an entry point in the
``formatbook`` group (see this folder's ``pyproject.toml``)::

    [project.entry-points.formatbook]
    toml = "formatbook_toml"

It implements Promptbook's four methods (``is_valid``, ``can_be_valid``, ``heal``,
``extract_values``) plus ``validate``/``parse`` so that the check pipeline parses once;
everything else (locating the payload in prose and fences, streaming, guidance) comes from
``formatbook_core.BaseFormat``.
"""

from __future__ import annotations

import copy
import datetime as _dt
import json
import re
from pathlib import Path
from typing import Any

from formatbook_core import Analysis, BaseFormat, Healed, HealError, Repair, Span, StreamStatus, Violation, hookimpl

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["TomlFormat", "register_formats"]

_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
# `key = True` / `key = False`: a Python habit models carry into TOML, where booleans are
# lower case. Only a whole value is changed (never inside a string).
_PY_BOOL = re.compile(
    r"""^(?P<lead>[ \t]*(?:[A-Za-z0-9_\-]+|"[^"\n]*"|'[^'\n]*')(?:[ \t]*\.[ \t]*(?:[A-Za-z0-9_\-]+|"[^"\n]*"|'[^'\n]*'))*[ \t]*=[ \t]*)(?P<value>True|False)(?P<tail>[ \t]*(?:\#[^\n]*)?)$""",
    re.MULTILINE,
)


def _error_offset(text: str, message: str) -> int | None:
    """The character offset tomllib's message points at (``at line L, column C``)."""
    m = _POSITION.search(message)
    if m is None:
        return len(text) if "end of document" in message else None
    line, column = int(m.group(1)), int(m.group(2))
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    if line - 1 >= len(starts):
        return len(text)
    return min(len(text), starts[line - 1] + column - 1)


def _leaves(value: Any) -> list[str]:
    """String, number, boolean and date leaves as text, in document order (keys left out)."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:  # iterative, so that deep nesting cannot overflow the Python stack
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, bool):
            out.append("true" if item else "false")
        elif isinstance(item, (_dt.date, _dt.time)):
            out.append(item.isoformat())
        elif isinstance(item, float) and item != item:
            out.append("nan")
        else:
            out.append(str(item))
    return [v for v in out if v.strip()]


def _jsonish(value: Any) -> Any:
    """TOML values as JSON types (dates as ISO strings) for a JSON Schema."""
    if isinstance(value, dict):
        return {k: _jsonish(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonish(v) for v in value]
    if isinstance(value, (_dt.date, _dt.time)):
        return value.isoformat()
    return value


_INTERESTING = {
    None: re.compile(r"[\"'#\[\]{}\n]"),
    "#": re.compile(r"\n"),
    '"': re.compile(r'["\\\n]'),
    "'": re.compile(r"['\n]"),
    '"""': re.compile(r'["\\]'),
    "'''": re.compile(r"'"),
}


class _Scanner:
    """Follows a TOML text character by character and reports each *settled* point: just
    after a line break outside any string, comment, array or inline table. What lies
    before a settled point is a run of complete lines that no continuation can change."""

    def __init__(self) -> None:
        self.mode: str | None = None  # None, "#", '"', "'", '"""' or "'''"
        self.depth = 0
        self.escape = False
        self.run = 0  # quote characters seen in a row, not yet classified
        self.run_char = ""

    def feed(self, text: str, base: int, cuts: list[int]) -> None:
        i, n = 0, len(text)
        while i < n:
            if not self.run and not self.escape:
                # skip characters that cannot change the state (most of them) in C
                m = _INTERESTING[self.mode].search(text, i)
                if m is None:
                    return
                i = m.start()
            self._char(text[i], base + i, cuts)
            i += 1

    def _char(self, ch: str, pos: int, cuts: list[int]) -> None:
        if self.run:
            if ch == self.run_char:
                self.run += 1
                return
            self._resolve_run()
        mode = self.mode
        if mode is None:
            if ch in "\"'":
                self.run_char, self.run = ch, 1
            elif ch == "#":
                self.mode = "#"
            elif ch in "[{":
                self.depth += 1
            elif ch in "]}":
                self.depth = max(0, self.depth - 1)
            elif ch == "\n" and self.depth == 0:
                cuts.append(pos + 1)
        elif mode == "#":
            if ch == "\n":
                self.mode = None
                self._char(ch, pos, cuts)
        elif len(mode) == 1:  # a one-line string
            if self.escape:
                self.escape = False
            elif mode == '"' and ch == "\\":
                self.escape = True
            elif ch == mode:
                self.mode = None
            elif ch == "\n":  # unterminated: the line settles and tomllib reports it
                self.mode = None
                self._char(ch, pos, cuts)
        else:  # a multi-line string
            if self.escape:
                self.escape = False
            elif mode[0] == '"' and ch == "\\":
                self.escape = True
            elif ch == mode[0]:
                self.run_char, self.run = ch, 1

    def _resolve_run(self) -> None:
        n, quote = self.run, self.run_char
        self.run = 0
        if self.mode is None:
            if n == 1:
                self.mode = quote
            elif 3 <= n < 6:  # an opening triple quote (more quotes are content)
                self.mode = quote * 3
            # two quotes: an empty string; six: an empty multi-line string
        elif n >= 3:  # closing a multi-line string (up to two extra quotes are content)
            self.mode = None

    def close(self) -> None:
        if self.run:
            self._resolve_run()


def _settled_length(text: str) -> int:
    cuts: list[int] = []
    scanner = _Scanner()
    scanner.feed(text, 0, cuts)
    return cuts[-1] if cuts else 0


def _relax(text: str) -> str:
    """The text as heal would repair it (Python-style booleans)."""
    return _PY_BOOL.sub(lambda m: m.group("lead") + m.group("value").lower() + m.group("tail"), text)


class TomlChecker:
    """Incremental checker: each run of settled lines is parsed once, on its own.

    Parsing a settled run alone accepts everything the whole document would (context only
    adds rules, such as no key defined twice), so the checker never rejects a prefix of a
    valid document; ``finish`` parses the whole text once and gives the full verdict.
    Work is linear in the text fed.
    """

    def __init__(self, fmt: TomlFormat, schema: Any, strict: bool, options: dict[str, Any]):
        self._fmt, self._schema, self._strict, self._options = fmt, schema, strict, options
        self._scanner = _Scanner()
        self._parts: list[str] = []
        self._tail: list[str] = []  # text since the last settled point
        self._length = 0
        self._settled = 0
        self._failed: StreamStatus | None = None

    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        start = self._length
        self._parts.append(chunk)
        self._length += len(chunk)
        cuts: list[int] = []
        self._scanner.feed(chunk, start, cuts)
        self._tail.append(chunk)
        if not cuts:
            return StreamStatus(True)
        tail = "".join(self._tail)
        segment, rest = tail[: cuts[-1] - self._settled], tail[cuts[-1] - self._settled :]
        self._tail = [rest] if rest else []
        base, self._settled = self._settled, cuts[-1]
        return self._check_segment(segment, base)

    def _check_segment(self, segment: str, base: int) -> StreamStatus:
        text = segment if self._strict else _relax(segment)
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError) as exc:
            offset = _error_offset(text, str(exc))
            position = base + (offset if offset is not None else len(segment))
            self._failed = StreamStatus(False, f"not valid TOML: {exc}", position)
            return self._failed
        return StreamStatus(True, values=tuple(_leaves(data)))

    def copy(self) -> TomlChecker:
        clone = copy.copy(self)
        clone._scanner = copy.copy(self._scanner)
        clone._parts = list(self._parts)
        clone._tail = list(self._tail)
        return clone

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        text = "".join(self._parts)
        fmt, schema, options = self._fmt, self._schema, self._options
        if not fmt.is_valid(text, schema, **options):
            if self._strict:
                violation = fmt.validate(text, schema, **options)[0]
                return StreamStatus(False, violation.message, violation.span.start if violation.span else len(text))
            try:
                text = fmt.heal(text, schema, **options).text
            except HealError as err:
                return StreamStatus(False, str(err), len(text))
        rest = "".join(self._tail)
        try:
            values = tuple(_leaves(tomllib.loads(_relax(rest)))) if rest.strip() else ()
        except (tomllib.TOMLDecodeError, RecursionError):
            values = ()
        return StreamStatus(True, complete=True, values=values)


class TomlFormat(BaseFormat):
    """TOML 1.0 documents (``tomllib``; ``tomli`` on Python 3.10).

    A reply is valid when it parses and carries data (at least one key): an empty document
    is prose-free but also data-free. A JSON Schema (a dict or a path to a ``.json`` file)
    is checked on the parsed document, dates turned into ISO strings.
    """

    name = "toml"
    aliases = ("tml",)
    mime_types = ("application/toml",)
    description = "TOML 1.0 configuration documents (third-party example plugin)."
    samples = (
        'title = "TOML example"\n\n[owner]\nname = "Tom Preston-Werner"\ndob = 1979-05-27T07:32:00-08:00\n',
        '[database]\nenabled = true\nports = [ 8000, 8001, 8002 ]\ndata = [ ["delta", "phi"], [3.14] ]\n'
        "temp_targets = { cpu = 79.5, case = 72.0 }\n",
        'name = "formatbook"\ndescription = """\nChecks what an LLM wrote.\n"""\n\n[[tags]]\nname = "llm"\n',
        'quote = "say \\"hi\\" # not a comment"\nraw = \'C:\\\\dir [x]\'\nml = """two ""quotes"" here"""""\nlit = \'\'\'it\'s\n[not a table]\'\'\'\nempty = ""\n# done\n',
    )

    # --- parsing once ----------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        try:
            data = tomllib.loads(value)
        except tomllib.TOMLDecodeError as exc:
            offset = _error_offset(value, str(exc))
            span = Span(offset, min(len(value), offset + 1)) if offset is not None else None
            return Analysis(None, (Violation("toml.syntax", f"not valid TOML: {exc}", span=span),))
        except RecursionError:
            return Analysis(None, (Violation("toml.depth", "the TOML document is nested too deeply"),))
        if not data:
            return Analysis(None, (Violation("toml.empty", "the reply carries no TOML data (no key = value)"),))
        if schema is not None:
            violations = _schema_violations(_jsonish(data), schema)
            if violations:
                return Analysis(None, tuple(violations))
        return Analysis(data, ())

    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        return list(self.analyze(value, schema, **options).violations)

    def parse(self, value: str, schema: Any = None, **options: Any) -> Any:
        return self.analyze(value, schema, **options).value

    # --- the four Promptbook methods -------------------------------------------------
    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        return isinstance(value, str) and self.analyze(value, schema, **options).ok

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        # What ends at a top-level line break is settled: if it does not parse, nothing
        # appended can fix it. The open last line may still become anything.
        settled = partial[: _settled_length(partial)]
        if not settled.strip():
            return True
        try:
            tomllib.loads(settled)
        except tomllib.TOMLDecodeError:
            return False
        except RecursionError:
            return False
        return True

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Valid TOML comes back unchanged. The one repair: Python-style booleans written
        as a whole value (``debug = True``) become TOML's ``true``/``false``. Anything else
        is a ``HealError`` with the violations."""
        first = self.analyze(value, schema, **options)
        if first.ok:
            return Healed(value)
        repairs: list[Repair] = []

        def lower(m: re.Match[str]) -> str:
            start = m.start("value")
            repairs.append(
                Repair(
                    "toml.boolean_case",
                    f"{m.group('value')} written as {m.group('value').lower()}",
                    Span(start, start + len(m.group("value"))),
                )
            )
            return m.group("lead") + m.group("value").lower() + m.group("tail")

        healed = _PY_BOOL.sub(lower, value)
        if repairs and self.analyze(healed, schema, **options).ok:
            return Healed(healed, tuple(repairs))
        violations = list(first.violations)
        raise HealError(f"cannot heal TOML: {violations[0].message}", violations)

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        try:
            return _leaves(tomllib.loads(value))
        except (tomllib.TOMLDecodeError, RecursionError):
            return []

    # --- extras ----------------------------------------------------------------------
    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> TomlChecker:
        return TomlChecker(self, schema, strict, options)

    def load_schema(self, schema: Any, **options: Any) -> Any:
        if isinstance(schema, (str, Path)) and not str(schema).lstrip().startswith("{"):
            return json.loads(Path(schema).read_text(encoding="utf-8"))
        if isinstance(schema, str):
            return json.loads(schema)
        return schema

    def guidance(self, schema: Any = None, **options: Any) -> str:
        text = "Reply in TOML only: `key = value` lines and `[table]` headers, no prose around it."
        if isinstance(schema, dict):
            text += "\nThe document must follow this JSON Schema:\n" + json.dumps(schema, indent=2)
        return text


def _schema_violations(data: Any, schema: Any) -> list[Violation]:
    import jsonschema  # imported only when a schema is used

    validator_cls = jsonschema.validators.validator_for(schema)
    validator = validator_cls(schema)
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path)):
        out.append(
            Violation(
                f"schema.{err.validator}",
                err.message,
                path=tuple(err.absolute_path),
                keyword=str(err.validator),
                expected=err.validator_value,
            )
        )
    return out


@hookimpl
def register_formats(register):
    """Register the TOML format (called by formatbook's plugin manager)."""
    register(TomlFormat())
