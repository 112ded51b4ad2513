"""instructor hooks: heal a reply before pydantic reads it, and put formatbook's correction in the re-ask.

``pip install 'formatbook[instructor]'``::

    import instructor
    from formatbook_core.integrations.instructor import formatbook_hooks
    hooks = formatbook_hooks(Expectations(format="json", schema=Contact))
    client = instructor.from_openai(openai.OpenAI(), mode=instructor.Mode.JSON, hooks=hooks.hooks)
    contact = client.chat.completions.create(model=..., response_model=Contact, messages=..., max_retries=2)

instructor validates the model's text (``content`` in the JSON modes, the tool call's
``arguments`` in the tools modes) with pydantic, and re-asks when that fails: a reply in a
fence, with a trailing comma or cut short costs a second request. The ``completion:response``
hook checks the reply first; when it heals and then meets the expectations, the text is
replaced by the healed payload, so pydantic reads that and the reply costs one request.
When it fails, the ``completion:kwargs`` hook finds instructor's re-ask message for that
reply and adds formatbook's correction (what was wrong, where, what to do) below
instructor's own error text. A reply the model did not finish (``finish_reason``
``length``) is left alone: instructor refuses it itself.

pydantic decides what instructor returns, and it knows nothing of the limits a model
cannot express (``MAX 40 WORDS``, ``ENDS WITH``...). Pass ``response_model=hooks.model(Contact)``
and formatbook's verdict is part of the validation: a reply that pydantic accepts but
formatbook fails is re-asked with the correction, like any other validation error
(``results`` holds every verdict either way).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from instructor.core.hooks import Hooks
from pydantic import BaseModel, model_validator

from ..expectations import Expectations, as_expectations
from ..llm_replies import CUT_REASONS, finish_reason_of
from ..pipeline import check
from ..results import CheckResult
from ._common import correction_for

#: How the correction is introduced in instructor's re-ask message.
CORRECTION_HEADING = "What formatbook found:"

Model = TypeVar("Model", bound=BaseModel)


class FormatbookHooks:
    """The two handlers and the ``instructor.Hooks`` that carries them (``hooks``); ``results``
    holds formatbook's verdict on every reply seen, in order."""

    def __init__(self, expectations: Expectations):
        self.expectations = expectations
        self.results: list[CheckResult] = []
        self._corrections: dict[str, str] = {}  # a failed reply's text -> its correction
        # the failed verdict on the reply being parsed, for the validator of model(): the hook
        # and instructor's parsing run in one call stack (one thread, or one task)
        self._failed: ContextVar[str | None] = ContextVar(f"formatbook_failed_{id(self)}", default=None)
        self.hooks = Hooks()
        self.hooks.on("completion:response", self.on_response)
        self.hooks.on("completion:kwargs", self.on_kwargs)
        self.hooks.on("completion:last_attempt", self.on_last_attempt)

    def on_response(self, response: Any) -> None:
        """Check the reply; put the healed payload in its place when it passes after healing."""
        self._failed.set(None)
        found = _payload(response)
        if found is None or finish_reason_of(response) in CUT_REASONS:
            return
        text, replace = found
        result = check(text, self.expectations)
        self.results.append(result)
        if result.ok:
            if result.text is not None and result.text != text:
                replace(result.text)
        else:
            correction = correction_for(result, self.expectations)
            self._corrections[text] = correction
            self._failed.set(correction)

    def on_kwargs(self, *args: Any, **kwargs: Any) -> None:
        """Before a request: add the correction to instructor's re-ask message about the
        failed reply (unless the validation error quotes it already)."""
        self._failed.set(None)
        messages = kwargs.get("messages")
        if not isinstance(messages, list) or not self._corrections:
            return
        last = _last_assistant(messages)
        if last is None or last + 1 >= len(messages):
            return
        correction = self._corrections.pop(_message_text(messages[last]) or "", None)
        follow = messages[last + 1]
        if correction is None or not isinstance(follow, dict) or not isinstance(follow.get("content"), str):
            return
        if correction not in follow["content"]:
            follow["content"] = f"{follow['content']}\n\n{CORRECTION_HEADING}\n{correction}"

    def on_last_attempt(self, *args: Any, **kwargs: Any) -> None:
        """instructor gave up: no verdict is pending any more."""
        self._failed.set(None)

    def model(self, response_model: type[Model]) -> type[Model]:
        """``response_model`` with formatbook's verdict as part of its validation: a reply
        that formatbook fails (a count, an instruction) fails pydantic's validation too,
        with the correction as the error, so instructor re-asks with it."""
        failed = self._failed

        class Checked(response_model):  # type: ignore[valid-type,misc]  # a subclass of the caller's model
            @model_validator(mode="after")
            def _formatbook_verdict(self) -> Any:
                correction = failed.get()
                failed.set(None)  # one verdict, one validation: a model built later is not judged by it
                if correction is not None:
                    raise ValueError(f"{CORRECTION_HEADING}\n{correction}")
                return self

        Checked.__name__ = response_model.__name__
        Checked.__qualname__ = response_model.__qualname__
        Checked.__doc__ = response_model.__doc__
        return Checked


def formatbook_hooks(expectations: Expectations | str, **kwargs: Any) -> FormatbookHooks:
    """Hooks that check every reply against ``expectations`` (``kwargs``, such as
    ``base_dir``, go to ``parse_expectations`` for EXPECT text): pass ``.hooks`` to
    ``instructor.from_openai(..., hooks=...)`` or to ``create(..., hooks=...)``."""
    return FormatbookHooks(as_expectations(expectations, **kwargs))


def _payload(response: Any) -> tuple[str, Callable[[str], None]] | None:
    """The text instructor will validate and how to replace it: the first tool call's
    arguments when there is one, else the message's content; ``None`` for a stream."""
    choices = getattr(response, "choices", None)
    if not choices:
        return None
    message = getattr(choices[0], "message", None)
    calls = getattr(message, "tool_calls", None)
    if calls:
        function = getattr(calls[0], "function", None)
        arguments = getattr(function, "arguments", None)
        if isinstance(arguments, str):
            return arguments, lambda text: setattr(function, "arguments", text)
        return None
    content = getattr(message, "content", None)
    if isinstance(content, str):
        return content, lambda text: setattr(message, "content", text)
    return None


def _last_assistant(messages: list[Any]) -> int | None:
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], dict) and messages[index].get("role") == "assistant":
            return index
    return None


def _message_text(message: dict[str, Any]) -> str | None:
    """The text a re-ask quotes of the failed reply: its tool call's arguments, or its content."""
    calls = message.get("tool_calls")
    if calls:
        function = calls[0].get("function") if isinstance(calls[0], dict) else None
        arguments = function.get("arguments") if isinstance(function, dict) else None
        return arguments if isinstance(arguments, str) else None
    content = message.get("content")
    return content if isinstance(content, str) else None
