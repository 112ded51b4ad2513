"""ask against a misbehaving OpenAI-compatible server (issue 30) and replies the model did
not finish (issue 25): every case ends in a documented outcome, with every attempt kept."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import openai
import pytest

from formatbook_core import AskError, ask, ask_async
from formatbook_core.cli import main
from formatbook_core.llm import ChatModel, TransportError, openai_chat
from formatbook_core.llm_replies import MAX_EMPTY_CHUNKS, finish_reason_of
from formatbook_core.testing.llm_server import (
    USAGE,
    BadContent,
    BrokenLine,
    CutStream,
    EmptyDeltas,
    EndlessProse,
    Finish,
    HttpError,
    KeepAlive,
    Raw,
    ScriptedServer,
    Stall,
)

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
    "required": ["name", "email"],
}
EXPECT = "EXPECT JSON"
GOOD = '{"name": "Ada", "email": "ada@example.org"}'
NOT_JSON = "I would rather not say."
PROMPT = "Ada's contact card"


def model(server: ScriptedServer, **params) -> ChatModel:
    client = openai.OpenAI(base_url=server.url, api_key="k", max_retries=0)
    return openai_chat("scripted", client, **params)


def codes(attempt) -> list[str]:
    return [v.code for v in attempt.result.violations]


# --- transport errors: a documented error with every attempt ---------------------------------


def test_an_http_500_after_a_bad_reply_keeps_both_attempts():
    with ScriptedServer([NOT_JSON, HttpError(500)]) as server:
        with pytest.raises(AskError) as info:
            ask(model(server), PROMPT, EXPECT)
        server.wait()
    error = info.value
    assert len(server.requests) == 2 and len(error.attempts) == 2
    assert error.attempts[0].reply == NOT_JSON and not error.attempts[0].result.ok
    assert isinstance(error.cause, TransportError) and isinstance(error.__cause__, TransportError)
    assert isinstance(error.cause.__cause__, openai.InternalServerError)
    assert codes(error.attempts[1])[0] == "reply.transport" and error.attempts[1].reply == ""
    assert "the endpoint failed on attempt 2" in str(error) and "InternalServerError" in str(error)
    assert not error.timed_out


@pytest.mark.parametrize(
    ("item", "raw"),
    [
        (BrokenLine('{"name": "Ada", "em'), json.JSONDecodeError),
        (BrokenLine("", line="{not json at all"), json.JSONDecodeError),
        (BadContent('{"name": "Ada"', 42), None),
        (BadContent("", ["a", "list"]), None),
        (BadContent('{"name": ', {"text": "x"}), None),
    ],
)
def test_a_broken_stream_is_a_transport_error_that_keeps_the_part_received(item, raw):
    with ScriptedServer([NOT_JSON, item]) as server:
        with pytest.raises(AskError) as info:
            ask(model(server), PROMPT, EXPECT)
        server.wait()
    error = info.value
    assert [a.reply for a in error.attempts] == [NOT_JSON, item.text]
    failed = error.attempts[1]
    assert failed.stopped and codes(failed)[0] == "reply.transport" and not failed.result.ok
    assert isinstance(error.cause, TransportError)
    if raw is None:  # a chunk whose content is not text: the error says what it was
        assert type(item.content).__name__ in str(error.cause) and "not text" in str(error.cause)
    else:
        assert isinstance(error.cause.__cause__, raw)
    assert server.requests[1].closed_early or server.requests[1].events_sent == server.requests[1].events_total


async def ask_through_async_client(server: ScriptedServer, expect: str = EXPECT):
    """``ask_async`` through the SDK's ``AsyncOpenAI`` talking to ``server``."""
    client = openai.AsyncOpenAI(base_url=server.url, api_key="k", max_retries=0)
    try:
        return await ask_async(openai_chat("m", client), PROMPT, expect)
    finally:
        await client.close()


def test_transport_errors_reach_ask_async_the_same_way():
    for item in (HttpError(503), BrokenLine('{"name"'), BadContent("{", 7)):
        with ScriptedServer([NOT_JSON, item]) as server:
            with pytest.raises(AskError) as info:
                asyncio.run(ask_through_async_client(server))
            server.wait()
        assert len(info.value.attempts) == 2 and isinstance(info.value.cause, TransportError)
        assert codes(info.value.attempts[1])[0] == "reply.transport"


def test_a_callable_that_raises_is_a_transport_error_and_not_re_asked():
    calls = []

    def flaky(prompt):
        calls.append(prompt)
        if len(calls) == 2:
            raise ConnectionResetError("peer went away")
        return NOT_JSON

    with pytest.raises(AskError) as info:
        ask(flaky, PROMPT, EXPECT, max_attempts=3)
    assert len(calls) == 2 and len(info.value.attempts) == 2
    assert isinstance(info.value.cause.__cause__, ConnectionResetError)
    # what is no reply at all is the caller's mistake, as before
    with pytest.raises(TypeError, match="must return str"):
        ask(lambda p: 42, PROMPT, EXPECT)


def test_a_failure_after_the_finish_reason_loses_nothing():
    def chunks():
        yield {"choices": [{"delta": {"content": GOOD}, "finish_reason": "stop"}]}
        raise ConnectionResetError("the usage chunk never came")

    result = ask(lambda p: chunks(), PROMPT, EXPECT)
    assert result.ok and result.attempts[0].finish_reason == "stop" and not result.attempts[0].stopped


# --- cut replies: never the answer on their own ----------------------------------------------


@pytest.mark.parametrize("stream", [True, False])
def test_a_reply_cut_at_max_tokens_is_re_asked(stream):
    cut = '{"name": "Ada", "email": "ada@exa'  # heals to a valid object: still not the answer
    with ScriptedServer([Finish(cut, "length"), GOOD]) as server:
        result = ask(model(server, stream=stream), PROMPT, EXPECT)
        server.wait()
    assert result.ok and result.value == {"name": "Ada", "email": "ada@example.org"}
    first, second = result.attempts
    assert first.finish_reason == "length" and second.finish_reason == "stop"
    assert codes(first)[0] == "reply.cut" and not first.result.ok and not first.stopped
    assert "finish_reason 'length'" in first.result.violations[0].message
    correction = server.requests[1].messages[-1]["content"]
    assert "cut off" in correction and "shorter" in correction
    assert first.to_dict()["finish_reason"] == "length"


def test_a_cut_reply_fails_even_when_it_is_the_last_attempt():
    with ScriptedServer([Finish('{"name": "Ada", "email": "ada@ex', "length")]) as server:
        with pytest.raises(AskError) as info:
            ask(model(server), PROMPT, EXPECT, max_attempts=2)
        server.wait()
    assert all(codes(a)[0] == "reply.cut" for a in info.value.attempts)
    assert info.value.cause is None and len(server.requests) == 2


@pytest.mark.parametrize("text", ['{"name": "Ada", "email": "ada@ex', '{"name": "Ada", "email": "ada@ex"}', ""])
def test_a_stream_cut_mid_event_is_a_cut_reply(text):
    with ScriptedServer([CutStream(text), GOOD]) as server:
        result = ask(model(server), PROMPT, EXPECT)
        server.wait()
    first = result.attempts[0]
    assert first.reply == text and first.finish_reason is None
    assert codes(first)[0] == "reply.cut" and "without a finish reason" in first.result.violations[0].message
    assert result.ok and len(result.attempts) == 2


def _litellm_response(content, finish):
    message = SimpleNamespace(content=content, role="assistant")
    return SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason=finish, index=0)], usage=None)


def _chunks(pieces, finish, *, as_dict):
    for i, piece in enumerate(pieces):
        reason = finish if i == len(pieces) - 1 else None
        if as_dict:
            yield {"choices": [{"delta": {"content": piece}, "finish_reason": reason}]}
        else:
            yield SimpleNamespace(choices=[SimpleNamespace(delta=SimpleNamespace(content=piece), finish_reason=reason)])


@pytest.mark.parametrize("as_dict", [True, False])
@pytest.mark.parametrize("finish", ["length", "max_tokens", "content_filter", None])
def test_every_shape_reports_its_finish_reason(as_dict, finish):
    pieces = ['{"name": "Ada", ', '"email": "ada@ex']
    replies = iter([_chunks(pieces, finish, as_dict=as_dict), GOOD])
    result = ask(lambda p: next(replies), PROMPT, EXPECT)
    first = result.attempts[0]
    assert first.finish_reason == finish and codes(first)[0] == "reply.cut"
    assert result.ok and len(result.attempts) == 2
    # a whole response, as LiteLLM's ModelResponse or a dict
    whole = _litellm_response("".join(pieces) + '"}', "length")
    as_data = {"choices": [{"message": {"content": "".join(pieces) + '"}'}, "finish_reason": "length"}]}
    for response in (whole, as_data):
        given = iter([response, GOOD])
        result = ask(lambda p, given=given: next(given), PROMPT, EXPECT)
        assert result.attempts[0].finish_reason == "length" and codes(result.attempts[0]) == ["reply.cut"]


def test_a_finished_stream_and_a_stream_of_strings_are_accepted():
    finished = _chunks(['{"name": "Ada", ', '"email": "a@b.c"}'], "stop", as_dict=True)
    result = ask(lambda p: finished, PROMPT, EXPECT)
    assert result.ok and result.attempts[0].finish_reason == "stop"
    strings = iter(['{"name": "Ada", ', '"email": "a@b.c"}'])  # plain text has no finish reason
    assert ask(lambda p: strings, PROMPT, EXPECT).ok
    assert finish_reason_of({"choices": [{"finish_reason": 3}]}) is None
    assert finish_reason_of({"choices": "odd"}) is None and finish_reason_of("text") is None


# --- bounds: empty deltas, endless prose, deadlines -----------------------------------------


def test_endless_empty_deltas_are_stopped_after_a_bounded_run():
    with ScriptedServer([EmptyDeltas(), GOOD], pause=0.0) as server:
        result = ask(model(server), PROMPT, EXPECT)
        server.wait(30)
    first = result.attempts[0]
    assert first.stopped and "chunks in a row without any text" in (first.stop_reason or "")
    assert server.requests[0].closed_early
    assert server.requests[0].events_sent < MAX_EMPTY_CHUNKS + 200  # the server's buffers hold a few more
    assert result.ok and len(result.attempts) == 2


def test_reasoning_deltas_are_not_empty_but_count_toward_the_size_bound():
    def thinking(n):
        for _ in range(n):
            yield {"choices": [{"delta": {"content": "", "reasoning_content": "hmm "}, "finish_reason": None}]}
        yield {"choices": [{"delta": {"content": GOOD}, "finish_reason": "stop"}]}

    assert ask(lambda p: thinking(MAX_EMPTY_CHUNKS + 10), PROMPT, EXPECT).ok
    replies = iter([thinking(10_000), GOOD])
    result = ask(lambda p: next(replies), PROMPT, "EXPECT JSON max_size=2000")
    first = result.attempts[0]
    assert first.stopped and "max_size" in (first.stop_reason or "") and result.ok


def test_endless_prose_stops_at_the_size_bound_check_uses():
    with ScriptedServer([EndlessProse(), GOOD], pause=0.0, chunk_size=64) as server:
        result = ask(model(server), PROMPT, "EXPECT JSON max_size=3000")
        server.wait(30)
    first = result.attempts[0]
    assert first.stopped and "max_size" in (first.stop_reason or "")
    # stopped at the first chunk past the bound, kept: 86 pieces of 35 characters and the
    # empty first chunk (one) are 3,011 (85 pieces and it, 2,976, are within the bound)
    assert len(first.reply) == 86 * 35 == 3010
    assert result.ok


def test_a_deadline_stops_endless_prose_and_the_total_ends_the_loop():
    with ScriptedServer([EndlessProse()]) as server:
        with pytest.raises(AskError) as info:
            ask(model(server), PROMPT, EXPECT, max_attempts=50, timeout=0.3, total_timeout=1.0)
        server.wait(30)
    error = info.value
    assert error.timed_out and error.cause is None and 2 <= len(error.attempts) < 50
    assert all(a.stopped for a in error.attempts)
    assert "the attempt's time limit of 0.3 s" in (error.attempts[0].stop_reason or "")
    assert "within the time limit of 1 s for all attempts" in str(error)
    assert all(r.closed_early for r in server.requests)
    # the total cuts the last attempt short: timed out too, though no attempt was left over
    with ScriptedServer([EndlessProse()]) as server:
        with pytest.raises(AskError) as info:
            ask(model(server), PROMPT, EXPECT, max_attempts=2, timeout=0.3, total_timeout=0.5)
        server.wait(30)
    assert info.value.timed_out and len(info.value.attempts) == 2
    assert "for all attempts" in (info.value.attempts[1].stop_reason or "")


def test_a_server_that_stalls_is_given_up_on_at_the_deadline():
    with ScriptedServer([Stall(GOOD, seconds=3.0), GOOD]) as server:
        result = ask(model(server), PROMPT, EXPECT, timeout=0.5)
    first = result.attempts[0]
    # the SDK's read timeout was the time left: a stop for time, not a failed endpoint
    assert first.stopped and "time limit of 0.5 s" in (first.stop_reason or "")
    assert result.ok and len(result.attempts) == 2


def test_keep_alive_lines_do_not_hold_a_stream_past_its_deadline():
    """SSE comments keep the SDK's read busy without a chunk for the loop to see the
    deadline at: the watchdog closes the stream at the deadline instead."""
    with ScriptedServer([KeepAlive(GOOD), GOOD]) as server:
        result = ask(model(server), PROMPT, EXPECT, timeout=0.5)
        server.wait(30)
    first = result.attempts[0]
    assert first.stopped and "time limit of 0.5 s" in (first.stop_reason or "")
    assert result.ok and len(result.attempts) == 2
    # 3,000 comments take at least 6 s to send (2 ms apart): the stream was closed long before
    keep_alive = server.requests[0]
    assert keep_alive.closed_early and keep_alive.events_sent < 3000


def test_ask_async_awaits_at_most_until_the_deadline():
    async def slow(prompt):
        await asyncio.sleep(30)
        return GOOD

    async def endless(prompt):
        async def chunks():
            while True:
                await asyncio.sleep(0.01)
                yield {"choices": [{"delta": {"content": ""}, "finish_reason": None}]}

        return chunks()

    for llm in (slow, endless):
        with pytest.raises(AskError) as info:
            asyncio.run(ask_async(llm, PROMPT, EXPECT, max_attempts=2, timeout=0.2))
        assert [a.stopped for a in info.value.attempts] == [True, True]
        assert "time limit of 0.2 s" in (info.value.attempts[0].stop_reason or "")


def test_bad_timeouts_are_refused():
    for bad in ({"timeout": 0}, {"total_timeout": -1.0}):
        with pytest.raises(ValueError, match="seconds"):
            ask(lambda p: GOOD, PROMPT, EXPECT, **bad)


# --- the command: exit 2 for a failing endpoint, never 3 -------------------------------------


@pytest.mark.parametrize("item", [HttpError(500), BrokenLine('{"name"'), BadContent("{", 42)])
def test_formatbook_ask_exits_2_with_one_line_when_the_endpoint_fails(capsys, item):
    with ScriptedServer([NOT_JSON, item]) as server:
        args = ["ask", "-e", "JSON", PROMPT, "--base-url", server.url, "--model", "m", "--api-key", "k"]
        code = main(args)
        server.wait()
    _, err = capsys.readouterr()
    assert code == 2
    last = err.strip().splitlines()[-1]
    assert last.startswith("formatbook: the endpoint failed: ") and "Traceback" not in err
    with ScriptedServer([NOT_JSON, item]) as server:
        code = main([*args[:-6], "--base-url", server.url, "--model", "m", "--api-key", "k", "--json"])
        server.wait()
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert code == 2 and len(data["attempts"]) == 2 and data["attempts"][0]["reply"] == NOT_JSON
    assert data["error"] and data["attempts"][1]["result"]["violations"][0]["code"] == "reply.transport"


def test_formatbook_ask_re_asks_a_cut_reply(capsys):
    with ScriptedServer([Finish('{"name": "Ada", "email": "ada@ex', "length"), GOOD]) as server:
        code = main(["ask", "-e", "JSON", PROMPT, "--base-url", server.url, "--model", "m", "--api-key", "k", "--json"])
        server.wait()
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and [a["finish_reason"] for a in data["attempts"]] == ["length", "stop"]
    assert "[formatbook: attempt 1 failed: the reply was cut off" in err


# --- usage: a total over the attempts, an estimate where the endpoint counted nothing -------------


def test_usage_is_added_up_over_the_attempts_of_an_ask_error():
    with ScriptedServer([NOT_JSON]) as server:
        with pytest.raises(AskError) as info:
            ask(model(server), PROMPT, EXPECT, max_attempts=3)
        server.wait()
    error = info.value
    assert [a.usage for a in error.attempts] == [USAGE] * 3
    assert error.usage == {"prompt_tokens": 33, "completion_tokens": 21, "total_tokens": 54}
    assert not error.usage_estimated


def test_a_dropped_stream_and_an_http_error_are_estimated_or_left_out():
    text = '{"name": "Ada", "email": "ada@exa'  # 33 characters: 9 tokens at 4 a token
    with ScriptedServer([CutStream(text), HttpError(500)]) as server:
        with pytest.raises(AskError) as info:
            ask(model(server), PROMPT, EXPECT)
        server.wait()
    dropped, failed = info.value.attempts
    assert dropped.usage_estimated and dropped.usage is not None and dropped.usage["completion_tokens"] == 9
    sent = len(server.requests[0].messages[0]["content"])
    assert dropped.usage["prompt_tokens"] == -(-sent // 4)
    assert failed.usage is None and not failed.usage_estimated  # nothing came back: nothing to count
    assert info.value.usage == dropped.usage and info.value.usage_estimated


LONG_NOTE = '{"note": "' + "word " * 58  # 300 characters, 58 words: past the guard's lag


def test_a_stopped_stream_counts_its_reasoning_in_the_estimate():
    def stream(prompt):
        yield {"choices": [{"delta": {"content": "", "reasoning_content": "r" * 40}, "finish_reason": None}]}
        yield {"choices": [{"delta": {"content": LONG_NOTE}, "finish_reason": None}]}
        yield {"choices": [{"delta": {"content": '"}'}, "finish_reason": "stop"}]}

    with pytest.raises(AskError) as info:
        ask(stream, PROMPT, "EXPECT JSON\nEXPECT MAX 10 WORDS", max_attempts=1)
    attempt = info.value.attempts[0]
    assert attempt.stopped and attempt.reply == LONG_NOTE and len(LONG_NOTE) == 300
    # 40 characters of reasoning and 300 of text: 85 tokens
    assert attempt.usage is not None and attempt.usage["completion_tokens"] == 85 and attempt.usage_estimated
    assert attempt.usage["prompt_tokens"] == -(-len(attempt.prompt) // 4)


def test_replies_that_ran_to_their_end_without_usage_have_none():
    result = ask(lambda p: iter(['{"name": "Ada", ', '"email": "a@b.c"}']), PROMPT, EXPECT)
    assert result.attempts[0].usage is None and result.usage is None and not result.usage_estimated
    assert result.to_dict()["usage"] is None


# --- held out (issue 30): what the SDK hands over is in shape but holds no reply ---------------

_NULL_CHOICES_CHUNK = '{"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m", "choices": null}'


def _completion(choices) -> bytes:
    return json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": choices}).encode()


@pytest.mark.parametrize(
    ("stream", "item", "says"),
    [
        # a proxy's error page with status 200: the SDK returns the body as text
        (False, Raw(b"<html><body>502 Bad Gateway</body></html>", "text/html"), "no chat completion"),
        (False, Raw(_completion([])), "no choice"),
        (False, Raw(_completion(None)), "no choice"),  # read as a stream of tuples before
        (True, BrokenLine('{"name": "Ada"', line=_NULL_CHOICES_CHUNK), "choices are null"),
    ],
    ids=["html-page", "empty-choices", "null-choices", "stream-null-choices"],
)
def test_a_response_holding_no_reply_is_a_transport_error_that_keeps_every_attempt(stream, item, says):
    # on main: the HTML page was the answer (ok=True under EXPECT TEXT), the others a raw TypeError
    with ScriptedServer([NOT_JSON, item]) as server:
        with pytest.raises(AskError) as info:
            ask(model(server, stream=stream), PROMPT, "EXPECT TEXT\nEXPECT MAX 3 WORDS", max_attempts=3)
        server.wait()
    error = info.value
    assert len(server.requests) == 2 and len(error.attempts) == 2  # a transport error is not re-asked
    assert error.attempts[0].reply == NOT_JSON and not error.attempts[0].result.ok
    assert isinstance(error.cause, TransportError) and says in str(error.cause)
    assert codes(error.attempts[1])[0] == "reply.transport"


# --- held out (issue 30): a stream that ended without any chunk is no empty answer ---------------

_NO_CHUNK = [
    Raw(b"<html><body>502 Bad Gateway</body></html>", "text/html"),  # the SDK finds no event in it
    Raw(b": keep-alive\n\n" * 3, "text/event-stream"),  # comments, then the connection closes
    Raw(b"data: [DONE]\n\n", "text/event-stream"),  # the end, with no chunk before it
]
_NO_CHUNK_IDS = ["html-page", "keep-alive-only", "done-only"]
_TEXT = "EXPECT TEXT"  # "" passes it: only the stream's end can fail the reply


def _no_chunk_first(result) -> None:
    first, second = result.attempts
    assert first.reply == "" and first.finish_reason is None and not first.stopped and not first.result.ok
    assert codes(first)[0] == "reply.cut" and "without any chunk" in first.result.violations[0].message
    assert result.ok and second.reply == GOOD


@pytest.mark.parametrize("item", _NO_CHUNK, ids=_NO_CHUNK_IDS)
def test_a_stream_that_sent_no_chunk_is_a_cut_reply(item):
    # on main: zero chunks through the SDK were the reply "", accepted under EXPECT TEXT
    with ScriptedServer([item, GOOD]) as server:
        result = ask(model(server), PROMPT, _TEXT)
        server.wait()
    assert server.requests[0].body["stream"] is True
    _no_chunk_first(result)


@pytest.mark.parametrize("item", _NO_CHUNK, ids=_NO_CHUNK_IDS)
def test_a_stream_that_sent_no_chunk_is_a_cut_reply_in_ask_async(item):
    with ScriptedServer([item, GOOD]) as server:
        result = asyncio.run(ask_through_async_client(server, _TEXT))
        server.wait()
    _no_chunk_first(result)


def test_an_empty_iterator_is_no_reply_but_one_empty_string_is():
    async def nothing():
        return
        yield  # an async generator that yields no chunk

    with pytest.raises(AskError) as info:
        ask(lambda p: iter(()), PROMPT, _TEXT, max_attempts=1)
    assert codes(info.value.attempts[0]) == ["reply.cut"]
    with pytest.raises(AskError) as info:
        asyncio.run(ask_async(lambda p: nothing(), PROMPT, _TEXT, max_attempts=1))
    assert codes(info.value.attempts[0]) == ["reply.cut"]
    assert ask(lambda p: iter([""]), PROMPT, _TEXT).ok  # a stream of strings ends its reply where it ends
