"""The healing in progress, and the plan's first and last syntax steps."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from formatbook_core import HealError, Repair, Span, Violation
from formatbook_core.edits import OffsetMap, apply
from formatbook_core.healing import HealState
from formatbook_core.limits import limits_from, refuse_grown

from ..lines import scan
from ..syntax import CUT_OFF, Reading, read, scanner_options

_LEADING_BLANKS = re.compile(r"^[ \t]+", re.MULTILINE)


class Healing(HealState):
    """The text being healed, its ``repairs`` so far and its last strict ``reading``."""

    def __init__(self, fmt: Any, text: str, schema: Any, options: dict[str, Any]):
        self.fmt = fmt
        self.original = text
        self.text = text
        self.schema = schema
        self.options = options
        self.max_size, self.max_depth = limits_from(options)
        self.repairs: list[Repair] = []
        self.reading: Reading | None = None
        self.maps: list[OffsetMap] = []  # one per edit of the text, oldest first
        # every text read so far: steps try an edit and go back, and a text read once is
        # not read again (the reading depends on the text only: the options are fixed)
        self.readings: dict[str, Reading] = {}

    @property
    def valid(self) -> bool:
        return self.reading is not None and self.reading.violation is None

    def reread(self, *, worded: bool = False) -> Reading:
        """The strict reading of the current text. Between the steps only whether it reads
        matters: a text cut off inside a quoted scalar or flow collection is refused
        unworded (:data:`~formatbook_yaml.syntax.CUT_OFF`); ``worded``: the refusal as
        ``check`` words it (what ``confirm`` raises, a code a step asks for)."""
        reading = self.readings.get(self.text)
        if reading is None or (worded and reading.violation is CUT_OFF):
            reading = self.readings[self.text] = read(self.text, self.options, self.max_depth, worded=worded)
        self.reading = reading
        return reading

    def back(self, pos: int) -> int:
        """An offset into the current text, mapped back to the text as received."""
        for m in reversed(self.maps):
            pos = m.back(pos, within=True)  # a span inside a rewritten stretch keeps its place
        return pos

    def repair(self, kind: str, message: str, start: int, end: int) -> None:
        """List a repair at ``start:end`` of the current text (before the step edits it);
        its span indexes the text as received."""
        n = len(self.original)
        start = max(0, min(self.back(start), n))
        end = max(start, min(self.back(end), n))
        self.repairs.append(Repair(kind, message, Span(start, end)))

    def edit(self, edits: list[tuple[int, int, str]], *, ahead: tuple[TakeBack, ...]) -> None:
        """Replace ``text[start:end]`` by each new text (in order, not overlapping).

        A text this makes longer than ``max_size`` is refused here (``HealError``, the
        core's ``reply.too_large``, "when it was stopped") when it must stay longer
        whatever the steps still to run do: ``ahead`` names what each of them may take
        back at most (:data:`AFTER_HASHES`...), measured on the edited text."""
        if not edits:
            return
        self.text = apply(self.text, edits)
        self.maps.append(OffsetMap(edits))
        if len(self.text) > self.max_size:  # rare: only then is what may go measured
            least = len(self.text) - sum(most(self) for most in ahead)
            refuse_grown(least, self.max_size, stopped=True)


TakeBack = Callable[[Healing], int]

#: The line scanner's refusals the indentation step answers by moving a line.
SNAPPED = ("yaml.indentation", "yaml.syntax", "yaml.plain_colon", "yaml.ambiguous")


def _markers(h: Healing) -> int:
    """The most the line step's removal of stray ``---``/``...`` lines takes back."""
    return sum(len(line) + 1 for line in h.text.split("\n") if line.strip() in ("---", "..."))


def _blanks(h: Healing) -> int:
    """The most the indentation step takes back, the line step still to run: it changes
    only the leading spaces of lines (the line step makes each leading tab two spaces
    first), so every line's leading blanks at most."""
    return len(h.text) - len(_LEADING_BLANKS.sub("", h.text))


def _indents(h: Healing) -> int:
    """The most the indentation step (or its next round) takes back: nothing when the
    line scanner, its first step, finds no line for it to move; else :func:`_blanks`."""
    error = scan(h.text, **scanner_options(h.options, h.max_depth)).error
    return _blanks(h) if error is not None and error.code in SNAPPED else 0


def _last_line(h: Healing) -> int:
    """The most the truncation step takes back: the closers it added again (they end the
    last line), or the last line dropped with the white space before it (the last line
    that is not blank or a marker, and all after it). A first line is never dropped:
    only closers and the white space after it."""
    text = h.text
    end = len(text)
    while end > 0:
        start = text.rfind("\n", 0, end - 1) + 1
        if text[start:end].strip() not in ("", "---", "..."):
            return len(text) - len(text[:start].rstrip() if start else text.rstrip().rstrip("]}\"'"))
        end = start
    return len(text)


def _ends(h: Healing) -> int:
    """The most healing's end takes back: the white space at both ends (``_ends_as_given``)."""
    return len(h.text) - len(h.text.strip())


#: What the steps after each may take back (``Healing.edit``'s ``ahead``).
AFTER_HASHES: tuple[TakeBack, ...] = (_markers, _blanks, _last_line, _ends)
AFTER_LINES: tuple[TakeBack, ...] = (_indents, _last_line, _ends)
AFTER_INDENTATION = AFTER_LINES  # its own later rounds, then truncation's
AFTER_TRUNCATION: tuple[TakeBack, ...] = (_last_line, _ends)
AFTER_SCHEMA: tuple[TakeBack, ...] = (_ends,)


def refuse(h: Healing) -> None:
    if not isinstance(h.text, str):
        raise HealError("cannot heal YAML: the reply is not text", [Violation("yaml.syntax", "not text")])
    if len(h.text) > h.max_size:
        v = Violation("yaml.too_large", f"the YAML is longer than {h.max_size} characters")
        raise HealError(f"cannot heal YAML: {v.message}", [v])


def check(h: Healing) -> None:
    h.reread()


def confirm(h: Healing) -> None:
    refuse_grown(len(h.text), h.max_size)  # the core's verdict, before a reading
    reading = h.reread(worded=True)
    if reading.violation is not None:
        raise HealError(f"cannot heal YAML: {reading.violation.message}", [reading.violation])
