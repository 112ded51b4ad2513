"""The incremental checkers.

**Strict** (:class:`HtmlChecker`): html5lib itself, fed as the text arrives. html5lib pulls
its input from a file-like object and cannot be paused in the middle of a token, so it
runs in a thread of its own whose reader *waits* for more text instead of answering "end
of input". An error html5lib reports while it waits has been shown by the text already
fed, and any continuation shows it too (the parser is deterministic and has read nothing
further): the checker turns falsy then. Errors that only the end of the input causes
(an element left open, a tag cut in half) are reported by ``finish()`` alone. So the
checker is sound by construction and exact at ``finish()``: it agrees with ``is_valid``.

Each ``feed`` appends its chunk to a buffer (time in proportion to the chunk); the buffer
is handed to the parser thread once it holds :data:`HANDOFF` characters (more for a long
reply: a sixteenth of the text so far, at most :data:`HANDOFF_MAX`), so the verdict on a
prefix may lag by up to that much text (later than possible, never wrong), and a megabyte
fed four characters at a time costs about forty thread hand-overs, not a quarter of a
million. Total work is one html5lib parse of the text.

``copy()`` starts a new parser thread and feeds it what this one was fed (a thread's
state cannot be cloned): it costs time in proportion to the text so far.

**Relaxed** (``strict=False``): anything ``heal`` may repair is accepted, and a prefix can
always be continued into something heal repairs, so the relaxed checker turns falsy only
on the size limit; ``finish()`` is truthy when the text is valid or heals.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from formatbook_core import HealError, StreamStatus
from formatbook_core.collector import paused_gc
from formatbook_core.textlog import TextLog

from .parse import FRAGMENT, LineIndex, Offsets, Parsed, discard, mode_of, new_parser, run
from .verdict import error_message

#: Characters buffered before they are handed to the parser thread: at least this many,
#: and a sixteenth of the text so far up to :data:`HANDOFF_MAX` (each hand-over wakes two
#: threads, which on a loaded machine costs milliseconds: a megabyte takes about 40).
HANDOFF = 4096
HANDOFF_MAX = 65536
_OK = StreamStatus(True)  # frozen: one shared truthy answer


class _Aborted(Exception):
    """Raised in the parser thread to end it (the checker was dropped or failed)."""


class WaitingReader:
    """The file-like object html5lib reads from in its thread: waits for text."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.pending: list[str] = []
        self.closed = False
        self.aborted = False
        self.waiting = False
        self.done = False
        self.at_end = False

    def read(self, size: int = -1) -> str:
        if size == 0:
            return ""
        with self.cond:
            while not self.pending:
                if self.aborted:
                    raise _Aborted
                if self.closed:
                    self.at_end = True
                    return ""
                self.waiting = True
                self.cond.notify_all()
                self.cond.wait()
            self.waiting = False
            data = "".join(self.pending)
            self.pending.clear()
            return data

    def give(self, text: str, *, close: bool = False) -> None:
        """Hand ``text`` over and wait until the parser has read it all (or ended)."""
        with self.cond:
            if text:
                self.pending.append(text)
            if close:
                self.closed = True
            self.waiting = False
            self.cond.notify_all()
            while not self.done and not (self.waiting and not self.pending):
                self.cond.wait()

    def abort(self) -> None:
        with self.cond:
            self.aborted = True
            self.cond.notify_all()

    def finished(self) -> None:
        with self.cond:
            self.done = True
            self.cond.notify_all()


class _Run:
    """One parser thread and what it found."""

    def __init__(self, mode: str, max_depth: int):
        self.reader = WaitingReader()
        self.parser = new_parser(self.reader, max_depth=max_depth, keep=50)
        self.mode = mode
        self.result: Parsed | None = None
        self.thread = threading.Thread(target=self._main, name="formatbook-html-stream", daemon=True)
        self.thread.start()

    def _main(self) -> None:
        try:
            self.result = run(self.parser, self.reader, self.mode, None)
        except _Aborted:
            pass
        except Exception:  # never let a thread die loudly: the checker reports it at finish
            self.result = None
        finally:
            self.reader.finished()


class _Normaliser:
    """Line breaks normalised as :class:`~formatbook_html.parse.Offsets` does, chunk by
    chunk (a ``\\r`` at the end of a chunk waits for the next one)."""

    def __init__(self) -> None:
        self.carry = ""

    def feed(self, chunk: str) -> str:
        text = self.carry + chunk
        self.carry = ""
        if not text or "\r" not in text:
            return text
        if text.endswith("\r"):
            self.carry = "\r"
            text = text[:-1]
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def flush(self) -> str:
        carry, self.carry = self.carry, ""
        return "\n" if carry else ""


class HtmlChecker:
    """The strict incremental checker (see the module doc)."""

    def __init__(self, fmt: Any, schema: Any, options: dict[str, Any], max_size: int, max_depth: int):
        self._fmt = fmt
        self._schema = schema
        self._options = options
        self._max_size = max_size
        self._max_depth = max_depth
        self._blocks: list[str] = []  # the raw text fed, joined at each hand-over
        self._parts: list[str] = []  # the raw text fed since (for finish and copy)
        self._length = 0
        self._head = ""  # text fed before the mode was known
        self._buffer: list[str] = []  # normalised text not handed over yet
        self._buffered = 0
        self._threshold = HANDOFF
        self._norm = _Normaliser()
        self._run: _Run | None = None
        self._failed: StreamStatus | None = None
        self._finished: StreamStatus | None = None

    # --- feeding ----------------------------------------------------------------------
    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        self._parts.append(chunk)
        self._length += len(chunk)
        if self._length > self._max_size:
            return self._fail(f"the HTML has more than {self._max_size:,} characters (max_size)", self._max_size)
        if self._run is None:
            self._head += chunk
            mode = mode_of(self._head)
            if mode is None:
                return _OK
            self._start(mode)
            chunk = self._head
            self._head = ""
        if "\r" in chunk or self._norm.carry:
            chunk = self._norm.feed(chunk)
        if chunk:
            self._buffer.append(chunk)
            self._buffered += len(chunk)
            if self._buffered >= self._threshold:
                return self._hand_over()
        return _OK

    def _start(self, mode: str) -> None:
        run_ = _Run(mode, self._max_depth)
        self._run = run_
        weakref.finalize(self, run_.reader.abort)

    def _hand_over(self, close: bool = False) -> StreamStatus:
        run_ = self._run
        assert run_ is not None
        text = "".join(self._buffer)
        self._buffer.clear()
        self._buffered = 0
        self._blocks.append("".join(self._parts))  # the raw text, kept in blocks
        self._parts.clear()
        self._threshold = min(HANDOFF_MAX, max(HANDOFF, self._length // 16))
        # a long text (one big chunk) in pieces of HANDOFF_MAX: an error the parser
        # reports in one stops the feed there, as it would had the text come in chunks
        if close or len(text) <= HANDOFF_MAX:
            pieces = [text]
        else:
            pieces = [text[at : at + HANDOFF_MAX] for at in range(0, len(text), HANDOFF_MAX)]
        for piece in pieces[:-1]:
            with paused_gc():
                run_.reader.give(piece)
            status = self._verdict(run_, False)
            if status is not _OK:
                return status
        with paused_gc():  # (only while this thread waits for the parser: always restored)
            run_.reader.give(pieces[-1], close=close)
        return self._verdict(run_, close)

    def _verdict(self, run_: _Run, close: bool) -> StreamStatus:
        """What the parser has found in the text handed over so far."""
        parser = run_.parser
        if run_.result is not None and run_.result.limit is not None and not (close or run_.result.limit_at_end):
            limit = run_.result.limit
            return self._fail(f"{limit.message}", self._position(max(limit.offset - 1, 0)))
        if parser.definite:
            err = next(e for e in parser.kept if not e.at_end)
            return self._fail(
                f"{error_message(err.code, err.datavars)} ({err.code})", self._position(max(err.offset - 1, 0))
            )
        return _OK

    def _position(self, offset: int) -> int:
        # the normalised offset as an offset into the text fed (line breaks counted as fed)
        return min(Offsets(self.text).original(offset), self._length)

    def _fail(self, reason: str, position: int | None) -> StreamStatus:
        self._failed = StreamStatus(False, reason, position)
        if self._run is not None:
            self._run.reader.abort()
        return self._failed

    @property
    def text(self) -> str:
        return "".join(self._blocks) + "".join(self._parts)

    # --- copy and finish ------------------------------------------------------------
    def copy(self) -> HtmlChecker:
        clone = HtmlChecker(self._fmt, self._schema, self._options, self._max_size, self._max_depth)
        if self._failed is not None:
            clone._failed = self._failed
            clone._blocks = [self.text]
            clone._length = self._length
            return clone
        text = self.text
        if text:
            clone.feed(text)
        return clone

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        if self._finished is not None:
            return self._finished
        if self._run is None:
            self._start(mode_of(self._head) or FRAGMENT)
            self._buffer.append(self._norm.feed(self._head))
            self._head = ""
        tail = self._norm.flush()
        if tail:
            self._buffer.append(tail)
        status = self._hand_over(close=True)
        if not status:
            return status
        assert self._run is not None
        self._run.thread.join()
        text = self.text
        result = self._run.result
        if result is None:  # the parser thread failed: judge the text afresh
            ok = self._fmt.is_valid(text, self._schema, **self._options)
            self._finished = StreamStatus(ok, None if ok else "not valid HTML", None if ok else len(text))
            return self._finished
        result.offsets = Offsets(text)
        violations = self._fmt.violations_of(result, len(text), self._schema)
        discard(result)
        self._run.parser = None  # (html5lib's parser and its tree: freed now)
        if violations:
            first = violations[0]
            self._finished = StreamStatus(False, first.message, first.span.start if first.span else len(text))
        else:
            self._finished = StreamStatus(True, complete=True)
        return self._finished


class RelaxedChecker:
    """The relaxed checker: falsy only past ``max_size``; ``finish`` asks ``heal``."""

    def __init__(self, fmt: Any, schema: Any, options: dict[str, Any], max_size: int):
        self._fmt = fmt
        self._schema = schema
        self._options = options
        self._max_size = max_size
        self._parts = TextLog()
        self._length = 0
        self._failed: StreamStatus | None = None

    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        self._parts.append(chunk)
        self._length += len(chunk)
        if self._length > self._max_size:
            self._failed = StreamStatus(
                False, f"the HTML has more than {self._max_size:,} characters (max_size)", self._max_size
            )
            return self._failed
        return _OK

    def copy(self) -> RelaxedChecker:
        clone = RelaxedChecker(self._fmt, self._schema, self._options, self._max_size)
        clone._parts = self._parts.copy()
        clone._length = self._length
        clone._failed = self._failed
        return clone

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        text = self._parts.text()
        if self._fmt.is_valid(text, self._schema, **self._options):
            return StreamStatus(True, complete=True)
        try:
            self._fmt.heal(text, self._schema, **self._options)
        except HealError as err:
            return StreamStatus(False, str(err), len(text))
        return StreamStatus(True)


__all__ = ["HANDOFF", "HtmlChecker", "LineIndex", "RelaxedChecker"]
