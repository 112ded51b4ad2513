"""Step ``lines``: line breaks to CRLF, logical lines read back (folds, indentation,
lines broken where they should not be), prose between components set aside."""

from __future__ import annotations

from formatbook_core import HealError, SetAside, Span, Violation
from formatbook_core.contentlines import is_fence_line, raw_backslashes
from formatbook_core.reply import set_aside_between

from .. import rules
from ..contentlines import LineError, physical_lines, split
from .state import Healing, Line

#: Property names RFC 5545 (and RFC 7986) define: a line starting with one of these
#: (after any indentation) is a property, not the continuation of a broken value.
KNOWN = frozenset(
    """BEGIN END CALSCALE METHOD PRODID VERSION ATTACH CATEGORIES CLASS COMMENT DESCRIPTION GEO LOCATION
    PERCENT-COMPLETE PRIORITY RESOURCES STATUS SUMMARY COMPLETED DTEND DUE DTSTART DURATION FREEBUSY TRANSP
    TZID TZNAME TZOFFSETFROM TZOFFSETTO TZURL ATTENDEE CONTACT ORGANIZER RECURRENCE-ID RELATED-TO URL UID
    EXDATE EXRULE RDATE RRULE ACTION REPEAT TRIGGER CREATED DTSTAMP LAST-MODIFIED SEQUENCE REQUEST-STATUS
    NAME REFRESH-INTERVAL SOURCE COLOR IMAGE CONFERENCE""".split()
)


def _looks_like_property(text: str) -> bool:
    """``text`` (indentation removed) is a content line whose name RFC 5545 knows or an
    ``X-`` name, written in upper case as calendars write it."""
    parsed = split(text)
    if isinstance(parsed, LineError):
        return False
    written = text[: len(parsed.name)]
    return written.isupper() and (parsed.name in KNOWN or parsed.name.startswith("X-"))


def read_lines(h: Healing) -> None:
    text = h.text
    physical = list(physical_lines(text))
    bad = [(s, e, b) for s, e, b in physical if b not in ("\r\n", "")]
    if bad:
        h.repair("line_endings", f"{len(bad)} line break(s) written as CRLF", bad[0][1], bad[0][1] + len(bad[0][2]))
    # [pieces, start, end, raw pieces (None once changed)]: joined once, not per fold
    rows: list[list] = []
    physical = set_aside_between(h, physical, "prose_removed")
    for s, e, _ in physical:
        body = text[s:e]
        stripped = body.lstrip(" \t")
        if not stripped.strip():
            h.repair("blank_line", "an empty line removed", s, e)
            continue
        if stripped is not body and rows:
            proper = _looks_like_property(stripped)
            name = stripped.split(":", 1)[0].split(";", 1)[0].upper()
            if proper and (len(body) - len(stripped) != 1 or name in ("BEGIN", "END")):
                h.repair("indentation", "indentation before a property removed", s, s + len(body) - len(stripped))
                rows.append([[stripped], s, e, None])
                continue
            prev = rows[-1]
            prev[0].append(body[1:])
            prev[2] = e
            if prev[3] is not None:
                prev[3].append(body)
            continue
        if stripped is not body:
            h.repair("indentation", "indentation before the first line removed", s, s + len(body) - len(stripped))
        rows.append([[stripped], s, e, [stripped]])
    lines = [Line("".join(p), s, e, raw=None if r is None else "\r\n".join(r)) for p, s, e, r in rows]
    if lines and _cut_off(lines[-1].text):
        last = lines.pop()
        h.repair(
            "truncated_line",
            f"the last line {last.text[:30]!r} was cut off before its value: removed",
            last.start,
            last.end,
        )
        h.set_aside.append(SetAside("truncated", last.text, Span(last.start, last.end)))
    # parse; join lines broken inside a value; set prose aside
    out: list[Line] = []
    joins: list[str] = []  # what the last line of out gets joined to it
    for line in lines:
        if is_fence_line(line.text):
            # Markdown around the calendar, not a line of a value: set aside, never joined to one
            h.repair("prose_removed", "a Markdown fence line set aside", line.start, line.end)
            h.set_aside.append(SetAside("prose", line.text, Span(line.start, line.end)))
            continue
        parsed = split(line.text)
        if not isinstance(parsed, LineError) and not _continues(out, line.text, parsed.name):
            _join(out, joins)
            line.parts = parsed
            out.append(line)
            continue
        before = out[-1] if out else None
        if before is not None and before.parts is not None and before.parts.name not in ("BEGIN", "END"):
            joins.append(line.text)
            h.repair(
                "unfolded", f"a line broken inside the {before.parts.name} value joined to it", line.start, line.end
            )
            before.end = line.end
            continue
        h.repair("prose_removed", "text that is no content line set aside", line.start, line.end)
        h.set_aside.append(SetAside("prose", line.text, Span(line.start, line.end)))
    _join(out, joins)
    h.lines = out


def _continues(out: list[Line], text: str, name: str) -> bool:
    """A line that parses as a property but is the rest of a text value broken by a raw
    line break: the line before is a text property and this one's name is no property
    name a calendar writes (``Note: bring snacks``)."""
    if not out or out[-1].parts is None or out[-1].parts.name not in rules.TEXT:
        return False
    written = text[: len(name)]
    return not (written.isupper() and (name in KNOWN or name.startswith("X-")))


def _join(out: list[Line], joins: list[str]) -> None:
    """Join the collected broken-off pieces to the last line (once, whatever their number)."""
    if not joins:
        return
    prev = out[-1]
    assert prev.parts is not None
    value = prev.parts.value
    head = prev.text[: len(prev.text) - len(value)]
    pieces = [value, *joins]
    joins.clear()
    if prev.parts.name in rules.TEXT or prev.parts.name in rules.TEXT_LISTS:
        if any(raw_backslashes(p) for p in pieces):
            # a raw Windows path: its backslashes escape nothing, the escaped breaks do
            pieces = [p.replace("\\", "\\\\") for p in pieces]
    # the break, escaped, in a text value (the escape step keeps a valid escape)
    joined = split(head + ("\\n" if prev.parts.name in rules.TEXT else "").join(pieces))
    if isinstance(joined, LineError):  # a control character: cannot be a value
        raise HealError(
            "a line cannot be joined to the one before it",
            [Violation("icalendar.syntax", joined.message, span=Span(prev.start, prev.end))],
        )
    prev.set(joined)


def _cut_off(text: str) -> bool:
    """The reply ended inside a property's name or parameters (``DTST``, ``DTSTART;TZID=Eu``):
    no ``:`` yet, and the beginning (two letters or more, upper case) of a property name
    RFC 5545 knows or of an ``X-`` name — else it is read as a broken-off piece of a value."""
    if ":" in text:
        return False
    name = text.split(";", 1)[0]
    if not (len(name) >= 2 and name.isupper()):
        return False
    return name.startswith("X-") or any(known.startswith(name) for known in KNOWN)
