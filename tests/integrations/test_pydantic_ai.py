"""The pydantic-ai output, against pydantic-ai's own FunctionModel and TestModel."""

from __future__ import annotations

import pytest
from pydantic import BaseModel
from pydantic_ai import Agent, ModelRetry
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from formatbook_core import Count, Expectations, guidance
from formatbook_core.integrations.pydantic_ai import formatbook_output, formatbook_validator


class Contact(BaseModel):
    name: str
    email: str


EXP = Expectations(format="json", schema=Contact, counts=[Count("words", max=10)])
HEALABLE = 'Here:\n```json\n{"name": "Ada Lovelace", "email": "ada@example.org",}\n```'


class Scripted:
    """A FunctionModel function: the scripted replies in turn; it keeps every request."""

    def __init__(self, *replies: str):
        self.replies = list(replies)
        self.requests: list[list[ModelMessage]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests.append(list(messages))
        return ModelResponse(parts=[TextPart(self.replies[min(len(self.requests), len(self.replies)) - 1])])

    def retry_texts(self) -> list[str]:
        """What each request after the first sent back to the model (its feedback)."""
        return [
            " ".join(str(part.content) for part in messages[-1].parts)
            for messages in self.requests[1:]
            if isinstance(messages[-1], ModelRequest)
        ]


def test_a_healable_reply_costs_one_request_and_gives_the_typed_value():
    model = Scripted(HEALABLE)
    output = formatbook_output(EXP)
    result = Agent(FunctionModel(model), output_type=output).run_sync("Ada's contact card")
    assert result.output == Contact(name="Ada Lovelace", email="ada@example.org")
    assert len(model.requests) == 1


def test_a_failing_reply_is_retried_with_formatbooks_correction():
    model = Scripted('Sure! {"name": "Ada Lovelace"}', HEALABLE)
    output = formatbook_output(EXP)
    result = Agent(FunctionModel(model), output_type=output, instructions=output.instructions).run_sync("Ada")
    assert result.output.email == "ada@example.org"
    assert len(model.requests) == 2
    [retry] = model.retry_texts()
    assert "Your reply was not accepted:\n- 'email' is a required property. Add it." in retry
    # the guidance went to the model as the agent's instructions
    assert model.requests[0][0].instructions == guidance(EXP)


def test_a_count_violation_names_the_limit_in_the_retry():
    long = '{"name": "Ada Augusta King, Countess of Lovelace, born Byron, the first programmer", "email": "ada@example.org"}'
    model = Scripted(long, HEALABLE)
    Agent(FunctionModel(model), output_type=formatbook_output(EXP)).run_sync("Ada")
    [retry] = model.retry_texts()
    assert "exceed the maximum of 10" in retry and "at most 10 words" in retry


def test_retries_run_out_with_pydantic_ais_own_error():
    model = Scripted("no JSON here")
    agent = Agent(FunctionModel(model), output_type=formatbook_output(EXP), retries={"output": 1})
    with pytest.raises(UnexpectedModelBehavior):
        agent.run_sync("Ada")
    assert len(model.requests) == 2


def test_test_model_text_is_healed():
    agent = Agent(
        TestModel(custom_output_text='{"name": "Ada", "email": "a@example.org",}'), output_type=formatbook_output(EXP)
    )
    assert agent.run_sync("x").output == Contact(name="Ada", email="a@example.org")


def test_the_validator_of_a_text_agent_returns_the_healed_payload():
    agent = Agent(TestModel(custom_output_text='Sure:\n```json\n{"a": 1,}\n```'))
    agent.output_validator(formatbook_validator("EXPECT JSON"))
    assert agent.run_sync("x").output == '{"a": 1}'


def test_the_validator_raises_model_retry():
    validate = formatbook_validator("EXPECT JSON\nEXPECT MAX 1 WORDS")
    with pytest.raises(ModelRetry, match="Shorten it"):
        validate('{"a": "two words"}')
