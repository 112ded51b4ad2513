"""Step ``recover``: each parse error html5lib recovered from, and each element the end of
the reply closed, as a listed repair with its line and column."""

from __future__ import annotations

from typing import Any

from formatbook_core.results import make_repair

from ..parse import LineIndex
from ..verdict import error_message

# What healing did about each kind of error (the repair kinds).
KIND_MESSAGES = {
    "truncated_closed": "closed at the end of the reply",
    "truncated_tag": "a tag, comment or character reference cut off by the end of the reply was dropped",
    "misnested": "misnested tags were re-nested as the HTML5 algorithm nests them",
    "moved": "content misplaced in a table was moved before it",
    "end_tag": "a closing tag that closes nothing, or closes too early, was dropped or applied",
    "entity": "a character reference (or a bare &) was written out in full",
    "attribute_dropped": "a repeated attribute was dropped (the first one is kept)",
    "doctype_added": "<!DOCTYPE html> was added at the start of the document",
    "doctype": "the doctype was replaced by <!DOCTYPE html>",
    "invalid_character": "a character HTML forbids was replaced or left out",
    "recovered": "recovered as the HTML5 algorithm recovers",
}

# Elements whose closing tag HTML lets one leave out: left open at the end, nothing is lost.
_OPTIONAL_END = frozenset(
    "html head body p li dt dd option optgroup rb rt rtc rp tbody thead tfoot tr td th colgroup caption".split()
)
_ENTITY = ("entity", "numeric-entity", "named-entity", "codepoint-for-numeric")


def kind_of(code: str, at_end: bool) -> str:
    """The repair kind for an html5lib error code."""
    if code.startswith("expected-doctype"):
        return "doctype_added"
    if at_end or code.startswith("eof-in") or "-eof" in code:
        return "truncated_tag"
    if code.startswith("adoption-agency"):
        return "misnested"
    if "table-voodoo" in code or code == "foster-parented-text" or "in-table" in code:
        return "moved"
    if "end-tag" in code:
        return "end_tag"
    if any(part in code for part in _ENTITY):
        return "entity"
    if code == "duplicate-attribute":
        return "attribute_dropped"
    if "doctype" in code:
        return "doctype"
    if "codepoint" in code or "null-character" in code:
        return "invalid_character"
    return "recovered"


def step(state: Any) -> None:
    parsed = state.parsed
    offsets = parsed.offsets
    line_col = LineIndex(offsets.text)
    length = len(state.text)
    closing: list[Any] = []
    for node in parsed.open_at_end:
        if node.name not in _OPTIONAL_END:
            closing.append(node)

    def span(offset: int) -> tuple[int, int]:
        start = min(offsets.original(max(offset - 1, 0)), length)
        return start, min(start + 1, length)

    for err in parsed.errors:
        if err.code == "expected-closing-tag-but-got-eof" and closing:
            continue  # listed below, one repair per element closed
        kind = kind_of(err.code, err.at_end)
        line, col = line_col(err.offset)
        message = f"line {line}, column {col}: {error_message(err.code, err.datavars)} ({err.code}): "
        start, end = span(err.offset)
        state.repairs.append(make_repair(kind, message + KIND_MESSAGES[kind], start, end))
    for node in closing:  # outermost first, in the order they were opened
        line, col = line_col(node.pos)
        start, end = span(node.pos)
        state.repairs.append(
            make_repair(
                "truncated_closed",
                f"<{node.name}> opened at line {line}, column {col} was never closed: {KIND_MESSAGES['truncated_closed']}",
                start,
                end,
            )
        )
