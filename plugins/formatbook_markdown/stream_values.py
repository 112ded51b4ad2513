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

from formatbook_core.locating import FENCE_LINE

from .contract.names import normalize_section_name
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

    def copy(self) -> SettledValues:
        """An independent clone of the current state."""
        clone = copy.copy(self)
        clone._para = list(self._para)
        return clone

    def scope_key(self, scope: str) -> str | None:
        """The key values of ``scope`` are reported under, ``None`` when none are."""
        key = normalize_section_name(scope)
        return key if self.active and key in self._keys else None

    def line(self, line: str) -> list[tuple[str | None, str]]:
        """Take one complete line (without its line break)."""
        if not self.active:
            return []
        if "<" in line:
            return self._stop()
        if self._container != "none":
            return self._container_line(line)
        return self._body_line(line)

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
            return self._stop()  # the text above may be a setext heading (in a list item too)
        heading = _ATX.match(line)
        if heading:
            return self._heading(heading)
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
            self._after_break = False
            return []
        self._after_break = False
        if line[0].isspace() or not _PLAIN.match(line) or not _SPECIAL.isdisjoint(line):
            return []  # a list, a quote, code, a table...: not counted
        self._para = [line]
        self._para_plain = True
        return []

    def _heading(self, m: re.Match[str]) -> list[tuple[str | None, str]]:
        title = strip_closing_sequence(m.group(2) or "").strip()
        if "#" in title:
            return self._stop()  # maybe a glued heading
        out = self._close()
        key = normalize_section_name(title)
        if key in self._keys:
            self._counting = True
            self._scope = key if len(m.group(1)) == 1 else None
        else:
            self._scope = None
            if self._names_section(title):
                self._stop()  # a heading the plan may split or rename: what it ended stays settled
                return out
        self._after_break = True
        return out

    def _close(self) -> list[tuple[str | None, str]]:
        para, self._para = self._para, []
        if not para or not self._para_plain or not self._counting:
            return []
        value = strip_inline("\n".join(para).strip())
        if not value.strip() or is_empty_value(value, self._empty_value):
            return []
        return [(self._scope, value)]
