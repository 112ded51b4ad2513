"""A pydantic-ai agent whose text output formatbook checks: a reply that heals is taken at
once, a reply that fails goes back to the model with formatbook's correction (ModelRetry).

Run: python examples/integrations/pydantic_ai_output.py      (needs: pip install 'formatbook[pydantic-ai]')

Offline: pydantic-ai's FunctionModel plays the model with scripted replies; put a model name
("openai:gpt-4o-mini", "anthropic:claude-sonnet-4-5"...) in its place for the real thing.
"""

from pydantic import BaseModel
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, RetryPromptPart, TextPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from formatbook_core import Count, Expectations
from formatbook_core.integrations.pydantic_ai import formatbook_output


class Contact(BaseModel):
    name: str
    email: str


SCRIPT = [
    'Sure! {"name": "Ada Lovelace"}',  # no email: fails, the model is told what to fix
    'Here:\n```json\n{"name": "Ada Lovelace", "email": "ada@example.org",}\n```',  # healed: taken as is
]
corrections: list[str] = []


def scripted(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """The model: the next scripted reply; it keeps the feedback it was sent."""
    last = messages[-1]
    if isinstance(last, ModelRequest):
        for part in last.parts:
            if isinstance(part, (RetryPromptPart, UserPromptPart)) and len(messages) > 1:
                corrections.append(str(part.content))
    return ModelResponse(parts=[TextPart(SCRIPT[min(len(messages) // 2, len(SCRIPT) - 1)])])


output = formatbook_output(Expectations(format="json", schema=Contact, counts=[Count("words", max=12)]))
agent = Agent(FunctionModel(scripted), output_type=output, instructions=output.instructions)
result = agent.run_sync("Ada's contact card")
print("output:", repr(result.output))
print("requests:", len([m for m in result.all_messages() if isinstance(m, ModelResponse)]))
print("correction sent:", " | ".join(line for c in corrections for line in c.splitlines() if line.startswith("- ")))
