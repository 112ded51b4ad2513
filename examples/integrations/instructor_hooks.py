"""instructor with formatbook's hooks: a healable reply costs one request instead of two,
and a re-ask carries formatbook's correction next to instructor's own error.

Run: python examples/integrations/instructor_hooks.py      (needs: pip install 'formatbook[instructor]')

Offline: a scripted OpenAI-compatible server on 127.0.0.1 (formatbook_core.testing.llm_server, the one formatbook's tests use)
answers; give instructor.from_openai a client for your endpoint for the real thing.
"""

import instructor
import openai
from pydantic import BaseModel

from formatbook_core import Expectations
from formatbook_core.integrations.instructor import formatbook_hooks
from formatbook_core.testing.llm_server import ScriptedServer


class Contact(BaseModel):
    name: str
    email: str


HEALABLE = 'Here it is:\n```json\n{"name": "Ada Lovelace", "email": "ada@example.org",}\n```'
VALID = '{"name": "Ada Lovelace", "email": "ada@example.org"}'
MESSAGES = [{"role": "user", "content": "Ada Lovelace's contact card"}]


def run(replies: list[str], with_formatbook: bool) -> tuple[Contact, ScriptedServer]:
    with ScriptedServer(replies) as server:
        extra = (
            {"hooks": formatbook_hooks(Expectations(format="json", schema=Contact)).hooks} if with_formatbook else {}
        )
        client = instructor.from_openai(
            openai.OpenAI(base_url=server.url, api_key="none"), mode=instructor.Mode.JSON, **extra
        )
        contact = client.chat.completions.create(model="m", response_model=Contact, messages=MESSAGES, max_retries=2)
    return contact, server


for with_formatbook in (False, True):
    contact, server = run([HEALABLE, VALID], with_formatbook)
    label = "with formatbook" if with_formatbook else "instructor alone"
    print(f"{label}: {contact.email}, {len(server.requests)} request(s)")

contact, server = run(['{"name": "Ada Lovelace"}', VALID], True)
reask = server.requests[1].messages[-1]["content"]
print("re-ask carries formatbook's correction:", "What formatbook found:" in reask)
print("correction:", next(line for line in reask.splitlines() if line.startswith("- ")))
