"""Worker processes that return results in input order, with a bounded number of tasks
in flight (so that a file larger than memory streams through in constant memory).

``multiprocessing.Pool.imap`` is not used: its feeder thread reads the whole input as
fast as it can, whatever the consumer's pace. Here a task is submitted only when an
earlier result was taken.

A worker process that dies (a crash in a C extension, the out-of-memory killer) breaks
the pool; the tasks in flight are then run again one at a time in a fresh pool, and a
task that breaks a pool on its own is handed to ``on_broken`` (which, in the CLI, checks
its rows one by one so that only the culprit row is lost to a ``batch.crashed`` verdict).
A task past its ``deadline`` (a worker stuck inside C code, where the per-reply alarm
cannot reach it) has its pool's workers killed and goes to ``on_broken`` at once (run
again, it would only wait its deadline out a second time); the others in flight are run
again as above. A task may tell which of its steps it is at (:func:`mark`): ``on_broken``
is given the steps the workers were at when the pool was found hung, so that the CLI
re-checks only the rows that have no verdict, not the row that was stuck.

A worker never outlives the process that started it (``kill -9`` of the CLI leaves no
worker behind): on Linux the kernel sends it ``SIGKILL`` when its parent dies
(``prctl(PR_SET_PDEATHSIG)``), and everywhere a watchdog thread ends it once its parent
process is gone (:func:`exit_with_parent`).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as TaskTimeout  # the builtin one from 3.11 on
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


#: how often (seconds) a worker's watchdog looks whether its parent is still there
WATCH_INTERVAL = 0.5
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

#: in a worker: the pool's shared array of steps and this worker's place in it
_slot: tuple[Any, int] | None = None


def mark(step: int) -> None:
    """Tell the pool which step of its task this worker is at (a positive number; 0 between
    steps), as read when the task is found hung. Outside a pool's worker: nothing."""
    if _slot is not None:
        steps, index = _slot
        steps[index] = step


def _worker_setup(
    parent: int | None,
    steps: Any,
    claimed: Any,
    initializer: Callable[..., None] | None,
    args: tuple[Any, ...],
) -> None:
    """Run first in each worker: die with the parent, leave Ctrl-C to it, take a place in
    the pool's ``steps`` (the next free one, counted by ``claimed``), then ``initializer``."""
    global _slot
    exit_with_parent(parent)
    with claimed.get_lock():
        index = claimed.value
        claimed.value += 1
    # a pool starts at most its size of workers (none is replaced: a death breaks the pool)
    _slot = (steps, index) if index < len(steps) else None
    # Ctrl-C reaches every process of the group: the parent stops the run, workers are
    # ended by it instead of each printing a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*args)


def exit_with_parent(parent: int | None, *, use_prctl: bool = True, interval: float = WATCH_INTERVAL) -> None:
    """End this process when its parent process dies.

    ``parent`` is the pid of the process that started this one when it is its direct child
    (a fork or spawn start), ``None`` when not known. On Linux (``use_prctl``) the kernel
    kills this process at once when its parent dies (``PR_SET_PDEATHSIG``); a daemon
    thread also checks every ``interval`` seconds that its parent is the one it started
    with (an orphan is adopted by another process) and ends it with ``os._exit``
    otherwise: the portable fallback. A parent already gone when this runs (``parent`` is
    no longer the parent) ends it at once.
    """
    if use_prctl and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl in this libc: the watchdog alone keeps the promise
            pass
    first = os.getppid()
    if parent is not None and first != parent:
        os._exit(1)  # the parent died before this process could watch it

    def watch() -> None:
        while os.getppid() == first:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="formatbook-parent-watch", daemon=True).start()


def _context() -> Any:
    """Fork where it is safe and available (Linux): workers start at once with the plugins
    already loaded, instead of importing everything again (Python 3.14 made forkserver the
    default)."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


class OrderedPool(Generic[T, R]):
    """``fn`` over items in ``workers`` processes, results in input order."""

    def __init__(
        self,
        fn: Callable[[T], R],
        workers: int,
        *,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
        window: int | None = None,
        on_broken: Callable[[T, str, frozenset[int]], R] | None = None,
        deadline: Callable[[T], float | None] | None = None,
    ) -> None:
        self.fn = fn
        self.workers = max(1, workers)
        self.window = window or self.workers * 4
        self.initializer = initializer
        self.initargs = initargs
        self.on_broken = on_broken
        self.deadline = deadline
        self.restarts = 0
        self._executor: ProcessPoolExecutor | None = None
        self._steps: Any = None  # the steps (:func:`mark`) of the current executor's workers

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            context = _context()
            # fork and spawn start each worker as a child of this process; a forkserver's
            # workers are the server's children (it ends when this process does)
            parent = os.getpid() if context.get_start_method() in ("fork", "spawn") else None
            # new for each executor: its workers claim the places from the first
            self._steps = context.RawArray("q", self.workers)
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_worker_setup,
                initargs=(parent, self._steps, context.Value("i", 0), self.initializer, self.initargs),
            )
        return self._executor

    def _restart(self) -> frozenset[int]:
        """A fresh pool for what follows: no step to tell of (a worker died, none is stuck)."""
        self.restarts += 1
        self.close()
        return frozenset()

    def close(self, wait: bool = False) -> None:
        """End the workers (``wait``: until they have exited, as after the last result)."""
        if self._executor is not None:
            self._executor.shutdown(wait=wait, cancel_futures=True)
            self._executor = None
            self._steps = None

    def _kill(self) -> frozenset[int]:
        """End the workers now: one is stuck where no signal reaches (inside C code). The
        steps (:func:`mark`) they were at, read before they are ended."""
        at = frozenset(step for step in self._steps if step) if self._steps is not None else frozenset()
        if self._executor is not None:
            # no public way to end a busy worker: its process is killed, the pool breaks
            for process in list(getattr(self._executor, "_processes", {}).values()):
                process.kill()
        self._restart()
        return at

    def _wait(self, item: T, future: Future[R]) -> R:
        """The result of ``item`` (running: FIFO dispatch starts the oldest task first);
        ``TimeoutError`` past its deadline."""
        return future.result(timeout=self.deadline(item) if self.deadline is not None else None)

    def _alone(self, item: T) -> R:
        """``item`` with nothing else in flight: a broken pool is then its own doing."""
        try:
            return self._wait(item, self._pool().submit(self.fn, item))
        except (BrokenProcessPool, TaskTimeout) as exc:
            hung = isinstance(exc, TaskTimeout)
            at = self._kill() if hung else self._restart()
            if self.on_broken is None:
                raise
            return self.on_broken(item, "hung" if hung else "died", at)

    def map(self, items: Iterable[T]) -> Iterator[R]:
        pending: deque[tuple[T, Future[R]]] = deque()
        source = iter(items)
        try:
            while True:
                while len(pending) < self.window:
                    try:
                        item = next(source)
                    except StopIteration:
                        break
                    pending.append((item, self._pool().submit(self.fn, item)))
                if not pending:
                    self.close(wait=True)
                    return
                item, future = pending.popleft()
                try:
                    result = self._wait(item, future)
                except (BrokenProcessPool, TaskTimeout) as exc:
                    hung = isinstance(exc, TaskTimeout)
                    at = self._kill() if hung else self._restart()
                    redo = [item, *(i for i, _ in pending)]
                    pending.clear()
                    if hung and self.on_broken is not None:
                        # past its deadline while running (FIFO dispatch: the oldest task runs
                        # first); run alone it would only wait the deadline out a second time
                        yield self.on_broken(redo.pop(0), "hung", at)
                    for each in redo:
                        yield self._alone(each)
                    continue
                yield result
        finally:
            for _, future in pending:
                future.cancel()
            self.close()
