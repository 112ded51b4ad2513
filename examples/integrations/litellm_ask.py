"""formatbook's ask loop through LiteLLM: every provider LiteLLM reaches, streamed, checked
as it arrives (a doomed reply is stopped and the connection closed), re-asked, sync or async.

Run: python examples/integrations/litellm_ask.py      (needs: pip install 'formatbook[litellm]')

Offline: a scripted OpenAI-compatible server on 127.0.0.1 (formatbook_core.testing.llm_server, the one formatbook's tests use),
reached as LiteLLM's "openai/..." model with api_base; use any LiteLLM model name for the
real thing ("anthropic/claude-sonnet-4-5", "ollama/llama3"...).
"""

import asyncio

from formatbook_core import ask, ask_async
from formatbook_core.integrations.litellm import litellm_chat
from formatbook_core.testing.llm_server import ScriptedServer

EXPECT = "EXPECT JSON\nEXPECT MAX 12 WORDS"
RUNAWAY = '{"city": "Lisbon", "sights": ["' + "Belém Tower, " * 200 + '"]}'
FENCED = 'Here you go:\n```json\n{"city": "Lisbon", "sights": ["Belém Tower", "Alfama"],}\n```'

with ScriptedServer([RUNAWAY, FENCED]) as server:
    result = ask(litellm_chat("openai/scripted", api_base=server.url, api_key="none"), "Lisbon's sights", EXPECT)
    server.wait()
first = server.requests[0]
print(f"verdict: {result.verdict} after {len(result.attempts)} attempt(s): {result.value}")
print(
    f"attempt 1 stopped: {result.attempts[0].stopped}, server sent {first.events_sent} of {first.events_total} events"
)
print("usage of attempt 2:", result.attempts[1].usage)


async def main() -> None:
    with ScriptedServer([FENCED]) as server:
        result = await ask_async(litellm_chat("openai/scripted", api_base=server.url, api_key="none"), "Lisbon", EXPECT)
    print(f"async verdict: {result.verdict}: {result.value}")


asyncio.run(main())
