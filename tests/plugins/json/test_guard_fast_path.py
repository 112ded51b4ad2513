"""The JSON guard's fused hot path answers what its layers answer, feed for feed.

``StreamGuard`` over ``EXPECT JSON`` feeds the format's ``CommittedChecker``: the payload's
commitment, the watch for fence lines and the automaton in one object, with a short path
for the commonest chunk (and the guard's own inlined hot path before it). The reference
here is the path without any of that: the guard's general path (``_pass``/``_take``), the
commitment as the wrapper it was (:class:`_LayeredCommitted`, kept here as the oracle),
every chunk through the fence watch's scans and the general automaton. Several hundred
damaged and valid replies (prose or a fence before the payload, think blocks, fence lines
inside strings, unusual white space, cut ends), cut at random, must give the same status
(ok, reason, position, complete) on every feed, the same stop chunk and the same room
under a MAX limit, the same ``can_end()`` answers and counts of where the checker's text
stands in the reply (which the hot path brings up lazily) when asked, and go on alike
as their copies. Seeded: the same inputs every run.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

from formatbook_core import Expectations, StreamGuard, parse_expectations
from formatbook_core.results import StreamStatus, ok_status
from formatbook_json.commitment import CERTAIN, UNCERTAIN, Commitment
from formatbook_json.stream import _RelaxedChecker

_OK = StreamStatus(True)
_COMPLETE = StreamStatus(True, complete=True)


class _General(_RelaxedChecker):
    """The relaxed checker with every chunk through the fence watch's scans and the
    general automaton (no short path, no memoized move)."""

    __slots__ = ()

    def feed(self, chunk: str) -> StreamStatus:
        return self._watched(chunk)

    def _automaton(self, chunk: str) -> StreamStatus:
        return self._run(chunk)


class _LayeredCommitted:
    """The commitment as a wrapper around the relaxed checker (as it was before the layers
    were fused): values count once the payload is certain; white space ending the open
    text is held back until more of the string follows."""

    def __init__(self) -> None:
        self._inner: _RelaxedChecker | None = _General(False)
        self._commit = Commitment()
        self._tail = ""

    def feed(self, chunk: str) -> StreamStatus:
        commit = self._commit
        if commit.state == CERTAIN:
            assert self._inner is not None
            status = self._inner.feed(chunk)
            if status.values:
                self._tail = ""
            return self._held_back(status)
        if commit.state == UNCERTAIN:
            commit.feed(chunk)
            return _OK
        assert self._inner is not None
        status = self._inner.feed(chunk)
        state = commit.feed(chunk)
        if state == CERTAIN:
            if status.values:
                self._tail = ""
            return self._held_back(status)
        if state == UNCERTAIN:
            self._inner = None
        return _COMPLETE if status.ok and status.complete else _OK

    def _held_back(self, status: StreamStatus) -> StreamStatus:
        opened = status.open
        if not opened:
            return status
        body = opened.rstrip()
        if not body:
            self._tail += opened
            return replace(status, open="")
        out = self._tail + body
        self._tail = opened[len(body) :]
        if out == opened:
            return status
        if status.values or status.complete:
            return ok_status(status.values, out, status.complete)
        return replace(status, open=out)

    def finish(self) -> StreamStatus:
        if self._inner is None or self._commit.state != CERTAIN:
            return _OK
        return self._inner.finish()

    def copy(self) -> _LayeredCommitted:
        clone = object.__new__(_LayeredCommitted)
        clone._inner = self._inner.copy() if self._inner is not None else None
        clone._commit = Commitment()
        for name in Commitment.__slots__:
            value = getattr(self._commit, name)
            setattr(clone._commit, name, list(value) if isinstance(value, list) else value)
        clone._tail = self._tail
        return clone


def _oracle(expect: Expectations) -> StreamGuard:
    guard = StreamGuard(expect)
    guard._checker = _LayeredCommitted()
    guard._direct = False  # the guard's general path: _pass, _advance_one, _take
    return guard


_WORDS = ("yes", "the", "sky", "is", "blue", "naïve", "don't", "Dr.", "3.5", "a  b", "x\u00a0y", "tab\there")
_ODD = ("`", "~", "<", "\\", '"', "'", "\u201c", "\u00a0", "\n", "\n```", "\n  ``", "\n~~~\n", "<think>", " ")
_BEFORE = (
    "",
    "",
    "  \n",
    "Here it is:\n",
    "```json\n",
    "Sure.\n```json\n",
    '<think>a draft {"a": 1}</think>\n',
    "<think>\nno</think>",
    "[1] see ",
    "```\n",
)
_AFTER = ("", "", "\n```", "\n```\nHope this helps.", " Done.", "\u00a0", "\n\u2028", "  \n")
_DAMAGE = (*"{}[]\",:'\\\n`~<\u00a0x", "\n```\n", "<think>", "</think>")


def _value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return " ".join(
            rng.choice(_WORDS) + (rng.choice(_ODD) if rng.random() < 0.1 else "") for _ in range(rng.randint(0, 9))
        )
    if kind == 1:
        return rng.choice((0, -1.5, 12, 3e5, True, False, None))
    if kind == 2:
        return rng.choice(_WORDS)
    if kind == 3:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(_WORDS): _value(rng, depth + 1) for _ in range(rng.randint(1, 3))}


def _reply(rng: random.Random) -> str:
    value = {"answer": _value(rng), "items": [_value(rng) for _ in range(rng.randint(1, 3))]}
    text = json.dumps(value, indent=rng.choice((None, 2, 4)), ensure_ascii=rng.random() < 0.2)
    for _ in range(rng.choice((0, 0, 1, 2, 3))):  # damage a little, or not at all
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(_DAMAGE) + text[at:]
    if rng.random() < 0.15:
        text = text[: rng.randint(1, len(text))]  # cut short
    return rng.choice(_BEFORE) + text + rng.choice(_AFTER)


def _chunks(rng: random.Random, text: str) -> list[str]:
    out, i = [], 0
    while i < len(text):
        step = rng.choice((1, 2, 3, 4, 4, 4, 5, 8))
        out.append(text[i : i + step])
        i += step
    return out


def _run(guard: StreamGuard, chunks: list[str], probe: int) -> list[tuple]:
    """Every feed's status; every ``probe``-th feed the guard is asked whether the reply
    may end (``can_end``, which brings the hot path's lazy counts up: the counts of where
    the checker's text stands in the reply are compared too), and halfway it goes on as
    its copy (the copy takes over the lazy counts). (``finish()`` is ``check()``, and brings
    the counts up as ``can_end`` does.)"""
    out = []
    for n, chunk in enumerate(chunks):
        if n == len(chunks) // 2:
            guard = guard.copy()
        s = guard.feed(chunk)
        out.append((s.ok, s.reason, s.position, s.complete, guard.headroom() if n % 5 == 0 else None))
        if n % probe == 0 and s.ok:  # (after a stop nothing is fed: the counts are never read)
            think = guard._think
            out.append((guard.can_end(), guard._fed, guard._shift, think._fed if think is not None else None))
        if not s.ok:
            break
    return out


def test_the_fused_hot_path_answers_as_the_layers_do_on_every_feed():
    rng = random.Random(29)
    stops = 0
    parsed: dict[str, Expectations] = {}
    for _ in range(300):
        text = _reply(rng)
        unit, about = rng.choice((("WORDS", len(text.split())), ("CHARACTERS", len(text) * 3 // 4)))
        limit = rng.choice((None, about + 1, about // 2, about // 4, about // 8, rng.randint(0, 3)))
        key = "EXPECT JSON" if limit is None else f"EXPECT JSON\nEXPECT MAX {limit} {unit}"
        expect = parsed.get(key) or parsed.setdefault(key, parse_expectations(key))  # parsed once
        chunks = _chunks(rng, text)
        probe = rng.choice((4, 9, 1000))
        got, want = _run(StreamGuard(expect), chunks, probe), _run(_oracle(expect), chunks, probe)
        assert got == want, (text, chunks, expect)
        stops += any(len(row) == 5 and not row[0] for row in want)  # a feed's status, falsy
    # the inputs reach both sides of the verdict: some replies stop, most run to the end
    assert 30 < stops < 250
