"""Prompt instructions asking for an iCalendar reply."""

from __future__ import annotations

from typing import Any


def guidance(schema: Any = None) -> str:
    """Short instructions: the object, its required properties, the date form."""
    lines = [
        "Reply with an iCalendar object (RFC 5545) only, in a ```ics fenced block:",
        "BEGIN:VCALENDAR, VERSION:2.0, PRODID:-//you//EN, then the components, then END:VCALENDAR.",
        "Each VEVENT (or VTODO, VJOURNAL) needs UID, DTSTAMP and DTSTART; give DTEND or DURATION, not both.",
        "Write dates as YYYYMMDD (with VALUE=DATE) and date-times as YYYYMMDDTHHMMSSZ (UTC) "
        "or YYYYMMDDTHHMMSS with TZID=<IANA zone>; durations as PT1H30M.",
        "In text values write \\; for ;, \\, for a comma, \\\\ for a backslash and \\n for a line break. "
        "End lines with CRLF.",
    ]
    rules = getattr(schema, "rules", ())
    for rule in rules:
        need = []
        if rule.min is not None:
            need.append(f"at least {rule.min}")
        if rule.max is not None:
            need.append(f"at most {rule.max}")
        what = f"{' and '.join(need)} {rule.component}" if need else rule.component
        props = f", each with {', '.join(rule.required)}" if rule.required else ""
        lines.append(f"Include {what}{props}.")
    return "\n".join(lines)
