"""The last steps: write the cards (CRLF, every line over 75 octets folded) and confirm
that what was written is valid."""

from __future__ import annotations

from formatbook_core import HealError, Span
from formatbook_core.limits import refuse_grown

from ..analysis import analyze
from ..contentlines import FOLD_OCTETS, fold, octets
from .state import Healing


def _short(raw: str) -> bool:
    return all(octets(piece) <= FOLD_OCTETS for piece in raw.split("\r\n"))


def write(h: Healing) -> None:
    out: list[str] = []
    folded: list[Span] = []
    for card in h.cards:
        for rec in (card.begin, *card.props, card.end):
            if rec is None:  # (build_cards closes every card)
                continue
            if rec.raw is not None and _short(rec.raw):
                out.append(rec.raw)
                continue
            text = fold(rec.text)
            if text != rec.text or (rec.raw is not None and rec.raw != rec.text):
                folded.append(rec.span)
            out.append(text)
    if folded:
        h.repair("folded", f"folded {len(folded)} line(s) at 75 octets", folded[0].start, folded[-1].end)
    h.out = "\r\n".join(out) + "\r\n" if out else ""


def confirm(h: Healing) -> None:
    refuse_grown(len(h.out), h.max_size)  # the core's verdict, before a reading
    analysis = h.analysis = analyze(h.out, h.max_size)
    if not analysis.ok:
        raise HealError(f"cannot heal the vCard: {analysis.violations[0].message}", list(analysis.violations))
