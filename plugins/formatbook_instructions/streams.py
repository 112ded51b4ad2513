"""Streaming sides of the instructions: each ``feed`` is linear in its chunk (plus a tail
bounded by the instruction's own text), and each turns falsy only once no continuation can
pass the instruction's ``check`` (formatbook's definition).

Positions are offsets into the text fed so far. The streams that read the start of the
text skip a byte order mark opening it (``_start``), as their ``check`` does.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from formatbook_core.decoding import BOM
from formatbook_core.results import StreamStatus

_OK = StreamStatus(True)


class _Stream:
    def __init__(self, described: str):
        self.described = described
        self.fed = 0
        self.failed: StreamStatus | None = None

    def copy(self) -> _Stream:
        """An independent clone (``StreamGuard.copy``): the state is small and flat."""
        clone = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, (set, list, dict)):
                setattr(clone, name, copy.copy(value))
        return clone

    def _start(self, chunk: str) -> tuple[int, str]:
        """Count ``chunk`` as fed; its offset and the chunk, without the byte order mark
        when it opens the text (its offset then one past the mark)."""
        start = self.fed
        self.fed += len(chunk)
        if start == 0 and chunk.startswith(BOM):
            return 1, chunk[1:]
        return start, chunk

    def _fail(self, reason: str, position: int) -> StreamStatus:
        self.failed = StreamStatus(False, f"{reason} ({self.described})", position)
        return self.failed


class StartsWithStream(_Stream):
    """Fails at the first character that differs from the prefix (leading white space aside)."""

    def __init__(self, prefix: str, described: str):
        super().__init__(described)
        self.prefix = prefix
        self.matched = 0  # characters of the prefix matched so far

    def feed(self, chunk: str) -> StreamStatus:
        if self.failed is not None:
            return self.failed
        start, chunk = self._start(chunk)
        if self.matched >= len(self.prefix):
            return _OK
        for i, c in enumerate(chunk):
            if self.matched == 0 and c.isspace():
                continue
            want = self.prefix[self.matched]
            if c != want:
                return self._fail(
                    f"the reply starts {self.prefix[: self.matched] + c!r}, not {self.prefix!r}", start + i
                )
            self.matched += 1
            if self.matched == len(self.prefix):
                return _OK
        return _OK


class CaseStream(_Stream):
    """Fails at the first letter of the other case."""

    def __init__(self, case: str, described: str):
        super().__init__(described)
        self.convert = str.lower if case == "lower" else str.upper
        self.what = "capital letter" if case == "lower" else "lowercase letter"

    def feed(self, chunk: str) -> StreamStatus:
        if self.failed is not None:
            return self.failed
        start = self.fed
        self.fed += len(chunk)
        convert = self.convert
        if convert(chunk) == chunk:  # the common case, at C speed
            return _OK
        for i, c in enumerate(chunk):
            if convert(c) != c:
                return self._fail(f"a {self.what} {c!r}", start + i)
        return _OK


class NotContainsStream(_Stream):
    """Fails at the first occurrence of the literal once it is certain (for a whole word,
    once the character after it is known). Keeps a tail of the literal's length + 1."""

    def __init__(self, literal: Any, described: str):
        super().__init__(described)
        self.literal = literal
        self.tail = ""
        self.keep = len(literal.text) + 1

    def feed(self, chunk: str) -> StreamStatus:
        if self.failed is not None:
            return self.failed
        buffer = self.tail + chunk
        base = self.fed - len(self.tail)
        self.fed += len(chunk)
        # from 1 when the buffer starts mid-text: its first character is only look-behind
        m = self.literal.pattern.search(buffer, 1 if base > 0 else 0)
        if m is not None and (m.end() < len(buffer) or not self.literal.whole):
            return self._fail(f"{self.literal.text!r} found", base + m.start())
        self.tail = buffer[-self.keep :]
        return _OK


class OneOfStream(_Stream):
    """Fails once the text (leading white space aside) is no prefix of any option followed
    by white space."""

    def __init__(self, options: Sequence[str], described: str):
        super().__init__(described)
        self.options = tuple(options)
        self.alive = set(range(len(options)))
        self.longest = max(len(o) for o in options)
        self.seen = 0  # characters after the leading white space
        self.begun = False

    def feed(self, chunk: str) -> StreamStatus:
        if self.failed is not None:
            return self.failed
        start, chunk = self._start(chunk)
        i = 0
        if not self.begun:
            stripped = chunk.lstrip()
            if not stripped:
                return _OK
            self.begun = True
            i = len(chunk) - len(stripped)
        while i < len(chunk) and self.seen < self.longest:
            c = chunk[i]
            j = self.seen
            self.alive = {
                k for k in self.alive if (chunk[i] == self.options[k][j] if j < len(self.options[k]) else c.isspace())
            }
            if not self.alive:
                return self._fail(f"the reply is no longer one of the options at {c!r}", start + i)
            self.seen += 1
            i += 1
        if i < len(chunk) and not chunk[i:].isspace():
            at = i + len(chunk[i:]) - len(chunk[i:].lstrip())
            return self._fail("the reply goes on after the longest option", start + at)
        return _OK


class QuotedStream(_Stream):
    """Fails when the first visible character is no opening double quote."""

    def __init__(self, openers: Sequence[str], described: str):
        super().__init__(described)
        self.openers = tuple(openers)
        self.decided = False

    def feed(self, chunk: str) -> StreamStatus:
        if self.failed is not None:
            return self.failed
        start, chunk = self._start(chunk)
        if self.decided:
            return _OK
        stripped = chunk.lstrip()
        if not stripped:
            return _OK
        self.decided = True
        if stripped[0] not in self.openers:
            return self._fail(
                f"the reply starts with {stripped[0]!r}, not a double quote", start + len(chunk) - len(stripped)
            )
        return _OK
