"""A chat model for ``ask`` and ``ask_async`` through LiteLLM: every provider LiteLLM reaches.

``pip install 'formatbook[litellm]'``::

    from formatbook_core import ask
    from formatbook_core.integrations.litellm import litellm_chat
    result = ask(litellm_chat("anthropic/claude-sonnet-4-5"), "Ada's contact card", "EXPECT JSON contact.json")
    result = ask(litellm_chat("openai/llama3", api_base="http://localhost:8000/v1"), ...)

Like ``openai_chat``: replies stream by default, so that ``ask`` stops a doomed one early
(closing LiteLLM's stream closes the provider's), each request has a timeout cut to the
time ``ask`` has left, a stream asks for its token counts (``stream_options``), and the
finish reason LiteLLM reports says whether the model ended its reply. ``ask_async`` uses
``litellm.acompletion``.

LiteLLM fetches its model cost map from GitHub when it is imported, unless
``LITELLM_LOCAL_MODEL_COST_MAP`` is set: formatbook sets it to ``True`` before the first
import (unless the caller set it), so asking a local server reaches nothing else. LiteLLM
is imported on the first request, not with this module.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from ..llm_openai import CLIENT_TIMEOUT, chat_request
from ..llm_replies import ChatModel, Messages

#: The variable that keeps LiteLLM from fetching its model cost map over the network.
LOCAL_COST_MAP = "LITELLM_LOCAL_MODEL_COST_MAP"


def import_litellm() -> Any:
    """The ``litellm`` module, imported without the network fetch of its cost map."""
    if "litellm" not in sys.modules:
        os.environ.setdefault(LOCAL_COST_MAP, "True")
    try:
        import litellm  # noqa: PLC0415 - the optional SDK, imported on the first request
    except ImportError as exc:
        raise ImportError("litellm_chat needs LiteLLM: pip install 'formatbook[litellm]'") from exc
    return litellm


class LiteLLMChat(ChatModel):
    """``model(messages)`` → LiteLLM's stream (or response with ``stream=False``).

    ``model`` is LiteLLM's model name (``"openai/gpt-4o-mini"``, ``"ollama/llama3"``...);
    ``api_base`` and ``api_key`` are passed on when given; ``timeout`` (seconds, ``None``:
    LiteLLM's own) is each request's timeout, cut to the time ``ask`` has left for the
    attempt; ``params`` go to ``litellm.completion`` as they are (``temperature``,
    ``max_tokens``...). With ``include_usage`` a stream ends with the token counts.
    """

    def __init__(
        self,
        model: str,
        *,
        stream: bool = True,
        include_usage: bool = True,
        api_base: str | None = None,
        api_key: str | None = None,
        timeout: float | None = CLIENT_TIMEOUT,
        **params: Any,
    ):
        super().__init__()
        self.model = model
        self.stream = stream
        self.include_usage = include_usage
        self.api_base = api_base
        self.api_key = api_key
        self.timeout = timeout
        self.params = params

    def __call__(self, messages: Messages) -> Any:
        return self.send(messages)

    def request(self, messages: Messages, timeout: float | None = None) -> dict[str, Any]:
        """The keyword arguments of ``litellm.completion`` for ``messages``."""
        request = chat_request(self, messages, timeout)
        for name, value in (("api_base", self.api_base), ("api_key", self.api_key)):
            if value is not None:
                request[name] = value
        return request

    def send(self, messages: Messages, *, timeout: float | None = None) -> Any:
        """``litellm.completion`` for ``messages``, its timeout the smaller of ``self.timeout`` and ``timeout``."""
        return import_litellm().completion(**self.request(messages, timeout))

    def send_async(self, messages: Messages, *, timeout: float | None = None) -> Any:
        """``litellm.acompletion`` for ``messages`` (an awaitable of the stream or the response)."""
        return import_litellm().acompletion(**self.request(messages, timeout))

    def sends_on_loop(self) -> bool:
        """True: ``litellm.acompletion`` is a coroutine function."""
        return True

    def __repr__(self) -> str:
        return f"litellm_chat({self.model!r})"


def litellm_chat(model: str, **params: Any) -> LiteLLMChat:
    """A chat model for ``model`` through LiteLLM (see :class:`LiteLLMChat` for ``stream``,
    ``api_base``, ``api_key``, ``timeout``, ``include_usage`` and the request ``params``)."""
    return LiteLLMChat(model, **params)
