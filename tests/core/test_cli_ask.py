"""``formatbook ask`` against the scripted server on 127.0.0.1 (the real openai SDK)."""

from __future__ import annotations

import io
import json

import pytest

from formatbook_core.cli import main
from formatbook_core.testing.llm_server import ScriptedServer

DOOMED = '{"note": "' + " ".join(f"word{i}" for i in range(120)) + '"}'
GOOD = '{"note": "Sunny and warm."}'
NOT_JSON = "I would rather not say."


@pytest.fixture(autouse=True)
def no_endpoint_in_the_environment(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "FORMATBOOK_MODEL"):
        monkeypatch.delenv(name, raising=False)


def ask(server: ScriptedServer, *extra: str) -> list[str]:
    return ["ask", "-e", "JSON", "-e", "MAX 10 WORDS", "The weather, please", "--base-url", server.url, *extra]


def test_a_stopped_reply_then_a_good_one_streams_and_passes(capsys):
    with ScriptedServer([DOOMED, GOOD]) as server:
        code = main(ask(server, "--model", "m", "--api-key", "k"))
        server.wait()
    out, err = capsys.readouterr()
    assert code == 0
    # stdout holds the answer alone; the streamed replies and the verdict went to stderr
    assert out == GOOD + "\n"
    assert GOOD in err and DOOMED[:40] in err
    assert "[formatbook: attempt 1 stopped after" in err and "asking again" in err
    assert "PASS" in err and "attempt 2 of 2" in err and "Token usage" not in err
    assert server.requests[0].closed_early and len(server.requests) == 2


def test_stdout_holds_the_healed_payload_and_usage_goes_to_stderr(capsys):
    fenced = 'Here you are:\n```json\n{"note": "Sunny",}\n```\nAnything else?'
    with ScriptedServer([NOT_JSON, fenced]) as server:
        code = main(ask(server, "--model", "m", "--api-key", "k", "--usage"))
        server.wait()
    out, err = capsys.readouterr()
    assert code == 0 and out == '{"note": "Sunny"}\n'
    assert "HEALED" in err and fenced in err
    # two replies run to their end, each counted 11 + 7 by the server
    assert "Token usage: 22 input, 14 output, 36 total (2 attempts)" in err


def test_no_answer_leaves_stdout_empty_and_an_estimate_is_said(capsys):
    with ScriptedServer([DOOMED, NOT_JSON]) as server:
        code = main(ask(server, "--model", "m", "--api-key", "k", "--max-attempts", "2", "-u"))
        server.wait()
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert "FAIL" in err and "(2 attempts; 1 estimated, the endpoint did not count them)" in err


def test_a_model_that_never_complies_exits_1_and_json_holds_every_attempt(capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("FORMATBOOK_MODEL", "m")
    with ScriptedServer([NOT_JSON]) as server:
        code = main(ask(server, "--json", "--max-attempts", "2"))
        server.wait()
    out, err = capsys.readouterr()
    assert code == 1 and len(server.requests) == 2
    data = json.loads(out)
    assert data["ok"] is False and data["best_attempt"] in (1, 2)
    assert [a["reply"] for a in data["attempts"]] == [NOT_JSON, NOT_JSON]
    assert data["attempts"][1]["messages"][1] == {"role": "assistant", "content": NOT_JSON}
    assert server.requests[0].body["model"] == "m"
    assert NOT_JSON in err  # streamed to stderr, since stdout is piped


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (["--model", "m", "--api-key", "k"], "no endpoint"),
        (["--base-url", "http://127.0.0.1:9/v1", "--api-key", "k"], "no model"),
        (["--base-url", "http://127.0.0.1:9/v1", "--model", "m"], "no API key"),
    ],
)
def test_a_missing_endpoint_model_or_key_is_one_line_and_exit_2(capsys, args, wanted):
    code = main(["ask", "-e", "JSON", "hello", *args])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.startswith(f"formatbook: {wanted}") and err.count("\n") == 1


def test_an_unreachable_endpoint_is_one_line_and_exit_2(capsys):
    # port 9 (discard) on the loopback: nothing listens there on a test machine
    code = main(["ask", "-e", "JSON", "hi", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--api-key", "k"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("formatbook: the endpoint failed: APIConnectionError") and err.count("\n") == 1


def test_the_prompt_from_stdin_and_a_bad_expect_line(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("What is the weather?\n"))
    with ScriptedServer([GOOD]) as server:
        code = main(["ask", "-e", "JSON", "-", "--base-url", server.url, "--model", "m", "--api-key", "k"])
        server.wait()
    assert code == 0
    assert server.requests[0].messages[0]["content"].startswith("What is the weather?")
    capsys.readouterr()
    assert main(["ask", "-e", "MAX 3 WRODS", "hi", "--base-url", "http://127.0.0.1:9/v1"]) == 2
    assert "WORDS" in capsys.readouterr().err
