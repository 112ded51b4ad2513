"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for the tests of
``openai_chat`` and ``formatbook ask``: the real openai SDK talks to it over HTTP.

Each request takes the next scripted reply (the last one repeats) and streams it as
server-sent events, one chunk per event with a short pause between them, so that a client
that closes the connection is seen doing so before the script ends. Every request is
recorded: its JSON body, how many events were sent, whether the client went away early.

A scripted reply may also be a misbehaviour (issue 30): :class:`HttpError` (an error status
instead of a reply), :class:`BrokenLine` (an event that is not JSON), :class:`BadContent`
(a chunk whose content is not a string), :class:`EmptyDeltas` and :class:`EndlessProse`
(streams that never end), :class:`Stall` (a pause with nothing sent), :class:`CutStream`
(the connection closed in the middle of an event: no finish reason, no ``[DONE]``) and
:class:`Finish` (a reply that ends with a finish reason such as ``"length"``: cut at
``max_tokens``), and :class:`Raw` (a body answered as it is: a proxy's HTML page, a
completion with no choice).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
#: an endless stream stops after this many events even when nobody closes it
ENDLESS = 200_000


@dataclass
class HttpError:
    """Answer with ``status`` and an OpenAI-style error body."""

    status: int = 500
    message: str = "the server had an error"


@dataclass
class Raw:
    """Answer ``body`` as it is, with ``status`` and ``content_type``, streamed or not: a
    proxy's error page, a response the SDK cannot read as a completion."""

    body: bytes
    content_type: str = "application/json"
    status: int = 200


@dataclass
class BrokenLine:
    """Stream ``text``, then an event whose data is not JSON, then ``[DONE]``."""

    text: str = ""
    line: str = '{"choices": [{"delta": {"content": "x"'


@dataclass
class BadContent:
    """Stream ``text``, then a chunk whose delta content is ``content`` (not a string)."""

    text: str = ""
    content: Any = 42


@dataclass
class EmptyDeltas:
    """Chunks with an empty content, without end."""


@dataclass
class EndlessProse:
    """``piece`` again and again, without end."""

    piece: str = "Let me think about that once more. "


@dataclass
class CutStream:
    """Stream ``text``, then half an event, then close the connection: no finish, no [DONE]."""

    text: str


@dataclass
class Stall:
    """Send the first chunk, then nothing for ``seconds``, then end the reply ``text``."""

    text: str
    seconds: float = 5.0


@dataclass
class KeepAlive:
    """``count`` SSE comment lines (``: keep-alive``: no event, so no chunk reaches the
    client's loop), then the reply ``text``."""

    text: str
    count: int = 3000


@dataclass
class Finish:
    """``text`` ending with the finish reason ``reason`` (streamed or whole)."""

    text: str
    reason: str | None = "length"


def chunked(text: str, size: int = 4) -> list[str]:
    """``text`` cut into chunks of ``size`` characters, as a model streams it."""
    return [text[i : i + size] for i in range(0, len(text), size)]


@dataclass
class Request:
    """What the server received and did for one request."""

    body: dict[str, Any]
    events_total: int = 0
    events_sent: int = 0
    closed_early: bool = False
    done: threading.Event = field(default_factory=threading.Event)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body["messages"]


class ScriptedServer:
    """``ScriptedServer(["reply one", "reply two"])``: ``url`` to give the SDK as base URL."""

    def __init__(self, replies: list[Any], *, chunk_size: int = 4, pause: float = 0.002, delay: float = 0.0):
        self.replies = list(replies)
        self.chunk_size = chunk_size
        self.pause = pause
        self.delay = delay  # seconds each request waits before its answer starts
        self.requests: list[Request] = []
        self.in_flight = 0
        # the most requests waiting out their delay at once: counted up to the answer's start,
        # not its end, which the handler's thread reaches after the client has read it all
        # (so a client that asks again at once would be counted twice)
        self.most_in_flight = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    request = Request(body)
                    index = len(server.requests)
                    server.requests.append(request)
                    text = server.replies[min(index, len(server.replies) - 1)]
                    server.in_flight += 1
                    server.most_in_flight = max(server.most_in_flight, server.in_flight)
                try:
                    time.sleep(server.delay)
                    with server._lock:
                        server.in_flight -= 1
                    if isinstance(text, HttpError):
                        server._error(self, request, text)
                    elif isinstance(text, Raw):
                        server._raw(self, request, text)
                    elif self.path.rstrip("/").endswith("/chat/completions"):
                        if body.get("stream"):
                            server._stream(self, request, text)
                        else:
                            server._whole(self, request, text)
                    else:
                        self.send_error(404)
                finally:
                    request.done.set()

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        # shutdown() waits for serve_forever to look at its flag, once per poll_interval
        # (0.5 s by default): half a second at the end of every `with` block
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        port = self._httpd.server_address[1]
        return f"http://127.0.0.1:{port}/v1"  # the address it was bound to

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def wait(self, timeout: float = 10.0) -> None:
        """Until every request received so far has been answered (or abandoned)."""
        for request in list(self.requests):
            assert request.done.wait(timeout), "the server is still streaming"

    # --- answers ---------------------------------------------------------------------

    @staticmethod
    def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "scripted",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    def _events(self, request: Request, item: Any) -> Any:
        """The events of one streamed reply: dicts (a chunk), bytes (written as they are)
        or ``None`` (close the connection at once)."""
        yield self._chunk({"role": "assistant", "content": ""})
        if isinstance(item, EmptyDeltas):
            for _ in range(ENDLESS):
                yield self._chunk({"content": ""})
            return
        if isinstance(item, EndlessProse):
            for _ in range(ENDLESS):
                yield self._chunk({"content": item.piece})
            return
        if isinstance(item, Stall):
            yield item.seconds
        if isinstance(item, KeepAlive):
            for _ in range(item.count):
                yield b": keep-alive\n\n"
        text = item if isinstance(item, str) else item.text
        for piece in chunked(text, self.chunk_size):
            yield self._chunk({"content": piece})
        if isinstance(item, BrokenLine):
            yield f"data: {item.line}\n\n".encode()
        elif isinstance(item, BadContent):
            yield self._chunk({"content": item.content})
        elif isinstance(item, CutStream):
            yield b'data: {"id": "chatcmpl-test", "object": "chat.comp'
            yield None
            return
        yield self._chunk({}, item.reason if isinstance(item, Finish) else "stop")
        if (request.body.get("stream_options") or {}).get("include_usage"):
            yield {**self._chunk({}), "choices": [], "usage": USAGE}
        yield b"data: [DONE]\n\n"

    def _stream(self, handler: BaseHTTPRequestHandler, request: Request, item: Any) -> None:
        endless = isinstance(item, (EmptyDeltas, EndlessProse))
        request.events_total = (
            ENDLESS + 1 if endless else sum(isinstance(e, (bytes, dict)) for e in self._events(request, item))
        )
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.end_headers()
        try:
            for event in self._events(request, item):
                if event is None:
                    break
                if isinstance(event, float):
                    time.sleep(event)
                    continue
                data = event if isinstance(event, bytes) else f"data: {json.dumps(event)}\n\n".encode()
                handler.wfile.write(data)
                handler.wfile.flush()
                request.events_sent += 1
                time.sleep(self.pause)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            request.closed_early = True
        handler.close_connection = True

    def _error(self, handler: BaseHTTPRequestHandler, request: Request, item: HttpError) -> None:
        data = json.dumps({"error": {"message": item.message, "type": "server_error", "code": None}}).encode()
        request.events_total = request.events_sent = 1
        handler.send_response(item.status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def _raw(self, handler: BaseHTTPRequestHandler, request: Request, item: Raw) -> None:
        request.events_total = request.events_sent = 1
        handler.send_response(item.status)
        handler.send_header("Content-Type", item.content_type)
        handler.send_header("Content-Length", str(len(item.body)))
        handler.end_headers()
        handler.wfile.write(item.body)

    def _whole(self, handler: BaseHTTPRequestHandler, request: Request, item: Any) -> None:
        text = item if isinstance(item, str) else getattr(item, "text", "")
        finish = item.reason if isinstance(item, Finish) else "stop"
        data = json.dumps(
            {
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "created": 0,
                "model": "scripted",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
                "usage": USAGE,
            }
        ).encode()
        request.events_total = request.events_sent = 1
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
