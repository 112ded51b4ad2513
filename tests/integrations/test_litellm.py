"""``litellm_chat``: formatbook's ask loop through the real LiteLLM, against a scripted
OpenAI-compatible server reached as LiteLLM's ``openai/...`` model with ``api_base``."""

from __future__ import annotations

import asyncio

import pytest

from formatbook_core import AskError, ask, ask_async
from formatbook_core.integrations.litellm import import_litellm, litellm_chat
from formatbook_core.testing.llm_server import USAGE, Finish, ScriptedServer

EXPECT = "EXPECT JSON\nEXPECT MAX 10 WORDS"
RUNAWAY = '{"name": "' + "word " * 400 + '"}'
FENCED = 'Here:\n```json\n{"name": "Ada Lovelace",}\n```'


def _model(server: ScriptedServer, **params: object):
    return litellm_chat("openai/scripted", api_base=server.url, api_key="none", **params)


def test_ask_stops_a_doomed_stream_closes_it_and_re_asks():
    with ScriptedServer([RUNAWAY, FENCED]) as server:
        result = ask(_model(server), "Ada", EXPECT)
        server.wait()
    assert result.verdict == "healed" and result.value == {"name": "Ada Lovelace"}
    first, second = result.attempts
    assert first.stopped and not second.stopped
    assert server.requests[0].closed_early
    assert server.requests[0].events_sent < server.requests[0].events_total // 4
    assert second.usage == USAGE and second.finish_reason == "stop"
    body = server.requests[1].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][2]["content"].startswith("Your reply was stopped after")


def test_ask_async_uses_litellms_async_stream():
    async def run():
        with ScriptedServer([RUNAWAY, FENCED]) as server:
            result = await ask_async(_model(server), "Ada", EXPECT)
            server.wait()
        return result, server

    result, server = asyncio.run(run())
    assert result.verdict == "healed"
    assert result.attempts[0].stopped and server.requests[0].closed_early


def test_ask_async_does_not_call_the_sync_completion(monkeypatch: pytest.MonkeyPatch):
    litellm = import_litellm()  # the adapter's import: without the cost map's fetch

    def refuse(**kwargs: object) -> None:
        raise AssertionError("ask_async called litellm.completion")

    monkeypatch.setattr(litellm, "completion", refuse)
    with ScriptedServer([FENCED]) as server:
        assert asyncio.run(ask_async(_model(server), "Ada", EXPECT)).ok


def test_a_reply_cut_at_max_tokens_is_not_the_answer():
    with ScriptedServer([Finish('{"name": "Ada"', "length")]) as server, pytest.raises(AskError) as caught:
        ask(_model(server), "Ada", EXPECT, max_attempts=1)
    attempt = caught.value.attempts[0]
    assert attempt.finish_reason == "length"
    assert attempt.result.violations[0].code == "reply.cut"


def test_a_whole_reply():
    with ScriptedServer(['{"name": "Ada"}']) as server:
        result = ask(_model(server, stream=False), "Ada", EXPECT)
    assert result.verdict == "pass"
    assert result.attempts[0].usage == USAGE
    assert "stream" not in server.requests[0].body


def test_the_request_timeout_is_cut_to_the_time_left():
    model = litellm_chat("openai/x", timeout=30, temperature=0)
    request = model.request([{"role": "user", "content": "hi"}], timeout=5)
    assert request["timeout"] == 5 and request["temperature"] == 0 and "api_base" not in request
    assert model.request([], timeout=None)["timeout"] == 30


# LiteLLM's own response types, handed to ask() by a callable (moved here from
# tests/core/test_llm_faults.py, so that one file, on one pytest-xdist worker as a rule,
# imports LiteLLM in the test process: about 4.5 s of CPU an import).


def _litellm_types(monkeypatch):
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no fetch of the price list on import
    return pytest.importorskip("litellm.types.utils")


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_litellm_responses_and_chunks_keep_their_finish_reason_and_usage(monkeypatch, driver):
    t = _litellm_types(monkeypatch)
    cut = '{"name": "Ada", "email": "ada@ex'
    counts = {"prompt_tokens": 5, "completion_tokens": 9, "total_tokens": 14}

    def chunks():
        for piece in (cut[:10], cut[10:]):
            yield t.ModelResponseStream(choices=[t.StreamingChoices(delta=t.Delta(content=piece))])
        last = t.StreamingChoices(delta=t.Delta(content=None), finish_reason="length")
        yield t.ModelResponseStream(choices=[last], usage=t.Usage(**counts))

    whole = t.ModelResponse(
        choices=[t.Choices(message=t.Message(content=cut + '"}'), finish_reason="length")], usage=t.Usage(**counts)
    )
    replies = iter([chunks(), whole, '{"name": "Ada", "email": "ada@example.org"}'])
    if driver == "sync":
        result = ask(lambda p: next(replies), "Ada", "EXPECT JSON")
    else:

        async def llm(prompt):
            return next(replies)

        result = asyncio.run(ask_async(llm, "Ada", "EXPECT JSON"))
    streamed, given_whole, good = result.attempts
    for attempt in (streamed, given_whole):
        assert attempt.finish_reason == "length" and attempt.result.violations[0].code == "reply.cut"
        assert attempt.usage == counts and not attempt.usage_estimated
    assert good.finish_reason is None and result.ok
    assert result.usage == {"prompt_tokens": 10, "completion_tokens": 18, "total_tokens": 28}


# That importing LiteLLM through the adapter reaches no network (its cost map is not
# fetched) is checked in a fresh interpreter that goes on to run the LiteLLM example:
# LITELLM_IMPORT_PROBE in tests/integrations/test_examples.py.
