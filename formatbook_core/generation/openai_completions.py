"""Candidates from an OpenAI-compatible *completions* endpoint (vLLM, llama.cpp's server).

Each step is one request: ``prompt`` + the reply so far as the prompt, ``max_tokens=1``,
``logprobs=top`` (the ``top`` most likely next tokens with their log probabilities, which
vLLM and llama.cpp's server return in OpenAI's ``top_logprobs`` shape) and
``temperature=0``. The candidates are those alternatives, most likely first, with the token
the server chose among them when it is missing. A step where the server stopped
(``finish_reason`` ``"stop"`` with no text) or an alternative that is one of
``end_tokens`` (``""``, ``</s>``, ``<|endoftext|>``...) is the end-of-text candidate.

Through the openai SDK (``pip install 'formatbook[openai]'``), as the chat adapter
(:mod:`formatbook_core.llm_openai`): the same client, environment variables
(``OPENAI_BASE_URL``, ``OPENAI_API_KEY``), timeouts and error types, and no second HTTP
stack to maintain. The SDK is imported on the first request, or never when a client is
given.
"""

from __future__ import annotations

from typing import Any

from .model import END, Candidate

#: Token texts that mean "end of text" among the alternatives, as servers spell them.
END_TOKENS = frozenset({"", "</s>", "<|endoftext|>", "<|end_of_text|>", "<|eot_id|>", "<|im_end|>", "<eos>"})


class CompletionsModel:
    """A :class:`~formatbook_core.generation.model.CandidateModel` asking an
    OpenAI-compatible completions endpoint for the ``top`` most likely next tokens.

    ``client`` is an ``openai.OpenAI``; without one it is made on first use from
    ``base_url`` and ``api_key``. ``params`` go to ``completions.create`` as they are
    (``stop``, ``seed``...). ``requests`` counts the requests made.
    """

    def __init__(
        self,
        model: str,
        client: Any = None,
        *,
        top: int = 5,
        base_url: str | None = None,
        api_key: str | None = None,
        end_tokens: frozenset[str] = END_TOKENS,
        **params: Any,
    ):
        if top < 1:
            raise ValueError("top is 1 or more alternatives")
        self.model = model
        self.client = client
        self.top = top
        self.base_url = base_url
        self.api_key = api_key
        self.end_tokens = end_tokens
        self.params = params
        self.requests = 0

    def _client(self) -> Any:
        if self.client is None:
            try:
                import openai  # noqa: PLC0415 - the optional SDK, imported on first use
            except ImportError as exc:
                raise ImportError("CompletionsModel needs the openai SDK: pip install 'formatbook[openai]'") from exc
            self.client = openai.OpenAI(base_url=self.base_url, api_key=self.api_key)
        return self.client

    def candidates(self, prompt: str, reply: str) -> list[Candidate]:
        request: dict[str, Any] = {"temperature": 0, **self.params}
        request.update(model=self.model, prompt=prompt + reply, max_tokens=1, logprobs=self.top)
        self.requests += 1
        response = self._client().completions.create(**request)
        if not response.choices:
            return []
        return self.parse(response.choices[0])

    def parse(self, choice: Any) -> list[Candidate]:
        """The candidates one completion choice offers, most likely first."""
        text = getattr(choice, "text", "") or ""
        stopped = getattr(choice, "finish_reason", None) == "stop" and not text
        logprobs = getattr(choice, "logprobs", None)
        tops = getattr(logprobs, "top_logprobs", None) or []
        ranked: dict[str, float] = dict(tops[0]) if tops and tops[0] else {}
        cands: list[Candidate] = []
        seen: set[str] = set()
        for token, logprob in sorted(ranked.items(), key=lambda item: -float(item[1])):
            cand = (
                END._replace(logprob=float(logprob)) if token in self.end_tokens else Candidate(token, float(logprob))
            )
            key = "\x00end" if cand.end else token
            if key not in seen:
                seen.add(key)
                cands.append(cand)
        # the server's own choice, when the alternatives leave it out
        chosen = END if stopped or text in self.end_tokens else Candidate(text)
        if ("\x00end" if chosen.end else chosen.text) not in seen:
            token_logprobs = getattr(logprobs, "token_logprobs", None) or [None]
            chosen = chosen._replace(logprob=token_logprobs[0])
            cands.insert(0, chosen)
        return cands

    def __repr__(self) -> str:
        return f"CompletionsModel({self.model!r}, top={self.top})"
