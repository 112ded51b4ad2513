"""The incremental checker: complete lines go through one :class:`~.lines.LineScanner`,
so each character is read a bounded number of times, never the prefix again per chunk.

The strict checker turns falsy as soon as a complete line shows what no continuation can
fix (see :mod:`.lines`); the line still being written is judged when it ends. ``finish``
loads the whole text once, as ``is_valid`` does. The relaxed checker (``strict=False``)
follows the grammar ``heal`` accepts: it stays truthy while text arrives (healing
repairs tabs, stray markers, colons, indentation and a cut-off end) and heals at
``finish``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from formatbook_core import StreamStatus
from formatbook_core.textlog import TextLog

from .lines import LineScanner


class YamlChecker:
    """``feed`` / ``copy`` / ``finish``, linear in the text fed."""

    def __init__(self, scanner: LineScanner, finish: Callable[[str], StreamStatus], *, strict: bool):
        self._scanner = scanner
        self._finish = finish
        self._strict = strict
        self._parts = TextLog()
        self._line: list[str] = []  # the pieces of the line being written
        self._line_start = 0
        self._length = 0
        self._failed: StreamStatus | None = None

    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        self._parts.append(chunk)
        base = self._length
        self._length += len(chunk)
        if not self._strict:
            return StreamStatus(True)
        scanner = self._scanner
        pos = 0
        while True:
            end = chunk.find("\n", pos)
            if end < 0:
                if pos < len(chunk):
                    self._line.append(chunk[pos:])
                break
            self._line.append(chunk[pos:end])
            scanner.line("".join(self._line), self._line_start)
            self._line = []
            self._line_start = base + end + 1
            pos = end + 1
            if scanner.error is not None:
                err = scanner.error
                self._failed = StreamStatus(False, err.reason, err.position)
                return self._failed
        return StreamStatus(True)

    def copy(self) -> YamlChecker:
        clone = YamlChecker(self._scanner.copy(), self._finish, strict=self._strict)
        clone._parts = self._parts.copy()
        clone._line = list(self._line)
        clone._line_start = self._line_start
        clone._length = self._length
        clone._failed = self._failed
        return clone

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        return self._finish(self._parts.text())


def can_be_valid(partial: str, **scanner_options: Any) -> bool:
    """Whether some continuation of ``partial`` can be valid: its complete lines read by
    a :class:`LineScanner` (the last line, still being written, is not judged)."""
    scanner = LineScanner(**scanner_options)
    pos = 0
    while True:
        end = partial.find("\n", pos)
        if end < 0:
            return True
        scanner.line(partial[pos:end], pos)
        if scanner.error is not None:
            return False
        pos = end + 1
