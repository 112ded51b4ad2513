"""Fetching a schema's document over http(s): the one fetch every format uses, and only
when the caller set ``allow_fetch=True``.

:func:`fetch` reads ``http`` and ``https`` only (redirects included), at most
``max_size`` characters of UTF-8, and the whole fetch ends by a deadline
(:data:`DEADLINE` seconds): the connection, the request, the headers, every redirect and
the body share it, so a server that answers one byte a second holds the caller no longer
than that. Each read and write on the connection waits only for what is left of the
deadline. (The name lookup before connecting is left to the system's resolver.)

A schema that refers to other documents fetches them through one :class:`Budget`: they
share one deadline, so a schema cannot stretch its loading by naming many documents that
each answer just in time (or, in XML, documents that include more documents).
"""

from __future__ import annotations

import io
import time
from typing import Any
from urllib.parse import urlsplit

from .limits import MAX_SIZE

__all__ = ["DEADLINE", "Budget", "FetchError", "fetch", "is_web"]

#: Seconds a whole fetch may take: connecting, the redirects, the headers and the body.
DEADLINE = 10.0


class FetchError(Exception):
    """A document that was not fetched: its ``url`` and ``why``."""

    def __init__(self, url: str, why: str):
        super().__init__(f"{url}: {why}")
        self.url = url
        self.why = why


def is_web(url: str) -> bool:
    """Whether ``url`` is an ``http`` or ``https`` URL, the only ones fetched."""
    return urlsplit(url).scheme.lower() in ("http", "https")


def fetch(
    url: str,
    max_size: int = MAX_SIZE,
    *,
    accept: str | None = None,
    deadline: float | None = None,
    started: float | None = None,
) -> str:
    """The text at the http(s) ``url``: redirects to http(s) only, at most ``max_size``
    characters, all within ``deadline`` seconds (default :data:`DEADLINE`) from
    ``started`` (a ``time.monotonic()``, default now). Raises :class:`FetchError`."""
    from urllib.request import HTTPHandler, HTTPSHandler, Request, build_opener  # noqa: PLC0415 - only with allow_fetch

    seconds = DEADLINE if deadline is None else deadline
    end = (time.monotonic() if started is None else started) + seconds
    if not is_web(url):
        raise FetchError(url, "only http and https URLs are fetched")
    request = Request(url, headers={"Accept": accept} if accept else {})
    opener = build_opener(_bounded_handler(HTTPHandler, end), _bounded_handler(HTTPSHandler, end), _web_redirects())
    try:
        with opener.open(request, timeout=_left(end)) as response:
            data = response.read(4 * max_size + 1)  # UTF-8: at most 4 bytes a character
    except FetchError:
        raise
    except Exception as err:
        # every wait was armed with what was left: a timeout (urllib wraps one met while
        # connecting in a URLError) is the deadline, even a poll that woke a hair early
        if time.monotonic() >= end or isinstance(getattr(err, "reason", err), TimeoutError):
            raise FetchError(url, f"not fetched within {seconds:g} seconds") from None
        raise FetchError(url, f"cannot fetch it: {err}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise FetchError(url, f"not UTF-8: {err}") from None
    if len(text) > max_size:
        raise FetchError(url, f"longer than {max_size:,} characters")
    return text


class Budget:
    """One deadline shared by every fetch made for one schema: it starts with the first
    fetch and lasts ``seconds`` (default :data:`DEADLINE`)."""

    def __init__(self, seconds: float | None = None):
        self.seconds = DEADLINE if seconds is None else seconds
        self.started: float | None = None

    def fetch(self, url: str, max_size: int = MAX_SIZE, *, accept: str | None = None) -> str:
        """:func:`fetch` within what is left of this budget."""
        if self.started is None:
            self.started = time.monotonic()
        if time.monotonic() >= self.started + self.seconds:
            raise FetchError(url, f"not fetched: the schema's documents took longer than {self.seconds:g} seconds")
        return fetch(url, max_size, accept=accept, deadline=self.seconds, started=self.started)


def _left(end: float) -> float:
    """The seconds left before ``end``; a ``TimeoutError`` once it has passed."""
    left = end - time.monotonic()
    if left <= 0:
        raise TimeoutError("the fetch's deadline has passed")
    return left


class _DeadlineSocket:
    """A connected socket whose every write and read must end by ``end``: before each,
    its timeout is set to what is left (a timeout alone bounds one read, not the sum)."""

    def __init__(self, sock: Any, end: float):
        self._sock = sock
        self._end = end

    def arm(self) -> None:
        self._sock.settimeout(_left(self._end))

    def sendall(self, data: Any, *args: Any) -> Any:
        self.arm()
        return self._sock.sendall(data, *args)

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> Any:
        # http.client reads the response through makefile("rb"); the raw file keeps the
        # socket open until it is closed, as socket.makefile does
        return io.BufferedReader(_DeadlineReader(self._sock.makefile("rb", buffering=0), self))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class _DeadlineReader(io.RawIOBase):
    """The raw file of a :class:`_DeadlineSocket`: each read armed with what is left."""

    def __init__(self, raw: Any, owner: _DeadlineSocket):
        super().__init__()
        self._raw = raw
        self._owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> Any:
        self._owner.arm()
        return self._raw.readinto(buffer)

    def close(self) -> None:
        self._raw.close()
        super().close()


def _bounded_handler(base: Any, end: float) -> Any:
    """An instance of the urllib handler ``base`` whose connections keep the deadline."""

    class _Handler(base):
        def do_open(self, http_class: Any, req: Any, **kwargs: Any) -> Any:
            return super().do_open(_bounded_connection(http_class, end), req, **kwargs)

    return _Handler()


def _bounded_connection(base: Any, end: float) -> Any:
    """The ``http.client`` connection class ``base``, connecting within what is left
    before ``end`` and reading and writing through a :class:`_DeadlineSocket`."""

    class _Connection(base):
        sock: Any

        def connect(self) -> None:
            self.timeout = _left(end)
            super().connect()
            self.sock = _DeadlineSocket(self.sock, end)

    return _Connection


def _web_redirects() -> Any:
    """A redirect handler that follows http(s) locations only."""
    from urllib.request import HTTPRedirectHandler  # noqa: PLC0415 - only with allow_fetch

    class _HttpOnlyRedirects(HTTPRedirectHandler):
        def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
            if not is_web(newurl):
                raise FetchError(newurl, "a redirect away from http(s)")
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    return _HttpOnlyRedirects
