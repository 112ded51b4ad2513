"""Where the JSON sits in a reply: fenced blocks, then bracketed candidates in prose.

Order (best first): fenced blocks tagged ``json`` (any case, also ``jsonc``/``json5``),
then bare fences whose body holds JSON, then every top-level ``{…}`` / ``[…]`` found in
the reply outside think blocks and outside those fences, in order of appearance, then
(when nothing else is found) the reply itself without its think blocks. A candidate
the reply ends inside of (a truncated payload) runs to the end of the reply and keeps its
trailing spaces (a cut string keeps them). Spans index the reply as received.
"""

from __future__ import annotations

import re

from formatbook_core import Span
from formatbook_core.locating import fences, outside_spans, strip_span, think_spans

_TAGS = {"json", "jsonc", "json5", "jsonl"}
# strings (double or single quoted; an unclosed one runs on) and brackets
_SCAN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|\'[^\'\\\n]*(?:\\.[^\'\\\n]*)*\'?|[{}\[\]]', re.DOTALL)
_OPEN = re.compile(r"[{\[]")
_MAX_CANDIDATES = 16
_MAX_UNCLOSED = 3


def locate(reply: str) -> list[Span]:
    """Candidate payload spans of ``reply``, best first (see the module doc)."""
    whole = strip_span(reply, Span(0, len(reply)))
    if whole.end > whole.start and reply[whole.start] in "{[" and reply[whole.end - 1] in "}]":
        # the usual reply: nothing but the JSON (checked without scanning it)
        return [whole]
    thinks = think_spans(reply)
    blocks = [f for f in fences(reply) if not _inside(f.span, thinks)]
    candidates: list[Span] = []
    for wanted_tag in (True, False):
        for f in blocks:
            if (f.info in _TAGS) != wanted_tag or (not wanted_tag and f.info != ""):
                continue
            body = strip_span(reply, f.body)
            if not f.closed:
                body = Span(body.start, f.body.end)
            if body.end <= body.start:
                continue
            if wanted_tag or reply[body.start] in "{[":
                _add(candidates, body)
            else:
                for span in _bracketed(reply, body.start, body.end):
                    _add(candidates, span)
    removed = sorted(thinks + [f.span for f in blocks], key=lambda s: s.start)
    merged: list[Span] = []
    for span in removed:
        if merged and span.start <= merged[-1].end:
            merged[-1] = Span(merged[-1].start, max(merged[-1].end, span.end))
        else:
            merged.append(span)
    for region in outside_spans(len(reply), merged):
        for span in _bracketed(reply, region.start, region.end):
            _add(candidates, span)
            if len(candidates) >= _MAX_CANDIDATES:
                return candidates
    if not candidates:
        rest = [strip_span(reply, s) for s in outside_spans(len(reply), thinks)]
        rest = [s for s in rest if s.end > s.start]
        candidates = rest[:1] or [Span(0, len(reply))]
    return candidates


def _inside(span: Span, regions: list[Span]) -> bool:
    return any(r.start <= span.start and span.end <= r.end for r in regions)


def _add(candidates: list[Span], span: Span) -> None:
    if span not in candidates and len(candidates) < _MAX_CANDIDATES:
        candidates.append(span)


def _bracketed(text: str, start: int, end: int) -> list[Span]:
    """Top-level balanced ``{…}``/``[…]`` spans within ``text[start:end]``; one the region
    ends inside of runs to the region's end (and the scan resumes just after its opening,
    so that a stray bracket in prose cannot hide the JSON after it)."""
    found: list[Span] = []
    unclosed = 0
    pos = start
    while pos < end and len(found) < _MAX_CANDIDATES:
        m = _OPEN.search(text, pos, end)
        if m is None:
            break
        first = m.start()
        closing = _match(text, first, end)
        if closing is None:
            found.append(Span(first, end))
            unclosed += 1
            if unclosed >= _MAX_UNCLOSED:
                break
            pos = first + 1
        else:
            found.append(Span(first, closing))
            pos = closing
    return found


def _match(text: str, first: int, end: int) -> int | None:
    """The end of the bracketed value opening at ``first`` (``None`` when unclosed)."""
    depth = 0
    for m in _SCAN.finditer(text, first, end):
        ch = m.group(0)[0]
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return m.end()
    return None
