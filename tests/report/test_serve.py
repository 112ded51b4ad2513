"""``formatbook serve``: the playground's endpoints over real HTTP on a free local port."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from formatbook_core.cli import main
from formatbook_core.serve import MAX_BODY, api

from .conftest import XSS, serving

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "replies"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    with serving(EXAMPLES) as address:
        yield address


def request(
    where: tuple[str, int], method: str, path: str, body: bytes | None = None, headers: dict | None = None
) -> tuple[int, dict, object]:
    conn = http.client.HTTPConnection(*where, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        kind = response.getheader("Content-Type", "")
        return response.status, dict(response.getheaders()), json.loads(data) if "json" in kind else data
    finally:
        conn.close()


def post(where, path, data) -> tuple[int, dict, object]:
    return request(where, "POST", path, json.dumps(data).encode(), {"Content-Type": "application/json"})


def test_the_page_loads_nothing_from_elsewhere(server):
    status, headers, page = request(server, "GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"<textarea" in page and b"Stream it" in page
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp and "script-src 'sha256-" in csp
    assert b"http://" not in page and b"https://" not in page and b'src="//' not in page


def test_a_check_returns_the_verdict_the_marks_and_the_guidance(server):
    status, _, data = post(server, "/api/check", {"reply": '{"a": 1,} <b>x</b>', "expect": "JSON\nMAX 3 WORDS"})
    assert status == 200
    assert (data["verdict"], data["text"], data["counts"], data["limits"]) == (
        "healed",
        '{"a": 1}',
        {"words": 1},
        {"words": "max 3"},
    )
    assert [r["kind"] for r in data["repairs"]] == ["located", "trailing_comma"]
    assert '<mark class="r" data-m="2"' in data["marked"] and "&lt;b&gt;x&lt;/b&gt;" in data["marked"]
    assert "<b>" not in data["marked"] and "JSON" in data["guidance"]


def test_expect_lines_may_come_as_a_list(server):
    status, _, data = post(server, "/api/check", {"reply": "one two three", "expect": ["TEXT", "MAX 2 WORDS"]})
    assert status == 200 and data["verdict"] == "fail" and data["violations"][0]["code"] == "count.max"


def test_a_replay_stops_where_the_guard_does(server):
    reply = '{"a": "one two three four five"}'
    status, _, data = post(server, "/api/stream", {"reply": reply, "expect": "JSON\nMAX 3 WORDS", "chunk": 4})
    assert status == 200 and data["stopped"] is True
    # 'one two three four' is settled once 'five' begins: the chunk ending at 28 ('...four fi')
    assert (data["feeds"], data["of"], data["fed"], data["position"]) == (7, 8, 28, 28)
    assert "exceed MAX 3 WORDS" in data["reason"]
    assert '<mark class="a" data-m="1"' in data["marked"]  # what the stream never read


def test_a_replay_that_passes_gives_the_final_verdict(server):
    status, _, data = post(server, "/api/stream", {"reply": '{"a": 1}', "expect": "JSON", "chunk": 3})
    assert status == 200 and (data["stopped"], data["verdict"], data["feeds"]) == (False, "pass", 3)


def test_examples_are_listed_and_read(server):
    _, _, listing = request(server, "GET", "/api/examples")
    assert "fail-schema" in listing["examples"]
    status, _, one = request(server, "GET", "/api/example?name=fail-schema")
    assert status == 200 and one["expect"].strip() == "EXPECT JSON schemas/contact.json"
    # the example's schema is read from the examples folder
    status, _, data = post(server, "/api/check", {"reply": one["reply"], "expect": one["expect"]})
    assert status == 200 and data["verdict"] == "fail" and data["violations"][0]["code"].startswith("schema.")
    status, _, error = request(server, "GET", "/api/example?name=../../etc/passwd")
    assert status == 400 and "no example" in error["error"]


@pytest.mark.parametrize("expect", ["JSON /etc/passwd", "JSON ../../pyproject.toml", "JSON https://example.com/s.json"])
def test_expect_lines_read_no_file_outside_the_examples(server, expect):
    status, _, data = post(server, "/api/check", {"reply": "{}", "expect": expect})
    assert status == 400 and data["kind"] == "expectation"


@pytest.mark.parametrize(
    ("body", "headers", "status", "says"),
    [
        (b"{}", {"Content-Type": "text/plain"}, 415, "send JSON"),
        (b"{nope", {"Content-Type": "application/json"}, 400, "not JSON"),
        (b"[1]", {"Content-Type": "application/json"}, 400, "JSON object"),
        (b'{"reply": 3}', {"Content-Type": "application/json"}, 400, "'reply' must be a string"),
        (b'{"reply": "x", "expect": "MAX"}', {"Content-Type": "application/json"}, 400, "bad expectation"),
        (b'{"reply": "x", "expect": "TEXT", "chunk": 0}', {"Content-Type": "application/json"}, 400, "'chunk'"),
        (b'{"reply": "a\\ud800", "expect": "TEXT"}', {"Content-Type": "application/json"}, 400, "lone surrogate at 1"),
    ],
)
def test_bad_requests_are_answered_as_json(server, body, headers, status, says):
    path = "/api/stream" if b"chunk" in body else "/api/check"
    got, answer_headers, data = request(server, "POST", path, body, headers)
    assert got == status and answer_headers["Content-Type"].startswith("application/json") and says in data["error"]


def test_a_body_past_the_cap_is_refused_unread(server):
    conn = http.client.HTTPConnection(*server, timeout=30)
    conn.putrequest("POST", "/api/check")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(MAX_BODY + 1))
    conn.endheaders()  # the body is never sent: the answer comes anyway
    response = conn.getresponse()
    assert response.status == 413 and "larger than" in json.loads(response.read())["error"]
    conn.close()


def test_a_request_naming_another_host_is_refused(server):
    status, _, data = request(server, "GET", "/", headers={"Host": "attacker.example:80"})
    assert status == 421 and "localhost only" in data["error"]
    assert request(server, "GET", "/api/examples", headers={"Host": f"localhost:{server[1]}"})[0] == 200


def test_unknown_paths_and_methods_and_garbage_are_json(server):
    assert request(server, "GET", "/nope")[0] == 404
    assert request(server, "POST", "/api/nope", b"{}", {"Content-Type": "application/json"})[0] == 404
    status, headers, data = request(server, "DELETE", "/")
    assert status == 501 and headers["Content-Type"].startswith("application/json")
    with socket.create_connection(server, timeout=30) as raw:
        raw.sendall(b"GET / HTTP/x.y\r\n\r\n")  # a request line the base class refuses
        answer = raw.makefile("rb").read()  # no status line: the request is read as HTTP/0.9
    assert answer.startswith(b'{"error": "Bad request version') and b"Traceback" not in answer
    with socket.create_connection(server, timeout=30) as raw:
        raw.sendall(b"GET / HTTP/1.1\r\nX: " + b"x" * 70_000 + b"\r\n\r\n")
        answer = raw.makefile("rb").read()  # the server closes the connection after an error
    assert answer.startswith(b"HTTP/1.0 431 ") and b'{"error": "Line too long"}' in answer


def test_a_failure_inside_is_one_json_line(server, monkeypatch):
    def broken(body, base):
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "check_request", broken)
    status, _, data = post(server, "/api/check", {"reply": "x"})
    assert status == 500 and data == {"error": "internal error: RuntimeError: boom"}


def test_a_reply_with_markup_stays_text(server):
    _, _, data = post(server, "/api/check", {"reply": XSS, "expect": "JSON"})
    assert "<script" not in data["marked"] and "<img" not in data["marked"] and "&lt;img src=x" in data["marked"]


def test_serve_refuses_a_missing_examples_folder(tmp_path, capsys):
    assert main(["serve", "--examples", str(tmp_path / "none")]) == 2
    assert "no such folder" in capsys.readouterr().err
