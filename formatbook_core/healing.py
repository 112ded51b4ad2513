"""A repair plan as ordered data, the shape every format's healer shares.

A plan is a tuple of :class:`Step`\\ s: each is named (for readers, tests and listings), runs
one function on the healing in progress and may say when it is needed. :func:`run_plan`
runs them in order. What a "healing in progress" holds is each format's own business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple


class Step(NamedTuple):
    """One step of a repair plan: ``run`` changes the healing in progress (or raises
    ``HealError``); ``when`` (``None``: always) says whether it is needed."""

    name: str
    run: Callable[[Any], None]
    when: Callable[[Any], bool] | None = None


def run_plan(plan: Iterable[Step], healing: Any) -> None:
    """Run each step of ``plan`` on ``healing`` whose condition holds, in order."""
    for _, run, when in plan:
        if when is None or when(healing):
            run(healing)
