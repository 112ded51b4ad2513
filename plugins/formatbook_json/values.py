"""The data a JSON reply carries, without its structure (ARCHITECTURE.md, extract_values):
scalar leaves as text in document order — strings as they are, numbers and booleans as
written in the source (``1.50`` stays ``"1.50"``) — with keys, nulls and whitespace-only
values left out. Also: JSON pointer scopes, the source span of a value, and violations
about a number shown with the number as written.

Everything here reads the text with one light regular-expression scan; it is only run
when something is counted.
"""

from __future__ import annotations

import json
import re
from typing import Any

from formatbook_core import ScopeNotFound, Span, Violation
from formatbook_core.data_schema import is_number, opening_as_written
from formatbook_core.pointers import resolve

_LEAF = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"(\s*:)?|(-?[0-9][0-9.eE+\-]*|true|false)', re.DOTALL)
_TOKEN = re.compile(
    r'[ \t\n\r]*(?:("[^"\\]*(?:\\.[^"\\]*)*")|([{}\[\]:,])|(-?[0-9][0-9.eE+\-]*|true|false|null))', re.DOTALL
)


def _decode(body: str) -> str:
    if "\\" not in body:
        return body
    try:
        return json.loads('"' + body + '"', strict=False)
    except ValueError:  # not valid JSON (extract_values is meant for valid text): as written
        return body


def extract_values(text: str) -> list[str]:
    """Scalar leaves of the JSON ``text`` as text, in document order (see the module doc)."""
    out: list[str] = []
    append = out.append
    for m in _LEAF.finditer(text):
        body = m.group(1)
        if body is None:
            append(m.group(3))
        elif m.group(2) is None:  # a key is followed by a colon; a value is not
            value = _decode(body)
            if value.strip():
                append(value)
    return out


def source_spans(text: str, wanted: set[tuple]) -> dict[tuple, tuple[Span | None, Span]]:
    """For each path in ``wanted``: the span of its key (``None`` for an array item or
    the root) and of its value, in the valid JSON ``text``."""
    found: dict[tuple, tuple[Span | None, Span]] = {}
    if not wanted:
        return found
    frames: list[list[Any]] = []  # [kind, start, key or index, key span]
    expect_key = False
    pos = 0
    match = _TOKEN.match
    while len(found) < len(wanted):
        m = match(text, pos)
        if m is None:
            break
        pos = m.end()
        k = m.lastindex
        assert k is not None  # every alternative of the pattern is a group
        s = m.start(k)
        if k == 2:
            ch = text[s]
            if ch == ":":
                continue
            if ch == ",":
                top = frames[-1]
                if top[0] == "[":
                    top[2] += 1
                else:
                    expect_key = True
                continue
            if ch in "}]":
                frame = frames.pop()
                path = _path(frames)
                if path in wanted:
                    found[path] = (frame[4], Span(frame[1], pos))
                expect_key = False
                continue
            # an opening bracket: a value starts here
            key_span = frames[-1][3] if frames and frames[-1][0] == "{" else None
            frames.append([ch, s, 0 if ch == "[" else None, None, key_span])
            expect_key = ch == "{"
            continue
        if expect_key:
            frames[-1][2] = _decode(m.group(1)[1:-1])
            frames[-1][3] = Span(s, pos)
            expect_key = False
            continue
        path = _path(frames)
        if path in wanted:
            key_span = frames[-1][3] if frames and frames[-1][0] == "{" else None
            found[path] = (key_span, Span(s, pos))
    return found


def _path(frames: list[list[Any]]) -> tuple:
    return tuple(f[2] for f in frames)


def extract_scope(text: str, value: Any, pointer: str) -> list[str]:
    """The values under the JSON pointer ``pointer`` of ``text`` (whose parsed value is
    ``value``); raises ``ScopeNotFound`` when the pointer leads nowhere."""
    _, path = resolve(value, pointer)
    if not path:
        return extract_values(text)
    spans = source_spans(text, {path})
    if path not in spans:
        raise ScopeNotFound(f"the JSON has no {pointer!r}")
    span = spans[path][1]
    return extract_values(text[span.start : span.end])


def shown_as_written(text: str, parsed: Any, violations: tuple[Violation, ...]) -> tuple[Violation, ...]:
    """``violations`` whose message opens with a number's parsed value (``3.1 is not of
    type 'integer'``) opening with the number as ``text`` writes it (``3.10 ...``).

    ``text`` is the strict JSON whose value is ``parsed``; a path whose text reads as
    another number (a duplicate key: the last one is the value) is left as it is."""
    numbers: dict[tuple, Any] = {}
    for v in violations:
        value = _at(parsed, v.path)
        if is_number(value):
            numbers[v.path] = value
    if not numbers:
        return violations
    spans = source_spans(text, set(numbers))
    out = []
    for v in violations:
        found = spans.get(v.path) if v.path in numbers else None
        if found is not None:
            written = text[found[1].start : found[1].end]
            if _reads_as(written, numbers[v.path]):
                v = opening_as_written(v, numbers[v.path], written)
        out.append(v)
    return tuple(out)


def _at(value: Any, path: tuple) -> Any:
    """The value at ``path`` in ``value``, or ``None`` when it leads nowhere."""
    for step in path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _reads_as(written: str, value: Any) -> bool:
    """The number token ``written`` has the value ``value`` (as the strict parser reads it)."""
    from decimal import Decimal, InvalidOperation  # noqa: PLC0415 - only when a violation names a number

    try:
        if isinstance(value, Decimal):
            return Decimal(written) == value
        if isinstance(value, int):
            return not any(c in written for c in ".eE") and int(written) == value
        return float(written) == value
    except (ValueError, InvalidOperation):
        return False
