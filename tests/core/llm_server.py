"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for the tests of
``openai_chat`` and ``formatbook ask``: the real openai SDK talks to it over HTTP.

Each request takes the next scripted reply (the last one repeats) and streams it as
server-sent events, one chunk per event with a short pause between them, so that a client
that closes the connection is seen doing so before the script ends. Every request is
recorded: its JSON body, how many events were sent, whether the client went away early.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


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

    def __init__(self, replies: list[str], *, chunk_size: int = 4, pause: float = 0.002):
        self.replies = list(replies)
        self.chunk_size = chunk_size
        self.pause = pause
        self.requests: list[Request] = []
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
                try:
                    if self.path.rstrip("/").endswith("/chat/completions"):
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
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

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

    def _stream(self, handler: BaseHTTPRequestHandler, request: Request, text: str) -> None:
        events = [self._chunk({"role": "assistant", "content": ""})]
        events += [self._chunk({"content": piece}) for piece in chunked(text, self.chunk_size)]
        events.append(self._chunk({}, "stop"))
        if (request.body.get("stream_options") or {}).get("include_usage"):
            events.append({**self._chunk({}), "choices": [], "usage": USAGE})
        request.events_total = len(events)
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.end_headers()
        try:
            for event in events:
                handler.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                handler.wfile.flush()
                request.events_sent += 1
                time.sleep(self.pause)
            handler.wfile.write(b"data: [DONE]\n\n")
            handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            request.closed_early = True
        handler.close_connection = True

    def _whole(self, handler: BaseHTTPRequestHandler, request: Request, text: str) -> None:
        data = json.dumps(
            {
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "created": 0,
                "model": "scripted",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": USAGE,
            }
        ).encode()
        request.events_total = request.events_sent = 1
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
