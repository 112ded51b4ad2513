"""ask → check → re-ask, around any LLM callable.

Unlike a retry loop that resends the same prompt, each new attempt tells the model what
was wrong with its last reply (the violations, stated precisely) and repeats the format
instructions. Healing happens first: a reply that heals is accepted without a new call.

    from formatbook_core import ask
    result = ask(lambda prompt: client.complete(prompt), "Name a colour.", "EXPECT MAX 1 WORD")
"""

from __future__ import annotations

import inspect
from typing import Any, Awaitable, Callable

from .check import check, guidance
from .expectations import Expectations, as_expectations
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
    exp = as_expectations(expectations)
    if max_attempts < 1:
        raise ValueError("max_attempts must be at least 1")
    attempts: list[Attempt] = []
    for _ in range(max_attempts):
        text = build_prompt(prompt, exp, with_guidance=with_guidance) if not attempts else build_reprompt(
            prompt, exp, attempts[-1], with_guidance=with_guidance
        )
        reply = llm(text)
        if inspect.isawaitable(reply):
            raise TypeError("the llm callable returned an awaitable: use ask_async")
        result = check(_as_text(reply), exp)
        attempts.append(Attempt(text, _as_text(reply), result))
        if result.ok:
            result.attempts = attempts
            return result
    raise AskError(f"no reply met the expectations after {len(attempts)} attempt(s)", attempts)


async def ask_async(
    llm: Callable[[str], Awaitable[str]],
    prompt: str,
    expectations: Expectations | str | None = None,
    *,
    max_attempts: int = 3,
    with_guidance: bool = True,
) -> CheckResult:
    """``ask`` for an async LLM callable."""
    exp = as_expectations(expectations)
    if max_attempts < 1:
        raise ValueError("max_attempts must be at least 1")
    attempts: list[Attempt] = []
    for _ in range(max_attempts):
        text = build_prompt(prompt, exp, with_guidance=with_guidance) if not attempts else build_reprompt(
            prompt, exp, attempts[-1], with_guidance=with_guidance
        )
        reply: Any = llm(text)
        if inspect.isawaitable(reply):
            reply = await reply
        result = check(_as_text(reply), exp)
        attempts.append(Attempt(text, _as_text(reply), result))
        if result.ok:
            result.attempts = attempts
            return result
    raise AskError(f"no reply met the expectations after {len(attempts)} attempt(s)", attempts)


def _as_text(reply: Any) -> str:
    """Accept a plain string or an OpenAI-style response object."""
    if isinstance(reply, str):
        return reply
    choices = getattr(reply, "choices", None)
    if choices:
        message = getattr(choices[0], "message", None)
        content = getattr(message, "content", None)
        if isinstance(content, str):
            return content
    raise TypeError(f"the llm callable must return str (or an OpenAI chat completion), not {type(reply).__name__}")
