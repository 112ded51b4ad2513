"""The instructor hooks, against instructor talking to a scripted OpenAI-compatible server
over HTTP (the server counts the requests)."""

from __future__ import annotations

import asyncio

import instructor
import openai
import pytest
from instructor.v2.core.errors import IncompleteOutputException, InstructorRetryException
from instructor.v2.providers.openai.handlers import reask_tools
from openai.types.chat import ChatCompletion
from pydantic import BaseModel

from formatbook_core import Count, Expectations
from formatbook_core.integrations.instructor import CORRECTION_HEADING, formatbook_hooks
from formatbook_core.testing.llm_server import Finish, ScriptedServer


class Contact(BaseModel):
    name: str
    email: str


EXP = Expectations(format="json", schema=Contact)
VALID = '{"name": "Ada Lovelace", "email": "ada@example.org"}'
HEALABLE = [
    'Here it is:\n```json\n{"name": "Ada Lovelace", "email": "ada@example.org",}\n```',
    '{"name": "Ada Lovelace", "email": "ada@example.org"',  # cut short, finish_reason "stop"
    "<think>the card</think>\r\n{'name': 'Ada Lovelace', 'email': 'ada@example.org'}",
]
MESSAGES = [{"role": "user", "content": "Ada Lovelace's contact card"}]
MODES = [instructor.Mode.JSON, instructor.Mode.MD_JSON]


def _create(server: ScriptedServer, mode: instructor.Mode, hooks: object = None, retries: int = 2) -> Contact:
    extra = {"hooks": hooks} if hooks is not None else {}
    client = instructor.from_openai(openai.OpenAI(base_url=server.url, api_key="none"), mode=mode, **extra)
    return client.chat.completions.create(model="m", response_model=Contact, messages=MESSAGES, max_retries=retries)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
@pytest.mark.parametrize("reply", HEALABLE, ids=["fence-comma", "cut", "think-crlf-quotes"])
def test_a_healable_reply_costs_one_request_instead_of_two(mode: instructor.Mode, reply: str):
    with ScriptedServer([reply, VALID]) as server:
        alone = _create(server, mode)
    assert len(server.requests) == 2  # instructor alone re-asks
    with ScriptedServer([reply, VALID]) as server:
        hooks = formatbook_hooks(EXP)
        healed = _create(server, mode, hooks.hooks)
    assert len(server.requests) == 1
    assert healed.model_dump() == alone.model_dump() == {"name": "Ada Lovelace", "email": "ada@example.org"}
    assert [r.verdict for r in hooks.results] == ["healed"]


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_the_re_ask_carries_formatbooks_correction(mode: instructor.Mode):
    with ScriptedServer(['{"name": "Ada Lovelace"}', VALID]) as server:
        contact = _create(server, mode, formatbook_hooks(EXP).hooks)
    assert contact.email == "ada@example.org"
    assert len(server.requests) == 2
    reask = server.requests[1].messages[-1]["content"]
    assert reask.startswith("Correct your JSON ONLY RESPONSE")  # instructor's own message, kept
    assert f"{CORRECTION_HEADING}\nYour reply was not accepted:\n- 'email' is a required property. Add it." in reask
    assert reask.count(CORRECTION_HEADING) == 1


def _create_as(server: ScriptedServer, response_model: type, hooks: object) -> Contact:
    client = instructor.from_openai(openai.OpenAI(base_url=server.url, api_key="none"), mode=instructor.Mode.JSON)
    return client.chat.completions.create(
        model="m", response_model=response_model, messages=MESSAGES, max_retries=2, hooks=hooks
    )


LONG = '{"name": "Ada Augusta King, Countess of Lovelace", "email": "ada@example.org"}'
COUNTED = Expectations(format="json", schema=Contact, counts=[Count("words", max=4)])


def test_a_limit_pydantic_cannot_express_is_re_asked_through_the_checked_model():
    with ScriptedServer([LONG, VALID]) as server:
        hooks = formatbook_hooks(COUNTED)
        contact = _create_as(server, hooks.model(Contact), hooks.hooks)
    assert isinstance(contact, Contact) and contact.name == "Ada Lovelace"
    assert len(server.requests) == 2
    assert [r.verdict for r in hooks.results] == ["fail", "pass"]
    reask = server.requests[1].messages[-1]["content"]
    assert reask.count("Shorten it: write at most 4 words") == 1  # in the validation error, not added twice


def test_without_the_checked_model_pydantic_decides_and_the_verdict_is_kept():
    with ScriptedServer([LONG, VALID]) as server:
        hooks = formatbook_hooks(COUNTED)
        contact = _create_as(server, Contact, hooks.hooks)
    assert contact.name.startswith("Ada Augusta")
    assert len(server.requests) == 1
    assert [v.code for v in hooks.results[0].violations] == ["count.max"]


def test_the_checked_model_judges_only_the_reply_it_parses():
    hooks = formatbook_hooks(COUNTED)
    checked = hooks.model(Contact)
    assert checked.__name__ == "Contact" and checked.model_json_schema() == Contact.model_json_schema()
    hooks.on_response(_tool_completion(LONG))
    with pytest.raises(ValueError, match="at most 4 words"):
        checked.model_validate_json(LONG)
    assert checked(name="Ada Augusta King, Countess", email="a@example.org").name.startswith("Ada")


def test_a_reply_cut_at_max_tokens_is_not_healed():
    with ScriptedServer([Finish('{"name": "Ada Lovelace", "email": "ada@example.org"', "length")]) as server:
        hooks = formatbook_hooks(EXP)
        with pytest.raises((IncompleteOutputException, InstructorRetryException)):
            _create(server, instructor.Mode.JSON, hooks.hooks, retries=0)
    assert hooks.results == []  # left for instructor to refuse


def _tool_completion(arguments: str) -> ChatCompletion:
    return ChatCompletion.model_validate(
        {
            "id": "c",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {"id": "t1", "type": "function", "function": {"name": "Contact", "arguments": arguments}}
                        ],
                    },
                }
            ],
        }
    )


def test_tools_mode_heals_the_arguments():
    hooks = formatbook_hooks(EXP)
    response = _tool_completion('{"name": "Ada Lovelace", "email": "ada@example.org",}')
    hooks.on_response(response)
    assert response.choices[0].message.tool_calls[0].function.arguments == VALID


def test_tools_mode_re_ask_carries_the_correction():
    hooks = formatbook_hooks(EXP)
    response = _tool_completion('{"name": "Ada Lovelace"}')
    hooks.on_response(response)
    kwargs = reask_tools({"messages": list(MESSAGES)}, response, ValueError("Field required"))
    hooks.on_kwargs(**kwargs)
    tool_message = kwargs["messages"][-1]
    assert tool_message["role"] == "tool"
    assert tool_message["content"].startswith("Validation Error found:")
    assert "- 'email' is a required property. Add it." in tool_message["content"]


def test_a_reply_that_passes_unchanged_is_left_alone():
    hooks = formatbook_hooks(EXP)
    response = _tool_completion(VALID)
    hooks.on_response(response)
    assert response.choices[0].message.tool_calls[0].function.arguments == VALID
    assert [r.verdict for r in hooks.results] == ["pass"]


def test_the_async_client_heals_in_one_request_and_re_asks_through_the_checked_model():
    async def run(replies: list[str]) -> tuple[Contact, ScriptedServer, object]:
        with ScriptedServer(replies) as server:
            hooks = formatbook_hooks(COUNTED)
            client = instructor.from_openai(
                openai.AsyncOpenAI(base_url=server.url, api_key="none"), mode=instructor.Mode.JSON
            )
            contact = await client.chat.completions.create(
                model="m", response_model=hooks.model(Contact), messages=MESSAGES, max_retries=2, hooks=hooks.hooks
            )
        return contact, server, hooks

    contact, server, _ = asyncio.run(run([HEALABLE[0], VALID]))
    assert contact.email == "ada@example.org" and len(server.requests) == 1
    contact, server, hooks = asyncio.run(run([LONG, VALID]))
    assert contact.name == "Ada Lovelace" and len(server.requests) == 2
