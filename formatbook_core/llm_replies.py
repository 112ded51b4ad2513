"""LLM callables (``ChatModel`` marks a chat model) and reading what one returned: a string, an OpenAI-style response, or a stream
of chunks (an iterator or async iterator of strings or OpenAI-style chunks).

A stream goes through a ``StreamGuard`` chunk by chunk; once the guard says no
continuation can pass, the stream is closed at once (``close()`` / ``aclose()``, which
cancels an HTTP stream of the openai SDK) and the part received is kept.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .pipeline import check
from .results import CheckResult, Span, Violation
from .streaming import StreamGuard

OnChunk = Callable[[str], Any]
Messages = list[dict[str, str]]

_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")
#: The guard checks a stream in pieces of at least this many characters (``StreamGuard``'s
#: ``lag``): a doomed reply is stopped at most this late, for a fraction of the cost of
#: checking every few-character chunk on its own (benchmarks/bench_guard.py).
GUARD_LAG = 256


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

    def __repr__(self) -> str:
        return f"ChatModel({self._fn!r})"


@dataclass
class Received:
    """One reply as read: its text (what arrived before a stop), its verdict, the stop."""

    text: str
    result: CheckResult
    stopped: bool = False
    stop_reason: str | None = None
    stop_position: int | None = None
    usage: dict[str, int] | None = None


def is_stream(reply: Any) -> bool:
    """A reply given as chunks (not a string, not a response object with ``choices``)."""
    if reply is None or isinstance(reply, (str, bytes, dict)) or _get(reply, "choices") is not None:
        return False
    return hasattr(reply, "__iter__") or hasattr(reply, "__aiter__")


def whole_reply(reply: Any, expectations: Any, on_chunk: OnChunk | None) -> Received:
    """A reply given whole: a string, ``None`` or an OpenAI-style response."""
    text = response_text(reply)
    if on_chunk is not None and text:
        on_chunk(text)
    return Received(text or "", check(text, expectations), usage=usage_of(reply))


def read_stream(stream: Any, expectations: Any, on_chunk: OnChunk | None) -> Received:
    """Read a sync stream of chunks through a guard, closing it early when it is doomed."""
    if hasattr(stream, "__aiter__") and not hasattr(stream, "__iter__"):
        _close_sync(stream)
        raise TypeError("the llm callable returned an async iterator: use ask_async")
    reader = _Reader(expectations, on_chunk)
    iterator = iter(stream)
    finished = False
    try:
        for chunk in iterator:
            if not reader.take(chunk):
                break
        else:
            finished = True
    finally:
        if not finished:  # stopped, or an exception (the caller's on_chunk, the network): cancel it
            _close_sync(iterator, stream)
    return reader.received()


async def read_async_stream(stream: Any, expectations: Any, on_chunk: OnChunk | None) -> Received:
    """``read_stream`` for an async iterator (a sync one is read as it is)."""
    if not hasattr(stream, "__aiter__"):
        return read_stream(stream, expectations, on_chunk)
    reader = _Reader(expectations, on_chunk)
    iterator = stream.__aiter__()
    finished = False
    try:
        while True:
            try:
                chunk = await iterator.__anext__()
            except StopAsyncIteration:
                finished = True
                break
            if not reader.take(chunk):
                break
    finally:
        if not finished:
            await _close_async(iterator, stream)
    return reader.received()


class _Reader:
    """Feeds chunks to the guard and keeps what the stream reported (usage, the stop)."""

    def __init__(self, expectations: Any, on_chunk: OnChunk | None):
        self.guard = StreamGuard(expectations, lag=GUARD_LAG)
        self.on_chunk = on_chunk
        self.usage: dict[str, int] | None = None
        self.stop: tuple[str, int | None] | None = None

    def take(self, chunk: Any) -> bool:
        """False once the reply is doomed (the stream must stop)."""
        text = chunk_text(chunk)
        usage = usage_of(chunk) if not isinstance(chunk, str) else None
        if usage is not None:
            self.usage = usage
        if not text:
            return True
        if self.on_chunk is not None:
            self.on_chunk(text)
        status = self.guard.feed(text)
        if not status:
            self.stop = (status.reason or "the reply can no longer pass", status.position)
            return False
        return True

    def received(self) -> Received:
        result = self.guard.finish()
        text = self.guard.text
        if self.stop is None:
            return Received(text, result, usage=self.usage)
        reason, position = self.stop
        # the guard turned falsy only because no continuation can pass: the part received
        # fails too; the stop is the first violation either way, so a reader sees the cut
        stopped = Violation(
            "reply.stopped",
            f"the reply was stopped after {len(text):,} characters: {reason}",
            span=Span(position, position) if position is not None else None,
        )
        result = replace(result, ok=False, violations=[stopped, *result.violations])
        return Received(text, result, True, reason, position, self.usage)


def response_text(reply: Any) -> str | None:
    """The text of a reply given whole; ``None`` when it has no content."""
    if reply is None or isinstance(reply, str):
        return reply
    choices = _get(reply, "choices")
    if choices:
        message = _get(choices[0], "message")
        content = _get(message, "content")
        if content is None or isinstance(content, str):
            return content
    raise TypeError(
        "the llm callable must return str, an OpenAI-style chat completion or an iterator of chunks, "
        f"not {type(reply).__name__}"
    )


def chunk_text(chunk: Any) -> str:
    """The text a streamed chunk adds: a string, or an OpenAI-style chunk's delta."""
    if isinstance(chunk, str):
        return chunk
    if chunk is None:
        return ""
    choices = _get(chunk, "choices")
    if choices is not None:
        if not choices:
            return ""  # the usage chunk at the end of an OpenAI stream
        delta = _get(choices[0], "delta")
        content = _get(delta, "content")
        if content is None or isinstance(content, str):
            return content or ""
    raise TypeError(f"a streamed chunk must be str or an OpenAI-style chunk, not {type(chunk).__name__}")


def usage_of(obj: Any) -> dict[str, int] | None:
    """The token counts an OpenAI-style response or chunk reports, when it reports them."""
    usage = _get(obj, "usage")
    if usage is None:
        return None
    counts = {key: value for key in _USAGE_KEYS if isinstance(value := _get(usage, key), int)}
    return counts or None


def _get(obj: Any, name: str) -> Any:
    """An attribute of a response object, or a key of the same response as a dict."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _close_sync(*objects: Any) -> None:
    """Close each object once (a generator, then the SDK's stream that owns the response)."""
    done: list[Any] = []
    for obj in objects:
        if any(obj is d for d in done):
            continue
        done.append(obj)
        close = getattr(obj, "close", None)
        if callable(close):
            outcome = close()
            if inspect.isawaitable(outcome):  # an async close on a sync path: do not leak it
                getattr(outcome, "close", lambda: None)()


async def _close_async(*objects: Any) -> None:
    done: list[Any] = []
    for obj in objects:
        if any(obj is d for d in done):
            continue
        done.append(obj)
        close = getattr(obj, "aclose", None) or getattr(obj, "close", None)
        if callable(close):
            outcome = close()
            if inspect.isawaitable(outcome):
                await outcome
