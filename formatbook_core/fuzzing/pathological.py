"""Pathological inputs: a plugin's cases of hostile shapes (deep nesting, long runs of one
character, many repeated tokens, long lines), each run at two sizes to see that the work
grows about linearly.

A plugin's tests contribute a module with ``CASES``, a list of ``Case``. Run them with
``python -m formatbook_core.fuzzing.pathological MODULE_FILE`` (one JSON line per case: the
steps ``check``, ``heal`` and a ``StreamGuard`` fed in small chunks took at ``size`` and at
``FACTOR * size``), or through ``growth_failures`` from a test.

Work is counted, not timed: a step is a Python function call or a line run (the events
``sys.settrace`` reports), so the same input costs the same steps on any machine, loaded or
not, and a repeated scan written in Python (a loop over every block for every fence) shows
as quadratic. What one builtin does in C (a slice, a join, ``str.find``, a regex) is one
step whatever its length: a quadratic made only of such calls needs its own test. Lines
count in libraries' frames too: html5lib's quadratics loop over its open elements without a
Python call, so counting only its calls would hide them (and on Python 3.11 save little: the
cost of tracing is the interpreter's tracing mode, not the callback).
"""

from __future__ import annotations

import gc
import importlib.util
import json
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from ..pipeline import check, heal
from ..results import CheckResult, HealError
from ..streaming import StreamGuard

OPERATIONS = ("check", "heal", "guard")
#: the large input is this many times the small one
FACTOR = 8
#: it may cost at most this many times the steps (linear: about 8; quadratic: up to 64)
GROWTH_LIMIT = 12.0
#: below this many steps on the large input, growth says nothing: the case passes
STEP_FLOOR = 20_000
#: steps one run may take before it is stopped (a hang, counted: no clock decides)
STEP_BUDGET = 60_000_000


@dataclass(frozen=True)
class Case:
    """One hostile shape: ``make(size)`` builds the reply; ``expect`` the EXPECT text it is
    checked against; the guard is fed ``chunk`` characters at a time (``strict`` guard
    when set). ``xfail`` names a known super-linear case and why. ``warm`` is the size of
    the untraced warm-up run (``size // 4`` when 0): a case whose run at ``size`` takes a
    path the smaller text does not (past a depth limit) warms on a text that takes it."""

    name: str
    make: Callable[[int], str]
    size: int
    expect: str
    chunk: int = 16
    strict: bool = False
    xfail: str | None = None
    warm: int = 0


class OverBudget(BaseException):
    """A run took more steps than it was allowed (a BaseException, so that a plugin's
    ``except Exception`` cannot swallow it)."""


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


def count_steps(run: Callable[..., object], *args: Any, budget: int = STEP_BUDGET) -> int:
    """The steps ``run(*args)`` takes: Python calls and lines, as ``sys.settrace`` reports
    them. Over ``budget`` the run is stopped with ``OverBudget``."""
    steps = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal steps
        steps += 1
        if steps > budget:
            raise OverBudget(steps)
        return tracer

    # the cyclic collector paused: weakref callbacks and finalizers of what earlier runs
    # left alive would land in whichever run triggers a collection. Paused, not run first:
    # with it paused no run triggers one, and a full collection up front cost 0.3 s of CPU
    # a call in a test process holding torch and the rest (twice a test, 16 tests)
    gc.disable()
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        run(*args)
    finally:
        sys.settrace(previous)
        gc.enable()
    return steps


def traced_check(text: str, expect: str) -> tuple[CheckResult, float]:
    """``check(text, expect)`` and the peak of the memory it allocates (as ``tracemalloc``
    traces it), in bytes per character of ``text``: memory growth is measured, as work is
    counted, not timed. A check of the first 100 characters runs first, untraced (lazy
    imports and compiled patterns are no part of the reply's cost)."""
    check(text[:100], expect)
    tracemalloc.start()
    try:
        result = check(text, expect)
        return result, tracemalloc.get_traced_memory()[1] / max(len(text), 1)
    finally:
        tracemalloc.stop()


def peak_bytes_per_character(text: str, expect: str) -> float:
    """The peak memory of ``check(text, expect)`` in bytes per character (:func:`traced_check`)."""
    return traced_check(text, expect)[1]


def measure(case: Case, budget: int = STEP_BUDGET, operations: Sequence[str] = OPERATIONS) -> dict[str, Any]:
    """Steps per operation (of ``operations``) at about ``size`` and ``FACTOR * size``,
    after a warm-up run of each on ``size // 4`` or ``warm`` (lazy imports, compiled patterns, caches).
    The large run is stopped once it is over ``GROWTH_LIMIT`` times the small one
    (``"stopped"``); a small run over ``budget`` steps gives ``"over budget"``."""
    # sizes a little apart per operation: no operation meets a text another one cached.
    # The warm-up is not traced (a sixth of the cost): what it pays once (an import, a
    # pattern compiled on first use) says nothing about growth. It has no step budget: a
    # hang in it is stopped by the caller's CPU limit. Not warmed at n: memos that outlive
    # a run (JSON's StreamGuard keeps the moves of the chunks it met) would make the run
    # at n warm and the one at 8n cold (json many-keys: 9.6x counted thus, 20x warmed at n)
    ops = [(k, op) for k, op in enumerate(OPERATIONS) if op in operations]
    for k, op in ops:
        _run(case, op, case.make((case.warm or max(1, case.size // 4)) + k))
    # what is alive now is set aside from the collector (gc.freeze): the collections that
    # fall between counted runs then walk only what the runs made, not every module's objects
    gc.collect()
    gc.freeze()
    out: dict[str, Any] = {}
    try:
        for k, op in ops:
            small, large = (case.make(size + k) for size in (case.size, FACTOR * case.size))
            try:
                n = count_steps(_run, case, op, small, budget=budget)
            except OverBudget:
                out[op] = "over budget"
                continue
            cap = max(int(GROWTH_LIMIT * n), STEP_FLOOR)
            try:
                out[op] = [n, count_steps(_run, case, op, large, budget=cap)]
            except OverBudget:
                out[op] = [n, cap + 1, "stopped"]
    finally:
        gc.unfreeze()
    return out


def growth_failures(result: dict[str, Any]) -> list[str]:
    """What grew faster than about linearly, in words (empty when all is well); the
    operations ``result`` holds are read."""
    problems = []
    for op in (op for op in OPERATIONS if op in result):
        steps = result[op]
        if steps == "over budget":
            problems.append(f"{op} ran over {STEP_BUDGET:,} steps at n")
            continue
        small, large = steps[:2]
        if large >= STEP_FLOOR and large > GROWTH_LIMIT * small:
            more = "over " if len(steps) > 2 else ""
            ratio = large / max(small, 1)
            problems.append(f"{op}: {small:,} steps at n, {more}{large:,} at {FACTOR}n ({more}{ratio:.1f}x)")
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
    path, names = Path(argv[0]), set(argv[1:])
    for case in load_cases(path):
        if names and case.name not in names:
            continue
        print(json.dumps({"name": case.name, **measure(case)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
