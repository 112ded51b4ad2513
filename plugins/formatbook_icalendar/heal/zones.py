"""Step ``zones``: a Windows time-zone name in ``TZID`` (``Eastern Standard Time``)
replaced by its IANA name (``America/New_York``) — only where the calendar defines no
``VTIMEZONE`` of that name. The table is CLDR's ``windowsZones`` (territory 001) for the
zones models write most."""

from __future__ import annotations

from .. import rules
from ..contentlines import ContentLine
from .state import Healing

WINDOWS_ZONES: dict[str, str] = {
    "Dateline Standard Time": "Etc/GMT+12",
    "Hawaiian Standard Time": "Pacific/Honolulu",
    "Alaskan Standard Time": "America/Anchorage",
    "Pacific Standard Time": "America/Los_Angeles",
    "US Mountain Standard Time": "America/Phoenix",
    "Mountain Standard Time": "America/Denver",
    "Central America Standard Time": "America/Guatemala",
    "Central Standard Time": "America/Chicago",
    "Central Standard Time (Mexico)": "America/Mexico_City",
    "Canada Central Standard Time": "America/Regina",
    "SA Pacific Standard Time": "America/Bogota",
    "Eastern Standard Time": "America/New_York",
    "US Eastern Standard Time": "America/Indianapolis",
    "Atlantic Standard Time": "America/Halifax",
    "Newfoundland Standard Time": "America/St_Johns",
    "E. South America Standard Time": "America/Sao_Paulo",
    "Argentina Standard Time": "America/Buenos_Aires",
    "UTC": "Etc/UTC",
    "GMT Standard Time": "Europe/London",
    "Greenwich Standard Time": "Atlantic/Reykjavik",
    "W. Europe Standard Time": "Europe/Berlin",
    "Central Europe Standard Time": "Europe/Budapest",
    "Romance Standard Time": "Europe/Paris",
    "Central European Standard Time": "Europe/Warsaw",
    "W. Central Africa Standard Time": "Africa/Lagos",
    "GTB Standard Time": "Europe/Bucharest",
    "E. Europe Standard Time": "Europe/Chisinau",
    "FLE Standard Time": "Europe/Kiev",
    "Israel Standard Time": "Asia/Jerusalem",
    "Egypt Standard Time": "Africa/Cairo",
    "South Africa Standard Time": "Africa/Johannesburg",
    "Turkey Standard Time": "Europe/Istanbul",
    "Russian Standard Time": "Europe/Moscow",
    "Arab Standard Time": "Asia/Riyadh",
    "Arabian Standard Time": "Asia/Dubai",
    "Iran Standard Time": "Asia/Tehran",
    "Pakistan Standard Time": "Asia/Karachi",
    "India Standard Time": "Asia/Calcutta",
    "Nepal Standard Time": "Asia/Katmandu",
    "Bangladesh Standard Time": "Asia/Dhaka",
    "SE Asia Standard Time": "Asia/Bangkok",
    "China Standard Time": "Asia/Shanghai",
    "Singapore Standard Time": "Asia/Singapore",
    "Taipei Standard Time": "Asia/Taipei",
    "Tokyo Standard Time": "Asia/Tokyo",
    "Korea Standard Time": "Asia/Seoul",
    "W. Australia Standard Time": "Australia/Perth",
    "Cen. Australia Standard Time": "Australia/Adelaide",
    "AUS Eastern Standard Time": "Australia/Sydney",
    "E. Australia Standard Time": "Australia/Brisbane",
    "New Zealand Standard Time": "Pacific/Auckland",
}


def _defined(h: Healing) -> set[str]:
    out = set()
    stack: list[str] = []
    for line in h.lines:
        p = line.parts
        if p is None:
            continue
        if p.name == "BEGIN":
            stack.append(p.value.upper())
        elif p.name == "END":
            if stack:
                stack.pop()
        elif p.name == "TZID" and stack and stack[-1] == "VTIMEZONE":
            out.add(p.value)
    return out


def windows_to_iana(h: Healing) -> None:
    defined = None
    for line in h.lines:
        parts = line.parts
        if parts is None:
            continue
        tzid = parts.param("TZID")
        if tzid is None or tzid in rules.known_zones():
            continue
        if defined is None:
            defined = _defined(h)
        if tzid in defined:
            continue
        iana = WINDOWS_ZONES.get(tzid.strip())
        if iana is None:
            continue
        params = tuple((k, (iana,)) if k == "TZID" else (k, v) for k, v in parts.params)
        line.set(ContentLine(parts.name, params, parts.value))
        h.repair("windows_zone", f"the Windows zone {tzid!r} written as the IANA zone {iana!r}", line.start, line.end)
