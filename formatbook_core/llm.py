"""ask → check → re-ask, around any LLM callable.

Unlike a retry loop that resends the same prompt, each new attempt tells the model what
was wrong with its last reply (the violations, stated precisely) and repeats the format
instructions. Healing happens first: a reply that heals is accepted without a new call.

    from formatbook_core import ask
    result = ask(lambda prompt: client.complete(prompt), "Name a colour.", "EXPECT MAX 1 WORD")
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from .expectations import Expectations, as_expectations
from .pipeline import check, guidance
from .results import Attempt, CheckResult, FormatbookError


class AskError(FormatbookError):
    """No attempt met the expectations; ``attempts`` holds every reply and its verdict."""

    def __init__(self, message: str, attempts: list[Attempt]):
        super().__init__(message)
        self.attempts = attempts

    @property
    def last(self) -> CheckResult | None:
        return self.attempts[-1].result if self.attempts else None


def build_prompt(prompt: str, expectations: Expectations, *, with_guidance: bool = True) -> str:
    """The first prompt: the caller's prompt and the format instructions."""
    text = guidance(expectations) if with_guidance else ""
    return f"{prompt}\n\n{text}" if text else prompt


def build_reprompt(prompt: str, expectations: Expectations, previous: Attempt, *, with_guidance: bool = True) -> str:
    """A follow-up prompt quoting what was wrong with the previous reply."""
    problems = "\n".join(f"- {v}" for v in previous.result.violations[:10]) or "- it did not meet the expectations"
    base = build_prompt(prompt, expectations, with_guidance=with_guidance)
    return (
        f"{base}\n\nYour previous reply was:\n<<<\n{previous.reply}\n>>>\n"
        f"It was rejected because:\n{problems}\nReply again, fixing these problems."
    )


def ask(
    llm: Callable[[str], str],
    prompt: str,
    expectations: Expectations | str | None = None,
    *,
    max_attempts: int = 3,
    with_guidance: bool = True,
) -> CheckResult:
    """Call ``llm(prompt)`` until the reply meets ``expectations`` (at most ``max_attempts``).

    Returns the passing ``CheckResult`` with ``attempts`` filled in; raises ``AskError``
    (carrying every attempt) when none passes.
    """
    session = _Session(prompt, expectations, max_attempts, with_guidance)
    while session.more():
        reply = llm(session.prompt())
        if inspect.isawaitable(reply):
            close = getattr(reply, "close", None)
            if close is not None:
                close()  # a coroutine that will never run: close it rather than leak it
            raise TypeError("the llm callable returned an awaitable: use ask_async")
        session.record(reply)
    return session.outcome()


async def ask_async(
    llm: Callable[[str], Awaitable[str]],
    prompt: str,
    expectations: Expectations | str | None = None,
    *,
    max_attempts: int = 3,
    with_guidance: bool = True,
) -> CheckResult:
    """``ask`` for an async LLM callable (a plain callable works too)."""
    session = _Session(prompt, expectations, max_attempts, with_guidance)
    while session.more():
        reply: Any = llm(session.prompt())
        if inspect.isawaitable(reply):
            reply = await reply
        session.record(reply)
    return session.outcome()


class _Session:
    """The state of one ask loop, shared by the sync and async drivers."""

    def __init__(self, prompt: str, expectations: Any, max_attempts: int, with_guidance: bool):
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.base = prompt
        self.exp = as_expectations(expectations)
        self.max_attempts = max_attempts
        self.with_guidance = with_guidance
        self.attempts: list[Attempt] = []
        self._sent = ""

    def more(self) -> bool:
        if self.attempts and self.attempts[-1].result.ok:
            return False
        return len(self.attempts) < self.max_attempts

    def prompt(self) -> str:
        if not self.attempts:
            self._sent = build_prompt(self.base, self.exp, with_guidance=self.with_guidance)
        else:
            self._sent = build_reprompt(self.base, self.exp, self.attempts[-1], with_guidance=self.with_guidance)
        return self._sent

    def record(self, reply: Any) -> None:
        text = _as_text(reply)
        # a reply without content (None) is a reply.empty attempt, re-asked like any other
        self.attempts.append(Attempt(self._sent, text or "", check(text, self.exp)))

    def outcome(self) -> CheckResult:
        last = self.attempts[-1].result
        if last.ok:
            last.attempts = self.attempts
            return last
        raise AskError(f"no reply met the expectations after {len(self.attempts)} attempt(s)", self.attempts)


def _as_text(reply: Any) -> str | None:
    """Accept a plain string or an OpenAI-style response object; ``None`` when the reply
    has no content (``None``, or a message whose ``content`` is ``None``)."""
    if reply is None or isinstance(reply, str):
        return reply
    choices = getattr(reply, "choices", None)
    if choices:
        message = getattr(choices[0], "message", None)
        content = getattr(message, "content", None)
        if content is None or isinstance(content, str):
            return content
    raise TypeError(f"the llm callable must return str (or an OpenAI chat completion), not {type(reply).__name__}")
