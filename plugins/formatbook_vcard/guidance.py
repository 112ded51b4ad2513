"""Prompt instructions asking for a vCard: which properties to write and in which form."""

from __future__ import annotations

GUIDANCE = """Reply with a vCard only (RFC 6350), one card per contact:
BEGIN:VCARD
VERSION:4.0
FN:Ada Lovelace
N:Lovelace;Ada;;;
EMAIL:ada@example.org
TEL:+44 20 7946 0000
BDAY:18151210
ORG:Analytical Engines\\, Ltd.
NOTE:One line; write a line break inside a value as \\n
END:VCARD
- VERSION right after BEGIN (4.0, or 3.0 where N is required); FN always.
- Dates as YYYYMMDD (a time as YYYYMMDDTHHMMSSZ); escape , as \\, in text values.
- Lines end with CRLF; fold a line longer than 75 octets with CRLF and one space."""


def guidance() -> str:
    """The instructions (short: they cost prompt tokens)."""
    return GUIDANCE
