"""The card rules, one logical line at a time: BEGIN/END balanced, one VERSION (3.0 or
4.0; in 4.0 right after BEGIN), FN present (and N in 3.0), cardinalities, typed values and
escaping. :func:`formatbook_vcard.analysis.analyze` runs them over a whole text and the
strict checker (:mod:`.stream`) runs them as each line completes, so the two agree:
a rule broken by a line fails the stream when that line is complete.

Violations name the card (``path[0]``, counted from 0) and the property (``path[1]``).
"""

from __future__ import annotations

from formatbook_core import Span, Violation

from . import typed
from .contentlines import ContentLine

#: Properties a card may hold at most once (VERSION aside).
AT_MOST_ONCE = frozenset({"N", "BDAY", "ANNIVERSARY", "GENDER", "KIND", "PRODID", "REV"})
VERSIONS = ("3.0", "4.0")


class CardRules:
    """Feed each logical line (parsed) with its span; collect violations. ``finish`` at
    the end of the text. ``stop_early`` returns after the first violation (the stream)."""

    __slots__ = ("in_card", "index", "version", "props", "counts", "begun")

    def __init__(self) -> None:
        self.in_card = False
        self.index = -1  # the current (or last) card, counted from 0
        self.version: str | None = None
        self.props = 0  # properties seen in the current card
        self.counts: dict[str, int] = {}
        self.begun = False  # some card has begun

    def copy(self) -> CardRules:
        clone = CardRules()
        clone.in_card, clone.index, clone.version = self.in_card, self.index, self.version
        clone.props, clone.counts, clone.begun = self.props, dict(self.counts), self.begun
        return clone

    def _v(self, code: str, message: str, span: Span, prop: str | None = None) -> Violation:
        path: tuple[str | int, ...] = ()
        if self.index >= 0:
            path = (self.index,) if prop is None else (self.index, prop)
            message = f"card {self.index}: {message}"
        return Violation(code, message, path=path, span=span, keyword=prop)

    def line(self, cl: ContentLine, span: Span) -> list[Violation]:
        """The violations one content line brings."""
        name = cl.name
        if name == "BEGIN":
            if self.in_card:
                return [self._v("vcard.begin", f"BEGIN:{cl.value} inside a card (cards do not nest)", span, "BEGIN")]
            if cl.value.upper() != "VCARD" or cl.params or cl.group is not None:
                return [self._v("vcard.begin", f"BEGIN:{cl.value} does not begin a vCard (BEGIN:VCARD)", span)]
            self.in_card = True
            self.begun = True
            self.index += 1
            self.version = None
            self.props = 0
            self.counts = {}
            return []
        if not self.in_card:
            if name == "END":
                return [self._v("vcard.end", f"END:{cl.value} without a BEGIN:VCARD before it", span, "END")]
            return [self._v("vcard.begin", f"the property {name} stands outside a card (no BEGIN:VCARD)", span, name)]
        if name == "END":
            if cl.value.upper() != "VCARD" or cl.params or cl.group is not None:
                return [self._v("vcard.end", f"END:{cl.value} does not close the card (END:VCARD)", span, "END")]
            out = self._card_complete(span)
            self.in_card = False
            return out
        self.props += 1
        seen = self.counts.get(name, 0) + 1
        self.counts[name] = seen
        if name == "VERSION":
            return self._version(cl, span, seen)
        out = []
        if seen == 2 and (name in AT_MOST_ONCE or (name == "UID" and self.version == "4.0")):
            out.append(self._v("vcard.cardinality", f"{name} appears more than once", span, name))
        version = self.version or "3.0"  # a 4.0 card states its version first
        problem = _value_problem(cl, version)
        if problem is not None:
            out.append(self._v("vcard.value", f"{name}: {problem}", span, name))
        problem = typed.escaping_problem(name, cl.value, version)
        if problem is not None:
            out.append(self._v("vcard.escape", f"{name}: {problem}", span, name))
        return out

    def _version(self, cl: ContentLine, span: Span, seen: int) -> list[Violation]:
        if seen > 1:
            return [self._v("vcard.cardinality", "VERSION appears more than once", span, "VERSION")]
        value = cl.value.strip()
        if value not in VERSIONS:
            return [self._v("vcard.version", f"VERSION:{cl.value} is not 3.0 or 4.0", span, "VERSION")]
        self.version = value
        if value == "4.0" and self.props > 1:
            return [self._v("vcard.version", "VERSION:4.0 must come right after BEGIN:VCARD", span, "VERSION")]
        return []

    def _card_complete(self, span: Span) -> list[Violation]:
        out: list[Violation] = []
        if self.version is None:
            out.append(self._v("vcard.version", "no VERSION (3.0 or 4.0)", span, "VERSION"))
        if not self.counts.get("FN"):
            out.append(self._v("vcard.missing_property", "no FN (formatted name)", span, "FN"))
        if self.version == "3.0" and not self.counts.get("N"):
            out.append(self._v("vcard.missing_property", "no N (structured name), required in vCard 3.0", span, "N"))
        return out

    def finish(self, end: int) -> list[Violation]:
        """The violations the end of the text brings."""
        span = Span(end, end)
        if self.in_card:
            return [self._v("vcard.unclosed", "the card is not closed (no END:VCARD)", span)]
        if not self.begun:
            return [Violation("vcard.empty", "no vCard: the text holds no BEGIN:VCARD", span=span)]
        return []


def _value_problem(cl: ContentLine, version: str) -> str | None:
    name = cl.name
    if name == "EMAIL":
        return typed.email_problem(cl.value)
    if name == "TEL":
        return typed.phone_problem(cl.value)
    if name in typed.DATE_PROPERTIES:
        value_type = cl.param("VALUE")
        return typed.date_problem(cl.value, version, value_type[0] if value_type else "")
    return None
