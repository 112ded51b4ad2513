"""A time limit on one reply, and the verdicts of replies that crashed or ran out of time.

The limit is a ``SIGALRM`` timer where one can be set (the main thread of a process on a
POSIX system: the CLI and its worker processes): the check is interrupted at the next
Python instruction once the time is up. Code running inside a C extension (one long
``lxml`` parse) is interrupted only when it returns to Python; the CLI's worker pool
kills a worker that stays stuck past its chunk's deadline (see ``pool.py``). Elsewhere (a thread, as in
some Ray actors, or Windows) the check runs to its end and a check that took longer than
the limit is then reported as timed out all the same, so that the verdict does not depend
on where it ran.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class ReplyTimeout(BaseException):
    """One reply took longer than its time limit.

    A ``BaseException``, as ``KeyboardInterrupt`` is: raised by the alarm wherever the check
    happens to be, it must not be caught by the ``except Exception`` with which the pipeline
    turns a plugin's failure into a violation (the check would go on, past its limit)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the check took longer than the limit of {seconds:g} s")
        self.seconds = seconds


def _can_alarm() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread() and os.name == "posix"


def within(seconds: float | None, work: Callable[[], T]) -> T:
    """``work()``, raising :class:`ReplyTimeout` when it takes longer than ``seconds``."""
    if seconds is None or seconds <= 0:
        return work()
    if not _can_alarm():
        start = time.perf_counter()
        result = work()
        if time.perf_counter() - start > seconds:
            raise ReplyTimeout(seconds)
        return result

    def expire(signum: int, frame: Any) -> None:
        raise ReplyTimeout(seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return work()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
