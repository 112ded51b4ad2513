"""A reply as HTML with its repairs, violations and set-aside text marked on it.

The reply is untrusted text: every character of it, and of every message, goes through
:func:`html.escape`; the marks are the only markup. Shared by the batch report and the
playground (one renderer, one escaping rule).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: the most characters of a reply shown (a longer one is cut, and says so)
MAX_SHOWN = 20_000
#: the most marks drawn on one reply (the rest are still listed)
MAX_MARKS = 400
#: the most characters of a message (or of set-aside text) listed
MAX_MESSAGE = 300
#: repair kinds not drawn: ``located`` covers the whole payload (what is set aside is drawn)
NOT_DRAWN = frozenset({"located"})


@dataclass(frozen=True)
class Mark:
    """One thing to draw: ``cls`` ``r`` (repair), ``v`` (violation) or ``a`` (set aside)."""

    number: int
    cls: str
    label: str
    message: str
    start: int
    end: int


def escape(text: Any) -> str:
    """``text`` as HTML text or attribute value (quotes escaped too)."""
    return html.escape(str(text), quote=True)


def _span(item: Mapping[str, Any]) -> tuple[int, int] | None:
    span = item.get("span")
    if not isinstance(span, Sequence) or isinstance(span, str) or len(span) != 2:
        return None
    start, end = span
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) or isinstance(end, bool):
        return None
    if start < 0 or end < start:
        return None
    return start, end


def marks_of(record: Mapping[str, Any]) -> list[Mark]:
    """The marks of a verdict record (``repairs``, ``violations``, ``set_aside``), numbered
    in that order; items without a usable span are numbered too (they are listed)."""
    out: list[Mark] = []
    groups: list[tuple[str, str, str]] = [
        ("repairs", "r", "kind"),
        ("violations", "v", "code"),
        ("set_aside", "a", "kind"),
    ]
    for key, cls, label_key in groups:
        items = record.get(key)
        if not isinstance(items, list):
            continue
        for item in items:
            if not isinstance(item, Mapping):
                continue
            span = _span(item)
            label = str(item.get(label_key, ""))
            message = str(item.get("message", item.get("text", "")))
            if len(message) > MAX_MESSAGE:
                message = message[:MAX_MESSAGE] + "…"
            start, end = span if span is not None else (-1, -1)
            out.append(Mark(len(out) + 1, cls, label, message, start, end))
    return out


def highlight(reply: str, marks: Iterable[Mark], length: int | None = None) -> str:
    """``reply`` as escaped HTML, each mark's span in a ``<mark>`` (overlaps split into
    pieces that carry every mark covering them; an empty span is a caret). ``length``: the
    whole reply's length when ``reply`` is its beginning only."""
    shown = reply[:MAX_SHOWN]
    length = max(len(reply), length or 0)
    drawn = [m for m in marks if m.start >= 0 and m.label not in NOT_DRAWN and m.start <= len(shown)][:MAX_MARKS]
    cuts = {0, len(shown)}
    for m in drawn:
        cuts.add(m.start)
        cuts.add(min(m.end, len(shown)))
    points = sorted(cuts)
    opening: dict[int, list[Mark]] = {}
    closing: dict[int, list[Mark]] = {}
    carets: dict[int, list[Mark]] = {}
    for m in drawn:
        end = min(m.end, len(shown))
        if end == m.start:
            carets.setdefault(m.start, []).append(m)
        else:
            opening.setdefault(m.start, []).append(m)
            closing.setdefault(end, []).append(m)
    active: dict[int, Mark] = {}
    parts: list[str] = []
    for here, after in zip(points, points[1:] + [None], strict=False):
        for m in closing.get(here, ()):
            active.pop(m.number, None)
        for m in opening.get(here, ()):
            active[m.number] = m
        for m in carets.get(here, ()):
            parts.append(
                f'<span class="caret {m.cls}" data-m="{m.number}" title="{escape(_title([m]))}">&#8248;</span>'
            )
        if after is None:
            break
        piece = escape(shown[here:after])
        if active:
            covering = sorted(active.values(), key=lambda m: m.number)
            classes = " ".join(sorted({m.cls for m in covering}))
            numbers = " ".join(str(m.number) for m in covering)
            parts.append(
                f'<mark class="{classes}" data-m="{numbers}" title="{escape(_title(covering))}">{piece}</mark>'
            )
        else:
            parts.append(piece)
    if length > len(shown):
        parts.append(f'<span class="cut">… ({length - len(shown)} more characters not shown)</span>')
    return "".join(parts)


#: the most marks a piece's tooltip lists (a piece under hundreds of marks stays small)
MAX_TITLE = 5


def _title(marks: Sequence[Mark]) -> str:
    lines = [f"{m.number}. {m.label}: {m.message}" for m in marks[:MAX_TITLE]]
    if len(marks) > MAX_TITLE:
        lines.append(f"… and {len(marks) - MAX_TITLE} more")
    return "\n".join(lines)


def legend(marks: Sequence[Mark]) -> str:
    """The marks as an HTML list (number, kind or code, message, span), escaped."""
    if not marks:
        return ""
    names = {"r": "repair", "v": "violation", "a": "set aside"}
    rows = []
    for m in marks:
        where = f' <span class="at">[{m.start}:{m.end}]</span>' if m.start >= 0 else ""
        rows.append(
            f'<li class="{m.cls}" data-m="{m.number}"><b>{m.number}</b> <span class="tag {m.cls}">'
            f"{names[m.cls]}</span> <code>{escape(m.label)}</code> {escape(m.message)}{where}</li>"
        )
    return '<ol class="legend">' + "".join(rows) + "</ol>"
