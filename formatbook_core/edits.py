"""Edits of a text, and offsets of the edited text traced back to the text before them.

A format's healing makes its repairs as edits ``(start, end, replacement)`` of the text
it has; :func:`apply` makes them, and an :class:`OffsetMap` of the same edits says where
an offset of the new text came from, so that a repair found later still reports a span
of the reply as received.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from operator import itemgetter

#: ``(start, end, replacement)``: ``text[start:end]`` replaced by ``replacement``.
Edit = tuple[int, int, str]

_BY_START = itemgetter(0)


def apply(text: str, edits: list[Edit]) -> str:
    """``text`` with every edit made (``edits`` is sorted by start, in place). Edits must
    not overlap; insertions at one offset keep the order in which they were listed."""
    if not edits:
        return text
    edits.sort(key=_BY_START)
    out: list[str] = []
    pos = 0
    for start, end, replacement in edits:
        if start < pos:  # never expected: keep the text consistent rather than duplicate it
            start = pos
            end = max(end, pos)
        out.append(text[pos:start])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out)


class OffsetMap:
    """Maps offsets of the edited text back to the text before the edits."""

    def __init__(self, edits: Iterable[Edit]):
        self._edits = sorted(edits, key=_BY_START)
        self._new: list[int] = []  # where each edit's replacement starts in the new text
        delta = 0
        for start, end, replacement in self._edits:
            self._new.append(start + delta)
            delta += len(replacement) - (end - start)

    def back(self, offset: int, *, within: bool = False) -> int:
        """The offset in the original text that ``offset`` of the edited text came from.

        An offset inside a replacement maps to where the replaced text starts or, with
        ``within``, to as far into the replaced text (at most its end), so that a span
        inside a rewritten stretch keeps its place in it."""
        i = bisect_right(self._new, offset) - 1
        if i < 0:
            return offset
        start, end, replacement = self._edits[i]
        into = offset - self._new[i]
        if into < len(replacement):
            return min(end, start + into) if within else start
        return end + (into - len(replacement))

    def back_end(self, offset: int) -> int:
        """Like :meth:`back` for the end of a span: an offset inside or just after a
        replacement maps to the end of the text it replaced."""
        i = bisect_left(self._new, offset) - 1
        if i < 0:
            return offset
        start, end, replacement = self._edits[i]
        into = offset - self._new[i]
        if into <= len(replacement):
            return end
        return end + (into - len(replacement))
