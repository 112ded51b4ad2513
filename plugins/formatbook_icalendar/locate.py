"""Where an iCalendar payload sits in a reply: fenced blocks tagged ``ics``,
``icalendar``, ``ical`` (or ``vcalendar``) first; else calendars one after another with
only white space between them, as one stream, then each ``BEGIN:VCALENDAR`` line
through its ``END:VCALENDAR`` (or the end of the reply when it was cut off); else a bare
``BEGIN:VEVENT`` (``VTODO``, ``VJOURNAL``...) through its ``END``; a ``BEGIN`` line may be
indented by blanks (still that line). Prose around the
payload is left to the core, which sets it aside; else the reply without its think
blocks. ``<think>`` blocks are never searched: a reply of think blocks only has no payload
(an empty span: ``icalendar.empty``), never the think block's text.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate

from formatbook_core import Span
from formatbook_core.reply import Reply
from formatbook_core.spans import blank_out, strip_span

from .rules import WRAPPABLE

FENCE_TAGS = frozenset({"ics", "icalendar", "ical", "vcalendar", "text/calendar"})


def _line_starts(text: str, upper: str, word: str) -> list[int]:
    """Offsets where a line of ``text`` starts with ``word`` (case-insensitive: ``upper``
    is ``text`` upper-cased once by the caller), after any blanks (spaces, tabs, no-break
    spaces: a line indented at the start of a payload is still that line; see
    :func:`_calendars` for folds)."""
    found: list[int] = []
    pos = 0
    while True:
        i = upper.find(word, pos)
        if i < 0:
            return found
        j = i
        while j > pos and text[j - 1] not in "\r\n" and text[j - 1].isspace():
            j -= 1  # the blanks walked over lie after the previous match: linear
        if j == 0 or text[j - 1] in "\r\n":
            found.append(i)
        pos = i + 1


def _calendars(text: str, upper: str, starts: list[int]) -> list[Span]:
    """The calendars of ``text`` that are payloads of their own, in one pass over its
    lines: each ``BEGIN:VCALENDAR`` line of ``starts`` through its matching ``END:VCALENDAR``, or to the end of ``text``. An indented one inside
    a calendar opened before it opens nothing: a line starting with a blank continues
    (folds) the line before it (RFC 5545 3.1). A calendar inside a closed one is part of
    it, and so is one left open inside an open one; a closed calendar inside an open one is
    a payload of its own (the reply was cut off and started over). Listing every nested
    calendar, each read on to the end of the reply, was quadratic."""
    if not starts:
        return []
    begin, end = "BEGIN:VCALENDAR", "END:VCALENDAR"
    ends: dict[int, int] = {}
    opened: set[int] = set()
    open_: list[int] = []
    pos, n = starts[0], len(text)
    while pos < n:
        nl = text.find("\n", pos)
        line_end = n if nl < 0 else nl
        line = upper[pos:line_end].rstrip("\r \t")
        if line == begin or (not open_ and line.lstrip() == begin):
            at = line_end - len(upper[pos:line_end].lstrip())
            open_.append(at)
            opened.add(at)
        elif line == end and open_:
            ends[open_.pop()] = line_end
        pos = line_end + 1
    found: list[Span] = []
    reach = -1  # the end of the last closed calendar kept
    left_open = False
    for start in starts:
        if start in ends and start >= reach:
            reach = ends[start]
            found.append(Span(start, reach))
        elif start in opened and start not in ends and not left_open:
            left_open = True
            found.append(Span(start, n))
    return found


def _block(text: str, upper: str, start: int, name: str) -> Span:
    """From the ``BEGIN:name`` line at ``start`` through its matching ``END:name`` line
    (nesting of the same name counted), or to the end of ``text``; ``upper`` is ``text``
    upper-cased once by the caller (once per block was quadratic)."""
    begin, end = f"BEGIN:{name}", f"END:{name}"
    depth = 0
    pos = start
    n = len(text)
    while pos < n:
        nl = text.find("\n", pos)
        line_end = n if nl < 0 else nl
        line = upper[pos:line_end].rstrip("\r \t")
        if line == begin:
            depth += 1
        elif line == end:
            depth -= 1
            if depth == 0:
                return Span(start, line_end)
        pos = line_end + 1
    return Span(start, n)


def _is_begin(upper: str, start: int, begin: str) -> bool:
    """Whether the line of ``upper`` at ``start`` is ``begin`` (trailing blanks aside):
    ``BEGIN:VCALENDARX`` opens no calendar."""
    nl = upper.find("\n", start)
    return upper[start : len(upper) if nl < 0 else nl].rstrip("\r \t") == begin


class _Covered:
    """Whether an offset lies inside any of some spans: a bisect over their starts with the
    running furthest end (a scan of every span for every offset was quadratic)."""

    def __init__(self, spans: list[Span]) -> None:
        ordered = sorted(spans)
        self._starts = [s.start for s in ordered]
        self._reach = list(accumulate((s.end for s in ordered), max))

    def __contains__(self, offset: int) -> bool:
        i = bisect_right(self._starts, offset)
        return i > 0 and self._reach[i - 1] > offset


def _streams(text: str, calendars: list[Span]) -> list[Span]:
    """Each run of two or more calendars with only white space between them, as one span:
    an ``icalstream`` (RFC 5545 3.4) is one payload, as ``is_valid`` reads it (and as heal
    writes it: a second heal must not take its first calendar alone)."""
    runs: list[Span] = []
    run: Span | None = None
    count = 0
    for span in calendars:
        if run is not None and span.start >= run.end and not text[run.end : span.start].strip():
            run, count = Span(run.start, span.end), count + 1
            continue
        if run is not None and count > 1:
            runs.append(run)
        run, count = span, 1
    if run is not None and count > 1:
        runs.append(run)
    return runs


def locate(reply: str) -> list[Span]:
    """Candidate payloads, best first (see the module doc)."""
    prepared = Reply.of(reply)
    visible = prepared.blanked()
    candidates: list[Span] = []
    blocks = prepared.fences()
    for f in blocks:
        if f.info in FENCE_TAGS:
            candidates.append(strip_span(reply, f.body))
    for f in blocks:
        body = strip_span(reply, f.body)
        if f.info == "" and visible[body.start : body.start + 6].upper() == "BEGIN:":
            candidates.append(body)
    # outside fences: calendars, then bare components
    fenced = [f.span for f in blocks]
    text = blank_out(visible, fenced)
    upper = text.upper()
    begins = [s for s in _line_starts(text, upper, "BEGIN:VCALENDAR") if _is_begin(upper, s, "BEGIN:VCALENDAR")]
    covered = _Covered(candidates)
    calendars = [strip_span(reply, block) for block in _calendars(text, upper, [s for s in begins if s not in covered])]
    candidates += _streams(text, calendars)
    candidates += calendars
    if not begins:
        # bare components, one after another: one payload from the first to the last
        covered = _Covered(candidates)
        starts = sorted((s, name) for name in WRAPPABLE for s in _line_starts(text, upper, f"BEGIN:{name}"))
        first = last = -1
        for start, name in starts:
            if start < last or start in covered:
                continue
            if first < 0:
                first = start
            last = _block(text, upper, start, name).end
        if first >= 0:
            candidates.append(strip_span(reply, Span(first, last)))
    out = list(dict.fromkeys(span for span in candidates if span.end > span.start))
    return out or prepared.prose_candidates()
