"""Steps on the card structure: cards told apart (a BEGIN:VCARD before the open card's END
closes it; an END with no card is dropped; properties with no BEGIN:VCARD get one), and
a card cut off by the end of the payload closed (its cut last line dropped)."""

from __future__ import annotations

from functools import lru_cache

from formatbook_core import HealError, SetAside, Span, Violation

from ..contentlines import ContentLine
from .state import Card, Healing, Record

_END = "END:VCARD"


def _added(text: str, at: int) -> Record:
    return Record(text, Span(at, at), None, _parsed(text))


@lru_cache(maxsize=8)
def _parsed(text: str) -> ContentLine:
    """The content line of an added BEGIN or END line: one (frozen) for every card
    (nested BEGIN:VCARD lines close a card each: a parse per card was 15 bytes a character)."""
    name, _, value = text.partition(":")
    return ContentLine(name, value)


def _bare_card(records: list[Record]) -> bool:
    """Whether properties with no BEGIN:VCARD read as a card whose first line was left
    out, not as prose (``Org: Acme`` is prose): every name written in capitals, and a FN
    or N among them."""
    names = []
    for rec in records:
        if rec.cl is None:
            continue
        written = rec.text[: len(rec.text) - len(rec.cl.value) - 1].split(";")[0].rpartition(".")[2]
        if written != written.upper():
            return False
        names.append(rec.cl.name)
    return "FN" in names or "N" in names


def build_cards(h: Healing) -> None:
    """Group the records into cards, repairing the structure (see the module doc)."""
    cards: list[Card] = []
    card: Card | None = None
    has_begin = any(r.cl is not None and r.cl.name == "BEGIN" for r in h.records)
    for rec in h.records:
        cl = rec.cl
        name = cl.name if cl is not None else ""
        if name == "BEGIN":
            if cl is None or cl.value.strip().upper() != "VCARD" or cl.params:
                raise HealError(
                    f"BEGIN:{cl.value if cl else ''} does not begin a vCard",
                    [Violation("vcard.begin", f"BEGIN:{cl.value if cl else ''} is no vCard", span=rec.span)],
                )
            if cl.value != "VCARD" and cl.value.strip().upper() == "VCARD" and cl.value != cl.value.strip():
                rec.set("BEGIN:" + cl.value.strip())
                h.repair("structure", "took the blanks out of BEGIN:VCARD", *rec.span)
            if card is not None:
                card.end = _added(_END, rec.span.start)
                h.repair("end_added", f"closed card {len(cards) - 1} before the next BEGIN:VCARD", *rec.span)
            card = Card(rec)
            cards.append(card)
            continue
        if name == "END":
            value = cl.value.strip().upper() if cl is not None else ""
            if card is None:
                h.set_aside.append(SetAside("stray_end", rec.text, rec.span))
                h.repair("stray_end", f"dropped {rec.text!r}: no card was open", *rec.span)
                continue
            if rec.broken and value != "VCARD" and "VCARD".startswith(value) and cl is not None and not cl.params:
                h.repair("truncated_card", f"completed the cut END of card {len(cards) - 1} ({rec.text!r})", *rec.span)
                rec.set(_END)
                value = "VCARD"
            if value != "VCARD" or (cl is not None and cl.params):
                raise HealError(
                    f"{rec.text} does not close a vCard",
                    [Violation("vcard.end", f"{rec.text!r} does not close the card", span=rec.span)],
                )
            if rec.text != _END and rec.text.upper() != _END:
                rec.set(_END)
                h.repair("structure", "wrote END:VCARD without blanks", *rec.span)
            card.end = rec
            card = None
            continue
        if card is None and has_begin:
            h.set_aside.append(SetAside("prose", rec.text, rec.span))
            h.repair("prose", f"set aside {rec.text[:40]!r}, outside every card", *rec.span)
            continue
        if card is None:
            if not _bare_card(h.records):
                raise HealError(
                    "no BEGIN:VCARD: the text is no vCard",
                    h.problems or [Violation("vcard.empty", "no vCard: the text holds no BEGIN:VCARD")],
                )
            card = Card(_added("BEGIN:VCARD", rec.span.start))
            cards.append(card)
            h.repair("begin_added", f"added BEGIN:VCARD before {name or 'a property'} (no card was open)", *rec.span)
        card.props.append(rec)
    if card is not None:
        _close_cut_card(h, card, len(cards) - 1)
    h.cards = cards


def _close_cut_card(h: Healing, card: Card, index: int) -> None:
    """The payload ends inside ``card``: close it. Its last line, when the payload ends
    inside it (no line break after it), is cut: dropped and set aside, unless it is the
    beginning of ``END:VCARD`` (then completed). A last line with its break is kept."""
    last = card.props[-1] if card.props else None
    at = card.props[-1].span.end if card.props else card.begin.span.end
    if last is not None and last.broken:
        head = last.text.strip().upper()
        if len(head) >= 2 and _END.startswith(head):
            card.props.pop()
            card.end = Record(_END, last.span, None, ContentLine("END", "VCARD"))
            h.repair("truncated_card", f"completed the cut END of card {index} ({last.text!r})", *last.span)
            return
        card.props.pop()
        h.set_aside.append(SetAside("truncated", last.text, last.span))
        h.repair("truncated_line", f"dropped the cut last line {last.text[:40]!r} of card {index}", *last.span)
        at = last.span.start
    card.end = _added(_END, at)
    h.repair("truncated_card", f"closed card {index}, cut off before its END:VCARD", at, at)
