"""The last steps: write the cards (CRLF, every line over 75 octets folded) and confirm
that what was written is valid."""

from __future__ import annotations

from formatbook_core import HealError, Span
from formatbook_core.healing import Written
from formatbook_core.limits import refuse_grown

from ..analysis import analyze
from ..contentlines import FOLD_OCTETS, fold, octets
from .state import Card, Healing


def _short(raw: str) -> bool:
    return all(octets(piece) <= FOLD_OCTETS for piece in raw.split("\r\n"))


def write(h: Healing) -> None:
    """Write the cards, each line ended by CRLF, into the core's ``Written``: a heal grown
    past ``max_size`` is refused at the line that takes it past, unwritten beyond."""
    out = Written(h.max_size)
    folded: list[Span] = []
    # what confirm reads is the text written: the records and cards (about 100 bytes a
    # character of the payload) are let go as they are written, before confirm reads it
    cards: list[Card | None] = list(h.cards)
    h.cards, h.records = [], []
    for i, card in enumerate(cards):
        assert card is not None
        cards[i] = None
        for rec in (card.begin, *card.props, card.end):
            if rec is None:  # (build_cards closes every card)
                continue
            if rec.raw is not None and _short(rec.raw):
                out.append(rec.raw)
                out.append("\r\n")
                continue
            text = fold(rec.text)
            if text != rec.text or (rec.raw is not None and rec.raw != rec.text):
                folded.append(rec.span)
            out.append(text)
            out.append("\r\n")
    if folded:
        h.repair("folded", f"folded {len(folded)} line(s) at 75 octets", folded[0].start, folded[-1].end)
    h.out = out.text()


def confirm(h: Healing) -> None:
    refuse_grown(len(h.out), h.max_size)  # the core's verdict, before a reading
    analysis = h.analysis = analyze(h.out, h.max_size)
    if not analysis.ok:
        raise HealError(f"cannot heal the vCard: {analysis.violations[0].message}", list(analysis.violations))
