"""openai_chat through the real openai SDK against a scripted server on 127.0.0.1: what the
server receives is what a real endpoint would receive."""

from __future__ import annotations

import asyncio
import builtins
import json

import openai
import pytest

from formatbook_core import AskError, Expectations, ask, ask_async
from formatbook_core.llm import ChatModel, openai_chat
from formatbook_core.testing.llm_server import USAGE, ScriptedServer, chunked

EXPECT = "EXPECT JSON\nEXPECT MAX 10 WORDS"
# 150 words in one string: the guard sees the 11th settled word long before the end
DOOMED = '{"note": "' + " ".join(f"word{i}" for i in range(150)) + '"}'
GOOD = '{"note": "Short and sweet."}'
PROMPT = "Write a note about the weather."


def model(server: ScriptedServer, **params) -> ChatModel:
    client = openai.OpenAI(base_url=server.url, api_key="test-key", max_retries=0)
    return openai_chat("scripted-model", client, **params)


def test_a_doomed_reply_is_stopped_and_the_re_ask_keeps_the_conversation():
    with ScriptedServer([DOOMED, GOOD]) as server:
        seen: list[str] = []
        result = ask(model(server, temperature=0), PROMPT, EXPECT, on_chunk=seen.append)
        server.wait()
        first, second = server.requests
    assert result.ok and result.value == {"note": "Short and sweet."}
    assert len(result.attempts) == 2
    stopped = result.attempts[0]
    assert stopped.stopped and "exceed" in (stopped.stop_reason or "")
    # the connection was closed long before the script ended
    assert first.closed_early
    assert first.events_sent < first.events_total // 2
    # what was received before the stop is a prefix of the script, and all of it was shown
    assert DOOMED.startswith(stopped.reply) and len(stopped.reply) < len(DOOMED) // 2
    assert "".join(seen) == stopped.reply + GOOD
    # the request as the SDK sent it
    assert first.body["model"] == "scripted-model" and first.body["temperature"] == 0
    assert first.body["stream"] is True and first.body["stream_options"] == {"include_usage": True}
    # the re-ask: the first request, the bad reply as the assistant's, the correction
    assert [m["role"] for m in second.messages] == ["user", "assistant", "user"]
    assert second.messages[0] == first.messages[0]
    assert second.messages[0]["content"].startswith(PROMPT)
    assert "at most 10 words" in second.messages[0]["content"]
    assert second.messages[1]["content"] == stopped.reply
    correction = second.messages[2]["content"]
    assert "stopped" in correction and "at most 10 words" in correction
    assert PROMPT not in correction  # the model still has the prompt; it is not repeated
    # usage: reported by the stream that ran to its end; the stopped one's is estimated,
    # 4 characters a token (the prompt sent, the text received), and the total adds both
    assert result.attempts[1].usage == USAGE and not result.attempts[1].usage_estimated
    sent, got = len(first.messages[0]["content"]), len(stopped.reply)
    assert stopped.usage_estimated and stopped.usage == {
        "prompt_tokens": (sent + 3) // 4,
        "completion_tokens": (got + 3) // 4,
        "total_tokens": (sent + 3) // 4 + (got + 3) // 4,
    }
    assert result.usage == {key: stopped.usage[key] + USAGE[key] for key in USAGE}
    assert result.usage_estimated and result.to_dict()["usage"] == result.usage
    assert result.attempts[1].messages == second.messages


def test_a_healable_reply_costs_one_request():
    reply = 'Sure! Here it is:\n```json\n{"note": "Sunny, warm",}\n```'
    with ScriptedServer([reply, GOOD]) as server:
        result = ask(model(server), PROMPT, EXPECT)
        server.wait()
    assert result.verdict == "healed" and result.value == {"note": "Sunny, warm"}
    assert len(server.requests) == 1
    assert not server.requests[0].closed_early
    assert server.requests[0].events_sent == server.requests[0].events_total
    assert result.attempts[0].reply == reply and not result.attempts[0].stopped


def test_a_model_that_never_complies_ends_after_max_attempts_with_every_attempt():
    schema = {
        "type": "object",
        "properties": {"age": {"type": "integer"}},
        "required": ["age"],
        "additionalProperties": False,
    }
    expectations = Expectations(format="json", schema=schema)
    replies = ['{"age": "forty"}', '{"age": "forty-one"}', '{"age": "unknown", "x": 1}']
    with ScriptedServer(replies) as server:
        with pytest.raises(AskError) as info:
            ask(model(server), "How old is Ada?", expectations, max_attempts=3)
        server.wait()
    error = info.value
    assert len(server.requests) == 3 and len(error.attempts) == 3
    assert [a.reply for a in error.attempts] == replies
    assert all(not a.result.ok and a.usage == USAGE for a in error.attempts)
    # bounded: the third request carries the first request, the second reply and its correction only
    third = server.requests[2].messages
    assert len(third) == 3 and third[1]["content"] == replies[1]
    assert 'field "age"' in third[2]["content"] and "whole number" in third[2]["content"]
    assert replies[0] not in json.dumps(third)
    # one violation each for the first two, two for the third: the latest of the fewest
    assert error.best is error.attempts[1]
    assert error.best_index == 1 and "attempt 2" in str(error)


def test_a_system_message_and_a_whole_reply_without_streaming():
    with ScriptedServer(['{"note": "ok"}']) as server:
        result = ask(model(server, stream=False), PROMPT, EXPECT, system="You are terse.")
        server.wait()
    body = server.requests[0].body
    assert "stream" not in body or body["stream"] is False
    assert body["messages"][0] == {"role": "system", "content": "You are terse."}
    assert result.ok and result.attempts[0].usage == USAGE


def test_async_client_stops_a_doomed_stream_too():
    async def run(server: ScriptedServer):
        client = openai.AsyncOpenAI(base_url=server.url, api_key="k", max_retries=0)
        try:
            return await ask_async(openai_chat("m", client), PROMPT, EXPECT)
        finally:
            await client.close()

    with ScriptedServer([DOOMED, GOOD]) as server:
        result = asyncio.run(run(server))
        server.wait()
    assert result.ok and len(server.requests) == 2
    assert result.attempts[0].stopped and server.requests[0].closed_early
    assert server.requests[1].messages[1]["content"] == result.attempts[0].reply


def test_the_chunks_the_server_sends_are_the_reply():
    assert "".join(chunked(DOOMED)) == DOOMED


def test_openai_chat_without_the_sdk_says_how_to_install(monkeypatch):
    real_import = builtins.__import__

    def no_openai(name, *args, **kwargs):
        if name == "openai":
            raise ImportError("No module named 'openai'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_openai)
    with pytest.raises(ImportError, match=r"formatbook\[openai\]"):
        openai_chat("m")([{"role": "user", "content": "hi"}])


def _two_at_once(chat_model: ChatModel, **options) -> list:
    async def both():
        return await asyncio.gather(*(ask_async(chat_model, PROMPT, EXPECT, **options) for _ in range(2)))

    return asyncio.run(both())


def test_ask_async_without_a_client_makes_an_async_one_and_asks_concurrently():
    # each answer starts 0.5 s after its request: two asks overlap only if neither blocks the loop
    with ScriptedServer([GOOD], delay=0.5) as server:
        chat_model = openai_chat("m", base_url=server.url, api_key="k")
        results = _two_at_once(chat_model)
        server.wait()
        assert all(r.ok and r.value == {"note": "Short and sweet."} for r in results)
        assert len(server.requests) == 2 and server.most_in_flight == 2
        assert isinstance(chat_model._async[1], openai.AsyncOpenAI)
        # a later event loop gets a client of its own; the sync ask, a sync client
        first_client = chat_model._async[1]
        assert _two_at_once(chat_model)[0].ok and chat_model._async[1] is not first_client
        assert ask(chat_model, PROMPT, EXPECT).ok and isinstance(chat_model._sync, openai.OpenAI)
        server.wait()
    assert all(r.body["stream_options"] == {"include_usage": True} for r in server.requests)
    assert all(r.usage == USAGE for result in results for r in result.attempts)


def test_a_sync_client_given_to_ask_async_runs_off_the_loop_so_the_asks_overlap():
    # a sync client's request blocks: ask_async sends it on the attempt's thread (bounded by
    # the deadline), so the event loop goes on and the second ask starts at once
    with ScriptedServer([GOOD], delay=0.5) as server:
        results = _two_at_once(model(server))
        server.wait()
    assert all(r.ok for r in results) and len(server.requests) == 2 and server.most_in_flight == 2


def test_without_a_deadline_a_sync_client_blocks_the_loop_so_the_asks_take_turns():
    # the counterpart of the two tests above, so that their assertions can fail: with no
    # deadline the call runs on the loop, as called, and the second ask waits for the first
    with ScriptedServer([GOOD], delay=0.5) as server:
        results = _two_at_once(model(server), timeout=None, total_timeout=None)
        server.wait()
    assert all(r.ok for r in results) and len(server.requests) == 2 and server.most_in_flight == 1
