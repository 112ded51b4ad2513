"""``formatbook serve``: the playground, a page and three JSON endpoints on the standard
library's HTTP server.

``GET /`` the page (inline CSS and script, nothing loaded from elsewhere: a reply never
leaves the machine), ``GET /api/examples`` the bundled examples, ``GET /api/example?name=``
one of them, ``POST /api/check`` and ``POST /api/stream`` (JSON bodies, see :mod:`.api`).
Bodies are capped at ``MAX_BODY`` bytes; every error is answered as JSON
(``{"error": ...}``), never with a traceback. Listening on a loopback address, requests
naming another host are refused (a web page cannot reach the playground through DNS
rebinding); POSTs must be ``application/json`` (a page elsewhere cannot send one without
the browser asking first, and nothing here says yes).
"""

from __future__ import annotations

import ipaddress
import json
import sys
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..cli.common import UsageError, format_expectation_error
from ..report.render import page, script_hash
from ..results import ExpectationError
from ..serialising import dumps_json
from . import api

__all__ = ["MAX_BODY", "make_server", "run"]

#: the largest request body read (bytes)
MAX_BODY = 2 * 1024 * 1024


def default_examples() -> Path | None:
    """``examples/replies`` of a source checkout, when there is one."""
    folder = Path(__file__).resolve().parent.parent.parent / "examples" / "replies"
    return folder if folder.is_dir() else None


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and the loopback addresses."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Playground(ThreadingHTTPServer):
    """The server: the page, the examples folder, whether to check the Host header."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], examples: Path | None) -> None:
        super().__init__(address, Handler)
        script = asset_text("playground.js")
        self.page = page(asset_text("playground.html"), "formatbook playground", "", script).encode("utf-8")
        self.csp = (
            f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {script_hash(script)}; "
            "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
        )
        self.examples_dir = examples
        # one check at a time: the playground has one user, and the plugins load on first use
        self.lock = threading.Lock()
        self.examples = api.examples(examples)
        self.loopback = is_loopback(address[0])


def asset_text(name: str) -> str:
    """A text file shipped beside this module."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


class Handler(BaseHTTPRequestHandler):
    """One request: the page, the examples, a check or a replay; errors as JSON."""

    server: Playground
    server_version = "formatbook-playground"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Quiet: the replies pasted are nobody's business, not even the terminal's."""

    # --- answers ---------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Content-Security-Policy", self.server.csp)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, dumps_json(data).encode("utf-8"), "application/json; charset=utf-8")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors the base class finds (a bad request line, an unknown method) as JSON too."""
        self.close_connection = True
        try:
            self._json(code, {"error": message or explain or str(code)})
        except OSError:
            pass

    # --- routing ---------------------------------------------------------------------------

    def _host_ok(self) -> bool:
        if not self.server.loopback:
            return True
        host = (self.headers.get("Host") or "").strip()
        try:
            name = urlsplit("//" + host).hostname or ""
        except ValueError:
            name = ""
        if is_loopback(name):
            return True
        self._json(421, {"error": f"this playground answers to localhost only, not to {host!r}"})
        return False

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        """The page, the examples list, one example."""
        if not self._host_ok():
            return
        self._guarded(self._get)

    def do_HEAD(self) -> None:  # noqa: N802 - the base class's name
        """As GET, without the body."""
        self.do_GET()

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        """A check or a replayed stream."""
        if not self._host_ok():
            return
        self._guarded(self._post)

    def _guarded(self, answer: Any) -> None:
        try:
            answer()
        except api.RequestError as exc:
            self._json(400, {"error": str(exc)})
        except ExpectationError as exc:
            text = format_expectation_error(exc).removeprefix("formatbook: ")
            self._json(400, {"error": text, "kind": "expectation"})
        except OSError as exc:  # a schema file named by an EXPECT line that is not there
            self._json(400, {"error": f"cannot read {exc.filename or 'a file'}: {exc.strerror or exc}"})
        except Exception as exc:  # a bug: said in one line, never a traceback page
            self._json(500, {"error": f"internal error: {type(exc).__name__}: {exc}"})

    def _get(self) -> None:
        url = urlsplit(self.path)
        if url.path in ("/", "/index.html"):
            self._send(200, self.server.page, "text/html; charset=utf-8")
        elif url.path == "/api/examples":
            self._json(200, {"examples": list(self.server.examples)})
        elif url.path == "/api/example":
            name = parse_qs(url.query).get("name", [""])[0]
            self._json(200, api.example_request(name, self.server.examples))
        else:
            self._json(404, {"error": f"no such page: {url.path}"})

    def _post(self) -> None:
        path = urlsplit(self.path).path
        routes = {"/api/check": api.check_request, "/api/stream": api.stream_request}
        if path not in routes:
            self._json(404, {"error": f"no such endpoint: {path}"})
            return
        body = self._body()
        if body is not None:
            with self.server.lock:
                answer = routes[path](body, self.server.examples_dir)
            self._json(200, answer)

    def _body(self) -> dict[str, Any] | None:
        """The request's JSON object, or ``None`` once an error has been answered."""
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            self._json(415, {"error": "send JSON (Content-Type: application/json)"})
            return None
        length = self.headers.get("Content-Length")
        if length is None or not length.strip().isdigit():
            self._json(411, {"error": "a Content-Length header is needed"})
            return None
        if int(length) > MAX_BODY:
            self.close_connection = True  # the body is not read: the connection cannot be reused
            self._json(413, {"error": f"the request is larger than {MAX_BODY} bytes"})
            return None
        try:
            body = json.loads(self.rfile.read(int(length)))
        except (ValueError, UnicodeDecodeError) as exc:
            self._json(400, {"error": f"the body is not JSON: {exc}"})
            return None
        if not isinstance(body, dict):
            self._json(400, {"error": "the body must be a JSON object"})
            return None
        return body


def make_server(host: str = "127.0.0.1", port: int = 0, examples: str | Path | None = None) -> Playground:
    """A playground server bound to ``host:port`` (port 0: any free port), not yet serving."""
    folder = Path(examples).resolve() if examples is not None else default_examples()
    return Playground((host, port), folder)


def run(host: str, port: int, *, examples: str | None = None, open_browser: bool = False) -> int:
    """Serve until interrupted (exit status 0)."""
    if examples is not None and not Path(examples).is_dir():
        raise UsageError(f"no such folder: {examples}")
    if not is_loopback(host):
        sys.stderr.write(
            f"formatbook: warning: listening on {host}, not on a loopback address: anyone who can reach it "
            "can check replies here (and read the example files)\n"
        )
    try:
        server = make_server(host, port, examples)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bound = server.server_address
    address, port = str(bound[0]), int(bound[1])
    url = f"http://[{address}]:{port}/" if ":" in address else f"http://{address}:{port}/"
    sys.stderr.write(f"formatbook playground on {url} (Ctrl-C to stop)\n")
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
