"""The one timer every benchmark uses: best of several runs, runs interleaved, memory.

On a shared machine a single run varies by half, and a slow minute hurts whatever runs in
it. So a benchmark times each contender several times and keeps the best (the run least
disturbed by others), and when it compares two contenders it runs them in turn — ours,
the peer, ours, the peer... — so that a busy spell slows both alike and the *ratio*, the
figure that matters, holds. Times are CPU time of this process unless a benchmark asks for
wall time (HTML's streaming checker parses in a thread; ``process_time`` counts every
thread).

Each benchmark also exposes ``rows(quick)``, a list of :class:`Row` records that
``python3 scripts/dev.py bench`` (``benchmarks/all.py``) prints as one table.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

Clock = Callable[[], float]


def best(fn: Callable[[], object], runs: int, number: int = 1, clock: Clock = time.process_time) -> float:
    """The least time of ``runs`` runs of ``number`` calls of ``fn``, per call."""
    out = float("inf")
    for _ in range(max(1, runs)):
        start = clock()
        for _ in range(number):
            fn()
        out = min(out, (clock() - start) / number)
    return out


def interleaved(
    contenders: Mapping[str, Callable[[], object]], runs: int, number: int = 1, clock: Clock = time.process_time
) -> dict[str, float]:
    """The best time per call of each contender, the contenders run in turn ``runs`` times
    (one run of each, then the next round), so that a busy spell on the machine falls on
    all of them alike."""
    out = dict.fromkeys(contenders, float("inf"))
    for _ in range(max(1, runs)):
        for name, fn in contenders.items():
            start = clock()
            for _ in range(number):
                fn()
            out[name] = min(out[name], (clock() - start) / number)
    return out


def fresh(text: str) -> str:
    """An equal string that is a new object: formatbook keeps the analysis of the last text
    it read, and a benchmark must time the work, not that cache."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")


def rss_bytes() -> int:
    """The resident set size of this process now, in bytes (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def peak_rss_bytes() -> int:
    """The highest resident set size this process has had, in bytes."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if peak > 1 << 32 else peak * 1024  # kilobytes on Linux, bytes on macOS


@dataclass(frozen=True)
class Row:
    """One line of the benchmark table: formatbook's time for a piece of work against a
    peer's (the library a user would otherwise call), and the goal for their ratio.

    ``goal`` is the highest ratio (ours / peer) that meets the goal; ``max_seconds`` an
    absolute goal for our time (the 1 KB JSON check, the first check of a process); a row
    with neither only reports.
    """

    work: str
    size: int
    ours: float
    peer: str
    peer_time: float
    goal: float | None = None
    max_seconds: float | None = None
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.ours / self.peer_time if self.peer_time > 0 else float("inf")

    @property
    def met(self) -> bool | None:
        if self.goal is None and self.max_seconds is None:
            return None
        return (self.goal is None or self.ratio <= self.goal) and (
            self.max_seconds is None or self.ours <= self.max_seconds
        )


def size_label(n: int) -> str:
    """1_000 -> '1KB', 1_000_000 -> '1MB' (rounded, for tables)."""
    for unit, scale in (("MB", 1_000_000), ("KB", 1_000)):
        if n >= scale * 0.95:
            return f"{n / scale:.0f}{unit}" if n >= scale * 9.5 or n % scale == 0 else f"{n / scale:.1f}{unit}"
    return f"{n}B"


def seconds_label(s: float) -> str:
    if s >= 1:
        return f"{s:.2f}s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f}ms"
    return f"{s * 1e6:.1f}µs"


def table(rows: list[Row]) -> str:
    """The rows as one plain-text table (work, size, formatbook, peer, peer time, ratio, goal, met?)."""
    head = ("work", "size", "formatbook", "peer", "peer time", "ratio", "goal", "met?")
    cells = [head]
    for r in rows:
        goals = []
        if r.goal is not None:
            goals.append(f"≤{r.goal:.3g}×")
        if r.max_seconds is not None:
            goals.append(f"≤{seconds_label(r.max_seconds)}")
        met = {None: "", True: "yes", False: "NO"}[r.met]
        cells.append(
            (
                r.work,
                size_label(r.size),
                seconds_label(r.ours),
                r.peer,
                seconds_label(r.peer_time),
                f"{r.ratio:.2f}×",
                " ".join(goals) or "—",
                met + (f" ({r.note})" if r.note else ""),
            )
        )
    widths = [max(len(c[i]) for c in cells) for i in range(len(head) - 1)]
    lines = []
    for k, c in enumerate(cells):
        left = "  ".join(c[i].ljust(widths[i]) if i in (0, 3) else c[i].rjust(widths[i]) for i in range(len(head) - 1))
        lines.append(f"{left}  {c[-1]}")
        if k == 0:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)
