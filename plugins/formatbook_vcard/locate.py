"""Where the vCard sits in a reply, best candidate first.

The rules are the README's "Choosing the payload". Every scan is one linear regular
expression.
"""

from __future__ import annotations

import re

from formatbook_core import Span
from formatbook_core.reply import Reply
from formatbook_core.spans import blank_out, strip_span

_TAGS = {"vcard", "vcf", "vcards"}
_BEGIN = re.compile(r"^[^\S\r\n]*BEGIN:VCARD", re.IGNORECASE | re.MULTILINE)
_END = re.compile(r"^[^\S\r\n]*END:VCARD[ \t\r]*$", re.IGNORECASE | re.MULTILINE)


def locate(reply: str) -> list[Span]:
    prepared = Reply.of(reply)
    seen = prepared.blanked()
    blocks = prepared.fences()
    tagged: list[Span] = []
    bare: list[Span] = []
    for f in blocks:
        body = strip_span(reply, f.body)
        if body.end <= body.start:
            continue
        if not f.closed:
            body = _keep_break(reply, body, f.body.end)
        if f.info in _TAGS:
            tagged.append(body)
        elif f.info == "" and _BEGIN.match(seen, body.start):
            bare.append(body)
    # fence lines are blanked too: never part of the BEGIN..END stretch
    fence_lines = [s for f in blocks for s in (Span(f.span.start, f.body.start), Span(f.body.end, f.span.end))]
    scan = blank_out(seen, sorted(s for s in fence_lines if s.end > s.start))
    stretch: list[Span] = []
    first = _BEGIN.search(scan)
    if first is not None:
        end = -1
        for closing in _END.finditer(scan, first.end()):
            end = closing.end()
        if end >= 0:  # with the line break of END:VCARD: a healed text is located whole
            span = _keep_break(reply, strip_span(reply, Span(first.start(), end)), len(reply))
            after = _BEGIN.search(scan, end)
            if after is not None:
                # a card opened after the last END (the reply was cut inside it): first the
                # stretch through it, then the closed cards alone (when it cannot be healed)
                cut = _cut_stretch(reply, scan, after.start())
                if cut.end > span.end:
                    stretch.append(Span(span.start, cut.end))
        else:
            span = _cut_stretch(reply, scan, first.start())
        if span.end > span.start:
            stretch.append(span)
    order = (*tagged, *bare, *stretch)
    holding = [f for f in (*tagged, *bare) if _BEGIN.match(seen, f.start)]
    if len(holding) > 1 and stretch:
        order = (*stretch, *tagged, *bare)  # cards in several fences: all of them, one payload
    candidates = list(dict.fromkeys(order))  # in order, each once (a list's `in` is quadratic)
    return candidates or prepared.prose_candidates()


_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")


def _keep_break(reply: str, span: Span, limit: int) -> Span:
    """``span`` with the line break right after it (up to ``limit``): the healer tells a
    last line that is complete (its break came) from one the reply was cut inside."""
    end = span.end
    if end < limit and reply[end] == "\r":
        end += 1
    if end < limit and reply[end] == "\n":
        end += 1
    return Span(span.start, end)


def _cut_stretch(reply: str, scan: str, start: int) -> Span:
    """No END:VCARD follows the BEGIN: the card runs to the first blank line (prose after
    a card whose END was forgotten) or to the end of the reply (it was cut off), with the
    line break of its last line kept."""
    blank = _BLANK_LINE.search(scan, start)
    limit = blank.start() + 1 if blank is not None else len(reply)
    span = strip_span(reply, Span(start, limit))
    return _keep_break(reply, span, limit)
