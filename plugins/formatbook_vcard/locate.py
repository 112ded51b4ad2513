"""Where the vCard sits in a reply, best candidate first.

1. Fenced blocks tagged ``vcard``, ``vcf`` or ``vcards`` (any case), whatever they hold.
2. Untagged fences whose body starts with ``BEGIN:VCARD``.
3. The stretch from the first ``BEGIN:VCARD`` line to the last ``END:VCARD`` line of the
   reply (outside think blocks); with no ``END:VCARD`` after it, to the end of the reply
   (the reply was cut off). Prose before and after is set aside by the core.
4. When none of these exists: the reply without its think blocks (so that prose gets its
   violations: prose is not a vCard).

Fence lines are never part of a candidate. Every scan is one linear regular expression.
"""

from __future__ import annotations

import re

from formatbook_core import Span
from formatbook_core.locating import fences, outside_spans, strip_span, think_spans

_TAGS = {"vcard", "vcf", "vcards"}
_BEGIN = re.compile(r"^[ \t]*BEGIN:VCARD", re.IGNORECASE | re.MULTILINE)
_END = re.compile(r"^[ \t]*END:VCARD[ \t\r]*$", re.IGNORECASE | re.MULTILINE)


def _blank(reply: str, spans: list[Span]) -> str:
    """``reply`` with ``spans`` replaced by spaces (offsets kept)."""
    pieces, pos = [], 0
    for start, end in spans:
        pieces += [reply[pos:start], " " * (end - start)]
        pos = end
    return "".join(pieces) + reply[pos:]


def locate(reply: str) -> list[Span]:
    thinks = think_spans(reply)
    seen = _blank(reply, thinks)
    blocks = fences(seen)
    tagged: list[Span] = []
    bare: list[Span] = []
    for f in blocks:
        body = strip_span(reply, f.body)
        if body.end <= body.start:
            continue
        if f.info in _TAGS:
            tagged.append(body)
        elif f.info == "" and _BEGIN.match(seen, body.start):
            bare.append(body)
    # fence lines are blanked too: never part of the BEGIN..END stretch
    fence_lines = [s for f in blocks for s in (Span(f.span.start, f.body.start), Span(f.body.end, f.span.end))]
    scan = _blank(seen, sorted(s for s in fence_lines if s.end > s.start))
    stretch: list[Span] = []
    first = _BEGIN.search(scan)
    if first is not None:
        end = len(reply)  # no END:VCARD after it: the reply was cut off
        for closing in _END.finditer(scan, first.end()):
            end = closing.end()
        span = strip_span(reply, Span(first.start(), end))
        if span.end > span.start:
            stretch.append(span)
    candidates: list[Span] = []
    for span in (*tagged, *bare, *stretch):
        if span not in candidates:
            candidates.append(span)
    if not candidates:
        rest = [strip_span(reply, s) for s in outside_spans(len(reply), thinks)]
        rest = [s for s in rest if s.end > s.start]
        rest.sort(key=lambda s: s.start - s.end)
        candidates = rest[:1] or [Span(0, len(reply))]
    return candidates
