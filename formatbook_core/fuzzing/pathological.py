"""Pathological inputs: a plugin's cases of hostile shapes (deep nesting, long runs of one
character, many repeated tokens, long lines), each run at two sizes to see that the work
grows about linearly.

A plugin's tests contribute a module with ``CASES``, a list of ``Case``. Run them with
``python -m formatbook_core.fuzzing.pathological MODULE_FILE`` (one JSON line per case:
the seconds ``check``, ``heal`` and a ``StreamGuard`` fed in small chunks took at ``size``
and at ``FACTOR * size``, or ``"timeout"``), or through ``growth_failures`` from a test.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..pipeline import check, heal
from ..results import HealError
from ..streaming import StreamGuard
from .budget import InputTimeout, time_budget

OPERATIONS = ("check", "heal", "guard")
#: the large input is this many times the small one
FACTOR = 8
#: it may cost at most this many times the work (linear: 8; quadratic: 64)
GROWTH_LIMIT = 24.0
#: below this many seconds on the large input, timing says nothing: the case passes
NOISE_FLOOR = 0.15


@dataclass(frozen=True)
class Case:
    """One hostile shape: ``make(size)`` builds the reply; ``expect`` the EXPECT text it is
    checked against; the guard is fed ``chunk`` characters at a time (``strict`` guard
    when set). ``xfail`` names a known super-linear case and why."""

    name: str
    make: Callable[[int], str]
    size: int
    expect: str
    chunk: int = 16
    strict: bool = False
    xfail: str | None = None


def _run(case: Case, op: str, text: str) -> None:
    if op == "check":
        check(text, case.expect)
    elif op == "heal":
        try:
            heal(text, case.expect)
        except HealError:
            pass
    else:
        guard = StreamGuard(case.expect, strict=case.strict)
        step = case.chunk
        for i in range(0, len(text), step):
            guard.feed(text[i : i + step])
        guard.finish()


def _cpu_seconds(case: Case, op: str, text: str) -> float:
    # CPU time of this process, not wall time: on a loaded machine a short run fits in one
    # time slice while a long one waits for many, which made linear cases look quadratic.
    # And with the cyclic collector paused (as timeit does): a full collection of what earlier
    # cases left alive landing in one run measured the collector, not the case (CI: 28x).
    gc.collect()
    gc.disable()
    try:
        began = time.process_time()
        _run(case, op, text)
        return time.process_time() - began
    finally:
        gc.enable()


def measure(case: Case, limit: float) -> dict[str, Any]:
    """CPU seconds per operation at about ``size`` and ``FACTOR * size``, after a warm-up
    on ``size // 4`` (lazy imports); ``"timeout"`` for an operation that ran over ``limit``
    seconds (wall time)."""
    out: dict[str, Any] = {}
    for k, op in enumerate(OPERATIONS):
        # sizes a little apart per operation: no operation meets a text another one cached
        texts = [case.make(max(1, case.size // 4) + k), case.make(case.size + k), case.make(FACTOR * case.size + k)]
        try:
            with time_budget(limit):
                times = []
                for text in texts:
                    times.append(_cpu_seconds(case, op, text))
            out[op] = times[1:]
        except InputTimeout:
            out[op] = "timeout"
    return out


def growth_failures(result: dict[str, Any]) -> list[str]:
    """What grew faster than about linearly, in words (empty when all is well)."""
    problems = []
    for op in OPERATIONS:
        times = result[op]
        if times == "timeout":
            problems.append(f"{op} ran over its time limit")
            continue
        small, large = times
        if large >= NOISE_FLOOR and large > GROWTH_LIMIT * max(small, 1e-3):
            problems.append(f"{op}: {small:.3f} s at n, {large:.3f} s at {FACTOR}n ({large / max(small, 1e-3):.1f}x)")
    return problems


def load_cases(path: Path) -> list[Case]:
    """The ``CASES`` of a module file."""
    spec = importlib.util.spec_from_file_location(f"_pathological_{path.parent.name}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.CASES)


def main(argv: list[str]) -> int:
    path, limit, names = Path(argv[0]), float(argv[1]), set(argv[2:])
    for case in load_cases(path):
        if names and case.name not in names:
            continue
        print(json.dumps({"name": case.name, **measure(case, limit)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
