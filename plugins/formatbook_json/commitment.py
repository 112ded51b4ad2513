"""The payload check() is bound to take, decided where a stream can decide it: at the
first bracket of the reply (think blocks taken out as ``StreamGuard`` takes them out).

``check()`` tries locate's candidates in order and falls back to a later one when one
cannot be healed or breaks the schema, and it prefers a ```` ```json ```` fence to brackets
in prose; a stream commits to the first bracket. Both sides follow one rule, so that a
stream never counts values ``check()`` may not take (issue 9, item 10). The first ``{`` or
``[`` **is the payload** when

(a) only white space comes before it, and it opens a container with content: ``{``
    followed (after white space) by anything but ``}``; ``[`` followed by a string or a
    container (``"``, ``'``, ``“``, ``{``, ``[``) — ``[1]`` or ``[Note]`` opening a reply
    may be a reference, not the data; or
(b) it is the first thing (after white space) in the body of the reply's first fence,
    tagged ``json`` (also ``jsonc``, ``json5``, ``jsonl``, any case; up to three spaces of
    indentation), with no backtick or tilde fence before it.

Then :func:`formatbook_json.locate.locate` offers the container it opens as the *only*
candidate: when it cannot be healed or breaks the schema, the reply fails with that
container's violations, rather than passing with a later candidate; and the stream counts
its values while streaming (:class:`formatbook_json.stream.CommittedChecker`). Otherwise ``check()`` keeps its
fallbacks and the stream counts nothing before the end: a later fence or a later
container may be the payload.
"""

from __future__ import annotations

import re

PENDING, CERTAIN, UNCERTAIN = 0, 1, 2
_BEFORE, _AFTER_OPEN = 3, 4

_OPENER = re.compile(r" {0,3}(?:`{3,}|~{3,})[ \t]*(?:json|jsonc|json5|jsonl)[ \t]*", re.IGNORECASE)
_BRACKET = re.compile(r"[{\[]")
_LINE_BREAK = re.compile(r"[\n\r]")
_CONTENT_AFTER = {"{": None, "[": frozenset("\"'\u201c{[")}  # None: anything but "}"
_WS = " \t\n\r"


class Commitment:
    """Fed the reply's text without its think blocks (as ``StreamGuard`` gives it to the
    checker), piece by piece: ``state`` turns from ``PENDING`` to ``CERTAIN`` (the first
    bracket is the payload, see the module doc) or ``UNCERTAIN``, and ``position`` is the
    bracket's offset in the text fed. Each feed costs time in proportion to its piece."""

    __slots__ = ("state", "position", "_phase", "_fed", "_line", "_seen", "_opener", "_spoiled", "_open")

    def __init__(self) -> None:
        self.state = PENDING
        self.position = -1
        self._phase = _BEFORE
        self._fed = 0
        self._line: list[str] = []  # the pieces of the line being read (before the bracket)
        self._seen = False  # text other than white space before the current line
        self._opener = False  # a json fence line was the last non-blank line read
        self._spoiled = False  # a fence character or text that rules (b) out
        self._open = ""

    def feed(self, text: str) -> int:
        if self.state != PENDING or not text:
            self._fed += len(text)
            return self.state
        start = 0
        if self._phase == _BEFORE:
            m = _BRACKET.search(text)
            end = m.start() if m is not None else len(text)
            self._lines(text, end)
            if m is None:
                self._fed += len(text)
                return self.state
            self.position = self._fed + m.start()
            self._decide_at_bracket(m.group())
            start = m.end()
        if self._phase == _AFTER_OPEN:
            for i in range(start, len(text)):
                c = text[i]
                if c not in _WS:
                    wanted = _CONTENT_AFTER[self._open]
                    ok = c != "}" if wanted is None else c in wanted
                    self.state = CERTAIN if ok else UNCERTAIN
                    break
        self._fed += len(text)
        return self.state

    def _lines(self, text: str, end: int) -> None:
        """Read ``text[:end]`` (before the bracket) line by line."""
        pos = 0
        for m in _LINE_BREAK.finditer(text, 0, end):
            self._line.append(text[pos : m.start()])
            self._end_line()
            pos = m.end()
        if end > pos:
            self._line.append(text[pos:end])

    def _end_line(self) -> None:
        line = "".join(self._line)
        self._line = []
        if not line.strip():
            return
        if self._opener:  # text between the fence line and the bracket: no json body
            self._opener = False
            self._spoiled = True
        elif not self._spoiled and _OPENER.fullmatch(line.rstrip(" \t")) is not None:
            self._opener = True
        elif "```" in line or "~~~" in line:
            self._spoiled = True  # another fence first
        self._seen = True

    def _decide_at_bracket(self, bracket: str) -> None:
        before = "".join(self._line)
        self._line = []
        if before.strip():
            self.state = UNCERTAIN
        elif not self._seen:
            self._phase = _AFTER_OPEN
            self._open = bracket
        else:
            self.state = CERTAIN if self._opener and not self._spoiled else UNCERTAIN


def committed_position(pieces: list[tuple[int, str]]) -> int | None:
    """The reply offset of the first bracket when it is the payload (see the module doc),
    given the reply's stretches outside think blocks as ``StreamGuard`` feeds them
    (``(offset, text)`` pairs); else ``None``."""
    c = Commitment()
    at: int | None = None
    for offset, text in pieces:
        before = c._fed
        state = c.feed(text)
        if at is None and c.position >= 0:
            at = offset + c.position - before
        if state != PENDING:
            break
    return at if c.state == CERTAIN else None
