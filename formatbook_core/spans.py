"""Spans of a reply: the small set operations locating and the prepared reply share.

Spans are sorted and do not overlap where a function says so; searches bisect, so a reply
with thousands of think blocks or fences stays linear.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

from .results import Span

#: What ``str.isspace`` says is white space, but for the control characters it counts
#: (U+000B, U+000C, U+001C-U+001F, U+0085): a format whose grammar reads those as text
#: (JSON) strips only these around its payload. ``strip_span`` strips them all.
SPACES = (
    " \t\n\r\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
#: :data:`SPACES` as a set: one character looked up (``c in SPACE_SET``).
SPACE_SET = frozenset(SPACES)


def containing(spans: Sequence[Span], pos: int) -> Span | None:
    """The span of ``spans`` (sorted, not overlapping) that holds ``pos``, or ``None``;
    by bisection, so a reply with many think blocks and many fences stays linear."""
    i = bisect_right(spans, pos, key=lambda s: s.start) - 1
    return spans[i] if i >= 0 and pos < spans[i].end else None


def overlaps_any(spans: Sequence[Span], start: int, end: int) -> bool:
    """Whether one of ``spans`` (sorted, not overlapping) overlaps ``[start, end)``
    (``s.start < end and start < s.end``); by bisection."""
    i = bisect_right(spans, start, key=lambda s: s.end)  # the first span ending after start
    return i < len(spans) and spans[i].start < end


def outside_spans(text_length: int, removed: Sequence[Span]) -> list[Span]:
    """The complement of ``removed`` (sorted, non-overlapping) within ``[0, text_length)``."""
    out: list[Span] = []
    pos = 0
    for span in removed:
        if span.start > pos:
            out.append(Span(pos, span.start))
        pos = max(pos, span.end)
    if pos < text_length:
        out.append(Span(pos, text_length))
    return out


def merge_spans(spans: Iterable[Span]) -> list[Span]:
    """``spans`` (in any order) sorted, those that overlap or touch joined into one."""
    merged: list[Span] = []
    for span in sorted(spans, key=lambda s: s.start):
        if merged and span.start <= merged[-1].end:
            merged[-1] = Span(merged[-1].start, max(merged[-1].end, span.end))
        else:
            merged.append(span)
    return merged


def blank_out(text: str, spans: Sequence[Span]) -> str:
    """``text`` with each of ``spans`` (sorted, not overlapping) replaced by as many spaces,
    so offsets hold: a scan of what is left never sees what they hold (a fence inside a
    think block, a payload's fence lines)."""
    if not spans:
        return text
    pieces, pos = [], 0
    for start, end in spans:
        pieces += [text[pos:start], " " * (end - start)]
        pos = end
    return "".join(pieces) + text[pos:]


def no_payload(reply: str) -> Span:
    """The candidate of a reply with nothing outside its ``<think>`` blocks but blank space
    (a model that only thought, or was cut off mid-thought): an empty span at its end.

    A format falls back on it when it found nothing else: it judges the empty payload as
    it judges an empty text (its ``empty`` violation), so ``check`` fails and ``heal``
    raises ``HealError``. The whole reply is never that fallback: the text of a think
    block would be read as the payload (``<think>a: 1`` as the YAML ``{'<think>a': 1}``).
    """
    return Span(len(reply), len(reply))


def strip_span(text: str, span: Span, keep: str = "") -> Span:
    """``span`` without leading and trailing white space, but for the characters in
    ``keep`` (white space that is data in the format: a tab delimiter's empty last cell)."""
    start, end = span
    while start < end and text[start].isspace() and text[start] not in keep:
        start += 1
    while end > start and text[end - 1].isspace() and text[end - 1] not in keep:
        end -= 1
    return Span(start, end)
