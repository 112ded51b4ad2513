"""Ask for an answer under a Markdown contract, with a word limit on one section; the
re-ask names the section that was too long.

Run: python examples/ask_markdown.py

The contract (examples/replies/contracts/answer.md) asks for "Short answer", "Reasoning"
(a numbered list) and an optional "Assumptions". Offline by default: a scripted model
replies twice (the first short answer is too long). With OPENAI_BASE_URL, OPENAI_API_KEY
and FORMATBOOK_MODEL set, the same code asks that endpoint.
"""

import os
from pathlib import Path

from formatbook_core import AskError, ask
from formatbook_core.llm import ChatModel, openai_chat

CONTRACT = Path(__file__).parent / "replies" / "contracts" / "answer.md"
EXPECT = f"""EXPECT MARKDOWN {CONTRACT} level=1
EXPECT MAX 25 WORDS IN "Short answer"
EXPECT MAX 120 WORDS"""

SCRIPT = [
    "## Short answer\n"
    "Yes, in most cases it is worth it, because a heat pump moves heat instead of making it, so "
    "each unit of electricity brings three or four units of heat into the house, and running costs "
    "fall for nearly every household that switches from oil or direct electric heating.\n\n"
    "## Reasoning\n1. A heat pump moves heat.\n2. Electricity prices are stable.\n",
    "## Short answer\nYes: it heats with a third of the energy an electric heater uses.\n\n"
    "## Reasoning\n1. A heat pump moves heat rather than making it.\n"
    "2. Three or four units of heat come from one unit of electricity.\n\n"
    "## Assumptions\nNone\n",
]


def scripted_model() -> ChatModel:
    calls = []

    def reply(messages):
        calls.append(messages)
        return SCRIPT[min(len(calls), len(SCRIPT)) - 1]

    return ChatModel(reply)


def model() -> ChatModel:
    if os.environ.get("OPENAI_BASE_URL") and os.environ.get("FORMATBOOK_MODEL"):
        return openai_chat(os.environ["FORMATBOOK_MODEL"], base_url=os.environ["OPENAI_BASE_URL"])
    return scripted_model()


try:
    result = ask(model(), "Is a heat pump worth it for an old house?", EXPECT)
except AskError as error:
    print(error)
else:
    print("verdict:", result.verdict, "after", len(result.attempts), "attempt(s)")
    first = result.attempts[0]
    print("first attempt:", first.result.verdict, "-", first.result.violations[0] if first.result.violations else "")
    if len(result.attempts) > 1:
        print("the correction sent:")
        print(result.attempts[1].messages[-1]["content"])
    answer = result.value.sections_by_name["Short answer"].md
    print("short answer:", answer)
