"""The LangChain output parser, against langchain-core's own runnables and fake chat models."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.exceptions import OutputParserException
from langchain_core.language_models.fake_chat_models import FakeListChatModel, FakeListChatModelError
from langchain_core.messages import AIMessage, AIMessageChunk
from pydantic import BaseModel

from formatbook_core import CheckResult, Count, Expectations, guidance
from formatbook_core.integrations.langchain import FormatbookOutputParser, FormatbookParserError, FormatbookResultParser

EXPECT = "EXPECT JSON\nEXPECT MAX 10 WORDS"
RUNAWAY = '{"name": "' + "word " * 400 + '"}'  # 2,012 characters, doomed after the 11th word


class Contact(BaseModel):
    name: str
    email: str


class Tokens(BaseCallbackHandler):
    def __init__(self) -> None:
        self.count = 0

    def on_llm_new_token(self, token: str, **kwargs: object) -> None:
        self.count += 1


@pytest.mark.parametrize(
    "reply",
    [
        '{"name": "Ada"}',
        '```json\n{"name": "Ada",}\n```',
        'Sure!\r\n```json\r\n{"name": "Ada"}\r\n```\r\nAnything else?',
        '<think>{"name": "Bob"} maybe?</think>\n{"name": "Ada"}',
    ],
    ids=["plain", "fenced-trailing-comma", "crlf-prose", "think-block"],
)
def test_parse_returns_the_value_the_reply_meant(reply: str):
    assert FormatbookOutputParser(EXPECT).parse(reply) == {"name": "Ada"}


def test_parse_gives_a_pydantic_instance_when_the_schema_is_a_model():
    parser = FormatbookOutputParser(Expectations(format="json", schema=Contact))
    value = parser.parse('{"name": "Ada", "email": "ada@example.org",}')
    assert value == Contact(name="Ada", email="ada@example.org")


def test_a_failing_reply_raises_output_parser_exception_with_the_violations():
    reply = '{"name": "Ada"}'
    parser = FormatbookOutputParser(Expectations(format="json", schema=Contact))
    with pytest.raises(OutputParserException) as caught:
        parser.parse(reply)
    error = caught.value
    assert isinstance(error, FormatbookParserError)
    assert [v.code for v in error.violations] == ["schema.required"]
    assert "schema.required" in str(error)
    assert error.llm_output == reply
    assert error.observation is not None and "'email' is a required property. Add it." in error.observation
    assert error.result.ok is False


def test_format_instructions_are_formatbooks_guidance():
    exp = Expectations(format="json", schema=Contact, counts=[Count("words", max=10)])
    text = FormatbookOutputParser(exp).get_format_instructions()
    assert text == guidance(exp)
    assert '"email": string' in text and "at most 10 words" in text


def test_invoke_takes_a_message_and_the_result_parser_gives_the_verdict():
    parser = FormatbookResultParser(EXPECT)
    result = parser.invoke(AIMessage(content='```json\n{"name": "Ada",}\n```'))
    assert isinstance(result, CheckResult)
    assert result.verdict == "healed" and result.value == {"name": "Ada"}


def test_a_chain_streams_one_value_at_the_end():
    chain = FakeListChatModel(responses=['Here:\n```json\n{"name": "Ada Lovelace",}\n```']) | FormatbookOutputParser(
        EXPECT
    )
    assert list(chain.stream("hi")) == [{"name": "Ada Lovelace"}]


def test_streaming_stops_a_doomed_generation():
    tokens = Tokens()
    chain = FakeListChatModel(responses=[RUNAWAY]) | FormatbookOutputParser(EXPECT)
    with pytest.raises(FormatbookParserError) as caught:
        list(chain.stream("hi", config={"callbacks": [tokens]}))
    # the fake model streams one character a token: it was stopped long before its end
    assert tokens.count < 600 < len(RUNAWAY)
    error = caught.value
    assert [v.code for v in error.violations][:2] == ["reply.stopped", "count.max"]
    assert error.llm_output is not None and len(error.llm_output) == tokens.count
    assert error.observation is not None and error.observation.startswith("Your reply was stopped after")


def test_async_streaming_stops_a_doomed_generation():
    tokens = Tokens()
    chain = FakeListChatModel(responses=[RUNAWAY]) | FormatbookOutputParser(EXPECT)

    async def run() -> None:
        async for _ in chain.astream("hi", config={"callbacks": [tokens]}):
            pass

    with pytest.raises(FormatbookParserError):
        asyncio.run(run())
    assert tokens.count < 600


def test_the_models_own_failure_is_not_a_parsing_error():
    chain = FakeListChatModel(responses=['{"name": "Ada"}'], error_on_chunk_number=5) | FormatbookOutputParser(EXPECT)
    with pytest.raises(FakeListChatModelError):
        list(chain.stream("hi"))


def test_bad_expectations_are_refused_when_the_parser_is_built():
    with pytest.raises(ValueError, match="JSONN"):
        FormatbookOutputParser("EXPECT JSONN")


def test_content_blocks_give_their_text_and_leave_reasoning_out():
    chunks = [
        AIMessageChunk(content=[{"type": "reasoning", "reasoning": '{"name": "Bob", "drafts": ['}]),
        AIMessageChunk(content=[{"type": "text", "text": '{"name": '}]),
        AIMessageChunk(content='"Ada"}'),
    ]
    assert list(FormatbookOutputParser(EXPECT).transform(iter(chunks))) == [{"name": "Ada"}]
