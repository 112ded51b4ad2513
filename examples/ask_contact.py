"""Ask a model for a contact card as JSON matching a pydantic model; formatbook checks the
reply while it streams, stops it once it breaks the limits and re-asks with what was wrong.

Run: python examples/ask_contact.py

Offline by default: a scripted model streams its replies in small chunks, as an API does
(the first one runs past the word limit and is stopped midway; the second passes). With
OPENAI_BASE_URL, OPENAI_API_KEY and FORMATBOOK_MODEL set, the same code asks that endpoint.
"""

import os

from pydantic import BaseModel, Field  # noqa: TID253 - a script, not the library: it imports what it uses

from formatbook_core import AskError, Count, Expectations, ask
from formatbook_core.llm import ChatModel, openai_chat


class Contact(BaseModel):
    name: str = Field(description="Full name")
    email: str = Field(description="Work email address", max_length=80)
    bio: str = Field(description="One sentence about the person")


expectations = Expectations(format="json", schema=Contact, counts=[Count("words", max=40)])

SCRIPT = [
    # runs on and on: the guard stops it as soon as 40 words are settled
    '{"name": "Ada Lovelace", "email": "ada@example.org", "bio": "'
    + "Ada Lovelace was an English mathematician and writer, chiefly known for her work on "
    "Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine. "
    "She was the first to recognise that the machine had applications beyond pure calculation, "
    "and she published the first algorithm intended to be carried out by such a machine. " * 3 + '"}',
    # within the limit, in a fence with a trailing comma: healed, accepted
    'Here you are:\n```json\n{"name": "Ada Lovelace", "email": "ada@example.org", '
    '"bio": "Mathematician who wrote the first published computer program.",}\n```',
]


def scripted_model() -> ChatModel:
    """A chat model that streams SCRIPT's replies one after the other, 5 characters a chunk."""
    calls = []

    def stream(messages):
        calls.append(messages)
        reply = SCRIPT[min(len(calls), len(SCRIPT)) - 1]
        for i in range(0, len(reply), 5):
            yield reply[i : i + 5]

    return ChatModel(stream)


def model() -> ChatModel:
    if os.environ.get("OPENAI_BASE_URL") and os.environ.get("FORMATBOOK_MODEL"):
        return openai_chat(os.environ["FORMATBOOK_MODEL"], base_url=os.environ["OPENAI_BASE_URL"])
    return scripted_model()


try:
    result = ask(model(), "Give me Ada Lovelace's contact card.", expectations)
except AskError as error:
    print(error)
    best = error.best
    result = best.result if best is not None else None
else:
    print("verdict:", result.verdict)
for n, attempt in enumerate(result.attempts if result is not None else [], 1):
    how = f"stopped after {len(attempt.reply)} characters ({attempt.stop_reason})" if attempt.stopped else "finished"
    print(f"attempt {n}: {attempt.result.verdict}, {how}")
if result is not None and result.ok:
    contact = result.value  # a Contact instance
    print("contact:", contact.name, "<" + contact.email + ">")
    second = result.attempts[-1].messages or []
    print("the last request:", " -> ".join(m["role"] for m in second))
    if len(second) == 3:
        print("the correction sent:", second[2]["content"].splitlines()[0])
