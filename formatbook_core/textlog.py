"""TextLog: the text of a stream kept for the end, cheap to append to and to copy.

A checker or guard keeps everything fed so that ``finish()`` can check the whole text;
generation copies them once per candidate token, so a copy must cost the state, not the
length so far. Recent chunks sit in a short list; every ``RUN`` of them is joined into one
string pushed on an immutable chain ``(earlier, run)`` that copies share. ``append`` is
O(chunk) amortised, ``copy`` O(RUN) at most, ``text`` O(length) (it joins and keeps the
joined string, so reading it again costs nothing more).
"""

from __future__ import annotations

from typing import Any

RUN = 64  # chunks kept apart before they are joined into one string


class TextLog:
    """An append-only text whose copies share what was appended before them."""

    __slots__ = ("_parts", "_runs")

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._runs: tuple[Any, str] | None = None

    def append(self, chunk: str) -> None:
        """Add ``chunk`` at the end."""
        parts = self._parts
        parts.append(chunk)
        if len(parts) >= RUN:
            self.seal()

    def seal(self) -> None:
        """Join the recent chunks into one run on the chain (``append`` does it every
        ``RUN`` chunks; a caller that appends to ``_parts`` itself calls it then)."""
        self._runs = (self._runs, "".join(self._parts))
        self._parts = []

    def text(self) -> str:
        """Everything appended, as one string."""
        runs: list[str] = []
        link = self._runs
        while link is not None:
            link, run = link
            runs.append(run)
        if not self._parts and len(runs) <= 1:
            return runs[0] if runs else ""
        runs.reverse()
        text = "".join(runs) + "".join(self._parts)
        # a new link, never a change to the old one: a copy may share it
        self._runs = (None, text) if text else None
        self._parts = []
        return text

    def copy(self) -> TextLog:
        """An independent clone: appending to either never shows in the other."""
        clone = TextLog.__new__(TextLog)
        clone._parts = list(self._parts)
        clone._runs = self._runs
        return clone
