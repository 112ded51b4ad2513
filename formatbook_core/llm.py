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
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from .expectations import Expectations, as_expectations
from .llm_feedback import build_prompt, build_reprompt, correction
from .llm_openai import OpenAIChat, openai_chat
from .llm_replies import ChatModel, OnChunk, Received, is_stream, read_async_stream, read_stream, whole_reply
from .results import Attempt, CheckResult, FormatbookError

__all__ = [
    "AskError",
    "ChatModel",
    "OpenAIChat",
    "ask",
    "ask_async",
    "build_prompt",
    "build_reprompt",
    "correction",
    "openai_chat",
]

Messages = list[dict[str, str]]


class AskError(FormatbookError):
    """No attempt met the expectations; ``attempts`` holds every attempt (messages sent,
    reply, stop, verdict, usage) and ``best`` the one with the fewest violations."""

    def __init__(self, message: str, attempts: list[Attempt]):
        super().__init__(message)
        self.attempts = attempts

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
) -> CheckResult:
    """Call ``llm`` until the reply meets ``expectations`` (at most ``max_attempts`` calls).

    ``chat=True`` (or a :class:`ChatModel`) sends messages instead of one prompt;
    ``system`` is then the system message. ``on_chunk(text)`` sees the reply as it arrives
    (a reply given whole is one chunk); ``on_attempt(attempt)`` sees each attempt once
    judged. Returns the passing ``CheckResult`` with ``attempts`` filled in; raises
    ``AskError`` (carrying every attempt, and the best) when none passes.
    """
    session = _Session(prompt, expectations, max_attempts, with_guidance, _is_chat(llm, chat), system)
    while session.more():
        request = session.request()
        reply = llm(request)
        if inspect.isawaitable(reply):
            close = getattr(reply, "close", None)
            if close is not None:
                close()  # a coroutine that will never run: close it rather than leak it
            raise TypeError("the llm callable returned an awaitable: use ask_async")
        if is_stream(reply):
            received = read_stream(reply, session.exp, on_chunk)
        else:
            received = whole_reply(reply, session.exp, on_chunk)
        session.record(received, on_attempt)
    return session.outcome()


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
) -> CheckResult:
    """``ask`` for an async LLM callable (a plain callable works too); the reply may also
    be an async iterator of chunks (``AsyncOpenAI``'s stream)."""
    session = _Session(prompt, expectations, max_attempts, with_guidance, _is_chat(llm, chat), system)
    while session.more():
        reply: Any = llm(session.request())
        if inspect.isawaitable(reply):
            reply = await reply
        if is_stream(reply):
            received = await read_async_stream(reply, session.exp, on_chunk)
        else:
            received = whole_reply(reply, session.exp, on_chunk)
        session.record(received, on_attempt)
    return session.outcome()


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

    def more(self) -> bool:
        if self.attempts and self.attempts[-1].result.ok:
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
        attempt = Attempt(
            self._prompt,
            received.text,
            received.result,
            messages=self._messages if self.chat else None,
            stopped=received.stopped,
            stop_reason=received.stop_reason,
            stop_position=received.stop_position,
            usage=received.usage,
        )
        self.attempts.append(attempt)
        if on_attempt is not None:
            on_attempt(attempt)

    def outcome(self) -> CheckResult:
        last = self.attempts[-1].result
        if last.ok:  # the verdict returned carries every attempt (the last one's own has none)
            return replace(last, attempts=self.attempts)
        error = AskError("", self.attempts)
        best = error.best_index or 0
        problems = self.attempts[best].result.violations
        first = f": {problems[0]}" if problems else ""
        error.args = (
            f"no reply met the expectations after {len(self.attempts)} attempt(s); the best, attempt {best + 1}, "
            f"has {len(problems)} violation(s){first}",
        )
        raise error
