"""A quiet checker is spared chunks, and the guard answers as if it had been fed each.

``StreamGuard`` asks a checker that defines ``quiet(counted)`` how long it may be spared
(``Quiet``: the stop characters and how many of them may come, the ``complete`` every answer
keeps, and what the answers may report, in characters); meanwhile its hot path keeps the
chunks in the log and answers for the checker, and feeds them later (one piece, or through
``feed_chunks`` under limits). The reference is the same guard never asking (every chunk to
the checker as it comes). A throwaway format keeps the core's test free of plugins: words
between spaces, failing at one '!' too many, complete once a '.' came. Seeded replies cut
at random, under word and character limits and ``max_size``, must give the same status on
every feed, the same ``headroom()``, ``can_end()``, text and ``finish()`` when asked, and
go on alike as copies; and the checker must have been spared most chunks.
"""

from __future__ import annotations

import random
from typing import Any

from formatbook_core import BaseFormat, Count, Expectations, StreamGuard, StreamStatus, hookimpl
from formatbook_core.reply import ThinkTags
from formatbook_core.results import Quiet, ok_status

from .conftest_formats import kv_registry
from .guard_twins import answers, never_asking


class _Bangs:
    """Words between spaces (each a value once the space after it comes; the open word's
    new text reported as open); fails at the ``bangs + 1``-th '!'; complete once a '.'
    came. ``fed`` counts the calls that give it text (``reads``: of every checker)."""

    reads = 0

    def __init__(self, bangs: int) -> None:
        self.bangs = bangs
        self.seen = 0
        self.word = ""
        self.pos = 0
        self.done = False
        self.failed: StreamStatus | None = None
        self.fed = 0

    def feed(self, chunk: str) -> StreamStatus:
        self.fed += 1
        _Bangs.reads += 1
        return self._read(chunk)

    def _read(self, chunk: str) -> StreamStatus:
        if self.failed is not None:
            return self.failed
        values: list[str] = []
        opened = ""
        for ch in chunk:
            self.pos += 1
            if ch == "!":
                self.seen += 1
                if self.seen > self.bangs:
                    self.failed = StreamStatus(False, "one '!' too many", self.pos - 1)
                    return self.failed
            if ch == ".":
                self.done = True
            if ch == " ":
                if self.word:
                    values.append(self.word)
                self.word = opened = ""
            else:
                self.word += ch
                opened += ch
        return ok_status(tuple(values), opened, self.done)

    def feed_chunks(self, chunks: list[str]) -> StreamStatus:
        self.fed += 1
        _Bangs.reads += 1
        values: tuple[str, ...] = ()
        opened = ""
        status = ok_status(complete=self.done)
        for chunk in chunks:
            status = self._read(chunk)
            if not status.ok:
                return status
            values += status.values
            opened = status.open if status.values else opened + status.open
        return ok_status(values, opened, status.complete)

    def quiet(self, counted: bool) -> Quiet | None:
        if self.failed is not None:
            return None
        if not self.done:
            return Quiet("!.", 0, False, len(self.word))
        return Quiet("!", self.bangs - self.seen, True, len(self.word))

    def copy(self) -> _Bangs:
        clone = _Bangs(self.bangs)
        clone.__dict__.update(self.__dict__)
        return clone

    def finish(self) -> StreamStatus:
        return self.failed or StreamStatus(True, complete=self.done)


class _BangsFormat(BaseFormat):
    name = "bangs"
    samples = ("a b.",)
    think_tags = ThinkTags.ANYWHERE  # (the guard's hot path takes a chunk past the splitter)

    def validate(self, value: str, schema: Any = None, **options: Any) -> list:
        return []

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        return value.split()

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> _Bangs:
        return _Bangs(3)


class _Plugin:
    @hookimpl
    def register_formats(self, register: Any) -> None:
        register(_BangsFormat())


_REGISTRY = kv_registry()
_REGISTRY.register_plugin(_Plugin(), "bangs-plugin")

_PLAIN = ("word", "two words", " ", "  ", "long-word", "x\u00a0y")
_ODD = ("!", "a!", ".", "end.", "\u00a0", "<b>", "")  # stops, and what the hot path does not take


def test_a_quiet_checker_spared_answers_as_one_fed_every_chunk():
    rng = random.Random(40)
    stops = 0
    reads = {True: 0, False: 0}
    for _ in range(400):
        text = "".join(rng.choice(_ODD if rng.random() < 0.1 else _PLAIN) for _ in range(rng.randint(1, 60)))
        limit = rng.choice((None, None, 3, 8, 30, 200))
        counts = [] if limit is None else [Count(rng.choice(("words", "characters")), max=limit)]
        options = {"max_size": rng.choice((10**6, 10**6, 60))}
        expect = Expectations(format="bangs", counts=counts, options=options, registry=_REGISTRY)
        chunks, i = [], 0
        while i < len(text):
            step = rng.choice((1, 2, 3, 4, 4, 6))
            chunks.append(text[i : i + step])
            i += step
        probe = rng.choice((2, 5, 1000))
        before = _Bangs.reads
        got = answers(StreamGuard(expect), chunks, probe)
        spared = _Bangs.reads - before
        before = _Bangs.reads
        want = answers(never_asking(expect), chunks, probe)
        if probe == 1000:  # (asked, the guard feeds its checker first)
            reads[True] += spared
            reads[False] += _Bangs.reads - before
        assert got == want, (text, chunks, expect)
        stops += any(len(row) == 4 and not row[0] for row in want)  # a feed's status, falsy
    assert 40 < stops < 360  # both sides of the verdict are reached
    assert reads[True] < reads[False] * 2 // 3  # the checker was spared chunks


def test_the_checker_is_spared_most_chunks_of_a_long_reply():
    expect = Expectations(format="bangs", counts=[Count("words", max=5000)], registry=_REGISTRY)
    guard = StreamGuard(expect)
    reply = "It went well. " + "and then some more words " * 200
    chunks = [reply[i : i + 4] for i in range(0, len(reply), 4)]
    for chunk in chunks:
        assert guard.feed(chunk).ok
    checker = guard._checker
    assert checker.fed < len(chunks) // 20  # fed about once per _SPARE_MAX / 2 characters
    assert guard.headroom() == 5000 - len(reply.split())
    assert checker.pos == len(reply)  # headroom() fed it what it was spared
