"""ask / ask_async: re-asking with the violations, never the identical prompt."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from formatbook_core import AskError, ask, ask_async, parse_expectations

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
