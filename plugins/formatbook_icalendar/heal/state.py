"""The healing in progress: the reply's logical lines, each with its span in the
reply, what became of it, and the repairs made so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from formatbook_core import Analysis, Repair, SetAside
from formatbook_core.healing import HealState

from ..contentlines import ContentLine, format_line


@dataclass
class Line:
    """One logical line. ``raw`` is the text as the reply wrote it (folds included,
    breaks normalised) while nothing changed it, else ``None``; ``parts`` is the parsed
    line (``None`` for a line that is no content line)."""

    text: str
    start: int
    end: int
    parts: ContentLine | None = None
    raw: str | None = None

    @property
    def name(self) -> str:
        return self.parts.name if self.parts is not None else ""

    def set(self, parts: ContentLine) -> None:
        """Replace the line's content (it will be written anew, folded)."""
        self.parts = parts
        self.text = format_line(parts.name, parts.params, parts.value)
        self.raw = None


@dataclass
class Healing(HealState):
    text: str
    schema: Any
    options: dict[str, Any]
    lines: list[Line] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    output: str = ""
    # confirm's analysis of ``output``, when it is the one the options ask for (then the
    # caller does not read the healed text again)
    analysis: Analysis | None = None


def new_line(parts: ContentLine, at: int) -> Line:
    """A line healing adds, placed at offset ``at`` of the reply."""
    line = Line("", at, at)
    line.set(parts)
    return line
