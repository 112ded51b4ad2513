"""A repair plan as ordered data, the shape every format's healer shares.

A plan is a tuple of :class:`Step`\\ s: each is named (for readers, tests and listings), runs
one function on the healing in progress and may say when it is needed. :func:`run_plan`
runs them in order. What a "healing in progress" holds is each format's own business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from .results import Analysis, Healed


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


class Heal(Protocol):
    """The signature of every format's ``heal/`` entry point (its package's ``heal``).

    ``text`` is the payload to repair; ``schema`` the format's loaded schema (or ``None``);
    ``options`` the format's validated keyword options, ``max_size`` and ``max_depth``
    included (read them with :func:`formatbook_core.limits.limits_from`); ``analysis``:
    the pipeline's analysis of ``text``, when there is one (else the entry point makes
    its own). Returns the ``Healed`` reply or raises ``HealError``. A format's ``heal``
    and ``heal_analyzed`` both call it this way, so the two cannot drift apart.
    """

    def __call__(
        self,
        text: str,
        schema: Any = None,
        options: Mapping[str, Any] | None = None,
        *,
        analysis: Analysis | None = None,
    ) -> Healed: ...
