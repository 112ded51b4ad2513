"""A local HTTP server on 127.0.0.1 for the tests that watch what formatbook fetches."""

from __future__ import annotations

import http.server
import threading
from typing import Any


class LocalHttpServer:
    """``handler`` (a ``BaseHTTPRequestHandler`` class) served on 127.0.0.1 from a daemon
    thread while the ``with`` block runs; ``base`` is its URL."""

    def __init__(self, handler: Any) -> None:
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.timeout = 5
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> Any:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
