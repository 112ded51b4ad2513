"""The healing in progress, handed from step to step of the plan."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from formatbook_core import HealError, Repair, Span, Violation
from formatbook_core.healing import HealState
from formatbook_core.limits import DEFAULT, Limits
from formatbook_core.results import make_repairs

from ..schema import CsvSchema
from .reader import Record


@dataclass
class Healing(HealState):
    """``text`` (the payload as given), ``delimiter`` (the one to write), ``reading`` (the
    one the reply uses), the ``records`` read, the ``repairs`` made (spans into ``text``)
    and ``out`` (the healed text once written)."""

    text: str
    delimiter: str
    schema: CsvSchema | None = None
    limits: Limits = DEFAULT
    analyze: Any = None
    reading: str = ","
    records: list[Record] = field(default_factory=list)
    blank: list[tuple[int, int]] = field(default_factory=list)
    notes: list[tuple[str, int, int, str]] = field(default_factory=list)
    #: where the notes' repairs go in ``repairs`` once made (``rows.listed_notes``); -1: none pending
    notes_at: int = -1
    table: bool = False
    repairs: list[Repair] = field(default_factory=list)
    out: str | None = None
    done: bool = False
    trusted: bool = False
    analysis: Any = None  # the analysis of ``out`` once confirmed

    def repair(self, kind: str, message: str, start: int, end: int) -> None:
        super().repair(kind, message, start, max(start, end))  # an end before the start: empty

    def repair_all(self, found: Iterable[tuple[int, int, str, str]]) -> None:
        """``repair`` for each ``(start, end, kind, message)``, at once (a reply of lone
        carriage returns has a note per line)."""
        found = found if isinstance(found, list) else list(found)
        starts = list(map(itemgetter(0), found))
        self.repairs += make_repairs(
            map(itemgetter(2), found), map(itemgetter(3), found), starts, map(max, starts, map(itemgetter(1), found))
        )

    def fail(self, code: str, message: str, start: int = 0, end: int | None = None, **extra: Any) -> HealError:
        span = Span(start, len(self.text) if end is None else max(start, end))
        return HealError(f"cannot heal the CSV: {message}", [Violation(code, message, span=span, **extra)])
