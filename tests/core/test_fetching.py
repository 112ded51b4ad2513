"""One fetch for every format's schema (``allow_fetch=True``): http(s) only, a size cap,
and a deadline for the whole fetch that a server trickling its answer cannot stretch.

The slow servers here send one byte every ``_DRIP`` seconds for at most ``_DRIPS`` bytes
(then stop by themselves), far longer than the deadlines under test; a fetch that ignored
its deadline would wait for all of them."""

from __future__ import annotations

import http.server
import json
import socket
import time
from collections.abc import Iterator

import pytest

from formatbook_core import ExpectationError, fetching, get_format
from formatbook_core.data_schema import load_schema
from formatbook_core.fetching import FetchError, fetch
from tests.local_http import LocalHttpServer

_DRIP = 0.25
_DRIPS = 120  # 30 seconds of trickle at the most
# every deadline here is waited out (eight times in this file): half a second is 100 times
# what a prompt local answer takes, and a twelfth of what the trickle would last
_DEADLINE = 0.5
_SLACK = 2.0  # for a loaded machine: far less than the trickle, far more than a read
_PACE = 0.2  # a /paced answer comes whole after this long: two fit in _DEADLINE, not more
_DOCUMENTS = 12
_XS = 'xmlns:xs="http://www.w3.org/2001/XMLSchema"'


class _Trickle(LocalHttpServer):
    """A local server on 127.0.0.1: ``/body`` answers its headers at once and its body one
    byte at a time, ``/headers`` trickles its status line and headers too, ``/ok`` answers
    a small schema at once, ``/paced...`` a whole schema (an XSD when the path says so)
    after ``_PACE`` seconds. ``sent`` counts the trickled bytes, ``paced`` the paced answers."""

    def __init__(self) -> None:
        self.sent = 0
        self.paced = 0
        trickle = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                if self.path == "/ok":
                    body = json.dumps({"type": "integer"}).encode()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                if self.path.startswith("/paced"):  # a whole answer, just in time
                    time.sleep(_PACE)
                    trickle.paced += 1
                    name = "e" + self.path.rsplit("=", 1)[-1]
                    xsd = f'<xs:schema {_XS}><xs:element name="{name}" type="xs:string"/></xs:schema>'
                    body = (xsd if "xsd" in self.path else json.dumps({"type": "integer"})).encode()
                    try:
                        self.send_response(200)
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    except OSError:  # the client gave up waiting
                        pass
                    return
                if self.path == "/headers":
                    self._drip(b"HTTP/1.0 200 OK\r\nContent-Length: 1\r\n" + b"X: y\r\n" * 40)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(_DRIPS))
                self.end_headers()
                self.wfile.flush()
                self._drip(b" " * _DRIPS)

            def _drip(self, data: bytes) -> None:
                for byte in data:
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:  # the client gave up: stop
                        return
                    trickle.sent += 1
                    time.sleep(_DRIP)

            def log_message(self, *args: object) -> None:
                pass

        super().__init__(Handler)


@pytest.fixture
def trickle() -> Iterator[_Trickle]:
    with _Trickle() as server:
        yield server


@pytest.mark.parametrize("path", ["/body", "/headers"])
def test_a_trickled_answer_ends_at_the_deadline(path, trickle):
    # issue 30: a body served one byte at a time held loading for as long as the server liked
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"not fetched within 0\.5 seconds"):
        fetch(trickle.base + path, deadline=_DEADLINE)
    assert time.monotonic() - started < _DEADLINE + _SLACK
    assert trickle.sent < _DRIPS / 4


def test_every_format_fetch_keeps_the_deadline(trickle, monkeypatch):
    monkeypatch.setattr(fetching, "DEADLINE", _DEADLINE)
    xml = get_format("xml")
    include = (
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
        f'<xs:include schemaLocation="{trickle.base}/body"/><xs:element name="r" type="xs:string"/></xs:schema>'
    )
    loads = {
        "json-schema-url": lambda: load_schema(f"{trickle.base}/body?json", allow_fetch=True),
        "json-schema-ref": lambda: load_schema({"$ref": f"{trickle.base}/body?ref"}, allow_fetch=True),
        "xml-schema-url": lambda: xml.load_schema(f"{trickle.base}/body?xml", allow_fetch=True),
        "xsd-include": lambda: xml.load_schema(include, allow_fetch=True),
    }
    for name, load in loads.items():
        started = time.monotonic()
        with pytest.raises(ExpectationError):
            load()
        assert time.monotonic() - started < _DEADLINE + _SLACK, name


def test_a_prompt_answer_is_fetched(trickle):
    assert json.loads(fetch(trickle.base + "/ok", deadline=_DEADLINE)) == {"type": "integer"}
    assert load_schema(f"{trickle.base}/ok", allow_fetch=True).schema["type"] == "integer"


def test_only_web_urls_are_fetched(tmp_path):
    secret = tmp_path / "s.json"
    secret.write_text("{}", encoding="utf-8")
    for url in (f"file://{secret}", str(secret), "ftp://127.0.0.1/x"):
        with pytest.raises(FetchError, match="only http and https"):
            fetch(url)


def test_an_answer_longer_than_the_cap_is_refused(trickle):
    with pytest.raises(FetchError, match="longer than 5 characters"):
        fetch(trickle.base + "/ok", max_size=5)


def test_a_refused_connection_is_no_timeout():
    with socket.socket() as probe:  # a port nobody listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(FetchError, match="cannot fetch it"):
        fetch(f"http://127.0.0.1:{port}/s.json", deadline=_DEADLINE)


def test_the_documents_of_one_schema_share_one_deadline(trickle, monkeypatch):
    # each document answering just in time must not stretch loading: twelve of them took
    # 7.2 s with a deadline per fetch (of 1 s, answers 0.6 s apart)
    monkeypatch.setattr(fetching, "DEADLINE", _DEADLINE)
    refs = {"allOf": [{"$ref": f"{trickle.base}/paced?json={i}"} for i in range(_DOCUMENTS)]}
    includes = "".join(f'<xs:include schemaLocation="{trickle.base}/paced?xsd={i}"/>' for i in range(_DOCUMENTS))
    xsd = f'<xs:schema {_XS}>{includes}<xs:element name="r" type="xs:string"/></xs:schema>'
    loads = {
        "json-schema-refs": lambda: load_schema(refs, allow_fetch=True),
        "xsd-includes": lambda: get_format("xml").load_schema(xsd, allow_fetch=True),
    }
    for name, load in loads.items():
        trickle.paced = 0
        started = time.monotonic()
        with pytest.raises(ExpectationError):
            load()
        elapsed = time.monotonic() - started
        assert elapsed < _DEADLINE + _SLACK, (name, elapsed, trickle.paced)
        assert trickle.paced < _DOCUMENTS / 2, name
