"""ask / ask_async: re-asking with the violations, never the identical prompt."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from formatbook_core import AskError, Attempt, Expectations, ask, ask_async, check, parse_expectations
from formatbook_core.llm import ChatModel, correction

from .conftest_formats import kv_registry


def scripted(*replies):
    prompts = []
    it = iter(replies)

    def llm(prompt):
        prompts.append(prompt)
        return next(it)

    return llm, prompts


def test_second_attempt_quotes_violations():
    e = parse_expectations("EXPECT KV\nEXPECT MAX 2 WORDS", registry=kv_registry())
    llm, prompts = scripted("a: one two three", "a: one two")
    result = ask(llm, "Give me kv", e)
    assert result.ok and len(result.attempts) == 2
    assert prompts[0] != prompts[1]
    assert "3 words exceed the maximum of 2" in prompts[1]
    assert "a: one two three" in prompts[1]


def test_healable_reply_needs_no_second_call():
    e = parse_expectations("EXPECT KV", registry=kv_registry())
    llm, prompts = scripted("a = 1")
    assert ask(llm, "kv please", e).verdict == "healed"
    assert len(prompts) == 1


def test_all_attempts_fail():
    e = parse_expectations("EXPECT KV", registry=kv_registry())
    llm, _ = scripted("nope", "still nope")
    with pytest.raises(AskError) as info:
        ask(llm, "kv", e, max_attempts=2)
    assert [a.reply for a in info.value.attempts] == ["nope", "still nope"]
    assert not info.value.last.ok


def test_async():
    e = parse_expectations("EXPECT KV", registry=kv_registry())

    async def llm(prompt):
        return "a: 1"

    result = asyncio.run(ask_async(llm, "kv", e))
    assert result.ok and result.value == {"a": "1"}


def test_openai_style_response_and_bad_arguments():
    e = parse_expectations("EXPECT KV", registry=kv_registry())
    completion = SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content="a: 1"))])
    assert ask(lambda p: completion, "kv", e).value == {"a": "1"}
    with pytest.raises(ValueError):
        ask(lambda p: "a: 1", "kv", e, max_attempts=0)
    with pytest.raises(TypeError, match="ask_async"):

        async def coro(p):
            return "a: 1"

        ask(coro, "kv", e)
    with pytest.raises(TypeError, match="must return str"):
        ask(lambda p: 42, "kv", e)


def test_a_reply_without_content_is_an_empty_attempt_and_re_asked():
    e = parse_expectations("EXPECT KV", registry=kv_registry())
    empty = SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=None))])
    replies = iter([empty, None, "a: 1"])
    result = ask(lambda p: next(replies), "kv", e, max_attempts=3)
    assert result.value == {"a": "1"}
    first, second, _ = result.attempts
    assert [v.code for v in first.result.violations] == ["reply.empty"]
    assert [v.code for v in second.result.violations] == ["reply.empty"]


def test_first_prompt_carries_the_guidance():
    e = parse_expectations("EXPECT KV\nEXPECT MAX 2 WORDS", registry=kv_registry())
    llm, prompts = scripted("a: x")
    ask(llm, "Give me kv", e)
    assert prompts[0].startswith("Give me kv\n\n")
    assert "at most 2 words" in prompts[0]


# --- chat models, streams, attempts (issue 13) -----------------------------------------------

LIMIT = "EXPECT JSON\nEXPECT MAX 5 WORDS"
LONG = '{"note": "' + " ".join(["word"] * 600) + '"}'


class Stream:
    """A generator of chunks that records how far it was read and whether it was closed."""

    def __init__(self, text, size=4):
        self.text, self.size = text, size
        self.sent = 0
        self.closed = False

    def __iter__(self):
        try:
            for i in range(0, len(self.text), self.size):
                self.sent += 1
                yield self.text[i : i + self.size]
        finally:
            self.closed = True


def test_chat_true_sends_messages_and_keeps_the_conversation_bounded():
    sent = []
    replies = iter(['{"note": tru3}', '{"note": "a b c d e f"}', '{"note": "fine"}'])

    def chat(messages):
        sent.append(messages)
        return next(replies)

    result = ask(chat, "A note", LIMIT, chat=True, system="Be brief.")
    assert result.ok and len(result.attempts) == 3
    assert [m["role"] for m in sent[0]] == ["system", "user"]
    assert [m["role"] for m in sent[2]] == ["system", "user", "assistant", "user"]  # not 6 messages
    assert sent[2][:2] == sent[0]
    assert sent[2][2]["content"] == '{"note": "a b c d e f"}'
    assert "6 words exceed the maximum of 5" in sent[2][3]["content"]
    assert "Shorten it: write at most 5 words" in sent[2][3]["content"]
    assert result.attempts[2].messages == sent[2] and result.attempts[2].prompt == sent[2][3]["content"]


def test_a_chat_model_is_marked_by_its_wrapper_and_a_plain_callable_is_a_prompt_callable():
    seen = []

    @ChatModel
    def chat(messages):
        seen.append(messages)
        return '{"note": "ok"}'

    assert ask(chat, "A note", LIMIT).ok
    assert isinstance(seen[0], list) and seen[0][0]["role"] == "user"
    prompts = []
    ask(lambda p: prompts.append(p) or '{"note": "ok"}', "A note", LIMIT)
    assert isinstance(prompts[0], str)


def test_a_doomed_stream_is_closed_at_once_and_the_part_received_is_the_attempt():
    doomed, good = Stream(LONG), Stream('{"note": "short"}')
    streams = iter([doomed, good])
    shown = []
    result = ask(lambda messages: next(streams), "A note", LIMIT, chat=True, on_chunk=shown.append)
    assert result.ok and doomed.closed and good.closed
    first = result.attempts[0]
    assert first.stopped and "exceed" in first.stop_reason
    assert doomed.sent < len(LONG) // 4 // 2  # stopped well before the end
    assert first.reply == LONG[: doomed.sent * 4]
    assert first.result.violations[0].code == "reply.stopped" and not first.result.ok
    assert "".join(shown) == first.reply + '{"note": "short"}'


def test_a_healable_stream_is_read_to_the_end():
    stream = Stream('Here: {"note": "short",')
    result = ask(lambda p: stream, "A note", LIMIT)
    assert result.verdict == "healed" and len(result.attempts) == 1
    assert stream.sent == -(-len(stream.text) // 4) and not result.attempts[0].stopped


def test_openai_style_chunks_as_dicts_carry_text_and_usage():
    def chunks():
        yield {"choices": [{"delta": {"role": "assistant"}}]}
        yield {"choices": [{"delta": {"content": '{"note": '}}]}
        yield {"choices": [{"delta": {"content": '"ok"}'}, "finish_reason": "stop"}]}
        yield {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}

    result = ask(lambda p: chunks(), "A note", LIMIT)
    assert result.value == {"note": "ok"}
    assert result.attempts[0].usage == {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}


def test_async_iterators_are_closed_when_doomed():
    closed = []

    async def chunks(text):
        try:
            for i in range(0, len(text), 4):
                yield text[i : i + 4]
        finally:
            closed.append(text)

    replies = iter([LONG, '{"note": "short"}'])

    async def chat(messages):
        return chunks(next(replies))

    result = asyncio.run(ask_async(chat, "A note", LIMIT, chat=True))
    assert result.ok and result.attempts[0].stopped and closed[0] == LONG
    with pytest.raises(TypeError, match="ask_async"):
        ask(lambda p: chunks(LONG), "A note", LIMIT)


def test_ask_error_names_the_best_attempt_and_serialises():
    replies = iter([Stream(LONG), '{"note": "a b c d e f g"}', Stream(LONG)])
    attempts = []
    with pytest.raises(AskError) as info:
        ask(lambda p: next(replies), "A note", LIMIT, on_attempt=attempts.append)
    error = info.value
    assert attempts == error.attempts and len(attempts) == 3
    # the latest of the fewest violations, but a finished reply before a stopped one
    assert error.best is error.attempts[1] and error.best_index == 1
    data = error.attempts[0].to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["stopped"] is True and data["result"]["violations"][0]["code"] == "reply.stopped"


def test_a_passing_result_serialises_with_its_attempts():
    replies = iter(['{"note": tru3}', '{"note": "ok"}'])
    result = ask(lambda p: next(replies), "A note", LIMIT)
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert [a["result"]["verdict"] for a in data["attempts"]] == ["fail", "pass"]
    assert "attempts" not in data["attempts"][1]["result"]  # no cycle through the last attempt


def test_the_correction_names_fields_and_says_what_to_do():
    schema = {
        "type": "object",
        "properties": {
            "address": {"type": "object", "properties": {"zip": {"type": "string", "maxLength": 5}}},
            "kind": {"enum": ["home", "work"]},
        },
    }
    exp = Expectations(format="json", schema=schema)
    replies = iter(['{"address": {"zip": "1234567"}, "kind": "cave"}', '{"kind": "home"}'])
    sent = []

    def chat(messages):
        sent.append(messages)
        return next(replies)

    ask(chat, "An address", exp, chat=True)
    text = sent[1][-1]["content"]
    assert 'field "address.zip"' in text and "Use at most 5 characters." in text
    assert 'field "kind"' in text and 'Use one of: "home", "work".' in text


def test_the_correction_quotes_the_text_around_a_syntax_error():
    exp = Expectations(format="json")
    reply = 'Here you go: {"a": tru3}'
    text = correction(Attempt("p", reply, check_json(reply)), exp)
    assert 'near `Here you go: {"a": tru3}`' in text and "Write valid JSON." in text


def check_json(reply):
    return check(reply, "EXPECT JSON")


def test_a_system_message_needs_a_chat_model():
    with pytest.raises(ValueError, match="chat"):
        ask(lambda p: '{"note": "ok"}', "A note", LIMIT, system="Be brief.")


def test_each_count_violation_gets_its_own_fix():
    exp = 'EXPECT JSON\nEXPECT MAX 3 WORDS\nEXPECT MAX 3 SENTENCES\nEXPECT MAX 3 WORDS IN "/a"'
    reply = '{"a": "One. Two. Three. Four.", "b": "x"}'
    text = correction(Attempt("p", reply, check(reply, exp)), parse_expectations(exp))
    assert "5 words exceed the maximum of 3. Shorten it: write at most 3 words (count only" in text
    # "x" is a sentence too (text without a terminator is one)
    assert "5 sentences exceed the maximum of 3. Shorten it: write at most 3 sentences" in text
    assert '4 words in "/a" exceed the maximum of 3. Shorten it: write at most 3 words in the field "a"' in text


class _TwoWays(ChatModel):
    """A chat model with a sync and an async way to ask; it says which one ran."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, float | None]] = []

    def send(self, messages, *, timeout=None):
        self.calls.append(("send", timeout))
        return "a: 1"

    def send_async(self, messages, *, timeout=None):
        self.calls.append(("send_async", timeout))

        async def reply():
            return "a: 1"

        return reply()


def test_ask_async_calls_a_chat_models_async_way_and_ask_its_sync_one():
    e = parse_expectations("EXPECT KV", registry=kv_registry())
    model = _TwoWays()
    assert asyncio.run(ask_async(model, "kv", e, timeout=30)).ok
    assert ask(model, "kv", e, timeout=30).ok
    assert [name for name, _ in model.calls] == ["send_async", "send"]
    assert all(timeout is not None and 0 < timeout <= 30 for _, timeout in model.calls)


def test_a_chat_models_async_way_is_its_sync_one_by_default():
    e = parse_expectations("EXPECT KV", registry=kv_registry())
    sent = []
    model = ChatModel(lambda messages: sent.append(messages) or "a: 1")
    assert asyncio.run(ask_async(model, "kv", e)).ok
    assert len(sent) == 1


def test_a_count_of_one_gets_its_fix_too():
    exp = 'EXPECT JSON\nEXPECT MAX 0 WORDS IN "/b"\nEXPECT MIN 2 WORDS IN "/a"'
    reply = '{"a": "One", "b": "x"}'
    text = correction(Attempt("p", reply, check(reply, exp)), parse_expectations(exp))
    assert '1 word in "/b" exceeds the maximum of 0. Shorten it: write at most 0 words in the field "b"' in text
    assert '1 word in "/a" falls short of the minimum of 2. Write more: write at least 2 words in the field "a"' in text
