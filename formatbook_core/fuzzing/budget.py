"""A time budget for one property call: ``signal.setitimer`` raising ``InputTimeout``."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class InputTimeout(BaseException):
    """The time budget of one property call ran out (a BaseException, so that a plugin's
    ``except Exception`` cannot swallow it)."""


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise ``InputTimeout`` in the block after ``seconds`` (main thread, Unix)."""

    def expire(signum: int, frame: Any) -> None:
        raise InputTimeout(f"over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
