"""A stream stopped early is closed however it is given: the openai SDK's stream, simonw/llm's
``Response`` (whose HTTP stream sits in a generator, reached only by finalization), and a
warning, once, for a stream that offers no way to close it."""

from __future__ import annotations

import asyncio
import gc
import warnings

import pytest

from formatbook_core import AskError, ask, ask_async, llm_replies
from formatbook_core.llm import UnclosedStreamWarning
from formatbook_core.testing.llm_server import ScriptedServer

EXPECT = "EXPECT JSON\nEXPECT MAX 10 WORDS"
DOOMED = '{"note": "' + " ".join(f"word{i}" for i in range(400)) + '"}'
GOOD = '{"note": "Short and sweet."}'
PROMPT = "Write a note about the weather."

openai_models = pytest.importorskip("llm.default_plugins.openai_models")


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch):
    monkeypatch.setattr(llm_replies, "_warned", set())


@pytest.fixture
def no_automatic_gc():
    """The cycle collector off, so that only what ask does closes a stream held in a cycle."""
    gc.disable()
    yield
    gc.enable()


def test_llm_response_stopped_early_closes_the_connection(no_automatic_gc):
    with ScriptedServer([DOOMED, GOOD]) as server:
        model = openai_models.Chat("scripted", api_base=server.url)
        with warnings.catch_warnings():
            warnings.simplefilter("error", UnclosedStreamWarning)
            result = ask(lambda prompt: model.prompt(prompt, key="k"), PROMPT, EXPECT)
        server.wait(timeout=5)
        first = server.requests[0]
    assert result.ok and result.attempts[0].stopped
    # the server saw the client go away long before the end of its script
    assert first.closed_early and first.events_sent < first.events_total // 4


class Endless:
    """A stream of text chunks without close(): an iterator object of its own."""

    def __init__(self) -> None:
        self.sent = 0

    def __iter__(self) -> Endless:
        return self

    def __next__(self) -> str:
        self.sent += 1
        return '{"note": "' if self.sent == 1 else "word " * 10


def test_a_stream_that_cannot_be_closed_is_warned_about_once():
    streams = [Endless(), Endless()]
    given = iter(streams)
    with pytest.warns(UnclosedStreamWarning, match="cannot close it") as caught, pytest.raises(AskError) as info:
        ask(lambda prompt: next(given), PROMPT, EXPECT, max_attempts=2)
    assert [a.stopped for a in info.value.attempts] == [True, True]
    assert all(s.sent < 100 for s in streams)  # stopped early, both
    assert len([w for w in caught if w.category is UnclosedStreamWarning]) == 1
    assert "Endless" in str(caught[0].message)


@pytest.mark.parametrize("shape", ["list", "list iterator", "generator"])
def test_in_memory_and_generator_streams_close_without_a_warning(shape):
    chunks = ['{"note": "', *(["word " * 10] * 30), '"}']
    make = {
        "list": lambda: list(chunks),
        "list iterator": lambda: iter(chunks),
        "generator": lambda: (c for c in chunks),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnclosedStreamWarning)
        with pytest.raises(AskError) as info:
            ask(lambda prompt: make[shape](), PROMPT, EXPECT, max_attempts=1)
    assert info.value.attempts[0].stopped


def test_llm_async_response_cannot_be_closed_and_says_so():
    # llm's AsyncResponse is its own async iterator, with neither aclose() nor close()
    async def run(server: ScriptedServer):
        model = openai_models.AsyncChat("scripted", api_base=server.url)
        return await ask_async(lambda prompt: model.prompt(prompt, key="k"), PROMPT, EXPECT)

    with ScriptedServer([DOOMED, GOOD]) as server, pytest.warns(UnclosedStreamWarning, match="AsyncResponse"):
        result = asyncio.run(run(server))
    assert result.ok and result.attempts[0].stopped
