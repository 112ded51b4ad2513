"""The incremental checker: complete lines go through one :class:`~.lines.LineScanner`,
so each character is read a bounded number of times, never the prefix again per chunk.

The strict checker turns falsy as soon as a complete line shows what no continuation can
fix (see :mod:`.lines`); the line still being written is judged when it ends. ``finish``
loads the whole text once, as ``is_valid`` does.

White space around a payload is what :func:`formatbook_core.locating.strip_span` strips
(``str.isspace``): more than YAML's spaces and tabs (U+2028 LINE SEPARATOR, U+0085,
U+00A0, U+3000...). YAML 1.2 reads those as content, so ``:\u2028`` is a plain scalar;
but when nothing else follows them, ``check()`` never sees them (``:`` is a key). So a
complete line that ends with such white space, or holds nothing else, is held back and
judged only once a later line shows text: then it is inside the payload, read as written. The relaxed checker (``strict=False``)
follows the grammar ``heal`` accepts: it stays truthy while text arrives (healing
repairs tabs, stray markers, colons, indentation and a cut-off end) and heals at
``finish``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from formatbook_core import Span, StreamStatus
from formatbook_core.data_schema.prefix import PrefixChecker
from formatbook_core.spans import strip_span
from formatbook_core.textlog import TextLog

from .lines import LineScanner
from .settle import PEEK, Settler


class YamlChecker:
    """``feed`` / ``copy`` / ``finish``, linear in the text fed."""

    def __init__(
        self, scanner: LineScanner, finish: Callable[[str], StreamStatus], *, strict: bool, schema: Any = None
    ):
        self._scanner = scanner
        self._schema = schema
        # the values the lines settle, judged by the core's schema checker (one document)
        self._settle: Settler | None = (
            Settler(PrefixChecker(schema)) if strict and schema is not None and scanner.one_document else None
        )
        self._finish = finish
        self._strict = strict
        self._parts = TextLog()
        self._line: list[str] = []  # the pieces of the line being written
        self._line_len = 0
        self._line_start = 0
        self._length = 0
        self._failed: StreamStatus | None = None
        # complete lines not judged yet: they may end the payload (see the module doc)
        self._held: list[tuple[str, int]] = []

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
                    piece = chunk[pos:]
                    self._line.append(piece)
                    self._line_len += len(piece)
                    if self._held and not piece.isspace():
                        self._release()  # the line being written shows text
                    self._peek()
                break
            self._line.append(chunk[pos:end])
            self._complete_line("".join(self._line), self._line_start)
            self._line = []
            self._line_len = 0
            self._line_start = base + end + 1
            pos = end + 1
            if scanner.error is not None:
                break
        if scanner.error is not None:
            err = scanner.error
            self._failed = StreamStatus(False, err.reason, err.position)
            return self._failed
        if self._failed is not None:
            return self._failed
        return StreamStatus(True)

    def _scan(self, line: str, start: int) -> None:
        """Give ``line`` to the scanner, then what it settles to the schema's checker."""
        scanner = self._scanner
        cont = scanner.cont
        scanner.line(line, start)
        settle = self._settle
        if settle is None or scanner.error is not None:
            return
        settle.line(line, start, cont, scanner.levels)
        if settle.failed is not None and self._failed is None:
            self._failed = StreamStatus(False, *settle.failed)

    def _peek(self) -> None:
        """Settle what the line being written settles already (its first characters)."""
        settle = self._settle
        if settle is None or self._held or self._failed is not None or self._line_len > PEEK or self._scanner.error:
            return
        if len(self._line) > 1:
            self._line = ["".join(self._line)]
        settle.peek(self._line[0], self._line_start, self._scanner.cont)
        if settle.failed is not None:
            self._failed = StreamStatus(False, *settle.failed)

    def _complete_line(self, line: str, start: int) -> None:
        """Judge ``line`` (at ``start``), or hold it while white space that ``check()``
        would strip as the payload's end may end it (see the module doc)."""
        content = strip_span(line, Span(0, len(line)))
        yaml_end = len(line.rstrip(" \t\r"))
        if content.start == content.end:  # white space only
            if self._held or yaml_end:
                self._held.append((line, start))
            else:
                self._scan(line, start)
            return
        self._release()
        if content.end < yaml_end:
            self._held.append((line, start))
        else:
            self._scan(line, start)

    def _release(self) -> None:
        """Text follows the held lines: they are inside the payload, judged as written."""
        for line, start in self._held:
            self._scan(line, start)
        self._held = []

    def copy(self) -> YamlChecker:
        clone = YamlChecker(self._scanner.copy(), self._finish, strict=self._strict)
        clone._settle = self._settle.copy() if self._settle is not None else None
        clone._parts = self._parts.copy()
        clone._line = list(self._line)
        clone._line_len = self._line_len
        clone._line_start = self._line_start
        clone._held = list(self._held)
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
