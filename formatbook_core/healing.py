"""A repair plan as ordered data, the shape every format's healer shares.

A plan is a tuple of :class:`Step`\\ s: each is named (for readers, tests and listings), runs
one function on the healing in progress and may say when it is needed. :func:`run_plan`
runs them in order. What a "healing in progress" holds is each format's own business.
A heal that writes its repaired text piece by piece writes it into :class:`Written`,
which refuses the heal as soon as the text passes ``max_size``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, SupportsIndex

from .limits import refuse_grown
from .results import Repair, make_repair

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
        self.repairs.append(make_repair(kind, message, start, end))


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


class Written(list[str]):
    """The repaired text as a heal writes it: a list of pieces that refuses the heal as
    soon as they pass ``max_size``.

    The core's ruling (:func:`~formatbook_core.limits.too_large`): a healed text longer
    than ``max_size`` fails. A heal that grows a reply within the limit past it (XML
    escaping ``&``) would otherwise do all its work first and be refused after; writing
    into ``Written`` it is refused (``HealError``, the core's ``reply.too_large``) at the
    piece that takes it past the limit, without writing the rest. ``strip`` names the
    characters the heal strips from both ends of the text when it is done; ``allow(n)``
    tells that a later change may take ``n`` characters back: the refusal waits until the
    text, stripped and less what may be taken back, passes the limit, so that it refuses
    exactly what the heal's final length would. ``size`` counts the characters written.
    """

    __slots__ = ("allowance", "max_size", "size", "strip")

    def __init__(self, max_size: int, *, strip: str = "") -> None:
        super().__init__()
        self.max_size = max_size
        self.strip = strip
        self.size = 0
        self.allowance = 0

    def append(self, piece: str) -> None:
        list.append(self, piece)
        self.size += len(piece)
        if self.size > self.max_size:
            self._over()

    def extend(self, pieces: Iterable[str]) -> None:
        for piece in pieces:
            self.append(piece)

    def __iadd__(self, pieces: Iterable[str]) -> Written:  # type: ignore[override, misc]
        self.extend(pieces)  # ``out += pieces`` counted like ``extend``, not past the count
        return self

    def insert(self, index: SupportsIndex, piece: str) -> None:
        list.insert(self, index, piece)
        self.size += len(piece)
        if self.size > self.max_size:
            self._over()

    def __setitem__(self, index: Any, piece: Any) -> None:
        if not isinstance(index, int):
            raise TypeError("Written takes one piece at a time")
        old = self[index]
        list.__setitem__(self, index, piece)
        self.size += len(piece) - len(old)
        if self.size > self.max_size:
            self._over()

    def allow(self, chars: int) -> None:
        """A later change may take up to ``chars`` characters of what is written back."""
        self.allowance += max(0, chars)

    def text(self) -> str:
        """The pieces joined, stripped of ``strip`` at both ends."""
        joined = "".join(self)
        return joined.strip(self.strip) if self.strip else joined

    def _over(self) -> None:
        """Refuse when even the text's final length must pass ``max_size``."""
        least = self.size - self.allowance
        if self.strip and least > self.max_size:
            least -= self._stripped()
        refuse_grown(least, self.max_size, stopped=True)

    def _stripped(self) -> int:
        """How many characters stripping would take from both ends of what is written."""
        chars, total = self.strip, 0
        for piece in self:  # the pieces that are white space throughout, then the first that is not
            kept = len(piece.lstrip(chars))
            total += len(piece) - kept
            if kept:
                break
        else:
            return total  # nothing but white space
        for piece in reversed(self):
            kept = len(piece.rstrip(chars))
            total += len(piece) - kept
            if kept:
                break
        return total
