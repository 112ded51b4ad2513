"""ask → check → re-ask, around any LLM callable.

Unlike a retry loop that resends the same prompt, each new attempt tells the model what
was wrong with its last reply (what, where, what to do). Healing happens first: a reply
that heals is accepted without a new call. A streamed reply is checked chunk by chunk and
abandoned the moment it can no longer pass.

Two kinds of callable, told apart explicitly (never from a signature):

* a **prompt callable** ``llm(prompt: str)`` — the default. A re-ask is one prompt holding
  the first request, the previous reply quoted and the correction.
* a **chat model** ``llm(messages: list[dict])`` taking ``{"role", "content"}`` messages —
  pass ``chat=True``, or wrap it once with :class:`ChatModel` (``openai_chat`` returns
  one). A re-ask keeps the conversation, bounded: the first user message (prompt and
  guidance), the last bad reply verbatim as the assistant's, then a short correction.

Either may return a string, an OpenAI-style chat completion, or a stream: an iterator
(``ask_async``: also an async iterator or an awaitable of any of these) of text chunks or
OpenAI-style chunks.

    from formatbook_core import ask
    from formatbook_core.llm import openai_chat
    result = ask(openai_chat("gpt-4o-mini"), "Ada's contact card", "EXPECT JSON contact.json")

A reply is never accepted when the model did not finish it: a finish reason of
``"length"`` (cut at ``max_tokens``) or ``"content_filter"``, or a stream of OpenAI-style
chunks that ended without any finish reason (a dropped connection), fails with
``reply.cut`` and is asked again, whatever its text would heal to.

Each attempt has ``timeout`` seconds (default :data:`ATTEMPT_TIMEOUT`), all of them
together ``total_timeout`` (default :data:`TOTAL_TIMEOUT`), and ``ask`` returns (or raises
:class:`AskError` with every attempt) at the deadline whatever the callable does: with a
deadline, the sync callable and each read of the stream it returns run on a daemon thread
(:class:`~formatbook_core.llm_replies.CallRunner`, one per attempt) while the caller's
thread waits at most until the deadline. A call or read still running then (blocked in C
code or a socket read, a generator whose next chunk never comes) is stopped for time and
**abandoned, not killed**: Python cannot stop a thread. The abandoned call goes on in its
thread until it returns (holding its connection, the server perhaps generating a reply
nobody reads); what it returns is never used: a stream is closed on that thread, and the
attempt stays the stop it was recorded as. A stream that is no generator (the SDK's) is
closed at the deadline from the caller's thread, which ends its HTTP response. What ends a
blocked call soonest is its client's own time-out: a :class:`ChatModel` is given the time
left in ``send(messages, timeout=...)`` to pass on (``openai_chat`` does); any other
callable should set its client's. The callable runs off the caller's thread, so a client
bound to that thread, or a ``signal``-based time-out inside the callable (main thread
only), needs ``timeout=None, total_timeout=None``: then everything runs on the caller's
thread, unbounded, as called. ``on_attempt`` runs on the caller's thread; a stream is read
and checked chunk by chunk (``on_chunk`` too) on the attempt's thread. ``ask_async``
awaits an async reply at most until the deadline (the awaitable is cancelled); a sync
callable given to it (any callable but an ``async def`` one or a :class:`ChatModel` whose
``sends_on_loop()`` says so), and the reading of a sync stream, run on the attempt's
thread the same way while the event loop goes on (with no deadline: on the loop, as called).

When the endpoint fails (an exception from the callable or from its stream, a reply
whose content is not text), the loop ends with :class:`AskError`: ``cause`` holds the
:class:`~formatbook_core.llm_replies.TransportError` (its ``__cause__`` the original
exception) and ``attempts`` every attempt, the failed one last.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from .expectations import Expectations, as_expectations
from .llm_feedback import build_prompt, build_reprompt, correction
from .llm_openai import OpenAIChat, openai_chat
from .llm_replies import (
    CallRunner,
    ChatModel,
    Deadline,
    OnChunk,
    Received,
    TransportError,
    UnclosedStreamWarning,
    estimated_usage,
    failed_call,
    is_stream,
    read_async_stream,
    read_stream,
    whole_reply,
)
from .results import Attempt, CheckResult, FormatbookError, total_usage

__all__ = [
    "AskError",
    "ChatModel",
    "OpenAIChat",
    "TransportError",
    "UnclosedStreamWarning",
    "ask",
    "ask_async",
    "build_prompt",
    "build_reprompt",
    "correction",
    "openai_chat",
]

Messages = list[dict[str, str]]

#: Seconds one attempt may take by default, from the call to the end of its reply.
ATTEMPT_TIMEOUT = 300.0
#: Seconds all the attempts of one ``ask`` may take together by default.
TOTAL_TIMEOUT = 900.0


class AskError(FormatbookError):
    """No attempt met the expectations; ``attempts`` holds every attempt (messages sent,
    reply, stop, finish reason, verdict, usage), ``usage`` their token counts added up,
    and ``best`` the one with the fewest violations.

    ``cause`` is the :class:`~formatbook_core.llm_replies.TransportError` that ended the
    loop when the endpoint failed (also ``__cause__``; the last attempt is the failed one,
    with what arrived before the failure), ``None`` when every attempt was judged.
    ``timed_out`` is true when ``total_timeout`` had run out when the loop ended (the
    last attempt was cut short by it, or no time was left for another)."""

    def __init__(
        self,
        message: str,
        attempts: list[Attempt],
        *,
        cause: TransportError | None = None,
        timed_out: bool = False,
    ):
        super().__init__(message)
        self.attempts = attempts
        self.cause = cause
        self.timed_out = timed_out

    @property
    def usage(self) -> dict[str, int] | None:
        """The token counts of every attempt added up (``None`` when none has any)."""
        return total_usage(self.attempts)

    @property
    def usage_estimated(self) -> bool:
        """Whether ``usage`` holds an estimate (an attempt ended before the endpoint counted it)."""
        return any(a.usage_estimated for a in self.attempts)

    @property
    def last(self) -> CheckResult | None:
        """The verdict on the last attempt."""
        return self.attempts[-1].result if self.attempts else None

    @property
    def best(self) -> Attempt | None:
        """The attempt with the fewest violations (a finished reply before a stopped one,
        then the latest): what a caller takes when it must use something."""
        if not self.attempts:
            return None
        order = range(len(self.attempts))
        return self.attempts[min(order, key=lambda i: (self.attempts[i].stopped, _weight(self.attempts[i]), -i))]

    @property
    def best_index(self) -> int | None:
        """The position of ``best`` in ``attempts`` (0 for the first)."""
        best = self.best
        return None if best is None else next(i for i, a in enumerate(self.attempts) if a is best)


def _weight(attempt: Attempt) -> int:
    return sum(1 for v in attempt.result.violations if v.code != "reply.stopped")


def ask(
    llm: Callable[..., Any],
    prompt: str,
    expectations: Expectations | str | None = None,
    *,
    max_attempts: int = 3,
    with_guidance: bool = True,
    chat: bool | None = None,
    system: str | None = None,
    on_chunk: OnChunk | None = None,
    on_attempt: Callable[[Attempt], Any] | None = None,
    timeout: float | None = ATTEMPT_TIMEOUT,
    total_timeout: float | None = TOTAL_TIMEOUT,
) -> CheckResult:
    """Call ``llm`` until the reply meets ``expectations`` (at most ``max_attempts`` calls).

    ``chat=True`` (or a :class:`ChatModel`) sends messages instead of one prompt;
    ``system`` is then the system message. ``on_chunk(text)`` sees the reply as it arrives
    (a reply given whole is one chunk); ``on_attempt(attempt)`` sees each attempt once
    judged. ``timeout`` bounds each attempt and ``total_timeout`` all of them, in seconds
    (``None``: no bound; see the module's docstring). Returns the passing ``CheckResult``
    with ``attempts`` filled in; raises ``AskError`` (carrying every attempt, and the best)
    when none passes, when the time runs out, or when the endpoint fails (``cause``).
    """
    session = _Session(prompt, expectations, max_attempts, with_guidance, _is_chat(llm, chat), system)
    session.limit(timeout, total_timeout)
    if isinstance(llm, ChatModel):
        llm = llm.expecting(session.exp)
    while session.more():
        request = session.request()
        deadline = session.deadline()
        runner = CallRunner(deadline)  # the call and its stream's reads, bounded by the deadline
        try:
            received = _attempt(llm, request, session.exp, on_chunk, deadline, runner)
        finally:
            runner.close()
        session.record(received, on_attempt)
    return session.outcome()


def _attempt(
    llm: Callable[..., Any],
    request: Any,
    exp: Expectations,
    on_chunk: OnChunk | None,
    deadline: Deadline,
    runner: CallRunner,
) -> Received:
    """One attempt of ``ask``: the call on ``runner``, then its reply read."""
    try:
        reply = runner.run(lambda: _call(llm, request, deadline))
    except Exception as exc:  # the endpoint (or the callable) failed, or the deadline came: kept as the attempt
        return failed_call(exc, exp, deadline)
    if inspect.isawaitable(reply):
        close = getattr(reply, "close", None)
        if close is not None:
            close()  # a coroutine that will never run: close it rather than leak it
        raise TypeError("the llm callable returned an awaitable: use ask_async")
    if is_stream(reply):
        return read_stream(reply, exp, on_chunk, deadline, runner)
    return whole_reply(reply, exp, on_chunk)


async def ask_async(
    llm: Callable[..., Awaitable[Any] | Any],
    prompt: str,
    expectations: Expectations | str | None = None,
    *,
    max_attempts: int = 3,
    with_guidance: bool = True,
    chat: bool | None = None,
    system: str | None = None,
    on_chunk: OnChunk | None = None,
    on_attempt: Callable[[Attempt], Any] | None = None,
    timeout: float | None = ATTEMPT_TIMEOUT,
    total_timeout: float | None = TOTAL_TIMEOUT,
) -> CheckResult:
    """``ask`` for an async LLM callable (a plain callable works too); the reply may also
    be an async iterator of chunks (``AsyncOpenAI``'s stream). The awaitable and each
    chunk are awaited at most until the attempt's deadline; a plain callable runs off the
    event loop, on the attempt's thread, and is abandoned at the deadline as in ``ask``."""
    session = _Session(prompt, expectations, max_attempts, with_guidance, _is_chat(llm, chat), system)
    session.limit(timeout, total_timeout)
    if isinstance(llm, ChatModel):
        llm = llm.expecting(session.exp)
    while session.more():
        request = session.request()
        deadline = session.deadline()
        runner = CallRunner(deadline)  # a sync call and a sync stream's reads, off the event loop
        try:
            received = await _attempt_async(llm, request, session.exp, on_chunk, deadline, runner)
        finally:
            runner.close()
        session.record(received, on_attempt)
    return session.outcome()


async def _attempt_async(
    llm: Callable[..., Any],
    request: Any,
    exp: Expectations,
    on_chunk: OnChunk | None,
    deadline: Deadline,
    runner: CallRunner,
) -> Received:
    """One attempt of ``ask_async``: a callable that only makes an awaitable is called on
    the loop, any other on ``runner``'s thread (it may block: the deadline holds and the
    loop goes on); an awaitable is awaited until the deadline, then the reply read."""
    try:
        if _makes_awaitable(llm):
            reply: Any = _call_async(llm, request, deadline)
        else:
            reply = await runner.run_async(lambda: _call_async(llm, request, deadline))
        if inspect.isawaitable(reply):
            reply = await asyncio.wait_for(reply, deadline.left())
    except Exception as exc:  # a time-out past the deadline is a stop; anything else, a failed endpoint
        return failed_call(exc, exp, deadline)
    if is_stream(reply):
        return await read_async_stream(reply, exp, on_chunk, deadline, runner)
    return whole_reply(reply, exp, on_chunk)


def _makes_awaitable(llm: Callable[..., Any]) -> bool:
    """Whether calling ``llm`` (in ``ask_async``) only makes an awaitable, with no work
    that could block: an ``async def`` function or ``__call__``, or a :class:`ChatModel`
    whose async path is one (:meth:`ChatModel.sends_on_loop`)."""
    if isinstance(llm, ChatModel):
        return llm.sends_on_loop()
    return inspect.iscoroutinefunction(llm) or inspect.iscoroutinefunction(type(llm).__call__)


def _call(llm: Callable[..., Any], request: Any, deadline: Deadline) -> Any:
    """``llm(request)``; a :class:`ChatModel` is also given the time left."""
    if isinstance(llm, ChatModel):
        return llm.send(request, timeout=deadline.left())
    return llm(request)


def _call_async(llm: Callable[..., Any], request: Any, deadline: Deadline) -> Any:
    """``_call`` for ``ask_async``: a :class:`ChatModel` sends through its async path."""
    if isinstance(llm, ChatModel):
        return llm.send_async(request, timeout=deadline.left())
    return llm(request)


def _is_chat(llm: Any, chat: bool | None) -> bool:
    if chat is not None:
        return bool(chat)
    return isinstance(llm, ChatModel)


class _Session:
    """The state of one ask loop, shared by the sync and async drivers."""

    def __init__(
        self,
        prompt: str,
        expectations: Any,
        max_attempts: int,
        with_guidance: bool,
        chat: bool,
        system: str | None,
    ):
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if system is not None and not chat:
            raise ValueError("system= is a chat model's system message: pass chat=True or a ChatModel")
        self.base = prompt
        self.exp = as_expectations(expectations)
        self.max_attempts = max_attempts
        self.with_guidance = with_guidance
        self.chat = chat
        self.system = system
        self.attempts: list[Attempt] = []
        self._prompt = ""
        self._messages: Messages | None = None
        self.error: TransportError | None = None
        self.timeout: float | None = None
        self.total = Deadline(None, "")

    def limit(self, timeout: float | None, total_timeout: float | None) -> None:
        """Bound each attempt to ``timeout`` seconds and all of them to ``total_timeout``."""
        for name, value in (("timeout", timeout), ("total_timeout", total_timeout)):
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be a number of seconds > 0, or None")
        self.timeout = timeout
        what = f"the time limit of {total_timeout:g} s for all attempts" if total_timeout is not None else ""
        self.total = Deadline(total_timeout, what)

    def deadline(self) -> Deadline:
        """The next attempt's: ``timeout`` from now, or the end of ``total_timeout`` if sooner."""
        left = self.total.left()
        if self.timeout is not None and (left is None or self.timeout <= left):
            return Deadline(self.timeout, f"the attempt's time limit of {self.timeout:g} s")
        return Deadline(left, self.total.what)

    def more(self) -> bool:
        if self.attempts and (self.attempts[-1].result.ok or self.error is not None):
            return False
        if self.attempts and self.total.passed():
            return False
        return len(self.attempts) < self.max_attempts

    def request(self) -> Any:
        """What to send next: a prompt, or (chat) the bounded conversation."""
        first = build_prompt(self.base, self.exp, with_guidance=self.with_guidance)
        if not self.chat:
            if self.attempts:
                first = build_reprompt(self.base, self.exp, self.attempts[-1], with_guidance=self.with_guidance)
            self._prompt = first
            return first
        messages: Messages = [{"role": "system", "content": self.system}] if self.system else []
        messages.append({"role": "user", "content": first})
        if self.attempts:
            # bounded: the first request, the last bad reply verbatim, the correction —
            # never every failed attempt (the context would grow with each one)
            previous = self.attempts[-1]
            messages.append({"role": "assistant", "content": previous.reply})
            messages.append({"role": "user", "content": correction(previous, self.exp)})
        self._prompt = messages[-1]["content"]
        self._messages = messages
        return [dict(m) for m in messages]  # a copy: the callable may keep or change its own

    def record(self, received: Received, on_attempt: Callable[[Attempt], Any] | None) -> None:
        usage = received.usage
        if usage is None and received.estimate is not None:
            sent = self._messages if self.chat and self._messages is not None else [{"content": self._prompt}]
            usage = estimated_usage(sum(len(m["content"]) for m in sent), received.estimate)
        attempt = Attempt(
            self._prompt,
            received.text,
            received.result,
            messages=self._messages if self.chat else None,
            stopped=received.stopped,
            stop_reason=received.stop_reason,
            stop_position=received.stop_position,
            usage=usage,
            finish_reason=received.finish_reason,
            usage_estimated=usage is not received.usage,
        )
        self.error = received.error
        self.attempts.append(attempt)
        if on_attempt is not None:
            on_attempt(attempt)

    def outcome(self) -> CheckResult:
        last = self.attempts[-1].result
        if last.ok:  # the verdict returned carries every attempt (the last one's own has none)
            return replace(last, attempts=self.attempts)
        timed_out = self.error is None and self.total.passed()
        error = AskError("", self.attempts, cause=self.error, timed_out=timed_out)
        best = error.best_index or 0
        problems = self.attempts[best].result.violations
        first = f": {problems[0]}" if problems else ""
        count = len(self.attempts)
        if self.error is not None:
            head = f"the endpoint failed on attempt {count}: {self.error}"
        elif timed_out:
            head = f"no reply met the expectations within {self.total.what} ({count} attempt(s))"
        else:
            head = f"no reply met the expectations after {count} attempt(s)"
        error.args = (f"{head}; the best, attempt {best + 1}, has {len(problems)} violation(s){first}",)
        raise error from self.error
