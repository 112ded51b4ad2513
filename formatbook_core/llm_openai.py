"""A chat model for OpenAI-compatible chat-completions endpoints, through the openai SDK.

The protocol is the one spoken by OpenAI, vLLM, llama.cpp's server, Ollama and LiteLLM.
The SDK (``pip install 'formatbook[openai]'``) is imported only when the first request is
made (or never, when the caller gives a client).

    from formatbook_core import ask
    from formatbook_core.llm import openai_chat
    model = openai_chat("llama3.1", base_url="http://localhost:11434/v1", api_key="ollama")
    result = ask(model, "Ada's contact card", "EXPECT JSON contact.json")

With ``structured=True`` each request carries the expectations' ``response_format``
(``formatbook_core.exports``: a JSON Schema in OpenAI's strict subset), so that a server
with Structured Outputs constrains the reply; ``ask`` still checks the reply against the
original schema, counts and instructions, and asks again when they are not met::

    model = openai_chat("gpt-4o-mini", structured=True)
    result = ask(model, "Ada's contact card", "EXPECT JSON contact.json")

Replies stream by default, so that ``ask`` stops a doomed one early: closing the SDK's
stream closes the HTTP response, and the server stops generating. Every request has a
timeout (``timeout``, default :data:`CLIENT_TIMEOUT` seconds, and never more than the
time ``ask`` has left for the attempt), and so does the client made here.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import sys
from typing import TYPE_CHECKING, Any

from .llm_replies import ChatModel, TransportError

if TYPE_CHECKING:
    from .expectations import Expectations

#: Seconds a request may wait for the endpoint by default (the SDK's own default is 600).
CLIENT_TIMEOUT = 120.0


class OpenAIChat(ChatModel):
    """``model(messages)`` → the SDK's stream (or completion with ``stream=False``).

    ``client`` is an ``openai.OpenAI`` (or ``AsyncOpenAI``, for ``ask_async``); without
    one, a client is made on the first call from ``base_url`` and ``api_key`` (or the
    ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` variables, as the SDK reads them), with
    ``timeout``: an ``OpenAI`` for ``ask``, an ``AsyncOpenAI`` for ``ask_async`` (so that
    concurrent asks do not block the event loop and each other; a sync ``OpenAI`` given
    to ``ask_async`` still blocks it, as any sync callable does). ``timeout`` (seconds, ``None``: the client's own) is each request's
    timeout, cut to the time ``ask`` has left for the attempt. ``params`` go to
    ``chat.completions.create`` as they are (``temperature``, ``max_tokens``...). With
    ``include_usage`` a stream ends with the token counts.

    ``structured`` sends a ``response_format`` built from expectations
    (:func:`formatbook_core.exports.response_format`): ``True`` takes those ``ask`` is
    given, an ``Expectations`` or EXPECT text names them (for a model called directly).
    A format without one (only JSON replies have it) is an ``ExportError`` then.
    """

    def __init__(
        self,
        model: str,
        client: Any = None,
        *,
        stream: bool = True,
        include_usage: bool = True,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float | None = CLIENT_TIMEOUT,
        structured: bool | Expectations | str = False,
        **params: Any,
    ):
        super().__init__()
        if structured is not False and "response_format" in params:
            raise ValueError("give either structured= or response_format=, not both")
        self.structured = structured
        #: the response_format each request carries (``None``: none)
        self.response_format: dict[str, Any] | None = None
        if structured is not False and structured is not True:
            self.response_format = _response_format(structured)
        self.model = model
        self.client = client
        self.stream = stream
        self.include_usage = include_usage
        self.base_url = base_url
        self.api_key = api_key
        self.timeout = timeout
        self.params = params
        self._sync: Any = None
        self._async: tuple[asyncio.AbstractEventLoop, Any] | None = None

    def _client(self) -> Any:
        """The client given, or the sync one made from ``base_url``, ``api_key`` and ``timeout``."""
        if self.client is not None:
            return self.client
        if self._sync is None:
            self._sync = _openai().OpenAI(base_url=self.base_url, api_key=self.api_key, timeout=self._timeout())
        return self._sync

    def _async_client(self) -> Any:
        """The client given, or an ``AsyncOpenAI`` made for the running event loop (an
        async client's connections belong to the loop that opened them: a later
        ``asyncio.run`` gets a client of its own)."""
        if self.client is not None:
            return self.client
        loop = asyncio.get_running_loop()
        if self._async is None or self._async[0] is not loop:
            client = _openai().AsyncOpenAI(base_url=self.base_url, api_key=self.api_key, timeout=self._timeout())
            self._async = (loop, client)
        return self._async[1]

    def _timeout(self) -> float:
        return self.timeout if self.timeout is not None else CLIENT_TIMEOUT

    def __call__(self, messages: list[dict[str, str]]) -> Any:
        return self.send(messages)

    def expecting(self, expectations: Any) -> OpenAIChat:
        """With ``structured=True``, a copy whose requests carry ``expectations``'
        ``response_format`` (``ask`` calls this); otherwise this model."""
        if self.structured is not True:
            return self
        shaped = copy.copy(self)
        shaped.response_format = _response_format(expectations)
        return shaped

    def send(self, messages: list[dict[str, str]], *, timeout: float | None = None) -> Any:
        """The request for ``messages``, its timeout the smaller of ``self.timeout`` and ``timeout``."""
        request = self._request(messages, timeout)  # first: a request that cannot be made says so
        return _completion(self._client().chat.completions.create(**request))

    def send_async(self, messages: list[dict[str, str]], *, timeout: float | None = None) -> Any:
        """``send`` through the async client (``ask_async``): an awaitable of the stream or completion."""
        request = self._request(messages, timeout)
        answer = self._async_client().chat.completions.create(**request)
        # an AsyncOpenAI's answer is awaited; a sync client given to ask_async answers at once
        return _completion_async(answer) if inspect.isawaitable(answer) else _completion(answer)

    def sends_on_loop(self) -> bool:
        """True unless the client given is not an ``AsyncOpenAI`` (a sync client blocks:
        ``ask_async`` then sends on the attempt's thread)."""
        if self.client is None:
            return True  # an AsyncOpenAI of its own, made for the running loop
        openai = sys.modules.get("openai")
        return openai is not None and isinstance(self.client, openai.AsyncOpenAI)

    def _request(self, messages: list[dict[str, str]], timeout: float | None) -> dict[str, Any]:
        """The arguments of ``chat.completions.create``: the params, the timeout, the model,
        the messages, and for a stream the request for its usage."""
        request = chat_request(self, messages, timeout)
        if self.structured is True and self.response_format is None:
            raise ValueError(
                "openai_chat(structured=True) takes its expectations from ask(); called directly, "
                "give them: structured=Expectations(...) or EXPECT text"
            )
        if self.response_format is not None:
            request["response_format"] = self.response_format
        return request

    def __repr__(self) -> str:
        return f"openai_chat({self.model!r})"


def chat_request(chat: Any, messages: list[dict[str, str]], timeout: float | None) -> dict[str, Any]:
    """The request an OpenAI-style chat model sends (``openai_chat``, ``litellm_chat``):
    its ``params``, the smaller of its ``timeout`` and ``timeout``, its ``model``, the
    ``messages``, and for a stream (``stream``) the request for its usage (``include_usage``)."""
    request: dict[str, Any] = dict(chat.params)
    bounds = [t for t in (chat.timeout, timeout) if t is not None]
    if bounds:
        request["timeout"] = min(bounds)
    request["model"] = chat.model
    request["messages"] = messages
    if chat.stream:
        request["stream"] = True
        if chat.include_usage:
            request["stream_options"] = {"include_usage": True}
    return request


def _completion(answer: Any) -> Any:
    """The SDK's answer, a completion or a stream of chunks; a :class:`TransportError` for
    text: the SDK returns the body as it is when the endpoint's content type is not JSON
    (a proxy's HTML error page sent with status 200), and that text is no reply."""
    if isinstance(answer, (str, bytes)):
        text = answer if isinstance(answer, str) else answer.decode("utf-8", "replace")
        raise TransportError(
            f"the endpoint answered {len(text):,} characters that are no chat completion: {' '.join(text.split())[:80]!r}"
        )
    return answer


async def _completion_async(answer: Any) -> Any:
    """:func:`_completion` of an awaited answer."""
    return _completion(await answer)


def _response_format(expectations: Any) -> dict[str, Any]:
    from .exports import response_format  # noqa: PLC0415 - the exports load the format's schema

    return response_format(expectations).body


def _openai() -> Any:
    """The openai SDK, imported on first use (an optional dependency)."""
    try:
        import openai  # noqa: PLC0415 - the optional SDK, imported on first use
    except ImportError as exc:
        raise ImportError("openai_chat needs the openai SDK: pip install 'formatbook[openai]'") from exc
    return openai


def openai_chat(model: str, client: Any = None, **params: Any) -> OpenAIChat:
    """A chat model for ``model`` at an OpenAI-compatible endpoint (see :class:`OpenAIChat`
    for ``client``, ``stream``, ``base_url``, ``api_key``, ``timeout``, ``include_usage``,
    ``structured`` and the request ``params``)."""
    return OpenAIChat(model, client, **params)
