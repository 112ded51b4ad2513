"""Step ``dates``: ISO 8601 dates and times (``2025-05-01T10:00``,
``2025-05-01 10:00:00+02:00``) written in RFC 5545 form (``20250501T100000``).

The instant never changes: a time with an offset becomes UTC (``…Z``), or local time
in the line's ``TZID`` zone when that zone is known; a date alone in a date-time
property gets ``VALUE=DATE``. Seconds are added when missing; a fraction of a second
is dropped only when it is zero."""

from __future__ import annotations

import datetime
import re

from .. import rules
from ..contentlines import ContentLine
from .state import Healing

_ISO = re.compile(
    r"(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,](0+))?)?[ ]?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?"
)
_UTC_ASSUMED = frozenset({"DTSTAMP", "CREATED", "LAST-MODIFIED", "COMPLETED"})


def _zone(name: str | None):
    if name is None or name not in rules.known_zones():
        return None
    import zoneinfo  # noqa: PLC0415 - only when a time with an offset meets a TZID

    try:
        return zoneinfo.ZoneInfo(name)
    except Exception:
        return None


def convert(value: str, tzid: str | None) -> tuple[str, bool, bool] | None:
    """``(rfc value, is a date, drop the TZID)`` for an ISO date or date-time, or
    ``None`` when ``value`` is no such thing (or is already in RFC form)."""
    m = _ISO.fullmatch(value.strip())
    if m is None:
        return None
    y, mo, d, hh, mm, ss, _, off = m.groups()
    try:
        datetime.date(int(y), int(mo), int(d))
    except ValueError:
        return None
    if hh is None:
        out = f"{y}{mo}{d}"
        return (out, True, False) if out != value else None
    ss = ss or "00"
    if off is None:
        out = f"{y}{mo}{d}T{hh}{mm}{ss}"
    elif off in "Zz":
        out = f"{y}{mo}{d}T{hh}{mm}{ss}Z"
    else:
        sign = 1 if off[0] == "+" else -1
        digits = off[1:].replace(":", "")
        try:
            local = datetime.datetime(int(y), int(mo), int(d), int(hh), int(mm), int(ss))
            delta = datetime.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
        except ValueError:
            return None
        instant = (local - sign * delta).replace(tzinfo=datetime.timezone.utc)
        zone = _zone(tzid)
        if zone is not None:
            return instant.astimezone(zone).strftime("%Y%m%dT%H%M%S"), False, False
        return instant.strftime("%Y%m%dT%H%M%SZ"), False, True
    if out == value:
        return None
    return out, False, False


def rewrite_dates(h: Healing) -> None:
    for line in h.lines:
        parts = line.parts
        if parts is None:
            continue
        if parts.name in ("RRULE", "EXRULE"):
            _rrule(h, line)
            continue
        spec = rules.VALUE_TYPES.get(parts.name)
        if spec is None or not ({"DATE", "DATE-TIME"} & spec[1]):
            continue
        kind, _ = rules.value_type(parts)
        if kind not in ("DATE", "DATE-TIME"):
            continue
        items = parts.value.split(",") if parts.name in rules.LISTS else [parts.value]
        tzid = parts.param("TZID")
        changed = False
        dates = 0
        drop_tz = False
        new_items = []
        for item in items:
            got = convert(item, tzid)
            if got is None:
                new_items.append(item)
                dates += len(item) == 8 and item.isdigit()
                continue
            value, is_date, drop = got
            new_items.append(value)
            dates += is_date
            drop_tz = drop_tz or drop
            changed = True
        if not changed and dates == len(items) and kind == "DATE-TIME" and "DATE" in spec[1]:
            line.set(ContentLine(parts.name, (*parts.params, ("VALUE", ("DATE",))), parts.value))
            h.repair("value_date", f"{parts.name} holds a date: VALUE=DATE added", line.start, line.end)
            continue
        if not changed:
            if parts.name in _UTC_ASSUMED and len(items) == 1 and re.fullmatch(r"\d{8}T\d{6}", parts.value):
                line.set(ContentLine(parts.name, parts.params, parts.value + "Z"))
                h.repair(
                    "utc_assumed",
                    f"{parts.name} has no zone: read as UTC (RFC 5545 wants UTC here)",
                    line.start,
                    line.end,
                )
            continue
        params = parts.params
        if drop_tz:
            params = tuple(p for p in params if p[0] != "TZID")
        if dates == len(new_items) and kind == "DATE-TIME" and "DATE" in spec[1]:
            params = (*tuple(p for p in params if p[0] != "VALUE"), ("VALUE", ("DATE",)))
        line.set(ContentLine(parts.name, params, ",".join(new_items)))
        h.repair("iso_date", f"{parts.name} {parts.value[:40]!r} written in RFC 5545 form", line.start, line.end)


def _rrule(h: Healing, line) -> None:
    parts = line.parts
    out = []
    changed = False
    for part in parts.value.split(";"):
        key, eq, arg = part.partition("=")
        if eq and key.upper() == "UNTIL":
            got = convert(arg, None)
            if got is not None:
                part = f"{key}={got[0]}"
                changed = True
        out.append(part)
    if changed:
        line.set(ContentLine(parts.name, parts.params, ";".join(out)))
        h.repair("iso_date", f"{parts.name} UNTIL written in RFC 5545 form", line.start, line.end)
