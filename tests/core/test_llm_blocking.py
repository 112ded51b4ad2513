"""ask returns at its deadline whatever a sync callable does (issue 30): a call or a stream
read blocked in C code is abandoned on its thread, never waited for, and what it returns
late is never used. ask_async does the same for a sync callable, off the event loop."""

from __future__ import annotations

import asyncio
import itertools
import queue
import socket
import threading
import time

import pytest

from formatbook_core import AskError, ask, ask_async
from formatbook_core.llm import ChatModel, _makes_awaitable
from formatbook_core.llm_replies import CallAbandoned, CallRunner, Deadline

EXPECT = "EXPECT JSON"
GOOD = '{"name": "Ada", "email": "ada@example.org"}'
NOT_JSON = "I would rather not say."
PROMPT = "Ada's contact card"
#: what a bound may overshoot by on a loaded machine: generous, since this is a bound, not a speed test
MARGIN = 3.0
#: how long a blocked call blocks when nothing releases it: the old ask_async, which ran a
#: sync callable on the event loop, waited this long and then failed these tests' assertions
BLOCK = 10


def _abandoned_threads_end(before: set[threading.Thread]) -> None:
    """Wait until every thread started since ``before`` has ended (the released calls)."""
    for thread in set(threading.enumerate()) - before:
        thread.join(30)
        assert not thread.is_alive()


@pytest.mark.parametrize("driver", ["ask", "ask_async"])
def test_a_call_blocked_far_past_the_deadline_is_abandoned_at_it(driver: str):
    """ask_async runs a sync callable on the attempt's thread too: the old one ran it on
    the event loop, which stalled there until the call returned (BLOCK seconds)."""
    release = threading.Event()
    calls = []

    def model(prompt: str) -> str:
        calls.append(threading.current_thread())
        if len(calls) == 1:
            return NOT_JSON  # judged and failed: kept
        release.wait(BLOCK)  # blocks in C (a lock wait), far past the deadline
        return GOOD

    assert ask(lambda p: GOOD, PROMPT, EXPECT).ok  # the first check's imports are not this test's time
    before = set(threading.enumerate())
    ticks: list[float] = []
    limits = {"max_attempts": 3, "timeout": None, "total_timeout": 1.5}
    start = time.monotonic()
    with pytest.raises(AskError) as info:
        if driver == "ask":
            ask(model, PROMPT, EXPECT, **limits)
        else:
            asyncio.run(_ticking(ask_async(model, PROMPT, EXPECT, **limits), ticks))
    elapsed = time.monotonic() - start
    assert elapsed < 1.5 + MARGIN
    if driver == "ask_async":
        _loop_went_on(ticks, start + 0.5, start + 1.4)  # the loop ran while the call blocked
    error = info.value
    assert error.timed_out and error.cause is None
    first, second = error.attempts  # no third attempt: the total had run out
    assert first.reply == NOT_JSON and not first.stopped
    assert second.reply == "" and second.stopped
    assert "did not end within the time limit of 1.5 s for all attempts" in (second.stop_reason or "")
    assert "within the time limit of 1.5 s for all attempts (2 attempt(s))" in str(error)
    assert all(thread is not threading.main_thread() for thread in calls)
    # the call returns a passing reply after all: nobody takes it
    release.set()
    _abandoned_threads_end(before)
    assert len(error.attempts) == 2 and error.attempts[1].reply == "" and not error.attempts[1].result.ok


def test_an_attempt_blocked_past_its_own_timeout_leaves_room_for_the_next():
    release = threading.Event()
    replies = iter(["block", GOOD])

    def model(prompt: str) -> str:
        reply = next(replies)
        if reply == "block":
            release.wait(120)
        return reply

    before = set(threading.enumerate())
    start = time.monotonic()
    result = ask(model, PROMPT, EXPECT, timeout=0.3)
    assert time.monotonic() - start < 0.3 + MARGIN
    first, second = result.attempts
    assert first.stopped and "the attempt's time limit of 0.3 s" in (first.stop_reason or "")
    assert result.ok and second.reply == GOOD and result.value == {"name": "Ada", "email": "ada@example.org"}
    release.set()
    _abandoned_threads_end(before)


@pytest.mark.parametrize("driver", ["ask", "ask_async"])
def test_a_stream_blocked_in_a_socket_read_is_given_up_at_the_deadline(driver: str):
    """ask_async reads a sync stream on the attempt's thread too, the event loop going on
    meanwhile (the old one waited for each read on the loop, stalled until the deadline)."""
    ours, theirs = socket.socketpair()
    state = {"closed": False, "after": 0}

    def chunks():
        try:
            yield '{"name": "Ada", '
            ours.recv(1)  # blocks in the socket read until the other end closes
            state["after"] += 1
            yield '"email": "ada@example.org"}'
        finally:
            state["closed"] = True

    before = set(threading.enumerate())
    shown: list[str] = []
    ticks: list[float] = []
    options = {"max_attempts": 1, "timeout": 1.2, "on_chunk": shown.append}
    start = time.monotonic()
    with pytest.raises(AskError) as info:
        if driver == "ask":
            ask(lambda p: chunks(), PROMPT, EXPECT, **options)
        else:
            asyncio.run(_ticking(ask_async(lambda p: chunks(), PROMPT, EXPECT, **options), ticks))
    assert time.monotonic() - start < 1.2 + MARGIN
    if driver == "ask_async":
        _loop_went_on(ticks, start + 0.1, start + 1.1)  # read on the attempt's thread, not on the loop
    (attempt,) = info.value.attempts
    assert attempt.stopped and "the attempt's time limit of 1.2 s" in (attempt.stop_reason or "")
    assert attempt.reply == '{"name": "Ada", ' and shown == ['{"name": "Ada", ']
    assert not state["closed"]  # still inside the read: a running generator cannot be closed
    theirs.close()  # the read returns: the chunk after it is dropped and the generator closed
    _abandoned_threads_end(before)
    ours.close()
    assert state == {"closed": True, "after": 1}
    assert attempt.reply == '{"name": "Ada", ' and shown == ['{"name": "Ada", '] and attempt.stopped


class _BlockingStream:
    """A stream object with ``close()`` (like the SDK's) whose read blocks until closed."""

    def __init__(self) -> None:
        self.closed = threading.Event()
        self.sent = 0

    def __iter__(self):
        return self

    def __next__(self) -> str:
        if self.sent == 0:
            self.sent += 1
            return '{"name": '
        self.closed.wait(120)
        raise ConnectionError("the response was closed")

    def close(self) -> None:
        self.closed.set()


def test_a_stream_with_a_close_is_closed_at_the_deadline():
    stream = _BlockingStream()
    before = set(threading.enumerate())
    with pytest.raises(AskError) as info:
        ask(lambda p: stream, PROMPT, EXPECT, max_attempts=1, timeout=0.3)
    # closed from the caller's thread at the deadline: the blocked read ends at once
    assert stream.closed.is_set()
    _abandoned_threads_end(before)
    (attempt,) = info.value.attempts
    assert attempt.stopped and info.value.cause is None and attempt.reply == '{"name": '


def _late_stream(release: threading.Event, wait: float):
    """A model that returns a started stream once ``release`` is set (or ``wait`` passed),
    and the state its stream keeps: how often it was read, whether it was closed."""
    state = {"read": 0, "closed": False}

    def chunks():
        try:
            state["read"] += 1
            yield GOOD
        finally:
            state["closed"] = True

    def model(prompt: str):
        stream = chunks()
        next(stream)  # started, so that closing it runs its finally
        release.wait(wait)
        return stream

    return model, state


def test_a_stream_returned_after_the_deadline_is_closed_unread():
    release = threading.Event()
    model, state = _late_stream(release, 120)

    before = set(threading.enumerate())
    with pytest.raises(AskError) as info:
        ask(model, PROMPT, EXPECT, max_attempts=1, timeout=0.3)
    release.set()
    _abandoned_threads_end(before)
    assert state == {"read": 1, "closed": True}
    assert info.value.attempts[0].reply == "" and info.value.attempts[0].stopped


def test_without_a_deadline_the_callable_runs_on_the_callers_thread():
    threads = []

    def model(prompt: str):
        threads.append(threading.current_thread())
        return iter(['{"name": "Ada", ', '"email": "a@b.c"}'])

    assert ask(model, PROMPT, EXPECT, timeout=None, total_timeout=None).ok
    assert threads == [threading.main_thread()]
    assert ask(model, PROMPT, EXPECT, timeout=5).ok
    assert threads[1] is not threading.main_thread()


def test_a_runner_abandoned_once_runs_nothing_more_and_drops_what_returns():
    release = threading.Event()
    runner = CallRunner(Deadline(0.2, "the test's 0.2 s"))
    assert runner.run(lambda: 7) == 7
    with pytest.raises(ValueError, match="boom"):
        runner.run(lambda: int("boom"))  # an exception is raised in the caller, as called
    with pytest.raises(CallAbandoned, match=r"the test's 0\.2 s"):
        runner.run(lambda: release.wait(120) and "late")
    assert runner.abandoned and runner.unless_abandoned(lambda: 1 / 0) is False
    with pytest.raises(CallAbandoned):
        runner.run(lambda: 8)
    release.set()
    runner.close()


def test_a_runner_left_by_an_interrupt_drops_the_stream_it_was_reading(monkeypatch):
    """KeyboardInterrupt while the caller waits (the main thread's signal): the reading
    stops at its next chunk and the stream is closed, no on_chunk after ask has raised."""
    release = threading.Event()
    state = {"closed": False}
    shown: list[str] = []

    def chunks():
        try:
            yield '{"name": '
            release.wait(120)
            yield '"Ada", "email": "a@b.c"}'
        finally:
            state["closed"] = True

    real_get = queue.SimpleQueue.get
    waits = []

    def interrupted(self, block=True, timeout=None):
        if threading.current_thread() is threading.main_thread():
            waits.append(timeout)
            if len(waits) == 2:  # the caller's wait for the stream's reading (the first: the call)
                raise KeyboardInterrupt
        return real_get(self, block, timeout)

    monkeypatch.setattr(queue, "SimpleQueue", _Patched(interrupted))
    before = set(threading.enumerate())
    with pytest.raises(KeyboardInterrupt):
        ask(lambda p: chunks(), PROMPT, EXPECT, timeout=30, on_chunk=shown.append)
    release.set()
    _abandoned_threads_end(before)
    assert state["closed"] and shown in ([], ['{"name": '])


def _Patched(get):
    """A SimpleQueue class whose ``get`` is ``get`` (pure Python, so it can be patched)."""

    class Patched:
        def __init__(self):
            self._q = _REAL_QUEUE()

        def put(self, item):
            self._q.put(item)

        def get_nowait(self):
            return self._q.get_nowait()

        def get(self, block=True, timeout=None):
            return get(self._q, block, timeout)

    return Patched


_REAL_QUEUE = queue.SimpleQueue


async def _ticking(awaitable, ticks: list[float]):
    """Await ``awaitable`` while a task notes the time every 20 ms: the loop's liveness."""

    async def tick():
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.02)

    ticker = asyncio.create_task(tick())
    try:
        return await awaitable
    finally:
        ticker.cancel()


def _loop_went_on(ticks: list[float], start: float, until: float) -> None:
    """The loop ticked all along from ``start`` to ``until``, never stalled for 0.5 s."""
    seen = [start, *(t for t in ticks if start <= t <= until), until]
    assert max(b - a for a, b in itertools.pairwise(seen)) < 0.5


def test_a_cancelled_ask_async_closes_what_its_sync_call_returns_late():
    release = threading.Event()
    model, state = _late_stream(release, BLOCK)

    async def cancelled():
        with pytest.raises((asyncio.TimeoutError, TimeoutError)):
            await asyncio.wait_for(ask_async(model, PROMPT, EXPECT, timeout=30), 0.3)

    before = set(threading.enumerate())
    start = time.monotonic()
    asyncio.run(cancelled())
    assert time.monotonic() - start < 0.3 + MARGIN
    release.set()
    _abandoned_threads_end(before)
    assert state == {"read": 1, "closed": True}


class _OnLoop(ChatModel):
    """A chat model whose async path only makes an awaitable: called on the loop."""

    def __init__(self, threads: list[threading.Thread]) -> None:
        super().__init__()
        self.threads = threads

    def sends_on_loop(self) -> bool:
        return True

    def send_async(self, messages, *, timeout=None):
        self.threads.append(threading.current_thread())

        async def reply() -> str:
            return GOOD

        return reply()


def test_ask_async_calls_on_the_loop_only_what_makes_an_awaitable():
    threads: list[threading.Thread] = []

    def plain(prompt: str) -> str:
        threads.append(threading.current_thread())
        return GOOD

    async def coroutine(prompt: str) -> str:
        return GOOD

    class Awaiting:
        async def __call__(self, prompt: str) -> str:
            return GOOD

    async def run(llm, **options):
        return await ask_async(llm, PROMPT, EXPECT, **options)

    for llm in (coroutine, Awaiting(), ChatModel(coroutine)):
        assert asyncio.run(run(llm)).ok
    assert asyncio.run(run(plain)).ok and threads[-1] is not threading.main_thread()
    assert asyncio.run(run(ChatModel(plain))).ok and threads[-1] is not threading.main_thread()
    assert asyncio.run(run(_OnLoop(threads))).ok and threads[-1] is threading.main_thread()
    assert asyncio.run(run(plain, timeout=None, total_timeout=None)).ok and threads[-1] is threading.main_thread()
    assert [
        _makes_awaitable(llm) for llm in (coroutine, Awaiting(), ChatModel(coroutine), plain, ChatModel(plain))
    ] == [
        True,
        True,
        True,
        False,
        False,
    ]
