"""The JSON guard's checker keeps its ``quiet()`` promises, and ``feed_chunks`` reports what
chunk-by-chunk feeding reports.

``CommittedChecker.quiet(counted)`` promises that, until more closing brackets come than it
allows or more characters than its room, every answer is truthy with the promised
``complete``, and what the answers report holds at most ``owed`` plus two characters per
character fed. ``feed_chunks`` feeds a run of
chunks at once where that cannot change what is reported (see its docstring): its status
must be the statuses of the chunks fed one by one, merged, and the checker must go on
exactly as one fed them one by one. And ``StreamGuard`` over ``EXPECT JSON``, which spares
the checker while it is quiet, must answer on every feed as the same guard never asking.
Seeded damaged and valid replies (prose, fences and think blocks around the payload,
escapes, fence lines and blank runs in strings, quotes of every grammar), cut at random.
"""

from __future__ import annotations

import json
import random

from formatbook_core import StreamGuard, parse_expectations
from formatbook_json.stream import CommittedChecker, _merged
from tests.core.guard_twins import answers, never_asking

from .test_guard_fast_path import _chunks, _reply

_STRINGS = ('"a  b"', '"x\\ny"', '"  "', '"q\\"q"', "'single'", "\u201csmart\u201d", '"He said "hi" ok"', '"\n``"')


def _nested(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(('"w"', "1", "[]", "{}"))
    inner = ", ".join(_nested(rng, depth - 1) for _ in range(rng.randint(1, 3)))
    return f'{{"k": [{inner}]}}' if rng.random() < 0.5 else f"[{inner}]"


def _document(rng: random.Random) -> str:
    """An LLM-like object with strings that test feed_chunks' runs (a blank stretch, an
    escape, a fence line, an inner quote), a damaged reply, or nesting a few levels deep."""
    if rng.random() < 0.4:
        return _reply(rng)
    if rng.random() < 0.2:
        return _nested(rng, rng.randint(1, 6))
    items = [
        f'"k{i}": '
        + (rng.choice(_STRINGS) if rng.random() < 0.3 else json.dumps(" ".join(["word"] * rng.randint(0, 12))))
        for i in range(rng.randint(1, 12))
    ]
    return "{\n  " + ",\n  ".join(items) + "\n}"


def _reported(status) -> int:
    return sum(map(len, status.values)) + len(status.open)


def _kept(chunks: list[str], promise) -> int:
    """How many of ``chunks`` keep ``promise`` (as StreamGuard keeps them from the checker)."""
    allowed, room = promise.allowed, promise.room
    for n, chunk in enumerate(chunks):
        allowed -= sum(chunk.count(c) for c in promise.stops)
        room -= len(chunk)
        if allowed < 0 or room < 0:
            return n
    return len(chunks)


def test_feed_chunks_reports_what_chunk_by_chunk_feeding_reports():
    rng = random.Random(41)
    runs = 0
    for _ in range(2000):
        chunks = _chunks(rng, _document(rng))
        one, many = CommittedChecker(), CommittedChecker()
        cut = rng.randint(0, len(chunks) - 1)
        for chunk in chunks[:cut]:
            if chunk:  # (the guard feeds no empty chunk)
                assert one.feed(chunk) == many.feed(chunk)
        promise = many.quiet(True)  # feed_chunks takes what the guard kept from it
        if promise is None:
            continue
        stop = cut + rng.randint(1, max(1, _kept(chunks[cut:], promise)))
        if not any(chunks[cut:stop]):
            continue
        statuses = []
        for chunk in chunks[cut:stop]:
            status = one.feed(chunk)
            if not status.ok:
                break
            statuses.append(status)
        else:
            status = _merged(statuses, False)
        got = many.feed_chunks(chunks[cut:stop])
        assert (got.ok, got.reason, got.position, got.values, got.open, got.complete) == (
            status.ok,
            status.reason,
            status.position,
            status.values,
            status.open,
            status.complete,
        ), (chunks, cut, stop)
        if not got.ok:
            continue
        runs += stop - cut > 1
        for chunk in chunks[stop:]:
            if chunk:
                assert one.feed(chunk) == many.feed(chunk), (chunks, cut, stop)
        assert one.finish() == many.finish()
    assert runs > 800


def test_a_quiet_promise_holds_while_its_stops_are_allowed():
    rng = random.Random(42)
    promises = 0
    for _ in range(800):
        chunks = _chunks(rng, _document(rng))
        checker = CommittedChecker(max_depth=rng.choice((1000, 2, 3, 5)))
        counted = rng.random() < 0.5
        for n, chunk in enumerate(chunks):
            promise = checker.quiet(counted)
            if promise is not None and rng.random() < 0.3:
                promises += 1
                probe = checker.copy()
                fed = reported = 0
                for later in chunks[n : n + min(60, _kept(chunks[n:], promise))]:
                    if not later:
                        continue
                    status = probe.feed(later)
                    assert status.ok and status.complete == promise.complete, (chunks, n, later)
                    fed += len(later)
                    reported += _reported(status)
                    if counted:
                        assert reported <= promise.owed + 2 * fed, (chunks, n, later)
            if chunk and not checker.feed(chunk).ok:
                break
    assert promises > 1000


def test_the_guard_answers_as_one_that_never_spares_its_checker():
    rng = random.Random(43)
    stops = 0
    parsed = {}
    for _ in range(400):
        text = _document(rng)
        unit, about = rng.choice((("WORDS", len(text.split())), ("CHARACTERS", len(text) * 3 // 4)))
        limit = rng.choice((None, about + 1, about // 2, about // 4, rng.randint(0, 3)))
        key = "EXPECT JSON" if limit is None else f"EXPECT JSON\nEXPECT MAX {limit} {unit}"
        if rng.random() < 0.2:
            key = key.replace("EXPECT JSON", f"EXPECT JSON max_depth={rng.randint(1, 4)}")
        expect = parsed.get(key) or parsed.setdefault(key, parse_expectations(key))
        chunks = _chunks(rng, text)
        probe = rng.choice((3, 10, 1000))
        want = answers(never_asking(expect), chunks, probe)
        assert answers(StreamGuard(expect), chunks, probe) == want, (text, chunks, key)
        stops += any(len(row) == 4 and not row[0] for row in want)  # a feed's status, falsy
    assert 30 < stops < 300
