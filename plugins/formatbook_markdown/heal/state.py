"""The state the repair plan's steps share and the line-editing helper they use."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from formatbook_core import Repair, SetAside, Span

from ..contract.names import normalize_section_name
from ..reply.blocks import Scan
from .issues import Issue

#: How many lines :meth:`RepairState.span_of` looks for line by line before it indexes
#: the reply's lines.
_UNINDEXED_LOOKUPS = 8
#: A line as ``str.splitlines(keepends=True)`` splits them (an empty match at the end
#: reads as a blank line, which no lookup asks for)
_LINE = re.compile("[^\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]|\\Z)")


@dataclass
class Container:
    """The L2 fenced container: its opening and closing lines when they are kept as
    written (``None``: write a fresh ```` ```markdown ```` fence long enough)."""

    opener: str | None = None
    closer: str | None = None


@dataclass
class RepairState:
    """What the steps read and change.

    ``body`` is the Markdown being repaired (inside the container at L2). Each step edits
    it, records a :class:`Repair` per change, keeps what it takes out in ``set_aside`` (and
    in ``outside``/``preamble``) and records what it cannot fix in ``issues``.
    """

    original: str
    spec: Any
    level: int
    body: str
    container: Container | None = None
    repairs: list[Repair] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    preamble: str | None = None
    #: the Markdown is blank once the container step has run (an empty fence, say)
    blank_markdown: bool = False
    #: the section each repair concerns (parallel to ``repairs``; ``None`` for none)
    repair_sections: list[str | None] = field(default_factory=list)
    _cursor: int = field(default=0, repr=False)
    _lines: dict[str, int] | None = field(default=None, repr=False)
    #: lines looked up without the index so far (see :meth:`_line_at`)
    _looked: int = field(default=0, repr=False)

    # --- the spec ----------------------------------------------------------------------
    @property
    def sections(self) -> list[Any]:
        return list(getattr(self.spec, "sections", None) or [])

    @property
    def names(self) -> dict[str, str]:
        """Normalised section name -> the spec's name."""
        return {normalize_section_name(s.name): s.name for s in self.sections}

    @property
    def empty_value(self) -> str | None:
        return getattr(self.spec, "empty_section_value", None) if self.spec is not None else None

    # --- recording ----------------------------------------------------------------------
    def span_of(self, text: str) -> Span | None:
        """Where ``text`` first occurs in the reply as received (``None`` when it was
        changed on the way and cannot be found): a line is looked up among the reply's
        lines first (an index built once), and a longer text is searched from where the
        last one was found, so that a step recording many repairs in document order
        does not search the reply from its start each time."""
        needle = text.strip()
        if not needle:
            return None
        if "\n" not in needle and "\r" not in needle:
            at = self._line_at(needle)
            if at < 0:
                at = self.original.find(needle)
        else:
            at = self.original.find(needle, self._cursor)
            if at < 0:
                at = self.original.find(needle, 0, self._cursor + len(needle))
            if at >= 0:
                self._cursor = at
        return Span(at, at + len(needle)) if at >= 0 else None

    def _line_at(self, needle: str) -> int:
        """Where the first line of the reply that reads ``needle`` (stripped) starts its
        text, or -1: the first few are looked for line by line (most replies need a
        repair or two), later ones in the index (a line and an offset per line of the
        reply: five bytes a character, built once a step records many repairs)."""
        if self._lines is None and self._looked < _UNINDEXED_LOOKUPS:
            self._looked += 1
            for m in _LINE.finditer(self.original):
                line = m.group()
                if line.strip() == needle:
                    return m.start() + len(line) - len(line.lstrip())
            return -1
        return self._line_index().get(needle, -1)

    def _line_index(self) -> dict[str, int]:
        """Each stripped line of the reply -> where its first occurrence starts."""
        if self._lines is None:
            self._lines = {}
            pos = 0
            for line in self.original.splitlines(keepends=True):
                body = line.strip()
                if body and body not in self._lines:
                    self._lines[body] = pos + len(line) - len(line.lstrip())
                pos += len(line)
        return self._lines

    def release(self) -> None:
        """Let go of the index of the reply's lines (a line and an offset per line: what
        the steps looked repairs up in), once the steps have run; built again if asked."""
        self._lines = None

    def repair(self, kind: str, message: str, where: str | Span | None = None, section: str | None = None) -> None:
        span = where if isinstance(where, Span) or where is None else self.span_of(where)
        self.repairs.append(Repair(kind, message, span))
        self.repair_sections.append(section)

    def keep(self, kind: str, text: str, span: Span | None = None) -> None:
        """Set ``text`` aside (kept in ``set_aside``; the caller lists the repair)."""
        self.set_aside.append(SetAside(kind, text, span if span is not None else self.span_of(text)))

    def issue(self, code: str, message: str, section: str | None = None) -> None:
        self.issues.append(Issue(code, message, section))


def edit_lines(sc: Scan, edits: Sequence[tuple[int, int, str | None]]) -> str:
    """``sc.text`` with lines ``[start, end)`` replaced by ``replacement`` (text without a
    final line ending; the replaced lines' last ending is kept) or removed (``None``).
    ``start == end`` inserts before line ``start``. Edits must not overlap."""
    text = sc.text
    out: list[str] = []
    pos = 0
    for start, end, rep in sorted(edits, key=lambda e: (e[0], e[1])):
        begin = sc.offset(start)
        out.append(text[pos:begin])
        if rep is not None and rep.startswith("\n") and text[:begin].endswith("\r"):
            # after a lone CR line ending the "\n" would join it into one CRLF ending, and
            # the blank line it opens would be lost (healing again would add it again)
            rep = "\n" + rep
        if start == end:  # insertion
            if rep is not None:
                if begin > 0 and not text[:begin].endswith(("\n", "\r")):
                    out.append("\n")
                out.append(rep + "\n")
            pos = begin
            continue
        last = sc.lines[end - 1]
        if rep is not None:
            out.append(rep + text[last.end : last.next])
        pos = last.next
    out.append(text[pos:])
    return "".join(out)
