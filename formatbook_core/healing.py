"""A repair plan as ordered data, the shape every format's healer shares.

A plan is a tuple of :class:`Step`\\ s: each is named (for readers, tests and listings), runs
one function on the healing in progress and may say when it is needed. :func:`run_plan`
runs them in order. What a "healing in progress" holds is each format's own business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .results import Repair, Span

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


class HealState:
    """What every format's healing in progress holds: the text and the repairs so far.

    A format's state class (a dataclass, or one with its own ``__init__``) subclasses it
    and sets ``text`` (the text being repaired: as received, or as edited so far where a
    format edits in place) and ``repairs``; everything else (set-aside entries, limits,
    offset maps, the output being written) differs too much from format to format to be
    shared. A format whose spans need tracing back overrides :meth:`repair`.
    """

    __slots__ = ()  # a subclass with slots keeps them

    text: str
    repairs: list[Repair]

    def repair(self, kind: str, message: str, start: int, end: int) -> None:
        """List a repair whose span ``start:end`` indexes the text as received."""
        self.repairs.append(Repair(kind, message, Span(start, end)))


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
