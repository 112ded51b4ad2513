"""The incremental checkers.

:class:`StrictChecker` reads the text as it comes, line by line: the content-line grammar
(:class:`~.contentlines.LineScanner`) runs on each piece of a line as it arrives, so a
line that is no property fails at the character that shows it (``Sure!`` fails at ``S``:
outside a card only ``BEGIN:VCARD`` may stand); a bare LF fails at once; and the card
rules (:class:`~.cards.CardRules`: a missing FN, an implausible EMAIL...) run on each
logical line as soon as it is complete, which the first character of the next physical
line shows (a space or tab there would continue it); ``BEGIN:`` and ``END:`` inside a card
tell sooner (a nested card at the ``:``, ``END:VCAL`` at the ``L``, an incomplete card at
the ``D`` of ``END:VCARD``).
White space is held back until something else follows it, since white space after the
last card is no part of the document. Each character is looked at a bounded number of
times, so ``feed`` costs time in proportion to its chunk. ``finish`` checks the whole text
once with :func:`~.analysis.analyze` (vobject's reading included), so its verdict is
exactly ``is_valid``'s.

:class:`RelaxedChecker` follows the grammar ``heal`` accepts: it never fails while the
text comes (a later candidate of the reply may still pass ``check``), and ``finish`` is
truthy when healing succeeds. It reports no values while streaming: counts are judged at
the end (later than possible, never wrong).
"""

from __future__ import annotations

from collections.abc import Callable

from formatbook_core import Span, StreamStatus
from formatbook_core.textlog import TextLog

from .analysis import verdict
from .cards import CardRules
from .contentlines import ContentLine, ContentLineError, LineScanner, parse

_BEGIN = "BEGIN:VCARD"
_CARD = "VCARD"
_HEAD = len("END:VCARD") + 1  # characters of a line's head the early rules look at


class StrictChecker:
    """The strict checker (see the module doc)."""

    def __init__(self, max_size: int) -> None:
        self._max_size = max_size
        self._parts = TextLog()
        self._fed = 0  # characters fed
        self._next = 0  # offset of the next character to process
        self._started = False  # a character other than white space has come
        self._held: list[str] = []  # white space not processed yet
        self._cr = False  # the last character processed is a CR
        self._at_break = False  # a CRLF was processed: the next character tells
        self._in_line = False
        self._line: list[str] = []
        self._line_start = 0
        self._scanner = LineScanner()
        self._expect_begin = False
        self._begin_len = 0
        self._head = ""  # the first characters of a line inside a card (BEGIN:, END:...)
        self._rules = CardRules()
        self._failed: StreamStatus | None = None

    def copy(self) -> StrictChecker:
        clone = StrictChecker(self._max_size)
        clone.__dict__.update(self.__dict__)
        clone._parts = self._parts.copy()
        clone._held = list(self._held)
        clone._line = list(self._line)
        clone._scanner = self._scanner.copy()
        clone._rules = self._rules.copy()
        return clone

    def _fail(self, reason: str, position: int) -> StreamStatus:
        self._failed = StreamStatus(False, reason, position)
        return self._failed

    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        self._parts.append(chunk)
        offset = self._fed
        self._fed += len(chunk)
        if self._fed > self._max_size:
            return self._fail(f"the text has more than {self._max_size:,} characters", self._max_size)
        if not self._started:
            stripped = chunk.lstrip()
            if not stripped:
                return StreamStatus(True)
            self._started = True
            offset += len(chunk) - len(stripped)
            chunk = stripped
            self._next = offset
        head = chunk.rstrip()
        if not head:
            self._held.append(chunk)
            return StreamStatus(True)
        for piece in self._held:
            if not self._process(piece):
                return self._failed  # type: ignore[return-value]
        self._held = []
        if not self._process(head):
            return self._failed  # type: ignore[return-value]
        if len(head) < len(chunk):
            self._held.append(chunk[len(head) :])
        return StreamStatus(True)

    def _process(self, s: str) -> bool:
        """Process ``s`` (the next characters); False once failed."""
        base = self._next
        self._next += len(s)
        i = 0
        n = len(s)
        find = s.find
        while i < n:
            if self._cr:
                if s[i] != "\n":
                    self._fail("a line ends with CR alone, not CRLF", base + i - 1)
                    return False
                self._cr = False
                self._at_break = True
                i += 1
                continue
            if self._at_break:
                self._at_break = False
                if s[i] in " \t":  # folding: the line goes on
                    i += 1
                    continue
                if not self._complete():
                    return False
                self._open(base + i)
            elif not self._in_line:
                self._open(base + i)
            lf = find("\n", i)
            cr = find("\r", i, lf if lf >= 0 else n)
            j = cr if cr >= 0 else (lf if lf >= 0 else n)
            if j > i and not self._take(s[i:j], base + i):
                return False
            if j == n:
                break
            if s[j] == "\n":
                self._fail("a line ends with LF alone, not CRLF (RFC 6350 §3.2)", base + j)
                return False
            self._cr = True
            i = j + 1
        return True

    def _open(self, at: int) -> None:
        self._in_line = True
        self._line = []
        self._line_start = at
        self._scanner = LineScanner()
        self._expect_begin = not self._rules.in_card
        self._begin_len = 0
        self._head = ""

    def _take(self, piece: str, at: int) -> bool:
        """A piece of the current logical line."""
        self._line.append(piece)
        if self._expect_begin:
            k = self._begin_len
            want = _BEGIN[k : k + len(piece)]
            if piece[: len(want)].upper() != want or len(piece) > len(want):
                bad = next(x for x in range(len(piece)) if k + x >= len(_BEGIN) or piece[x].upper() != _BEGIN[k + x])
                self._fail("not a vCard: outside a card only BEGIN:VCARD may stand", at + bad)
                return False
            self._begin_len += len(piece)
            return True
        error = self._scanner.feed(piece)
        if error is not None:
            self._fail(f"not a content line: {error}", self._line_start + error.column)
            return False
        if len(self._head) < _HEAD:
            return self._early_rules(piece, at)
        return True

    def _early_rules(self, piece: str, at: int) -> bool:
        """Inside a card, ``BEGIN:`` and ``END:`` tell at once: a card cannot nest, an END
        closes only ``VCARD``, and once ``END:VCARD`` is written the card must be complete
        (folding could only lengthen the line, which no valid card does)."""
        before = len(self._head)
        self._head += piece[: _HEAD - before]
        head = self._head.upper()
        if head.startswith("BEGIN:"):
            self._fail("BEGIN inside a card (cards do not nest)", self._line_start)
            return False
        if head.startswith("END:"):
            value = head[4:]
            if not (_CARD.startswith(value) or value.startswith(_CARD)) or len(value) > len(_CARD):
                self._fail(f"END:{self._head[4:]} does not close the card (END:VCARD)", self._line_start)
                return False
            if value == _CARD and len(self._head) > before:
                probe = self._rules.copy()
                found = probe.line(ContentLine("END", "VCARD"), Span(self._line_start, at + len(piece)))
                if found:
                    self._fail(found[0].message, self._line_start)
                    return False
        return True

    def _complete(self) -> bool:
        """The current logical line is complete: the card rules on it."""
        self._in_line = False
        text = "".join(self._line)
        if self._expect_begin and self._begin_len != len(_BEGIN):
            self._fail("not a vCard: outside a card only BEGIN:VCARD may stand", self._next)
            return False
        try:
            cl = parse(text)
        except ContentLineError as err:
            self._fail(f"not a content line: {err}", self._line_start + err.column)
            return False
        found = self._rules.line(cl, Span(self._line_start, self._line_start + len(text)))
        if found:
            self._fail(found[0].message, self._line_start)
            return False
        return True

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        text = self._parts.text()
        found = verdict(text, self._max_size)
        if found:
            v = found[0]
            return StreamStatus(False, v.message, v.span.start if v.span is not None else len(text))
        return StreamStatus(True, complete=True)


class RelaxedChecker:
    """The relaxed checker (see the module doc): ``heal`` decides at ``finish``."""

    def __init__(self, heal: Callable[[str], object], max_size: int) -> None:
        self._heal = heal
        self._max_size = max_size
        self._parts = TextLog()
        self._fed = 0
        self._failed: StreamStatus | None = None

    def copy(self) -> RelaxedChecker:
        clone = RelaxedChecker(self._heal, self._max_size)
        clone._parts = self._parts.copy()
        clone._fed = self._fed
        clone._failed = self._failed
        return clone

    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        self._parts.append(chunk)
        self._fed += len(chunk)
        if self._fed > self._max_size:
            self._failed = StreamStatus(False, f"the text has more than {self._max_size:,} characters", self._max_size)
            return self._failed
        return StreamStatus(True)

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        text = self._parts.text()
        try:
            self._heal(text)
        except Exception as err:  # HealError (and nothing else, the format guarantees)
            return StreamStatus(False, str(err), len(text))
        return StreamStatus(True, complete=True)
