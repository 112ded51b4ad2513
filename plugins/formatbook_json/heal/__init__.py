"""Syntax healing for JSON: a relaxed lexer, then repair passes, each family in its own
module (:mod:`.strings`, :mod:`.numbers`, :mod:`.literals`, :mod:`.structure`).

Healing edits the payload in place — the layout of the reply survives, only the broken
bits change — and lists every edit as a ``Repair`` whose span indexes the payload.
"""

from __future__ import annotations

import gc
from operator import attrgetter

from formatbook_core import HealError, Repair, SetAside, Span, Violation

from . import edits as _edits
from .structure import repair

__all__ = ["SyntaxHealed", "heal_syntax"]

_SPAN_START = attrgetter("span.start")
_GC_PAUSE_FROM = 20_000  # characters; below, a pause would cost more than it saves


class SyntaxHealed:
    """The outcome of :func:`heal_syntax`: the repaired ``text``, its ``repairs``, text set
    aside (trailing data) and the ``edits`` made (to trace offsets back)."""

    __slots__ = ("text", "repairs", "set_aside", "edits")

    def __init__(self, text: str, repairs: list[Repair], set_aside: list[SetAside], edits: list):
        self.text = text
        self.repairs = repairs
        self.set_aside = set_aside
        self.edits = edits


def heal_syntax(text: str, *, max_depth: int = 1000, done_at: int | None = None) -> SyntaxHealed:
    """Repair ``text`` into strict JSON (no schema involved). Raises ``HealError``.
    ``done_at``: where a strict parser found text after one complete value (the walk
    starts there)."""
    if not text.strip():
        raise HealError(
            "cannot heal JSON: the text is empty",
            [Violation("json.empty", "the text is empty", span=Span(0, len(text)))],
        )
    # A badly broken long reply makes one Repair (and edit) per token: thousands of small
    # acyclic objects that live until the answer is returned. The cyclic collector would
    # scan them again and again while they pile up (a quarter of the time on a 1 MB
    # reply), and can find nothing to free, so it waits until healing is done.
    collecting = gc.isenabled()
    if collecting and len(text) > _GC_PAUSE_FROM:
        gc.disable()
    try:
        res = repair(text, max_depth, done_at=done_at)
    finally:
        if collecting:
            gc.enable()
    set_aside = []
    if res.trailing is not None:
        set_aside.append(SetAside("trailing_data", text[res.trailing.start : res.trailing.end], res.trailing))
    edits = res.edits
    healed = _edits.apply(text, edits)
    try:
        repairs = sorted(res.repairs, key=_SPAN_START)  # stable: text order within an offset
    except AttributeError:  # a repair without a span (none is made today)
        repairs = sorted(res.repairs, key=lambda r: r.span.start if r.span else 0)
    return SyntaxHealed(healed, repairs, set_aside, edits)
