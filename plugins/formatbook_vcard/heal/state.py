"""The healing in progress: the payload's lines as records, and the repairs made."""

from __future__ import annotations

from dataclasses import dataclass, field

from formatbook_core import Analysis, Repair, SetAside, Span, Violation
from formatbook_core.healing import HealState

from ..contentlines import ContentLine


@dataclass(slots=True)
class Record:
    """One logical line being healed. ``text`` is its unfolded text now; ``raw`` the exact
    source text (folds included, CRLF breaks only) while it is unchanged, else ``None``;
    ``span`` where it came from in the payload (an added line: where it was added);
    ``cl`` its parse, once it is a content line; ``broken`` its last physical line had
    no line break (the payload ends inside it)."""

    text: str
    span: Span
    raw: str | None = None
    cl: ContentLine | None = None
    broken: bool = False

    def set(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.raw = None


@dataclass(slots=True)
class Card:
    """The records of one card: BEGIN, its properties, END (``None`` when missing)."""

    begin: Record
    props: list[Record] = field(default_factory=list)
    end: Record | None = None
    version: str = ""


@dataclass(slots=True)
class Healing(HealState):
    text: str
    max_size: int
    records: list[Record] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    problems: list[Violation] = field(default_factory=list)
    ends_with_break: bool = False
    out: str = ""
    analysis: Analysis | None = None  # the analysis of ``out`` once confirmed
