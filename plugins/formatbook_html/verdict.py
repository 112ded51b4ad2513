"""From one parse to the violations: html5lib's errors with their line, column and code,
the limits passed, the data-not-prose rule, Markdown, and the schema."""

from __future__ import annotations

from typing import Any

from formatbook_core import Span, Violation

from .markdown import markdown_sign
from .parse import LineIndex, Parsed
from .tree import Text

#: Parse errors reported one by one; the rest are summed up in one more violation.
MAX_REPORTED = 50

# Text inside these is no prose a reader sees as such: Markdown signs there are fine.
_CODE = frozenset(("pre", "code", "script", "style", "textarea", "title", "xmp", "template", "kbd", "samp"))


def error_message(code: str, datavars: dict[str, Any]) -> str:
    """html5lib's message for an error code (our own codes have their own words)."""
    if code == "foster-parented-text":
        return f"text {datavars.get('data', '')!r} inside a table but outside a cell (moved before the table)"
    from html5lib.constants import E  # noqa: PLC0415 - html5lib is a lazy dependency

    template = E.get(code)
    if template is None:
        return code.replace("-", " ")
    try:
        return str(template % datavars)
    except (KeyError, TypeError, ValueError):
        return template


def _span(parsed: Parsed, offset: int, length: int) -> Span:
    start = min(parsed.offsets.original(max(offset - 1, 0)), length)
    return Span(start, min(start + 1, length))


def syntax_violations(parsed: Parsed, length: int) -> list[Violation]:
    """The parse errors and the limit passed, as violations (``length``: the reply's)."""
    out: list[Violation] = []
    line_col = LineIndex(parsed.offsets.text)
    if parsed.limit is not None:
        line, col = line_col(parsed.limit.offset)
        out.append(
            Violation(
                parsed.limit.code,
                f"line {line}, column {col}: {parsed.limit.message}",
                span=_span(parsed, parsed.limit.offset, length),
            )
        )
    for err in parsed.errors[:MAX_REPORTED]:
        line, col = line_col(err.offset)
        out.append(
            Violation(
                "html.syntax",
                f"line {line}, column {col}: {error_message(err.code, err.datavars)} ({err.code})",
                span=_span(parsed, err.offset, length),
                keyword=err.code,
                expected=[line, col],
            )
        )
    more = parsed.count - min(len(parsed.errors), MAX_REPORTED)
    if more > 0 or parsed.stopped:
        out.append(
            Violation(
                "html.syntax",
                f"{'more' if parsed.stopped else more} further parse error(s) not listed",
                keyword="more-errors",
            )
        )
    return out


def visible_text_nodes(root: Any) -> list[tuple[str, bool]]:
    """Every text node of the tree, with whether it sits inside code-like elements."""
    out: list[tuple[str, bool]] = []
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, code = stack.pop()
        if isinstance(node, Text):
            out.append((node.data, code))
            continue
        if getattr(node, "kind", "") in ("comment", "doctype"):
            continue
        inner = code or node.name in _CODE
        for child in reversed(node.childNodes):
            stack.append((child, inner))
    return out


def content_violations(parsed: Parsed, length: int) -> list[Violation]:
    """The data-not-prose rule and the Markdown rule, on a parse without errors."""
    texts = visible_text_nodes(parsed.root)
    if parsed.start_tags == 0:
        prose = "".join(t for t, _ in texts)
        sign = markdown_sign(parsed.offsets.text)
        if sign is not None:
            return [
                Violation(
                    "html.markdown",
                    f"the reply is Markdown, not HTML: it has no element and {sign}; "
                    "write HTML elements (<h2>, <ul><li>, <p>...) instead",
                    span=Span(0, length),
                )
            ]
        what = "no text at all" if not prose.strip() else "only text"
        return [
            Violation(
                "html.no_element",
                f"the reply has no HTML element ({what}): HTML must hold at least one element",
                span=Span(0, length),
            )
        ]
    for data, code in texts:
        if code:
            continue
        sign = markdown_sign(data, strong_only=True)
        if sign is not None:
            where = parsed.offsets.text.find(data[:50])
            span = Span(parsed.offsets.original(where), parsed.offsets.original(where) + 1) if where >= 0 else None
            if span is not None and span.end > length:
                span = None
            return [
                Violation(
                    "html.markdown",
                    f"the HTML's text holds {sign}: Markdown is not HTML (use <h2>, <pre><code>...)",
                    span=span,
                )
            ]
    return []
