"""Text edits: how every repair is applied, and how an offset in the repaired text is
traced back to the payload (so a later repair can report a span of the payload)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import itemgetter

Edit = tuple  # (start, end, replacement) in the original text

_BY_START = itemgetter(0)


def apply(text: str, edits: list[Edit]) -> str:
    """``text`` with every edit made. Edits must not overlap; insertions at one offset
    keep the order in which they were listed."""
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

    def __init__(self, edits: list[Edit]):
        edits = sorted(edits, key=_BY_START)
        self._new: list[int] = []  # where each edit's replacement starts in the new text
        self._edits = edits
        delta = 0
        for start, end, replacement in edits:
            self._new.append(start + delta)
            delta += len(replacement) - (end - start)

    def back(self, offset: int) -> int:
        """The offset in the original text that ``offset`` of the edited text came from
        (an offset inside inserted text maps to where the insertion was made)."""
        i = bisect_right(self._new, offset) - 1
        if i < 0:
            return offset
        start, end, replacement = self._edits[i]
        new_start = self._new[i]
        if offset < new_start + len(replacement):
            return start
        return end + (offset - new_start - len(replacement))

    def back_end(self, offset: int) -> int:
        """Like :meth:`back` for the end of a span: an offset inside or just after a
        replacement maps to the end of the text it replaced."""
        i = bisect_left(self._new, offset) - 1
        if i < 0:
            return offset
        start, end, replacement = self._edits[i]
        new_start = self._new[i]
        if offset <= new_start + len(replacement):
            return end
        return end + (offset - new_start - len(replacement))
