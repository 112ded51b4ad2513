"""StreamGuard: check a reply while it streams, so a doomed generation can be stopped.

``feed(chunk)`` answers a ``StreamStatus``: truthy while the reply can still pass
``check()``, falsy (with ``reason`` and ``position``) once it cannot. By default the guard is
as tolerant as ``check()`` (the format's relaxed checker: prose before the payload and
anything healing repairs are fine); ``strict=True`` applies the strict grammar.

MAX limits are kept while streaming: every value the format's checker reports as settled
is counted once, and the value still being written adds a lower bound that only grows.
Every ``feed`` costs time in proportion to its chunk; besides the reply itself (which
``finish()`` checks) the guard keeps only a bounded tail of it.
"""

from __future__ import annotations

import copy
import re
from bisect import bisect_right
from typing import Any

from .expectations import Count, Expectations, as_expectations
from .limits import limits_from
from .pipeline import check
from .reply import ThinkScanner, think_tags_of
from .results import CheckResult, ExpectationError, StreamStatus, ok_status
from .textlog import RUN, TextLog

# frozen: the guard's usual answers are shared, not built per chunk; _OK is the core's own
# (ok_status()), which a checker's feed returns when it settles nothing: the hot path
# answers it without reading it
_OK = ok_status()
_OK_COMPLETE = StreamStatus(True, complete=True)


def _copy_stream(stream: Any) -> Any:
    """An instruction stream's clone: its own ``copy()`` when it has one, else a deep copy."""
    own = getattr(stream, "copy", None)
    return own() if callable(own) else copy.deepcopy(stream)


#: Every character ``str.isspace`` takes (what ``str.strip()`` strips), as a set: the
#: Unicode database of every supported Python agrees (a test checks it).
PY_SPACE = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | frozenset(
    map(chr, range(0x2000, 0x200B))
)


def _space_end(space: str | None) -> frozenset[str]:
    """The characters a stretch may end with for ``StreamGuard._unheld`` to hold something
    back: the format's ``surrounding_space`` (or all of Python's white space) and the ASCII
    blanks, after which such white space may stand."""
    return PY_SPACE if space is None else frozenset(space + " \t\r\n")


_KNOWN_LENGTH = 24  # the longest value whose count a limit remembers
_KNOWN_MAX = 4096  # how many it remembers

# A checker's ``quiet()`` promise (see StreamGuard._hush): at most this many characters are
# kept from it at a time, so that a copy or a late stop costs little.
_SPARE_MAX = 512
_ASK = -(1 << 62)  # StreamGuard._spare_end: ask the checker (anything below 0: keep nothing)
_QUIET_TESTS: dict[tuple[str, str], Any] = {}  # (stops, what the hot path holds) -> the tests


class _Limit:
    """One MAX (or EXACTLY) count kept while streaming.

    Values are counted as ``check()`` counts what ``extract_values`` gives: each on its
    own, and a value of white space only not at all (so a value still being written adds
    nothing while it is blank).
    """

    def __init__(self, count: Count, upper: int, unit: Any, base: Any, scope_key: str | None = None):
        from .counting import IncrementalCount  # noqa: PLC0415 - counting (and regex) only when limits are kept

        self._template = IncrementalCount(base)  # a fresh count of the open value, cloned
        self.count = count
        self.scope_key = scope_key  # a scoped count: only the checker's ``scoped`` values of this key
        self.upper = upper
        self.unit = unit
        self.base = base  # the unit actually counted (lines, for pages)
        self.settled = 0
        self._open = self._fresh()
        self._open_blank = True
        self._open_fed = False  # text of the open value came since its count was fresh
        self._counting = False  # some of it was fed to the count (not all waiting)
        # a unit of at most one per character: the open value's pieces wait here, uncounted,
        # while the settled count plus the open value's length cannot pass the limit (most
        # strings close first: their pieces are never counted, the closed value is); once
        # it could, they are fed in order, as each would have been (lower_bound). The guard
        # keeps chunks from a quiet checker only under such limits (per_character): its
        # bound on what they may add is in characters
        self._defer = self.per_character = bool(getattr(base, "at_most_one_per_character", False)) and base is unit
        self._waiting: list[str] = []
        self._open_length = 0  # characters of the open value fed since it was fresh
        # the counts of short values seen (a token stream repeats them: numbers, true,
        # tags): a unit's count is a function of the text; shared by copies (never changed)
        self._known: dict[str, int] = {}

    def take(self, status: StreamStatus) -> bool:
        """Count what ``status`` reports as settled in this limit's scope; True when the
        lower bound may have grown past the limit (see :meth:`values`)."""
        if self.scope_key is None:
            return self.values(status.values, status.open)
        if status.scoped or status.open_scope is not None:
            opened = status.open if status.open_scope == self.scope_key else ""
            return self.values(tuple(v for key, v in status.scoped if key == self.scope_key), opened)
        return False

    def values(self, closed: tuple[str, ...], opened: str) -> bool:
        """Count closed values and the open one's new text; True when the bound may have
        grown past the limit: it grew, and (a unit of at most one per character) the settled
        count plus the open value's length is above the limit; False when it cannot be."""
        grew = False
        if closed:
            known = self._known
            for value in closed:
                n = known.get(value)
                if n is None:
                    if value.isspace():
                        continue
                    n = self.base.count(value)
                    if len(value) <= _KNOWN_LENGTH and len(known) < _KNOWN_MAX:
                        known[value] = n
                self.settled += n
            if self._open_fed:
                if self._counting:  # (a count never fed is fresh already)
                    self._open = self._fresh()
                    self._counting = False
                self._open_fed = False
                self._open_blank = True
                self._open_length = 0
                if self._waiting:
                    self._waiting = []
            grew = True
        if opened:
            if self._defer:
                self._waiting.append(opened)
                self._open_length += len(opened)
            else:
                self._open.feed(opened)
                self._counting = True
            self._open_fed = True
            if self._open_blank and not opened.isspace():
                self._open_blank = False
            grew = True
        return grew and (not self._defer or self.settled + self._open_length > self.upper)

    def _fresh(self) -> Any:
        """A count of a new open value (the template's clone: the unit is resolved once)."""
        fresh = object.__new__(type(self._template))
        fresh.__dict__.update(self._template.__dict__)
        return fresh

    def copy(self) -> _Limit:
        """An independent clone (the open value's pending tail is a string: shared)."""
        clone = object.__new__(_Limit)
        clone.__dict__.update(self.__dict__)
        clone._waiting = list(self._waiting)
        opened = self._open  # copy.copy without its generic dispatch: hot in generation
        clone._open = object.__new__(type(opened))
        clone._open.__dict__.update(opened.__dict__)
        return clone

    def room(self) -> int:
        """How many more of the unit the limit takes."""
        return self.upper - self.lower_bound()

    def lower_bound(self) -> int:
        if self._waiting:  # the open value's pieces not counted yet, each fed as it came
            waiting, self._waiting = self._waiting, []
            feed = self._open.feed
            for piece in waiting:
                feed(piece)
            self._counting = True
        total = self.settled if self._open_blank else self.settled + self._open.settled()
        if self.base is not self.unit:
            return self.unit.from_base(total)
        return total


class StreamGuard:
    """Check a reply chunk by chunk. ``finish()`` gives the full ``CheckResult``.

    The guard and ``check()`` share one definition of the payload and of its values: the
    guard never turns falsy on a reply that ``check()`` accepts; it may be later than
    possible, never wrong. What the format's checker sees is what ``check()`` would give the
    format: with no format, and for a format whose payload is the whole reply
    (``whole_reply_locate``: text, Markdown), the reply as it is (plain text counts a
    ``<think>`` block as ``check()`` does; Markdown's checker sets it aside itself); for a
    format that locates its payload in the reply (JSON), the reply without its think blocks,
    wherever they are (as :class:`formatbook_core.reply.Reply` finds them: one scanner).

    By design the guard is later than possible when:

    * text that may begin a think tag (``<thi``) is held back until the next chunk shows
      whether it is one (at most ``THINK_OPEN_MAX - 1`` characters);
    * a value is still being written: only the part of it no continuation can change is
      counted (a word is settled once the next word has begun);
    * a value of white space only so far adds nothing until its first visible character
      (``check()`` leaves blank values out);
    * the format's checker reports only some values while streaming (Markdown: the values
      no continuation can change, see its README), or cannot tell yet that the reply is
      broken beyond repair;
    * what only the whole reply shows: counts not bounded above (MIN), counts scoped with
      ``IN "..."`` in a scope the checker does not keep (its optional ``scope_key``), a
      schema or a Markdown contract's required sections are judged by ``finish()`` only;
    * a limit could only be known to fail from text ``check()`` counts but the guard sets
      aside, such as a think block inside a JSON string of a reply that is nothing but the
      JSON (``check()`` keeps that string whole).

    It turns falsy only when the reply is longer than ``max_size``, when the format's
    checker (relaxed, or strict with ``strict=True``) says no continuation can pass, or
    when the values the checker reports as settled already exceed a MAX (or EXACTLY)
    count. Every ``feed`` costs time in proportion to its chunk.

    With ``lag=N`` chunks are gathered until they hold ``N`` characters and checked as one
    piece: a stream of tiny chunks costs a fraction of the time, and a verdict comes at most
    ``N`` characters late (never wrong: ``finish()`` checks everything). ``ask`` streams
    with ``lag=256``; the default, 0, answers on every chunk.
    """

    def __init__(self, expectations: Expectations | str | None = None, *, strict: bool = False, lag: int = 0):
        self.expectations = exp = as_expectations(expectations)
        self.strict = strict
        if lag < 0:
            raise ValueError("lag must be 0 or more characters")
        # with a lag, chunks are gathered until they hold ``lag`` characters and checked as
        # one piece: far fewer calls for a stream of tiny chunks, a verdict at most ``lag``
        # characters late (``ask`` uses it; the default answers on every chunk)
        self.lag = lag
        self._batch: list[str] = []
        self._batch_start = 0
        self._log = TextLog()  # the reply for finish(); copies share what came before them
        self._length = 0
        self._max_size = limits_from(exp.options).max_size
        self._failed: StreamStatus | None = None
        self._complete = False
        self._finished = False  # finish() was called: the reply has ended, feed() raises
        self._direct = False  # feed() takes its hot path: no lag, nothing failed, not finished
        fmt = exp.fmt
        self._checker: Any = None
        if fmt is not None:
            schema = exp.loaded_schema  # a schema that cannot be loaded is an ExpectationError
            try:
                self._checker = fmt.stream(schema, strict=strict, **exp.options)
            except ExpectationError:
                raise
            except Exception as exc:  # a plugin failure stops the guard with a reason, as check() reports it
                self._failed = StreamStatus(
                    False, f"the {fmt.name} format's stream() failed: {type(exc).__name__}: {exc}"
                )
        # check() takes a think block that opens the reply out of the text for no format and
        # for the formats that take the whole reply (text; Markdown's plan sets it aside as a
        # repair); the others locate their payload without any think block. A strict guard
        # gives a whole-reply format everything: a think block is a repair, not valid as is.
        whole = fmt is None or fmt.whole_reply_locate
        if whole and strict and fmt is not None:
            self._think: ThinkScanner | None = None
        else:  # the prepared reply's scanner: the guard finds the blocks check() finds
            self._think = ThinkScanner(think_tags_of(fmt), leading_only=whole)
        # whether a plain splitter looks at a chunk with a '<' (one that sets aside only the
        # blocks opening the reply takes every chunk once the lead is over): the hot path's
        # one test of the splitter (see ThinkScanner.pass_through)
        self._lt_stops = self._think is not None and not whole
        # feed()'s hot path may take a chunk past _pass: a checker and nothing held (set by
        # _pass, which every other chunk goes through, and the only place _held changes)
        self._plain = False
        # and more: the think splitter plain (see ThinkScanner.plain) and no block set aside
        # since the last stretch, so that every character from here on goes to the checker
        # as it comes. While it holds, feed() counts nothing but _length: _fed and the
        # splitter's count are behind, and _synced() brings them up before they are read
        self._hot = False
        # where each stretch fed to the checker starts, in the checker's text and in the
        # reply: one pair per think block set aside, to report positions in the reply
        self._fed = 0
        self._held: list[str] = []  # unusual white space at the end of what came, not fed yet
        self._space = fmt.surrounding_space if fmt is not None else None  # what check() strips
        # a last character after which ``_unheld`` may hold something back: white space
        # (what check() strips, and the ASCII blanks after which unusual white space may end)
        self._space_end = _space_end(self._space)
        self._unusual_space = self._space_end - frozenset(" \t\r\n")  # what _unheld may hold
        self._starts: list[int] = [0]
        self._offsets: list[int] = [0]
        self._shift = 0  # _offsets[-1] - _starts[-1]: the reply's offset less the checker's
        registry = exp.active_registry()
        self._limits: list[_Limit] = []
        scope_key = getattr(self._checker, "scope_key", None)
        # optional too (see Checker): the shortest text after which the checker would end
        # (looked up once; called on the checker of each copy)
        self._closes = callable(getattr(self._checker, "closing", None))
        for count in exp.counts:
            upper = count.upper
            if upper is None or count.per is not None:
                continue  # MIN counts and limits on each value are settled by finish()
            key = None
            if count.scope is not None:
                key = scope_key(count.scope) if scope_key is not None else None
                if key is None:
                    continue  # a scope the checker does not keep is settled by finish()
            unit = exp.unit_of(count)
            if fmt is not None and unit.reads == "text":
                continue  # a markup unit counts the located payload: settled by finish()
            base = registry.unit(unit.based_on) if unit.based_on else unit
            self._limits.append(_Limit(count, upper, unit, base, key))
        # the one limit, when there is one and it counts the whole payload: the hot path
        # counts it without _counted's loop
        self._only = self._limits[0] if len(self._limits) == 1 and self._limits[0].scope_key is None else None
        # optional too (see Checker): ``quiet()``, how long the checker may be spared. While
        # it promises that no chunk changes its answer (see Quiet), the hot path keeps the
        # chunks (in the log) and answers for it; they go to the checker with the next chunk
        # it must see (a stop, the promise's room spent, anything the hot path does not
        # take), as one piece, or under limits through ``feed_chunks`` (what it reports
        # for them is then what it would one by one): a token stream costs a call per
        # stretch, not per chunk. Under limits only when each counts at most one per
        # character of the whole payload (the promise bounds what the chunks kept may
        # report, in characters)
        self._counts = bool(self._limits)
        checker = self._checker
        self._quiets = (
            callable(getattr(checker, "quiet", None))
            and (not self._counts or callable(getattr(checker, "feed_chunks", None)))
            and all(limit.per_character and limit.scope_key is None for limit in self._limits)
        )
        self._reask = _ASK if self._quiets else -1  # _spare_end once the checker was fed
        self._spare_end = self._reask  # a chunk may be kept while the reply ends by here
        self._spare_at = -1  # the first chunk kept, in the log's recent chunks (-1: none)
        self._keeps = "".join(sorted(self._unusual_space)) + ("<" if self._lt_stops else "")
        self._quiet_test: Any = None  # a search for what a chunk kept may not hold
        self._stops_in: Any = None  # the promise's stop characters in a chunk (findall)
        self._allowed = 0  # how many more of them may come
        self._calm_status = _OK  # what a chunk kept answers (the promise's ``complete``)
        # instructions stream only without a format: then the text the guard feeds on is
        # the text check() judges (with a format, check() judges the located payload,
        # which the stream cannot know yet), so finish() judges them
        self._streams: list[Any] = []
        if fmt is None:
            for instruction in exp.instructions:
                stream = instruction.stream()
                if stream is not None:
                    self._streams.append(stream)
        self._direct = lag == 0 and self._failed is None

    @property
    def text(self) -> str:
        """The reply received so far (joined on each call after a feed: read it at the end)."""
        if self._spare_at >= 0:  # (the log's recent chunks are about to be joined)
            self._catch_up()
        text = self._log.text()
        if self._batch:  # lag mode: chunks gathered and not checked yet are part of it too
            return text + "".join(self._batch)
        return text

    def feed(self, chunk: str) -> StreamStatus:
        """Take the next piece of the reply; falsy once the reply cannot pass any more.
        Raises ``RuntimeError`` after :meth:`finish` (the reply has ended: a later piece
        would be judged by no verdict)."""
        if (
            type(chunk) is str
            and (length := self._length + len(chunk)) <= self._spare_end
            and self._quiet_test(chunk) is None
        ):
            # the shortest path: the checker is spared this chunk (see _hush), kept in the
            # log (TextLog.append inlined: the log is sealed once the checker catches up)
            self._length = length
            self._log._parts.append(chunk)
            return self._calm_status
        if self._direct and type(chunk) is str:
            # the hot path (no lag, nothing failed, not finished): a token stream's tiny
            # chunks each cost a few operations here before the format's checker. The
            # commonest chunk (nothing held, no white space to hold at its end, no block
            # set aside since the last one, through the think splitter whole) goes to the
            # checker from here: what _pass, _advance_one and _take do with it
            start = self._length
            self._length = length = start + len(chunk)
            # TextLog.append inlined, sealed before (this chunk stays a recent one, as those
            # the checker is spared: _hush reads where it is), so fewer than RUN stay after
            parts = self._log._parts
            if len(parts) >= RUN - 1 and self._spare_at < 0:
                self._log.seal()
                parts = self._log._parts
            parts.append(chunk)
            if length > self._max_size:
                return self._too_large()
            if not chunk:
                return self._pass(start, chunk)
            last = chunk[-1]
            if last in self._space_end:  # _holds inlined: a chunk ending in a blank is common
                unusual = self._unusual_space
                if last in unusual or chunk.rstrip(" \t\r\n")[-1:] in unusual:
                    return self._pass(start, chunk)
            if self._hot:
                if "<" in chunk and self._lt_stops:
                    return self._pass(start, chunk)
                if self._quiets:  # the checker may be spared this chunk, or catches up first
                    todo = self._unspared(start, length, chunk)
                    if not isinstance(todo, str):
                        return todo
                    chunk = todo
            else:
                if not self._plain or start - self._fed != self._shift:  # held, or a block set aside
                    return self._pass(start, chunk)
                think = self._think
                if think is not None and not think.pass_through(chunk):
                    return self._pass(start, chunk)  # (pass_through took nothing when it said no)
                self._fed += length - start
            try:
                status = self._checker.feed(chunk)
            except Exception as exc:
                return self._fail(f"the format's checker failed: {type(exc).__name__}: {exc}", length)
            if status is _OK:  # nothing settled, not complete: what the lines below answer
                self._complete = False
                return _OK
            if type(status) is not StreamStatus or not status.ok:
                status = self._checked(status)
                return status if not status.ok else (_OK_COMPLETE if self._complete else _OK)
            self._complete = complete = status.complete
            if self._limits and (status.values or status.open or status.scoped):
                only = self._only  # one limit on the whole payload (the usual): one call
                if only is None:
                    failed = self._counted(status)
                else:
                    failed = self._exceeded(only) if only.values(status.values, status.open) else None
                if failed is not None:
                    return failed
            return _OK_COMPLETE if complete else _OK
        if self._finished:
            raise RuntimeError("StreamGuard.feed() after finish(): the reply has ended (copy() before finish to go on)")
        if self.lag and self._failed is None and type(chunk) is str:
            # gather tiny chunks: the hot path of a token stream, kept to a few operations
            self._batch.append(chunk)
            self._length += len(chunk)
            if self._length - self._batch_start < self.lag:
                return _OK  # max_size too is checked at the next full batch, at most lag late
            return self._flush_batch()
        return self._general(chunk)

    def _general(self, chunk: str) -> StreamStatus:
        """feed() past its hot paths (a failure, a plugin's checker that failed to start)."""
        if not isinstance(chunk, str):
            raise TypeError(f"StreamGuard.feed takes str, not {type(chunk).__name__}")
        if self._batch:  # a chunk after a failure in lag mode: keep the order of the text
            self._flush_batch()
        start = self._length
        self._keep(chunk)
        self._length += len(chunk)
        if self._failed is not None:
            return self._failed
        if self._length > self._max_size:
            return self._too_large()
        return self._pass(start, chunk)

    def _too_large(self) -> StreamStatus:
        if self._spare_at >= 0:  # (the counts stand as after the chunk before, the log's last)
            self._catch_up(len(self._log._parts) - 1)
        return self._fail(
            f"the reply has more than {self._max_size:,} characters, the limit (max_size)", self._max_size
        )

    def _flush_batch(self) -> StreamStatus:
        """Keep and check the gathered chunks as one piece (lag mode)."""
        start, chunk = self._batch_start, "".join(self._batch)
        self._batch = []
        self._batch_start = self._length
        self._keep(chunk)
        if self._failed is not None:
            return self._failed
        if self._length > self._max_size:
            return self._too_large()
        return self._pass(start, chunk)

    def _pass(self, start: int, chunk: str) -> StreamStatus:
        """Check ``chunk`` (at ``start`` in the reply): through the think splitter, then on."""
        if self._hot:
            self._synced(start)
        think = self._think
        self._spare_end = self._reask
        if think is None or think.pass_through(chunk):
            status = self._advance_one(start, chunk)
        else:
            status = self._advance(think.feed(chunk))
        self._plain = plain = self._checker is not None and not self._held
        self._hot = (
            plain and self._direct and (think is None or think.plain()) and self._length - self._fed == self._shift
        )
        return status

    def _synced(self, taken: int) -> None:
        """Bring the counts feed()'s hot path leaves behind up to ``taken`` characters of
        the reply: the guard's hot path took every character since it began, whole, past
        the think splitter (which has been fed every character of the reply) to the checker
        (what it was spared first)."""
        if self._spare_at >= 0:  # (the chunk being taken, if any, is the log's last)
            self._catch_up(len(self._log._parts) - (taken < self._length))
        self._hot = False
        self._fed = taken - self._shift
        if self._think is not None:
            self._think._fed = taken

    def _unspared(self, start: int, length: int, chunk: str) -> str | StreamStatus:
        """The hot path's chunk at ``start`` that the shortest path did not take (the log's
        last): the answer when the checker is spared it all the same (its stops, as many as
        the promise allows); else what the checker is to be fed, what it was spared first
        (as one piece with the chunk; under limits fed and counted here, as they came), or
        the failure that brought."""
        parts = self._log._parts
        if self._spare_end == _ASK:  # the checker may be spared from here on
            self._hush(start, len(parts) - 1)
        if length <= self._spare_end:
            stops = len(self._stops_in(chunk))
            if stops <= self._allowed:
                self._allowed -= stops
                return self._calm_status
        self._spare_end = self._reask
        if self._spare_at < 0:
            return chunk
        spared = parts[self._spare_at : -1]
        self._spare_at = -1
        if len(parts) >= RUN:
            self._log.seal()
        if not any(spared):  # (the guard feeds no empty chunk)
            return chunk
        if self._counts:
            status = self._feed_spared(spared, start)
            return chunk if status.ok else status
        spared.append(chunk)
        return "".join(spared)

    def _hush(self, start: int, at: int) -> None:
        """Ask the checker how long it may be spared (its ``quiet()``, see ``Quiet``), fed
        the reply up to ``start``, the chunk there the log's recent chunk ``at``: the
        chunks kept from it may end by ``_spare_end`` (-1: none may), within the promise's
        room, ``_SPARE_MAX`` characters, ``max_size`` and, under limits, what cannot take a count
        past its limit: on top of the values settled, what the chunks kept may report
        holds at most ``owed`` plus two characters for each of theirs, each counting at
        most one (``per_character``)."""
        promise = self._checker.quiet(self._counts)
        if promise is None:
            self._spare_end = -1
            return
        stops, allowed, complete, owed, room = promise
        if room > _SPARE_MAX:
            room = _SPARE_MAX
        for limit in self._limits:
            left = (limit.upper - limit.settled - owed) // 2
            if left < room:
                room = left
        if room <= 0:
            self._spare_end = -1
            return
        self._spare_end = min(start + room, self._max_size)
        self._spare_at = at
        self._allowed = allowed
        # what sends a chunk off the shortest path: a stop, and what the hot path does not
        # take as it comes (a '<' the think splitter reads, white space it may hold)
        key = (stops, self._keeps)
        tests = _QUIET_TESTS.get(key)
        if tests is None:
            tests = (
                re.compile("[" + re.escape("".join(sorted(set(stops + self._keeps)))) + "]").search,
                re.compile("[" + re.escape(stops) + "]" if stops else "(?!)").findall,
            )
            if len(_QUIET_TESTS) < 256:
                _QUIET_TESTS[key] = tests
        self._quiet_test, self._stops_in = tests
        self._calm_status = _OK_COMPLETE if complete else _OK

    def _catch_up(self, end: int | None = None) -> StreamStatus | None:
        """Feed the checker the chunks it was spared (the log's recent chunks from
        ``_spare_at`` to ``end``); the failure, if any (a promise broken), which the guard
        keeps."""
        log = self._log
        spared = log._parts[self._spare_at : end]
        self._spare_at = -1
        self._spare_end = self._reask
        if len(log._parts) >= RUN:
            log.seal()
        if not any(spared):  # (the guard feeds no empty chunk)
            return None
        status = self._feed_spared(spared, self._length) if self._counts else self._feed_one("".join(spared))
        return status if not status.ok else None

    def _feed_spared(self, chunks: list[str], end: int) -> StreamStatus:
        """Feed ``chunks`` through the checker's ``feed_chunks`` (under limits: it reports
        for them what it would one by one), ending at ``end`` in the reply, and count what
        it reports: the hot path's answer."""
        try:
            status = self._checker.feed_chunks(chunks)
        except Exception as exc:
            return self._fail(f"the format's checker failed: {type(exc).__name__}: {exc}", end)
        return self._answer(status)

    def _feed_one(self, text: str) -> StreamStatus:
        """Feed ``text`` (what the checker was spared) to the checker as one piece."""
        try:
            status = self._checker.feed(text)
        except Exception as exc:
            return self._fail(f"the format's checker failed: {type(exc).__name__}: {exc}", self._length)
        return self._answer(status)

    def _answer(self, status: Any) -> StreamStatus:
        """The guard's answer to a checker's status on its hot path: counted, the usual
        statuses shared."""
        if type(status) is not StreamStatus or not status.ok:
            status = self._checked(status)
            return status if not status.ok else (_OK_COMPLETE if self._complete else _OK)
        self._complete = complete = status.complete
        if self._limits and (status.values or status.open or status.scoped):
            failed = self._counted(status)
            if failed is not None:
                return failed
        return _OK_COMPLETE if complete else _OK

    def _keep(self, chunk: str) -> None:
        """Keep ``chunk`` for ``finish()``: recent chunks are joined in runs, so that a reply
        fed a character at a time costs a string, not an object per character."""
        self._log.append(chunk)

    def _advance(self, pieces: list[tuple[int, str]]) -> StreamStatus:
        for offset, piece in pieces:
            status = self._advance_one(offset, piece)
            if not status.ok:
                return status
        return _OK_COMPLETE if self._complete else _OK

    def _advance_one(self, offset: int, piece: str) -> StreamStatus:
        """Feed one stretch of the reply (starting at ``offset`` in it) on."""
        if piece:
            if offset - self._fed != self._shift:  # a block was set aside
                self._set_aside(offset)
            status = self._take(piece)
            if not status.ok:
                return status
        return _OK_COMPLETE if self._complete else _OK

    def _set_aside(self, offset: int) -> None:
        """The next stretch fed to the checker starts at ``offset`` in the reply."""
        self._starts.append(self._fed)
        self._offsets.append(offset)
        self._shift = offset - self._fed

    def _take(self, piece: str) -> StreamStatus:
        """Feed one stretch of the payload's text to the checker and the limits."""
        self._fed += len(piece)
        checker = self._checker
        if checker is None:
            status = StreamStatus(True, open=piece)
        else:
            # nothing held and no white space at the end to hold: the piece goes on as it is
            ready = (
                self._unheld(piece) if self._held or (piece[-1] in self._space_end and self._holds(piece)) else piece
            )
            try:
                status = checker.feed(ready) if ready else (_OK_COMPLETE if self._complete else _OK)
            except Exception as exc:
                return self._fail(f"the format's checker failed: {type(exc).__name__}: {exc}", self._length)
            if type(status) is not StreamStatus or not status.ok:
                return self._checked(status)
            self._complete = status.complete
        if self._limits and (status.values or status.open or status.scoped):
            failed = self._counted(status)
            if failed is not None:
                return failed
        if self._streams:
            return self._instructed(piece, status)
        return status

    def _checked(self, status: Any) -> StreamStatus:
        """The guard's answer to a checker's status that is no ``StreamStatus`` or is falsy
        (a ``StreamStatus`` subclass that is truthy goes on as it is)."""
        if not isinstance(status, StreamStatus):
            return self._fail(f"the format's checker returned {type(status).__name__}, not StreamStatus", None)
        if status.ok:  # (a subclass)
            self._complete = status.complete
            if self._limits and (status.values or status.open or status.scoped):
                failed = self._counted(status)
                if failed is not None:
                    return failed
            return status
        position = status.position
        if position is not None:
            position = self._in_reply(position)
        return self._fail(status.reason or "the reply cannot become valid", position)

    def _counted(self, status: StreamStatus) -> StreamStatus | None:
        """Count what ``status`` reports in every limit; the failure once one is exceeded."""
        for limit in self._limits:
            if limit.values(status.values, status.open) if limit.scope_key is None else limit.take(status):
                failed = self._exceeded(limit)
                if failed is not None:
                    return failed
        return None

    def _exceeded(self, limit: _Limit) -> StreamStatus | None:
        """The failure once ``limit``'s lower bound is past it, else None."""
        bound = limit.lower_bound()
        if bound > limit.upper:
            return self._fail(
                f"{limit.count.amount(bound)} already {'exceeds' if bound == 1 else 'exceed'} {limit.count.describe()}",
                self._length,
            )
        return None

    def _instructed(self, piece: str, status: StreamStatus) -> StreamStatus:
        """Feed ``piece`` to the instructions' streams (no format: the text check() judges)."""
        for stream in self._streams:
            try:
                verdict = stream.feed(piece)
            except Exception as exc:
                return self._fail(f"an instruction's stream failed: {type(exc).__name__}: {exc}", self._length)
            if not verdict:
                position = verdict.position
                return self._fail(
                    verdict.reason or "the reply can no longer follow an instruction",
                    self._in_reply(position) if position is not None else self._length,
                )
        return status

    def _holds(self, piece: str) -> bool:
        """Whether ``_unheld`` would hold back some of ``piece`` (nothing held before it):
        only white space beyond the ASCII blanks at its end is held, so a piece that ends
        in ASCII blanks after text (or after nothing) goes on whole."""
        unusual = self._unusual_space
        return piece[-1] in unusual or piece.rstrip(" \t\r\n")[-1:] in unusual

    def _unheld(self, piece: str) -> str:
        """What of the held white space and ``piece`` the checker may have now.

        White space beyond ASCII blanks (U+00A0, U+2028...: Python's, or the format's
        ``surrounding_space``) at the end of what came is held back until text follows it:
        check() strips it at the payload's end, where the format's grammar may not allow it
        (``<a/>`` then U+00A0). Held, a stop comes later, never wrongly. What check() does
        not strip (U+001F for JSON) goes on at once. Each character is held and given on
        once (linear)."""
        body = len(piece.rstrip(self._space))
        if body == 0 and self._held:  # more white space after held white space
            self._held.append(piece)
            return ""
        # the blanks right after the last text go on at once (a CSV row ends at its "\n")
        cut = len(piece) - len(piece[body:].lstrip(" \t\r\n"))
        ready = piece[:cut]
        if body and self._held:
            ready = "".join(self._held) + ready
            self._held = []
        if cut < len(piece):
            self._held.append(piece[cut:])
        return ready

    def _in_reply(self, position: int) -> int:
        """A position in the text fed to the checker, as an offset into the reply."""
        i = max(bisect_right(self._starts, position) - 1, 0)
        return self._offsets[i] + position - self._starts[i]

    def _fail(self, reason: str, position: int | None) -> StreamStatus:
        self._direct = False
        self._spare_end = -1
        self._failed = StreamStatus(False, reason, position)
        return self._failed

    def copy(self) -> StreamGuard:
        """An independent clone: feeding either never changes what the other answers.

        Costs the state, not the length of the reply: the format checker's ``copy()``, the
        limits' open values, at most ``textlog.RUN`` recent chunks and the think splitter's
        bounded tail; the text received before them is shared (an immutable chain).
        """
        if self._spare_at >= 0:  # what the checker was spared: fed first, then copied
            self._catch_up()
        clone = object.__new__(StreamGuard)
        clone.__dict__.update(self.__dict__)
        clone._batch = list(self._batch)
        clone._log = self._log.copy()
        clone._held = list(self._held)
        clone._starts = list(self._starts)
        clone._offsets = list(self._offsets)
        clone._checker = self._checker.copy() if self._checker is not None else None
        clone._think = self._think.copy() if self._think is not None else None
        clone._limits = [limit.copy() for limit in self._limits]
        clone._only = clone._limits[0] if self._only is not None else None
        # an instruction's stream holds state too (a prefix matched, a failure seen): shared,
        # a probe refused on one copy would refuse every later candidate on the others
        clone._streams = [_copy_stream(stream) for stream in self._streams]
        return clone

    def can_end(self) -> bool:
        """Whether the format's checker, fed so far, would take the end of the reply now
        (a copy's ``finish()``: the state's cost, not the reply's). ``finish()`` alone says
        whether the whole reply passes: counts not bounded above are judged there."""
        if self._batch:  # lag mode: check the gathered chunks on a copy first
            probe_guard = self.copy()
            probe_guard._flush_batch()
            return probe_guard.can_end()
        if self._failed is not None:
            return False
        if self._hot:
            self._synced(self._length)
        checker = self._checker
        if checker is None:
            return True
        try:
            probe = checker.copy()
            if self._think is not None:  # what finish() flushes: held text that is no tag
                for _, piece in self._think.copy().flush():
                    if not probe.feed(piece):
                        return False
            return bool(probe.finish())
        except Exception:  # a plugin failure is no yes
            return False

    def headroom(self) -> int | None:
        """How many more units the tightest MAX (or EXACTLY) count kept while streaming
        takes, ``None`` when none is kept. Every unit counted takes at least a character:
        text shorter than this cannot break a count."""
        if not self._limits:
            return None
        if self._spare_at >= 0:
            self._catch_up()
        return min(limit.room() for limit in self._limits)

    def closing(self) -> str | None:
        """The shortest text the format's checker says it would end after, ``None`` when
        it cannot tell (no ``closing`` method, a failed reply, text held back: the start of
        a think tag, white space, a lag batch). A hint for generation, which must stop
        within a token budget: the text is the checker's (syntax, and what it judges of a
        schema while streaming), not ``check()``'s, and MIN counts are not in it. Costs
        the checker's state, never the reply's length."""
        if self._spare_at >= 0:
            self._catch_up()
        if self._failed is not None or self._batch or self._held:
            return None
        if self._think is not None and self._think.holding:
            return None
        if self._checker is None:
            return ""  # no format: the reply may end anywhere
        if not self._closes:
            return None
        try:
            text = self._checker.closing()
        except Exception:  # a plugin failure is no answer
            return None
        return text if isinstance(text, str) else None

    def finish(self) -> CheckResult:
        """The reply has ended: the full verdict, exactly as ``check()`` gives it (called
        again, the same verdict); :meth:`feed` raises from now on."""
        self._finished = True
        self._direct = False
        if self._hot:
            self._synced(self._length)
        self._spare_end = -1
        if self._batch:
            self._flush_batch()
        if self._think is not None and self._failed is None:
            self._advance(self._think.flush())
        return check(self.text, self.expectations)

    @property
    def status(self) -> StreamStatus:
        """The latest verdict without feeding anything."""
        # not ``self._failed or ...``: a failed status is falsy, so ``or`` would hide it
        return self._failed if self._failed is not None else _OK
