"""LLM callables (``ChatModel`` marks a chat model) and reading what one returned: a string, an OpenAI-style response, or a stream
of chunks (an iterator or async iterator of strings or OpenAI-style chunks).

A stream goes through a ``StreamGuard`` chunk by chunk; once the guard says no
continuation can pass, the stream is closed at once (``close()`` / ``aclose()``, which
cancels an HTTP stream of the openai SDK) and the part received is kept. A stream with no
close of its own iterated by a generator (simonw/llm's ``Response``, whose HTTP stream
lives in the model's generator, in a reference cycle) has that generator closed and the
cycle collector run once, which closes the HTTP response; a stream that offers no way to
close it (llm's ``AsyncResponse``) is left to run, with an :class:`UnclosedStreamWarning`
once per type. A stream is
also stopped past its attempt's deadline, after :data:`MAX_EMPTY_CHUNKS` chunks in a row
that carry no text, and once it has sent more than the expectations' ``max_size``
characters (the bound ``check`` and healing refuse a reply beyond; reasoning text counts,
and a chunk without text counts as one character).

The finish reason is read from every shape (an OpenAI or LiteLLM response or chunk, the
same as dicts): a reply cut by the model (``finish_reason`` ``"length"``, ``"max_tokens"``
or ``"content_filter"``), or a stream of OpenAI-style chunks that ended with no finish
reason at all (the connection dropped: the SDK ends such a stream without an error), is a
cut reply: its verdict fails with ``reply.cut`` first, whatever the text would heal to.
So is a stream that ended without any chunk: what it was cannot be told, and nothing said
the reply ended (the SDK reads a proxy's HTML page sent with status 200, keep-alive
comments alone or ``[DONE]`` alone as a stream of no chunk). A stream of plain strings has
no finish reason; once it sent a chunk, its end is the reply's end.

What the endpoint did wrong (an exception from the callable or from its stream, a
response or chunk whose content is not text) is a :class:`TransportError`; the part
received before it is kept (:attr:`Received.error`).
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import queue
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from .limits import limits_from
from .pipeline import check
from .results import CheckResult, FormatbookError, Span, Violation
from .streaming import StreamGuard

OnChunk = Callable[[str], Any]
Messages = list[dict[str, str]]

_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")
#: Characters per token in formatbook's estimate of a reply the endpoint did not count
#: (OpenAI's rule of thumb for English text; no tokenizer is loaded for it).
CHARS_PER_TOKEN = 4
#: The guard checks a stream in pieces of at least this many characters (``StreamGuard``'s
#: ``lag``): a doomed reply is stopped at most this late, for a fraction of the cost of
#: checking every few-character chunk on its own (benchmarks/bench_guard.py).
GUARD_LAG = 256
#: A stream that sends this many chunks in a row without any text (no content, no
#: reasoning) is stopped: a server sending empty deltas without end.
MAX_EMPTY_CHUNKS = 2000
#: The finish reasons of a reply the model did not end: cut at the token limit, or by a filter.
CUT_REASONS = frozenset({"length", "max_tokens", "content_filter"})
#: violation codes of the ask loop
CUT = "reply.cut"
STOPPED = "reply.stopped"
TRANSPORT = "reply.transport"


class TransportError(FormatbookError):
    """The endpoint failed, or sent what is not a reply: an exception raised by the LLM
    callable or by its stream (an HTTP error, a dropped connection, a line of a stream
    that is not JSON, a time-out of the HTTP client), or a response or chunk whose
    content is not text. The original exception, when there is one, is ``__cause__``."""


class ChatModel:
    """Marks a callable as a chat model: ``ChatModel(fn)`` where ``fn(messages)`` takes a
    list of ``{"role", "content"}`` messages. ``ask`` then keeps the conversation.

    Usable as a decorator (``@ChatModel``); subclasses (``OpenAIChat``) override ``__call__``.
    """

    def __init__(self, fn: Callable[[Messages], Any] | None = None):
        self._fn = fn

    def __call__(self, messages: Messages) -> Any:
        if self._fn is None:
            raise TypeError("ChatModel() needs a callable taking the list of messages")
        return self._fn(messages)

    def send(self, messages: Messages, *, timeout: float | None = None) -> Any:
        """What ``ask`` calls: ``self(messages)``; ``timeout`` is the seconds left for this
        attempt, for a model that can pass it to its client (``OpenAIChat`` does)."""
        return self(messages)

    def expecting(self, expectations: Any) -> ChatModel:
        """The model ``ask`` sends its requests to, given its ``Expectations``: called once,
        before the first request. This one; a model that shapes its requests from the
        expectations (``openai_chat(..., structured=True)``) returns one that does."""
        return self

    def send_async(self, messages: Messages, *, timeout: float | None = None) -> Any:
        """What ``ask_async`` calls: ``send`` by default (it may return an awaitable); a
        model with a sync and an async client (``OpenAIChat``) sends through the async one."""
        return self.send(messages, timeout=timeout)

    def sends_on_loop(self) -> bool:
        """Whether ``send_async`` only makes an awaitable for the running event loop, with
        no work that could block: ``ask_async`` then calls it on the loop; otherwise on
        the attempt's thread, abandoned at the deadline like a sync call. Here: when the
        wrapped callable is an ``async def`` function."""
        return inspect.iscoroutinefunction(self._fn)

    def __repr__(self) -> str:
        return f"ChatModel({self._fn!r})"


@dataclass
class Received:
    """One reply as read: its text (what arrived before a stop), its verdict, the stop,
    the finish reason the endpoint gave, and the transport failure that ended it."""

    text: str
    result: CheckResult
    stopped: bool = False
    stop_reason: str | None = None
    stop_position: int | None = None
    usage: dict[str, int] | None = None
    finish_reason: str | None = None
    error: TransportError | None = None
    #: completion tokens estimated from the text and reasoning received, when the reply
    #: ended before its end (stopped, failed, dropped) and the endpoint reported no usage
    estimate: int | None = None


def estimate_tokens(chars: int) -> int:
    """formatbook's estimate of the tokens in ``chars`` characters of text: one per
    :data:`CHARS_PER_TOKEN`, rounded up."""
    return -(-chars // CHARS_PER_TOKEN)


def estimated_usage(sent_chars: int, completion_tokens: int) -> dict[str, int]:
    """The usage of an attempt the endpoint did not count: the prompt estimated from the
    characters sent, the completion as estimated from what arrived."""
    prompt_tokens = estimate_tokens(sent_chars)
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def transport_error(exc: BaseException) -> TransportError:
    """``exc`` as a :class:`TransportError` (itself when it is one), chained to it."""
    if isinstance(exc, TransportError):
        return exc
    error = TransportError(f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}")
    error.__cause__ = exc
    return error


def failed_call(exc: BaseException, expectations: Any, deadline: Deadline | None = None) -> Received:
    """The attempt whose call itself failed: no text, the failure as its verdict (a stop
    when ``deadline`` had passed: the HTTP client gave up because time was up)."""
    reader = _Reader(expectations, None, deadline)
    reader.fail(exc)
    return reader.received()


def is_stream(reply: Any) -> bool:
    """A reply given as chunks (not a string, not a response object with ``choices``)."""
    if reply is None or isinstance(reply, (str, bytes, dict)) or _has_choices(reply):
        return False
    return hasattr(reply, "__iter__") or hasattr(reply, "__aiter__")


def whole_reply(reply: Any, expectations: Any, on_chunk: OnChunk | None) -> Received:
    """A reply given whole: a string, ``None`` or an OpenAI-style response."""
    try:
        text = response_text(reply)
    except TransportError as exc:
        return failed_call(exc, expectations)
    if on_chunk is not None and text:
        on_chunk(text)
    finish = finish_reason_of(reply)
    result = check(text, expectations)
    if finish in CUT_REASONS:
        result = _cut(result, f"the reply was cut off before its end (finish_reason {finish!r})")
    return Received(text or "", result, usage=usage_of(reply), finish_reason=finish)


def read_stream(
    stream: Any,
    expectations: Any,
    on_chunk: OnChunk | None,
    deadline: Deadline | None = None,
    runner: CallRunner | None = None,
) -> Received:
    """Read a sync stream of chunks through a guard, closing it early when it is doomed
    (or past ``deadline``: the stream is read on ``runner``'s thread, a new runner's when
    none is given, and given up on at the deadline even while a read blocks)."""
    if hasattr(stream, "__aiter__") and not hasattr(stream, "__iter__"):
        _close_now(stream)
        raise TypeError("the llm callable returned an async iterator: use ask_async")
    reader, iterator = _reading(stream, expectations, on_chunk, deadline)
    if iterator is None:
        return reader.received()
    steps = CallRunner(deadline) if runner is None else runner
    try:
        steps.run(lambda: _pump(iterator, stream, reader, steps))
    except CallAbandoned as exc:
        _given_up(stream, reader, exc)
    finally:
        if runner is None:
            steps.close()
    return reader.received()


async def _read_stream_async(
    stream: Any, expectations: Any, on_chunk: OnChunk | None, deadline: Deadline | None, runner: CallRunner
) -> Received:
    """:func:`read_stream` awaited: the event loop goes on while ``runner``'s thread reads."""
    reader, iterator = _reading(stream, expectations, on_chunk, deadline)
    if iterator is None:
        return reader.received()
    try:
        await runner.run_async(lambda: _pump(iterator, stream, reader, runner))
    except CallAbandoned as exc:
        _given_up(stream, reader, exc)
    return reader.received()


def _reading(
    stream: Any, expectations: Any, on_chunk: OnChunk | None, deadline: Deadline | None
) -> tuple[_Reader, Any]:
    """The reader of a sync stream and the stream's iterator (``None``: ``iter`` failed, the reader says so)."""
    reader = _Reader(expectations, on_chunk, deadline)
    try:
        return reader, iter(stream)
    except Exception as exc:
        reader.fail(exc)
        return reader, None


def _given_up(stream: Any, reader: _Reader, exc: CallAbandoned) -> None:
    """The stream's reading was abandoned at the deadline: the runner's thread is still
    inside the stream and no longer touches the reader. A stream that is no generator
    (the SDK's) is closed now, which ends its HTTP response and the blocked read; the
    thread closes the rest once the read returns (Python refuses to close a running generator)."""
    reader.fail(exc)
    if not inspect.isgenerator(stream):
        _close_quietly(lambda: _close_now(stream), reader)


def _pump(iterator: Any, stream: Any, reader: _Reader, runner: CallRunner) -> None:
    """Feed ``reader`` the stream's chunks until it ends or the reader stops it, then
    close the stream when it did not end; from the moment ``runner`` is abandoned, chunks
    are dropped and the reader is left alone (the caller's thread has taken it over)."""
    finished = False
    try:
        while True:
            try:
                chunk = next(iterator)
            except StopIteration:
                finished = True
                break
            except Exception as exc:  # the endpoint's failure: kept, with what came before it
                runner.unless_abandoned(partial(reader.fail, exc))
                break
            if not runner.unless_abandoned(partial(reader.take, chunk)):
                break
    finally:
        if not finished:  # stopped, or an exception (the caller's on_chunk, the network): cancel it
            if runner.abandoned:
                _close_abandoned(iterator, stream)
            else:
                _close_quietly(lambda: _close_sync(iterator, stream), reader)


def _close_abandoned(iterator: Any, stream: Any) -> None:
    """Close a stream nobody reads any more (its reading was abandoned at the deadline)."""
    try:
        _close_sync(iterator, stream)
    except Exception:  # noqa: S110 - its attempt was recorded as a stop already
        pass


class CallAbandoned(TimeoutError):
    """A call still running on a :class:`CallRunner`'s thread at its deadline, given up on."""


class CallRunner:
    """Runs the steps of one attempt (the sync callable, then each chunk of the stream it
    returned) on one daemon thread, while the caller's thread waits for each at most until
    ``deadline``; without a deadline each step runs on the caller's thread, as called.

    Python cannot stop a thread: a step still running at the deadline (a model blocked in C
    code or a socket read, a generator whose next chunk never comes) is abandoned, not
    killed. It raises :class:`CallAbandoned` in the caller, the runner is marked
    ``abandoned``, and whatever the step returns later is never handed back: the thread
    closes it (a stream, an awaitable) and ends; a step that reads a stream touches what
    it shares with the caller only through :meth:`unless_abandoned`. The thread holds on until the call returns, as does whatever
    the call holds (a connection, a server generating a reply nobody reads): a client's own
    time-out ends it sooner (a :class:`ChatModel` is given the time left).
    """

    def __init__(self, deadline: Deadline | None) -> None:
        self.deadline = deadline
        self.abandoned = False
        self._todo: queue.SimpleQueue[tuple[Callable[[], Any], Callable[[], None] | None] | None] = queue.SimpleQueue()
        self._done: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def run(self, step: Callable[[], Any]) -> Any:
        """``step()``, or :class:`CallAbandoned` when it has not returned at the deadline."""
        left = self.deadline.left() if self.deadline is not None else None
        if left is None:
            return step()
        self._queue(step, None)
        try:
            ok, value = self._done.get(timeout=left)
        except queue.Empty:
            ok, value = self._taken()
        except BaseException:  # KeyboardInterrupt while waiting: the step is abandoned, the caller gone
            self._leave()
            raise
        if ok:
            return value
        raise value

    async def run_async(self, step: Callable[[], Any]) -> Any:
        """:meth:`run` for an event loop: the loop goes on while ``step`` runs on the
        runner's thread (without a deadline, ``step()`` runs on the loop, as called)."""
        left = self.deadline.left() if self.deadline is not None else None
        if left is None:
            return step()
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        self._queue(step, partial(_wake, loop, ready))
        try:
            await asyncio.wait_for(ready.wait(), left)
        except (asyncio.TimeoutError, TimeoutError):
            pass  # taken below if it returned meanwhile, else abandoned
        except BaseException:  # the awaiting task was cancelled: the step is abandoned
            self._leave()
            raise
        ok, value = self._taken()
        if ok:
            return value
        raise value

    def _queue(self, step: Callable[[], Any], notify: Callable[[], None] | None) -> None:
        """Hand ``step`` to the thread (started on the first step); ``notify`` runs there
        once its outcome is ready."""
        if self.abandoned:
            raise CallAbandoned("an earlier step of this attempt was abandoned at its deadline")
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="formatbook-ask-call", daemon=True)
            self._thread.start()
        self._todo.put((step, notify))

    def _taken(self) -> tuple[bool, Any]:
        """The step's outcome if it has returned, else the runner abandoned (:class:`CallAbandoned`)."""
        with self._lock:  # the step may have returned meanwhile: then it is taken, not abandoned
            try:
                return self._done.get_nowait()
            except queue.Empty:
                self.abandoned = True
        what = self.deadline.what if self.deadline is not None else "its time limit"
        raise CallAbandoned(f"the call did not return within {what}") from None

    def _leave(self) -> None:
        """The caller stopped waiting (an interrupt, a cancelled task): abandon the step,
        and dispose of an outcome it handed over meanwhile."""
        with self._lock:
            self.abandoned = True
            try:
                ok, value = self._done.get_nowait()
            except queue.Empty:
                return
        if ok:
            _dispose(value)

    def unless_abandoned(self, step: Callable[[], Any]) -> Any:
        """``step()`` while no deadline has abandoned the runner (then ``False``, not run):
        what a running step shares with the caller's thread is touched only so."""
        with self._lock:
            return False if self.abandoned else step()

    def close(self) -> None:
        """End the thread once the steps queued are done."""
        if self._thread is not None:
            self._todo.put(None)

    def _work(self) -> None:
        while True:
            item = self._todo.get()
            if item is None:
                return
            step, notify = item
            try:
                outcome: tuple[bool, Any] = (True, step())
            except BaseException as exc:  # handed to the caller's thread, raised there
                outcome = (False, exc)
            with self._lock:
                if not self.abandoned:
                    self._done.put(outcome)
                    if notify is not None:
                        notify()
                    continue
            if outcome[0]:
                _dispose(outcome[1])


def _wake(loop: asyncio.AbstractEventLoop, ready: asyncio.Event) -> None:
    """Set ``ready`` on its event loop, from the runner's thread (a closed loop: nobody waits)."""
    try:
        loop.call_soon_threadsafe(ready.set)
    except RuntimeError:  # noqa: S110 - the loop is closed: the outcome stays queued, unread
        pass


def _dispose(value: Any) -> None:
    """Close what an abandoned call returned late, unread: a stream, an awaitable."""
    try:
        if inspect.isawaitable(value):
            getattr(value, "close", lambda: None)()
        elif is_stream(value):
            _close_now(value)
    except Exception:  # noqa: S110 - nobody reads this reply any more
        pass


async def read_async_stream(
    stream: Any,
    expectations: Any,
    on_chunk: OnChunk | None,
    deadline: Deadline | None = None,
    runner: CallRunner | None = None,
) -> Received:
    """``read_stream`` for an async iterator, each chunk awaited at most until
    ``deadline``; a sync one is read on ``runner``'s thread (a new runner's when none is
    given) while the event loop goes on, given up on at the deadline."""
    if not hasattr(stream, "__aiter__"):
        steps = CallRunner(deadline) if runner is None else runner
        try:
            return await _read_stream_async(stream, expectations, on_chunk, deadline, steps)
        finally:
            if runner is None:
                steps.close()
    reader = _Reader(expectations, on_chunk, deadline)
    iterator = stream.__aiter__()
    finished = False
    try:
        while True:
            try:
                chunk = await asyncio.wait_for(iterator.__anext__(), deadline.left() if deadline else None)
            except StopAsyncIteration:
                finished = True
                break
            except (asyncio.TimeoutError, TimeoutError):
                reader.stop_late()
                break
            except Exception as exc:
                reader.fail(exc)
                break
            if not reader.take(chunk):
                break
    finally:
        if not finished:
            try:
                await _close_async(iterator, stream)
            except Exception as exc:  # closing a broken connection can fail too: the first failure is kept
                if reader.error is None and reader.stop is None:
                    reader.fail(exc)
    return reader.received()


class Deadline:
    """When an attempt must end: ``seconds`` from now (``None``: never); ``what`` names it
    in the stop reason (``"the attempt's time limit of 30 s"``)."""

    def __init__(self, seconds: float | None, what: str) -> None:
        self.end = time.monotonic() + seconds if seconds is not None else None
        self.what = what

    def left(self) -> float | None:
        """Seconds left (never below 0), ``None`` without a limit."""
        return None if self.end is None else max(0.0, self.end - time.monotonic())

    def passed(self) -> bool:
        """Whether the deadline has come."""
        return self.end is not None and time.monotonic() >= self.end


def _close_quietly(close: Callable[[], None], reader: _Reader) -> None:
    """Close a stream; a failure to close a connection already broken is not a new error."""
    try:
        close()
    except Exception as exc:
        if reader.error is None and reader.stop is None:
            reader.fail(exc)


class _Reader:
    """Feeds chunks to the guard and keeps what the stream reported (usage, finish
    reason), the stop and why, and the transport failure that ended it."""

    def __init__(self, expectations: Any, on_chunk: OnChunk | None, deadline: Deadline | None):
        self.guard = StreamGuard(expectations, lag=GUARD_LAG)
        self.on_chunk = on_chunk
        self.deadline = deadline
        self.max_chars = limits_from(self.guard.expectations.options).max_size
        self.usage: dict[str, int] | None = None
        self.stop: tuple[str, int | None] | None = None
        self.finish: str | None = None
        self.error: TransportError | None = None
        self.structured = False  # an OpenAI-style chunk came: the stream must say how it ended
        self.chars = 0  # everything the stream sent: text, reasoning, one a chunk without either
        self.reasoning = 0  # characters of reasoning received
        self.empty = 0  # chunks in a row without text

    def take(self, chunk: Any) -> bool:
        """False once the reply is doomed (the stream must stop)."""
        reasoning = 0
        if isinstance(chunk, str):
            text = chunk
        else:
            try:
                text = chunk_text(chunk)
            except TransportError as exc:
                self.fail(exc)
                return False
            self._note(chunk)
            if not text:  # reasoning comes in chunks of its own
                reasoning = len(reasoning_text(chunk))
                self.reasoning += reasoning
        self.chars += max(1, len(text) + reasoning)
        self.empty = 0 if text or reasoning else self.empty + 1
        if text:
            if self.on_chunk is not None:
                self.on_chunk(text)
            status = self.guard.feed(text)
            if not status:
                self.stop = (status.reason or "the reply can no longer pass", status.position)
                return False
        return self._within_bounds()

    def _note(self, chunk: Any) -> None:
        """Keep what a chunk reports besides its text: that it is OpenAI-style, its finish
        reason, its usage."""
        choices = _get(chunk, "choices")
        if choices is not None:
            self.structured = True
            if choices:
                finish = _get(_first(choices), "finish_reason")
                if isinstance(finish, str) and finish:
                    self.finish = finish
        usage = usage_of(chunk)
        if usage is not None:
            self.usage = usage

    def _within_bounds(self) -> bool:
        """False (with the stop's reason) past the deadline, the size bound or the run of empty chunks."""
        if self.deadline is not None and self.deadline.passed():
            self.stop_late()
        elif self.chars > self.max_chars:
            self.stop = (f"the stream sent more than {self.max_chars:,} characters, the limit (max_size)", None)
        elif self.empty >= MAX_EMPTY_CHUNKS:
            self.stop = (f"the stream sent {self.empty:,} chunks in a row without any text", None)
        return self.stop is None

    def stop_late(self) -> None:
        """Stop because the deadline passed."""
        what = self.deadline.what if self.deadline is not None else "its time limit"
        self.stop = (f"the reply did not end within {what}", None)

    def fail(self, exc: BaseException) -> None:
        """The endpoint failed (or sent what is not a reply): the reply ends here. Past
        the deadline the failure is the time-out's doing (the HTTP client was given the
        time left), or a call abandoned at the deadline (:class:`CallRunner`): a stop, as
        when the deadline is seen between two chunks. After the
        finish reason came, the reply is whole: a failure then loses nothing."""
        if self.finish is not None:
            return  # the reply had ended (a usage chunk or [DONE] went wrong): it stands as it came
        if isinstance(exc, CallAbandoned) or (self.deadline is not None and self.deadline.passed()):
            self.stop_late()
        else:
            self.error = transport_error(exc)

    def _estimate(self, text: str, ended_early: bool) -> int | None:
        """The completion tokens of a reply that ended early with no usage reported."""
        received = len(text) + self.reasoning
        if not ended_early or self.usage is not None or not received:
            return None
        return estimate_tokens(received)

    def received(self) -> Received:
        result = self.guard.finish()
        text = self.guard.text
        if self.error is not None:
            failure = Violation(TRANSPORT, f"the endpoint failed after {len(text):,} characters: {self.error}")
            result = replace(result, ok=False, violations=[failure, *result.violations])
            estimate = self._estimate(text, True)
            return Received(text, result, True, str(self.error), None, self.usage, self.finish, self.error, estimate)
        if self.stop is None:
            silent = self.chars == 0  # not one chunk: no stream, not even of strings, ends its reply so
            dropped = self.finish is None and (self.structured or silent)
            if self.finish in CUT_REASONS:
                result = _cut(result, f"the reply was cut off before its end (finish_reason {self.finish!r})")
            elif dropped:
                what = "any chunk, so without a finish reason" if silent else "a finish reason"
                result = _cut(result, f"the stream ended without {what}: the reply was cut off")
            estimate = self._estimate(text, dropped)
            return Received(text, result, usage=self.usage, finish_reason=self.finish, estimate=estimate)
        reason, position = self.stop
        # the guard turned falsy only because no continuation can pass: the part received
        # fails too; the stop is the first violation either way, so a reader sees the cut
        stopped = Violation(
            STOPPED,
            f"the reply was stopped after {len(text):,} characters: {reason}",
            span=Span(position, position) if position is not None else None,
        )
        result = replace(result, ok=False, violations=[stopped, *result.violations])
        estimate = self._estimate(text, True)
        return Received(text, result, True, reason, position, self.usage, self.finish, estimate=estimate)


def _cut(result: CheckResult, message: str) -> CheckResult:
    """The verdict of a reply the model did not finish: failed, ``reply.cut`` first."""
    return replace(result, ok=False, violations=[Violation(CUT, message), *result.violations])


def response_text(reply: Any) -> str | None:
    """The text of a reply given whole; ``None`` when it has no content. A response whose
    content is not text, or with no choice at all, is a :class:`TransportError`; what is no response at all, a
    ``TypeError`` (the callable is wrong)."""
    if reply is None or isinstance(reply, str):
        return reply
    if _has_choices(reply):
        choice = _first(_get(reply, "choices"))
        if choice is None:  # a response in shape, with no reply in it: the endpoint's fault
            raise TransportError(f"the response has no choice (choices: {_get(reply, 'choices')!r:.60})")
        content = _get(_get(choice, "message"), "content")
        if content is None or isinstance(content, str):
            return content
        raise TransportError(f"the response's content is {type(content).__name__}, not text")
    raise TypeError(
        "the llm callable must return str, an OpenAI-style chat completion or an iterator of chunks, "
        f"not {type(reply).__name__}"
    )


def chunk_text(chunk: Any) -> str:
    """The text a streamed chunk adds: a string, or an OpenAI-style chunk's delta. A chunk
    whose content is not text is a :class:`TransportError`; what is no chunk at all, a
    ``TypeError``."""
    if isinstance(chunk, str):
        return chunk
    if chunk is None:
        return ""
    if _has_choices(chunk):
        choices = _get(chunk, "choices")
        if choices is None:  # a chunk in shape, with no choices at all: the endpoint's fault
            raise TransportError("a streamed chunk's choices are null")
        if not choices:
            return ""  # the usage chunk at the end of an OpenAI stream
        delta = _get(_first(choices), "delta")
        content = _get(delta, "content")
        if content is None or isinstance(content, str):
            return content or ""
        raise TransportError(f"a streamed chunk's content is {type(content).__name__}, not text")
    raise TypeError(f"a streamed chunk must be str or an OpenAI-style chunk, not {type(chunk).__name__}")


def reasoning_text(chunk: Any) -> str:
    """The reasoning a chunk's delta carries apart from its content (``reasoning_content``
    of DeepSeek and vLLM, ``reasoning`` of OpenRouter and Ollama), ``""`` when none."""
    choices = _get(chunk, "choices")
    if not choices:
        return ""
    delta = _get(_first(choices), "delta")
    for name in ("reasoning_content", "reasoning"):
        value = _get(delta, name)
        if isinstance(value, str):
            return value
    return ""


def finish_reason_of(obj: Any) -> str | None:
    """The finish reason of an OpenAI-style (or LiteLLM) response or chunk, object or dict:
    ``choices[0].finish_reason`` when it is text, else ``None``."""
    if obj is None or isinstance(obj, str):
        return None
    choices = _get(obj, "choices")
    if not choices:
        return None
    reason = _get(_first(choices), "finish_reason")
    return reason if isinstance(reason, str) and reason else None


def _first(choices: Any) -> Any:
    """The first choice of ``choices`` (a list, or a sequence the SDK made), ``None``
    when it is not a sequence of them."""
    try:
        return choices[0]
    except (TypeError, KeyError, IndexError):
        return None


def usage_of(obj: Any) -> dict[str, int] | None:
    """The token counts an OpenAI-style response or chunk reports, when it reports them."""
    usage = _get(obj, "usage")
    if usage is None:
        return None
    counts = {key: value for key in _USAGE_KEYS if isinstance(value := _get(usage, key), int)}
    return counts or None


def _has_choices(obj: Any) -> bool:
    """Whether ``obj`` is shaped as an OpenAI-style response or chunk: it has ``choices``
    (a key of a dict, an attribute of an SDK object), even empty or null."""
    return ("choices" in obj) if isinstance(obj, dict) else hasattr(obj, "choices")


def _get(obj: Any, name: str) -> Any:
    """An attribute of a response object, or a key of the same response as a dict."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


class UnclosedStreamWarning(UserWarning):
    """A stream was stopped early but offers no way to close it (no ``close()`` or
    ``aclose()``, on it or on its iterator): the server may go on generating until it
    ends. Warned once per type of stream."""


_warned: set[type] = set()


def _closer(obj: Any, *names: str) -> Callable[[], Any] | None:
    """The first of ``obj``'s methods named ``names`` (``close``, ``aclose``)."""
    for name in names:
        method = getattr(obj, name, None)
        if callable(method):
            return method
    return None


def _closed_only_a_generator(iterator: Any, stream: Any, names: tuple[str, ...]) -> bool:
    """Whether what was closed is only the generator that iterates ``stream`` (llm's
    ``Response``): ``stream`` itself has no close of its own."""
    generator = inspect.isgenerator(iterator) or inspect.isasyncgen(iterator)
    return generator and iterator is not stream and _closer(stream, *names) is None


def _unclosable(iterator: Any, stream: Any, names: tuple[str, ...]) -> None:
    """Warn (once per type) about a stream that neither it nor its iterator can close;
    an in-memory iterator (a list's, a ``map``...) holds no connection and is let be."""
    if any(_closer(obj, *names) is not None for obj in (iterator, stream)):
        return
    if isinstance(stream, (list, tuple)) or type(iterator).__module__ == "builtins":
        return
    kind = type(stream)
    if kind not in _warned:
        _warned.add(kind)
        warnings.warn(
            f"ask stopped a stream of {kind.__module__}.{kind.__qualname__} early but cannot close it "
            "(it has no close() or aclose()): the server may go on generating the reply",
            UnclosedStreamWarning,
            stacklevel=4,
        )


def _collect_dropped() -> None:
    """Run the cycle collector once, so that what a closed generator dropped is finalized
    now. A generator that holds an HTTP stream in a reference cycle (the openai SDK's
    ``Stream`` refers to itself through its iterator) leaves the response open until the
    next collection: closing llm's ``Response`` mid-stream is such a case, and the server
    goes on streaming until then (the SDK's iterator closes the response when it is
    finalized). Only after an early stop, and only for a stream without a close of its own:
    a full collection costs tens to hundreds of milliseconds in a large process (0.34 s with
    170,000 objects on a loaded 2-core machine), less than the reply the server would go on
    generating."""
    gc.collect()


def _close_now(obj: Any) -> None:
    """``obj.close()`` when it has one (an async close on a sync path is not leaked)."""
    close = _closer(obj, "close")
    if close is not None:
        outcome = close()
        if inspect.isawaitable(outcome):
            getattr(outcome, "close", lambda: None)()


def _close_sync(iterator: Any, stream: Any) -> None:
    """Close a stream stopped early: its iterator (a generator, or the stream itself), then
    the stream when it is another object (the SDK's stream that owns the response); then
    what the iterator dropped (:func:`_collect_dropped`), or a warning when nothing could
    be closed."""
    names = ("close",)
    for obj in (iterator, stream) if iterator is not stream else (stream,):
        _close_now(obj)
    if _closed_only_a_generator(iterator, stream, names):
        _collect_dropped()
    _unclosable(iterator, stream, names)


async def _close_async(iterator: Any, stream: Any) -> None:
    """``_close_sync`` for an async stream (``aclose()`` first, else ``close()``)."""
    names = ("aclose", "close")
    for obj in (iterator, stream) if iterator is not stream else (stream,):
        close = _closer(obj, *names)
        if close is not None:
            outcome = close()
            if inspect.isawaitable(outcome):
                await outcome
    if _closed_only_a_generator(iterator, stream, names):
        _collect_dropped()
    _unclosable(iterator, stream, names)
