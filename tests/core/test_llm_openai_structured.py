"""openai_chat(structured=...): the request carries the expectations' response_format (the
schema in OpenAI's strict subset), and the reply is still checked against the original
schema, through the real openai SDK against a scripted server on 127.0.0.1."""

from __future__ import annotations

import asyncio
from pathlib import Path

import openai
import pytest

from formatbook_core import AskError, Expectations, ExportError, ask, ask_async
from formatbook_core.cli import main
from formatbook_core.llm import ChatModel, openai_chat
from formatbook_core.testing.llm_server import ScriptedServer

SCHEMA = {
    "title": "Contact",
    "type": "object",
    "properties": {
        "firstName": {"type": "string", "minLength": 1},
        "email": {"type": ["string", "null"], "format": "email"},
        "age": {"type": "integer", "minimum": 0},
    },
    "required": ["firstName", "age"],
}
CONTACT = Path(__file__).parents[2] / "examples" / "replies" / "schemas" / "contact.json"


def model(server: ScriptedServer, **params) -> ChatModel:
    client = openai.OpenAI(base_url=server.url, api_key="test-key", max_retries=0)
    return openai_chat("scripted-model", client, **params)


def test_the_request_carries_the_strict_schema_and_the_reply_is_checked_against_the_original():
    # the strict schema lets the model write "" (minLength went into the description):
    # the original schema refuses it, and ask asks again
    replies = ['{"firstName": "", "email": null, "age": 36}', '{"firstName": "Ada", "email": null, "age": 36}']
    with ScriptedServer(replies) as server:
        result = ask(model(server, structured=True), "Ada's card", Expectations(format="json", schema=SCHEMA))
        server.wait()
    first, second = server.requests
    sent = first.body["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["name"] == "Contact" and sent["json_schema"]["strict"] is True
    schema = sent["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["firstName", "email", "age"]
    assert schema["properties"]["firstName"] == {"type": "string", "description": "minLength: 1"}
    assert schema["properties"]["email"] == {"type": ["string", "null"], "format": "email"}
    assert schema["properties"]["age"] == {"type": "integer", "minimum": 0}
    assert second.body["response_format"] == sent  # every request carries it
    assert not result.attempts[0].result.ok
    assert any(v.path == ("firstName",) for v in result.attempts[0].result.violations)
    assert result.ok and result.value == {"firstName": "Ada", "email": None, "age": 36}


def test_an_optional_property_sent_as_nullable_is_still_refused_as_null_by_the_check():
    with ScriptedServer(['{"firstName": "Ada", "lastName": "L", "email": null}'] * 2) as server:
        with pytest.raises(AskError) as info:
            ask(model(server, structured=True), "card", f"EXPECT JSON {CONTACT}", max_attempts=2)
        server.wait()
    props = server.requests[0].body["response_format"]["json_schema"]["schema"]["properties"]
    assert props["email"] == {"type": ["string", "null"]}
    violation = info.value.attempts[0].result.violations[0]
    assert violation.path == ("email",)


def test_structured_with_expectations_given_sends_them_without_ask():
    with ScriptedServer(['{"firstName": "A", "age": 1}']) as server:
        chat = model(server, structured=Expectations(format="json", schema=SCHEMA), stream=False)
        chat([{"role": "user", "content": "hi"}])
        server.wait()
    assert server.requests[0].body["response_format"]["json_schema"]["schema"]["required"] == [
        "firstName",
        "email",
        "age",
    ]


def test_without_a_schema_json_object_is_asked_for():
    with ScriptedServer(['{"a": 1}']) as server:
        result = ask(model(server, structured=True), "any object", "EXPECT JSON")
        server.wait()
    assert server.requests[0].body["response_format"] == {"type": "json_object"}
    assert result.ok


def test_without_structured_no_response_format_is_sent():
    with ScriptedServer(['{"firstName": "A", "age": 1}']) as server:
        ask(model(server), "card", Expectations(format="json", schema=SCHEMA))
        server.wait()
    assert "response_format" not in server.requests[0].body


def test_async_ask_sends_it_too():
    async def run(server: ScriptedServer):
        client = openai.AsyncOpenAI(base_url=server.url, api_key="k", max_retries=0)
        try:
            chat = openai_chat("m", client, structured=True)
            return await ask_async(chat, "card", Expectations(format="json", schema=SCHEMA))
        finally:
            await client.close()

    with ScriptedServer(['{"firstName": "A", "age": 1}']) as server:
        result = asyncio.run(run(server))
        server.wait()
    assert result.ok and server.requests[0].body["response_format"]["type"] == "json_schema"


def test_clear_errors():
    with pytest.raises(ExportError, match="markdown has no response_format"):
        openai_chat("m", structured="EXPECT MARKDOWN")
    with pytest.raises(ValueError, match="not both"):
        openai_chat("m", structured=True, response_format={"type": "json_object"})
    with pytest.raises(ValueError, match="takes its expectations from ask"):
        openai_chat("m", client=object(), structured=True)([{"role": "user", "content": "x"}])
    with pytest.raises(ExportError, match="object at the root"):
        openai_chat("m", structured=Expectations(format="json", schema={"type": "array"}))
    # the model given to ask is not changed: the shaped copy is ask's own
    chat = openai_chat("m", client=object(), structured=True)
    shaped = chat.expecting(Expectations(format="json", schema=SCHEMA))
    assert shaped is not chat and chat.response_format is None and shaped.response_format is not None


def test_the_ask_command_sends_it_with_structured(capsys, monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "FORMATBOOK_MODEL"):
        monkeypatch.delenv(name, raising=False)
    args = ["ask", "-e", f"JSON {CONTACT}", "card", "--model", "m", "--api-key", "k"]
    with ScriptedServer(['{"firstName": "Ada", "lastName": "L", "email": "a@l"}']) as server:
        code = main([*args, "--base-url", server.url, "--structured"])
        server.wait()
    assert code == 0 and server.requests[0].body["response_format"]["json_schema"]["name"] == "Contact"
    with ScriptedServer(["x"]) as server:
        code = main(
            ["ask", "-e", "MARKDOWN", "hi", "--model", "m", "--api-key", "k", "--base-url", server.url, "--structured"]
        )
    _, err = capsys.readouterr()
    assert code == 2 and "markdown has no response_format" in err and server.requests == []
