"""The values of a streamed Markdown reply that no continuation can change.

``check()`` counts ``extract_values`` / ``extract_scope`` of the healed reply; this module
reports, line by line, the values that every continuation leaves in those lists, so that
``StreamGuard`` can keep MAX counts while the reply streams. The rule (see the README,
"Counting while streaming"):

* Only a *plain paragraph* is ever reported: a paragraph that starts at column 0 after a
  blank line or a heading, holds none of ``#*_`[]<>|\\~`` and whose lines all start as
  plain text; it is reported once a blank line or an ATX heading ends it. An open
  paragraph is not settled: a later ``---`` or ``===`` line makes all of it a setext
  heading, which counts nothing under a contract.
* It counts toward the whole reply once a column-0 ATX heading naming a contract section
  has been seen (text before it may be a preamble) and it is not the empty value.
* It counts toward a section when it follows, with no other heading between, a level-1
  ATX heading naming that section: a section heading at a deeper level can lose its
  place to a later, shallower duplicate ("shallowest wins"), a level-1 one cannot (a
  later level-1 duplicate is merged with it).
* What the line rules cannot follow stops the reporting for good (what was reported stays
  counted): a fence (below L2; at L2+ any fence but the opening ``markdown`` container), the
  container's end, any ``<`` (raw HTML, think blocks), a possible setext underline after
  text, a line with ``#``, ``*`` or ``_`` that names a section (a glued heading, a bold
  label, a heading inside a list or quote). A ``#`` line that names no section ends the
  current section's credit (it may be a heading in a quote or a list).

Each line is looked at once, so the work is linear in the reply.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from formatbook_core.reply import FENCE_LINE

from .contract.names import normalize_section_name
from .heal.underlines import MAX_HEADING_WORDS, is_heading_sized
from .reply.blocks import strip_closing_sequence
from .reply.sections import is_empty_value
from .values import strip_inline

_ATX = re.compile(r"^(#{1,6})(?:[ \t]+(.*))?$")
_UNDERLINE = re.compile(r"=+|-+")
_PLAIN = re.compile(r"^[^\s#`~<|>*+\-=_\[!0-9\\:]")
_SPECIAL = frozenset("#*_`[]<>|\\~")
_NOT_ALNUM = re.compile(r"[\W_]+")


def _squashed(text: str) -> str:
    return _NOT_ALNUM.sub("", text.casefold())


class SettledValues:
    """Follows the lines of a streamed reply and reports its settled values: see the
    module docstring. ``line`` returns the values it settles, each with the key of the
    section it is settled in (``None``: the whole reply only)."""

    def __init__(self, spec: Any, level: int):
        sections = list(getattr(spec, "sections", None) or [])
        self._keys = {normalize_section_name(s.name) for s in sections}
        self._squashed = [k for k in {_squashed(s.name) for s in sections} if k]
        self._empty_value = getattr(spec, "empty_section_value", None)
        self.active = bool(self._keys)
        self._container = "before" if level >= 2 else "none"
        self._counting = False  # a section heading has been seen: no preamble any more
        self._scope: str | None = None  # the section a paragraph here is settled in
        self._para: list[str] = []
        self._para_plain = True
        self._after_break = True  # the previous line was blank or a heading
        self._level = level
        self._shallowest = 7  # the shallowest heading level seen so far
        # the open paragraph's text reported while it is written (``open``): how many of
        # its lines are reported, and how far into the line being written
        self._lines_fed = 0
        self._line_fed = 0
        self._fed_now = 0
        self._open: list[str] = []  # open text reported by this chunk, in order
        # the line being written, while it may begin a long plain paragraph
        self._partial: list[str] = []
        self._partial_ok: bool | None = None  # None: the line has not begun
        self._partial_words = 0
        self._partial_space = True  # the line so far ends with white space (or is empty)

    def copy(self) -> SettledValues:
        """An independent clone of the current state."""
        clone = copy.copy(self)
        clone._para = list(self._para)
        clone._open = list(self._open)
        clone._partial = list(self._partial)
        return clone

    def scope_key(self, scope: str) -> str | None:
        """The key values of ``scope`` are reported under, ``None`` when none are."""
        key = normalize_section_name(scope)
        return key if self.active and key in self._keys else None

    def line(self, line: str) -> list[tuple[str | None, str]]:
        """Take one complete line (without its line break)."""
        self._partial = []
        self._partial_ok = None
        self._fed_now, self._line_fed = self._line_fed, 0  # of this line, while it was written
        if not self.active:
            return []
        if "<" in line:
            return self._stop()
        if self._container != "none":
            return self._container_line(line)
        return self._body_line(line)

    def take_open(self) -> tuple[str, str | None]:
        """The open text reported since the last call (see :meth:`partial`) and the key of
        the section it counts in."""
        text = "".join(self._open)
        self._open = []
        return text, self._scope

    def partial(self, piece: str) -> None:
        """Take a piece of the line being written. A first line of a plain paragraph that
        already holds more than ``MAX_HEADING_WORDS`` words can no longer become a
        heading (an underline below it is a thematic break, ``heal/underlines.py``): its
        words are reported as they come (``take_open``), white space at its end held
        back. Only a first line: a later line may yet start a table or be taken into one."""
        if not piece or not self.active or self._level < 1 or not self._counting:
            return
        if self._partial_ok is None:
            self._partial_ok = (
                self._after_break
                and not self._para
                and self._container in ("none", "open")
                and _PLAIN.match(piece) is not None
            )
            self._partial_words = 0
            self._partial_space = True
        if not self._partial_ok:
            return
        if not _SPECIAL.isdisjoint(piece):
            self._partial_ok = False
            self._partial = []
            return
        words = len(piece.split())
        if words and not self._partial_space and not piece[0].isspace():
            words -= 1  # its first word goes on a word begun in an earlier piece
        self._partial_words += words
        self._partial_space = piece[-1].isspace()
        self._partial.append(piece)
        if self._partial_words <= MAX_HEADING_WORDS or piece.isspace():
            return  # white space alone is held back: it may be the line's end
        text = "".join(self._partial)
        end = len(text.rstrip())
        self._open.append(text[:end])
        self._partial = [text[end:]] if end < len(text) else []
        self._line_fed += end

    def _stop(self) -> list[tuple[str | None, str]]:
        self.active = False
        self._para = []
        return []

    def _names_section(self, line: str) -> bool:
        squashed = _squashed(line)
        return any(k in squashed for k in self._squashed)

    def _container_line(self, line: str) -> list[tuple[str | None, str]]:
        if self._container == "before":
            if not line.strip():
                return []
            m = FENCE_LINE.match(line)
            info = m.group(3).strip().split(maxsplit=1) if m else []
            if m is None or m.group(1) or not info or info[0].lower() not in ("markdown", "md") or "`" in m.group(3):
                return self._stop()  # the container may come later: this text may be set aside
            self._container = "open"
            return []
        return self._body_line(line)

    def _body_line(self, line: str) -> list[tuple[str | None, str]]:
        stripped = line.strip()
        if not stripped:
            out = self._close()
            self._after_break = True
            return out
        if stripped.startswith(("```", "~~~")):
            return self._stop()  # a code block, or the container's end
        if not self._after_break and _UNDERLINE.fullmatch(stripped):
            if self._level >= 1 and self._para and self._para_plain and not self._heading_sized():
                out = self._close()  # a long paragraph is no heading: this is a thematic break
                self._after_break = True
                return out
            return self._stop()  # the text above may be a setext heading (in a list item too)
        heading = _ATX.match(line)
        if heading:
            return self._heading(heading)
        if stripped.startswith("#"):  # maybe a heading (indented): nothing after it is a root
            run = len(stripped) - len(stripped.lstrip("#"))
            self._shallowest = min(self._shallowest, run)
        if "#" in line or "*" in line or "_" in line:
            if self._names_section(line):
                return self._stop()  # a glued heading or a bold label: sections may move
            if "#" in line:
                self._scope = None  # maybe a heading in a list item or a quote
        if self._para or not self._after_break:
            if self._para and not (_PLAIN.match(stripped) and _SPECIAL.isdisjoint(line)):
                self._para_plain = False
            if self._para:
                self._para.append(line)
                if self._para_plain:
                    self._feed_settled_lines()
            self._after_break = False
            return []
        self._after_break = False
        if line[0].isspace() or not _PLAIN.match(line) or not _SPECIAL.isdisjoint(line):
            return []  # a list, a quote, code, a table...: not counted
        self._para = [line]
        self._para_plain = True
        if self._fed_now:  # its words were reported while it was written: the rest too
            rest = line[self._fed_now : len(line.rstrip())]
            if rest:
                self._open.append(rest)
            self._lines_fed = 1
        return []

    def _heading_sized(self) -> bool:
        return is_heading_sized(len(self._para), sum(len(p.split()) for p in self._para))

    def _feed_settled_lines(self) -> None:
        """Report the open paragraph's lines but its last (a later line may take that one
        into a table): the paragraph has two lines now, so it is no heading."""
        if self._level < 1 or not self._counting:
            return
        for i in range(self._lines_fed, len(self._para) - 1):
            text = self._para[i].strip()
            self._open.append(text if i == 0 else " " + text)
        self._lines_fed = max(self._lines_fed, len(self._para) - 1)

    def _heading(self, m: re.Match[str]) -> list[tuple[str | None, str]]:
        title = strip_closing_sequence(m.group(2) or "").strip()
        if "#" in title:
            return self._stop()  # maybe a glued heading
        out = self._close()
        key = normalize_section_name(title)
        level = len(m.group(1))
        # a section heading under no heading counts for its section: a later, shallower
        # duplicate would make the reply fail (markdown.section_repeated), a level-1 one
        # cannot lose its place (below L1 there is no such rule: level 1 only)
        root = level == 1 or (self._level >= 1 and level <= self._shallowest)
        self._shallowest = min(self._shallowest, level)
        if key in self._keys:
            self._counting = True
            self._scope = key if root else None
        else:
            self._scope = None
            if self._names_section(title):
                self._stop()  # a heading the plan may split or rename: what it ended stays settled
                return out
        self._after_break = True
        return out

    def _close(self) -> list[tuple[str | None, str]]:
        para, self._para = self._para, []
        self._open = []  # the value itself is reported (or never will be)
        self._lines_fed = self._line_fed = 0
        if not para or not self._para_plain or not self._counting:
            return []
        value = strip_inline("\n".join(para).strip())
        if not value.strip() or is_empty_value(value, self._empty_value):
            return []
        return [(self._scope, value)]
