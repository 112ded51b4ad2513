"""The incremental checker: an iCalendar text read line by line as it arrives.

Strict (``strict=True``, what ``can_be_valid`` uses) fails as soon as the text shows that
no continuation can be valid:

- a line break that is not CRLF, an empty line (such a fault right after the ``END`` that
  closes the calendar is held back while only white space follows, and passes
  ``finish()``: white space around the calendar is no part of it, for ``check()``,
  ``is_valid`` and this checker alike; blank lines before the first line are skipped);
- a character no content line can hold where it stands (a name with ``@``, a parameter
  without ``=``, a control character in a value) — at that character, through
  :class:`~.contentlines.LineScanner`;
- once a line is complete (the next line starts with something other than a fold): an
  ``END`` closing the wrong component or none, a component where it cannot sit (a bare
  ``VEVENT`` at the top), a property outside every component, a property given twice
  that may occur once, ``DTEND`` with ``DURATION``, a value that is not of its type;
- at an ``END``: a required property the component never got.

What only the whole text can tell (a ``TZID`` defined by a ``VTIMEZONE`` further down, the
``DTSTART`` a ``METHOD`` makes optional, the icalendar library's reading, the schema) is
left to ``finish()``, which asks the validator on the whole text.

Relaxed (``strict=False``) follows what ``heal`` accepts: nothing fails while feeding
(heal can wrap, close, unfold and re-encode almost anything) and ``finish()`` heals the
text and validates the result.

``feed`` costs time in proportion to its chunk: a completed line is split once, and the
text is joined only at ``finish()``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from formatbook_core import StreamStatus
from formatbook_core.results import ok_status
from formatbook_core.textlog import TextLog

from . import rules
from .contentlines import VALUE, ContentLine, LineError, LineScanner, split
from .tree import is_token
from .values import extract_values, line_values

# Prefixes of the values whose form is simple enough to judge before the line ends (every
# prefix of a valid value matches; rules.check_value judges the complete value).
_PREFIXES = {
    "DATE": re.compile(r"[0-9]{0,8}"),
    "DATE-TIME": re.compile(r"[0-9]{0,8}|[0-9]{8}T[0-9]{0,6}|[0-9]{8}T[0-9]{6}Z"),
    "INTEGER": re.compile(r"[+-]?[0-9]{0,12}"),
    "DURATION": re.compile(r"[+-]?(?:P[0-9WDTHMS]*)?"),
    "UTC-OFFSET": re.compile(r"(?:[+-][0-9]{0,6})?"),
}
_MAX_TYPED = 40  # longer than any valid value of those types (a duration included)


def _prefix_pattern(head: ContentLine) -> re.Pattern[str] | str:
    if head.name not in rules.VALUE_TYPES:
        return ""
    kind, problem = rules.value_type(head)
    if problem or kind is None:
        return ""  # judged when the line is complete
    if head.name not in rules.LISTS and head.name not in (
        "DTSTART",
        "DTEND",
        "DUE",
        "RECURRENCE-ID",
        "DTSTAMP",
        "CREATED",
        "LAST-MODIFIED",
        "COMPLETED",
        "DURATION",
        "TRIGGER",
        "TZOFFSETFROM",
        "TZOFFSETTO",
        "PRIORITY",
        "SEQUENCE",
        "PERCENT-COMPLETE",
        "REPEAT",
    ):
        return ""
    return _PREFIXES.get(kind, "")


# physical-line states
_LINE_START, _IN_LINE, _AFTER_CR = range(3)


class _Frame:
    __slots__ = ("name", "counts", "children")

    def __init__(self, name: str) -> None:
        self.name = name
        self.counts: dict[str, int] = {}
        self.children: set[str] = set()

    def copy(self) -> _Frame:
        clone = _Frame(self.name)
        clone.counts = dict(self.counts)
        clone.children = set(self.children)
        return clone


class CalendarChecker:
    """See the module doc. ``final(text)`` returns why the whole text is not valid (or
    ``None``); ``relaxed(text)`` heals it and returns ``(why not valid, healed text)``."""

    def __init__(
        self,
        *,
        strict: bool = True,
        max_depth: int = 1000,
        final: Callable[[str], str | None] | None = None,
        relaxed: Callable[[str], tuple[str | None, str]] | None = None,
    ) -> None:
        self.strict = strict
        self.max_depth = max_depth
        self._final = final
        self._relaxed = relaxed
        self._parts = TextLog()
        self._length = 0
        self._failed: StreamStatus | None = None
        self._state = _LINE_START
        self._scanner: LineScanner | None = None  # the logical line being read
        self._line: list[str] = []
        self._line_start = 0
        self._stack: list[_Frame] = []
        self._seen_root = False
        # the prefix pattern the value of the open line must keep matching ("" when none:
        # text, or a type whose prefixes are not checked), None until its value starts
        self._typed: re.Pattern[str] | str | None = None
        self._value = ""  # the value so far of a typed line
        # A line-break fault (LF alone, CR alone, an empty line) held back: only white
        # space has followed it so far, and check() takes the calendar without white space
        # after it. The first other character fails it, and so does finish().
        self._pending: tuple[str, int] | None = None
        # blank lines before the calendar are no part of it (validate.py): skipped
        self._started = False

    def copy(self) -> CalendarChecker:
        clone = CalendarChecker(strict=self.strict, max_depth=self.max_depth, final=self._final, relaxed=self._relaxed)
        clone._parts = self._parts.copy()
        clone._length = self._length
        clone._failed = self._failed
        clone._state = self._state
        clone._scanner = self._scanner.copy() if self._scanner is not None else None
        clone._line = list(self._line)
        clone._line_start = self._line_start
        clone._stack = [f.copy() for f in self._stack]
        clone._seen_root = self._seen_root
        clone._typed = self._typed
        clone._value = self._value
        clone._pending = self._pending
        clone._started = self._started
        return clone

    # --- feeding -------------------------------------------------------------------------
    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        if not isinstance(chunk, str):
            return self._fail("not text", self._length)
        base = self._length
        self._parts.append(chunk)
        self._length += len(chunk)
        if not self.strict or not chunk:
            return ok_status()
        if self._pending is not None:
            return self._trailing(chunk, 0)
        values: list[str] = []
        i = 0
        n = len(chunk)
        if not self._started:  # blank lines before the calendar (a space opens a fold: no)
            i = n - len(chunk.lstrip("\r\n"))
            if i == n:
                return ok_status()
            self._started = True
        find_cr = chunk.find
        while i < n:
            state = self._state
            if state == _IN_LINE:
                # the rest of this physical line, up to a line break, goes to the scanner
                cr = find_cr("\r", i)
                lf = find_cr("\n", i)
                stop = n if cr < 0 and lf < 0 else min(x for x in (cr, lf) if x >= 0)
                if stop > i:
                    piece = chunk[i:stop]
                    self._line.append(piece)
                    assert self._scanner is not None
                    error = self._scanner.feed(piece)
                    if error is not None:
                        return self._fail(f"not a content line: {error.message}", self._line_start + error.offset)
                    if self._typed != "" and self._scanner.state == VALUE:
                        problem = self._value_prefix(piece)
                        if problem is not None:
                            return self._fail(problem, base + stop - 1)
                if stop == n:
                    break
                if chunk[stop] == "\n":
                    return self._hold(
                        "a line ends with LF alone (RFC 5545 wants CRLF)", base + stop, chunk, stop + 1, values
                    )
                self._state = _AFTER_CR
                i = stop + 1
            elif state == _AFTER_CR:
                if chunk[i] != "\n":
                    return self._hold("a line ends with CR alone (RFC 5545 wants CRLF)", base + i - 1, chunk, i, values)
                self._state = _LINE_START
                i += 1
            else:  # _LINE_START: a fold continues the logical line, anything else ends it
                ch = chunk[i]
                if ch in " \t":
                    if self._scanner is None:
                        return self._fail("the text starts with a space: nothing to continue", base + i)
                    self._state = _IN_LINE
                    i += 1
                    continue
                if ch in "\r\n":
                    return self._hold("an empty line (RFC 5545 allows none)", base + i, chunk, i, values)
                if self._scanner is not None:
                    problem = self._complete(values)
                    if problem is not None:
                        return self._fail(problem, self._line_start)
                self._scanner = LineScanner()
                self._typed = None
                self._line = []
                self._line_start = base + i
                self._state = _IN_LINE
        return ok_status(tuple(values)) if values else ok_status()

    def _hold(self, reason: str, position: int, chunk: str, rest: int, values: list[str]) -> StreamStatus:
        """A line-break fault at ``position``: when the line it ends may end the calendar,
        held back while only white space follows (from ``chunk[rest]`` on) and failed by
        anything else; otherwise failed at once (no white space can end the text there)."""
        if not self._may_end():
            return self._fail(reason, position)
        self._pending = (reason, position)
        status = self._trailing(chunk, rest)
        if status.ok and values:
            return ok_status(tuple(values))
        return status

    def _may_end(self) -> bool:
        """Whether the open logical line is an ``END`` closing the last open component:
        then the text may end after it (checked once, at a fault)."""
        if self._scanner is None or len(self._stack) != 1:
            return False
        parsed = split("".join(self._line))
        return isinstance(parsed, ContentLine) and parsed.name == "END"

    def _trailing(self, chunk: str, start: int) -> StreamStatus:
        """Past a held fault: white space keeps it held, any other character fails it."""
        assert self._pending is not None
        if chunk[start:].strip(" \t\r\n"):
            return self._fail(*self._pending)
        return ok_status()

    def _value_prefix(self, piece: str) -> str | None:
        """Why the value written so far of a typed property (a date, a date-time, a
        duration, an offset, an integer) can never be valid, whatever follows. The work
        per feed is bounded: such a value is short, or already wrong."""
        assert self._scanner is not None
        if self._typed is None:
            line = "".join(self._line)
            self._line = [line]
            start = self._scanner.value_start
            head = split(line[:start])
            self._typed = _prefix_pattern(head) if isinstance(head, ContentLine) else ""
            self._value = line[start:]
        else:
            self._value += piece
        if self._typed == "":
            return None
        assert isinstance(self._typed, re.Pattern)
        value = self._value
        if len(value) > _MAX_TYPED * 50:
            return f"the value {value[:40]!r} can never be valid for its type"
        for item in value.split(","):
            if len(item) > _MAX_TYPED or self._typed.fullmatch(item) is None:
                return f"the value {value[:40]!r} can never be valid for its type"
        return None

    def _fail(self, reason: str, position: int) -> StreamStatus:
        self._failed = StreamStatus(False, reason, position)
        return self._failed

    # --- a completed line ------------------------------------------------------------------
    def _complete(self, values: list[str]) -> str | None:
        """Check the logical line just completed; why it breaks the calendar, or ``None``."""
        assert self._scanner is not None
        problem = self._scanner.done()
        if problem is not None:
            return f"not a content line: {problem.message}"
        parsed = split("".join(self._line))
        self._scanner = None
        if isinstance(parsed, LineError):  # cannot happen once the scanner agreed
            return f"not a content line: {parsed.message}"
        if parsed.name == "BEGIN":
            return self._begin(parsed.value.upper())
        if parsed.name == "END":
            return self._end(parsed.value.upper())
        if not self._stack:
            return f"property {parsed.name} outside every component"
        return self._property(parsed, values)

    def _begin(self, name: str) -> str | None:
        if not is_token(name):
            return f"BEGIN names no component: {name[:30]!r}"
        parent = self._stack[-1].name if self._stack else None
        where = rules.placement_problem(name, parent)
        if where:
            return where
        if len(self._stack) >= self.max_depth:
            return f"components nested deeper than {self.max_depth} levels"
        if self._stack:
            self._stack[-1].children.add(name)
        self._stack.append(_Frame(name))
        self._seen_root = True
        return None

    def _end(self, name: str) -> str | None:
        if not self._stack:
            return f"END:{name[:30]} closes no open component"
        top = self._stack[-1]
        if top.name != name:
            return f"END:{name[:30]} where END:{top.name} was expected"
        self._stack.pop()
        counts = top.counts
        for prop in rules.REQUIRED.get(name, ()):
            if prop not in counts:
                return f"{name} ended without {prop}"
        if name == "VTIMEZONE" and not top.children & {"STANDARD", "DAYLIGHT"}:
            return "VTIMEZONE ended without STANDARD or DAYLIGHT"
        if name == "VTODO" and "DURATION" in counts and "DTSTART" not in counts:
            return "VTODO ended with DURATION but no DTSTART"
        if name == "VALARM" and ("DURATION" in counts) != ("REPEAT" in counts):
            return "VALARM ended with only one of DURATION and REPEAT"
        return None

    def _property(self, line: ContentLine, values: list[str]) -> str | None:
        frame = self._stack[-1]
        name = line.name
        seen = frame.counts.get(name, 0)
        if seen and name in rules.ONCE.get(frame.name, ()):
            return f"{frame.name} has {name} twice (at most once)"
        frame.counts[name] = seen + 1
        for a, b in rules.EXCLUSIVE.get(frame.name, ()):
            if a in frame.counts and b in frame.counts:
                return f"{frame.name} has both {a} and {b}"
        if frame.name == "VCALENDAR" and name == "VERSION":
            if line.value != "2.0" and not line.value.endswith(";2.0"):
                return f"VERSION is {line.value[:20]!r}, not 2.0"
        problem = rules.check_value(line)
        if problem:
            return problem
        values.extend(line_values(line))
        return None

    # --- the end -----------------------------------------------------------------------
    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        text = self._parts.text()
        if not self.strict:
            if self._relaxed is None:
                return StreamStatus(True, complete=True)
            why, healed = self._relaxed(text)
            if why is not None:
                return StreamStatus(False, why, len(text))
            return StreamStatus(True, complete=True, values=tuple(extract_values(healed)))
        values: list[str] = []
        if self._pending is not None:
            # only white space followed the END that may close the calendar: no part of
            # it (validate.py), so the text is judged as if it ended with that END line
            self._state = _LINE_START
        if self._state == _AFTER_CR and not self._may_end():  # after the last END: white space
            return self._fail("the text ends with CR alone (RFC 5545 wants CRLF)", self._length - 1)
        if self._scanner is not None:
            problem = self._complete(values)
            if problem is not None:
                return self._fail(problem, self._line_start)
        if self._stack:
            return self._fail(f"{self._stack[-1].name} is never closed", self._length)
        if not self._seen_root:
            return self._fail("no VCALENDAR in the text", self._length)
        if self._final is not None:
            why = self._final(text)
            if why is not None:
                return self._fail(why, self._length)
        return StreamStatus(True, complete=True, values=tuple(values))
