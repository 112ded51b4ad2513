"""CompletionsModel against a scripted OpenAI-compatible completions server on 127.0.0.1:
one request per step, the prefix as the prompt, the server's ranking in ``top_logprobs``."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

openai = pytest.importorskip("openai")

from formatbook_core import Expectations  # noqa: E402
from formatbook_core.generation import END, Candidate, GenerationError, generate  # noqa: E402
from formatbook_core.generation.openai_completions import CompletionsModel  # noqa: E402
from tests.local_http import LocalHttpServer  # noqa: E402

PROMPT = "Ada's age as JSON: "
SCHEMA = {"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]}
MEANT = ["{", '"age"', ":", " 36", "}"]


def ranking(reply: str) -> list[tuple[str, float]]:
    """The server's alternatives after ``reply``: the meant token, and above it (every other
    step) one that breaks JSON; ``<|endoftext|>`` once the object is closed."""
    done = next((k for k in range(len(MEANT), -1, -1) if reply == "".join(MEANT[:k])), None)
    if done is None:
        return [("zzz", -0.1)]
    if done == len(MEANT):
        return [(" and more", -0.2), ("<|endoftext|>", -0.5)]
    ranked = [(MEANT[done], -1.0), ("x", -3.0)]
    if done % 2 == 0:
        ranked.insert(0, ("]", -0.05))  # the top candidate would break the format
    return ranked


class Server(LocalHttpServer):
    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                server.bodies.append(body)
                reply = body["prompt"][len(PROMPT) :]
                ranked = ranking(reply)[: body.get("logprobs") or 1]
                top, lp = ranked[0]
                stop = top == "<|endoftext|>"
                data = {
                    "id": "cmpl-1",
                    "object": "text_completion",
                    "created": 0,
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "text": "" if stop else top,
                            "finish_reason": "stop" if stop else "length",
                            "logprobs": {
                                "tokens": [top],
                                "token_logprobs": [lp],
                                "top_logprobs": [dict(ranked)],
                                "text_offset": [len(body["prompt"])],
                            },
                        }
                    ],
                }
                raw = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        super().__init__(Handler)
        self.url = f"{self.base}/v1"


@pytest.fixture
def server() -> Iterator[Server]:
    with Server() as s:
        yield s


def client(server: Server) -> Any:
    return openai.OpenAI(base_url=server.url, api_key="test", max_retries=0, timeout=10)


def test_the_top_candidate_that_breaks_json_is_passed_over(server):
    model = CompletionsModel("tiny", client(server), top=3)
    result = generate(model, PROMPT, Expectations(format="json", schema=SCHEMA))
    assert result.ok and result.value == {"age": 36} and result.reply == '{"age": 36}'
    # one request per step, each with the prefix so far, and one for the end
    assert model.requests == len(server.bodies) == len(MEANT) + 1
    assert [b["prompt"] for b in server.bodies] == [PROMPT + "".join(MEANT[:k]) for k in range(len(MEANT) + 1)]
    assert all(b["max_tokens"] == 1 and b["logprobs"] == 3 and b["model"] == "tiny" for b in server.bodies)
    # by hand: "]" at steps 0, 2, 4 and " and more" after the object
    assert result.rejected == 4 and result.backtracks == 0


def test_with_one_alternative_only_the_breaking_top_token_leaves_no_way_on(server):
    model = CompletionsModel("tiny", client(server), top=1)
    with pytest.raises(GenerationError) as err:
        generate(model, PROMPT, "EXPECT JSON", backtrack_budget=3)
    assert err.value.prefix == ""  # "]" is all the server offers at the start
    assert len(server.bodies) == 1


def test_parse_ranks_alternatives_and_reads_the_end():
    model = CompletionsModel("m", client=object())

    class Choice:
        text = ""
        finish_reason = "stop"

        class logprobs:  # noqa: N801 - the SDK object's attribute name
            token_logprobs = [-0.1]
            top_logprobs = [{"a": -2.0, "</s>": -0.1, "b": -0.5}]

    cands = model.parse(Choice)
    assert cands == [Candidate("", -0.1, True), Candidate("b", -0.5), Candidate("a", -2.0)]
    assert cands[0].end and END.end
    Choice.logprobs.top_logprobs = []
    Choice.text, Choice.finish_reason = "c", "length"
    assert model.parse(Choice) == [Candidate("c", -0.1)]
    assert math.isclose(model.parse(Choice)[0].logprob or 0, -0.1)
