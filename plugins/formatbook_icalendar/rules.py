"""RFC 5545's rules, as data and small checks shared by the validator and the streaming
checker: which properties a component requires or allows once, which exclude each
other, where a component may sit, and whether a value has its property's type.

Typed values are read with the ``icalendar`` library's own value classes (``vDate``,
``vDatetime``, ``vDuration``, ``vPeriod``, ``vRecur``, ``vUTCOffset``); this module adds the
rules those classes leave out (UTC where RFC 5545 requires it, ranges of RRULE parts,
escaping of text).
"""

from __future__ import annotations

import functools
import re

from formatbook_core.contentlines import split_unescaped

from .contentlines import ContentLine

# --- components -----------------------------------------------------------------------
#: Properties a component must have (RFC 5545 3.6, 3.4). DTSTART of VEVENT is required
#: only when the calendar has no METHOD (see ``needs_dtstart``).
REQUIRED: dict[str, tuple[str, ...]] = {
    "VCALENDAR": ("PRODID", "VERSION"),
    "VEVENT": ("UID", "DTSTAMP"),
    "VTODO": ("UID", "DTSTAMP"),
    "VJOURNAL": ("UID", "DTSTAMP"),
    "VFREEBUSY": ("UID", "DTSTAMP"),
    "VTIMEZONE": ("TZID",),
    "STANDARD": ("DTSTART", "TZOFFSETTO", "TZOFFSETFROM"),
    "DAYLIGHT": ("DTSTART", "TZOFFSETTO", "TZOFFSETFROM"),
    "VALARM": ("ACTION", "TRIGGER"),
}

_EVENTISH = {
    "UID",
    "DTSTAMP",
    "DTSTART",
    "CLASS",
    "CREATED",
    "LAST-MODIFIED",
    "ORGANIZER",
    "RECURRENCE-ID",
    "SEQUENCE",
    "STATUS",
    "SUMMARY",
    "URL",
}
#: Properties that MUST NOT occur more than once in a component.
ONCE: dict[str, frozenset[str]] = {
    "VCALENDAR": frozenset({"PRODID", "VERSION", "CALSCALE", "METHOD"}),
    "VEVENT": frozenset(_EVENTISH | {"DESCRIPTION", "GEO", "LOCATION", "PRIORITY", "TRANSP", "DTEND", "DURATION"}),
    "VTODO": frozenset(
        _EVENTISH | {"COMPLETED", "DESCRIPTION", "GEO", "LOCATION", "PERCENT-COMPLETE", "PRIORITY", "DUE", "DURATION"}
    ),
    "VJOURNAL": frozenset(_EVENTISH),
    "VFREEBUSY": frozenset({"UID", "DTSTAMP", "DTSTART", "DTEND", "CONTACT", "ORGANIZER", "URL"}),
    "VTIMEZONE": frozenset({"TZID", "LAST-MODIFIED", "TZURL"}),
    "STANDARD": frozenset({"DTSTART", "TZOFFSETTO", "TZOFFSETFROM"}),
    "DAYLIGHT": frozenset({"DTSTART", "TZOFFSETTO", "TZOFFSETFROM"}),
    "VALARM": frozenset({"ACTION", "TRIGGER", "DURATION", "REPEAT", "DESCRIPTION", "SUMMARY"}),
}

#: Pairs of properties a component may not have both of.
EXCLUSIVE: dict[str, tuple[tuple[str, str], ...]] = {
    "VEVENT": (("DTEND", "DURATION"),),
    "VTODO": (("DUE", "DURATION"),),
}

#: Where the components RFC 5545 (and RFC 7953, 9074) define may sit; any other
#: component name (``X-…`` or one registered later) may sit anywhere below the root.
PARENTS: dict[str, frozenset[str]] = {
    "VEVENT": frozenset({"VCALENDAR"}),
    "VTODO": frozenset({"VCALENDAR"}),
    "VJOURNAL": frozenset({"VCALENDAR"}),
    "VFREEBUSY": frozenset({"VCALENDAR"}),
    "VTIMEZONE": frozenset({"VCALENDAR"}),
    "VAVAILABILITY": frozenset({"VCALENDAR"}),
    "STANDARD": frozenset({"VTIMEZONE"}),
    "DAYLIGHT": frozenset({"VTIMEZONE"}),
    "VALARM": frozenset({"VEVENT", "VTODO"}),
    "AVAILABLE": frozenset({"VAVAILABILITY"}),
}

#: Components a healer may find bare (no VCALENDAR around them) and wrap.
WRAPPABLE = frozenset({"VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"})


def placement_problem(name: str, parent: str | None) -> str | None:
    """Why ``BEGIN:name`` cannot open inside ``parent`` (``None``: at the top level)."""
    if parent is None:
        if name != "VCALENDAR":
            return f"{name} outside a VCALENDAR (a bare component is no iCalendar object)"
        return None
    if name == "VCALENDAR":
        return f"a VCALENDAR inside {parent}"
    allowed = PARENTS.get(name)
    if allowed is not None and parent not in allowed:
        return f"{name} inside {parent} (it belongs in {' or '.join(sorted(allowed))})"
    return None


# --- value types ------------------------------------------------------------------------
# property -> (default type, allowed VALUE= types)
_DT = ("DATE-TIME", frozenset({"DATE-TIME", "DATE"}))
VALUE_TYPES: dict[str, tuple[str, frozenset[str]]] = {
    "DTSTART": _DT,
    "DTEND": _DT,
    "DUE": _DT,
    "RECURRENCE-ID": _DT,
    "EXDATE": _DT,
    "RDATE": ("DATE-TIME", frozenset({"DATE-TIME", "DATE", "PERIOD"})),
    "DTSTAMP": ("DATE-TIME", frozenset({"DATE-TIME"})),
    "CREATED": ("DATE-TIME", frozenset({"DATE-TIME"})),
    "LAST-MODIFIED": ("DATE-TIME", frozenset({"DATE-TIME"})),
    "COMPLETED": ("DATE-TIME", frozenset({"DATE-TIME"})),
    "DURATION": ("DURATION", frozenset({"DURATION"})),
    "TRIGGER": ("DURATION", frozenset({"DURATION", "DATE-TIME"})),
    "RRULE": ("RECUR", frozenset({"RECUR"})),
    "EXRULE": ("RECUR", frozenset({"RECUR"})),
    "TZOFFSETFROM": ("UTC-OFFSET", frozenset({"UTC-OFFSET"})),
    "TZOFFSETTO": ("UTC-OFFSET", frozenset({"UTC-OFFSET"})),
    "PRIORITY": ("INTEGER", frozenset({"INTEGER"})),
    "SEQUENCE": ("INTEGER", frozenset({"INTEGER"})),
    "PERCENT-COMPLETE": ("INTEGER", frozenset({"INTEGER"})),
    "REPEAT": ("INTEGER", frozenset({"INTEGER"})),
    "FREEBUSY": ("PERIOD", frozenset({"PERIOD"})),
    "GEO": ("FLOAT", frozenset({"FLOAT"})),
}
#: Date-times RFC 5545 requires in UTC (ending in ``Z``).
UTC_ONLY = frozenset({"DTSTAMP", "CREATED", "LAST-MODIFIED", "COMPLETED"})
#: Properties holding several values separated by commas.
LISTS = frozenset({"EXDATE", "RDATE", "FREEBUSY"})
_RANGES = {"PRIORITY": (0, 9), "PERCENT-COMPLETE": (0, 100), "SEQUENCE": (0, None), "REPEAT": (0, None)}

#: Text properties whose value is one text (``,`` and ``;`` escaped in it).
TEXT = frozenset({"SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT", "TZNAME"})
#: Text properties whose value is a list of texts separated by commas.
TEXT_LISTS = frozenset({"CATEGORIES", "RESOURCES"})

_UTC_OFFSET = re.compile(r"[+-][0-9]{4}(?:[0-9]{2})?")
_INTEGER = re.compile(r"[+-]?[0-9]{1,12}")
_FLOAT = re.compile(r"[+-]?[0-9]{1,20}(?:\.[0-9]{1,20})?")
_DATE = re.compile(r"[0-9]{8}")
_DATE_TIME = re.compile(r"[0-9]{8}T[0-9]{6}Z?")


def value_type(line: ContentLine) -> tuple[str | None, str | None]:
    """``(type, problem)``: the type the line's value has (its ``VALUE=`` or the
    property's default) and why that type is not allowed for it, if it is not."""
    spec = VALUE_TYPES.get(line.name)
    given = line.param("VALUE")
    if spec is None:
        return (given.upper() if given else None), None
    default, allowed = spec
    if given is None:
        return default, None
    kind = given.upper()
    if kind not in allowed:
        return kind, f"{line.name} cannot have VALUE={given} (allowed: {', '.join(sorted(allowed))})"
    return kind, None


def check_value(line: ContentLine) -> str | None:
    """Why the value of ``line`` does not have its type, or ``None``. Never raises."""
    try:
        return _check_value(line)
    except Exception as err:  # a value class failing in a way it does not document
        return f"{line.name} value {line.value[:40]!r} cannot be read: {err}"


def _check_value(line: ContentLine) -> str | None:
    name = line.name
    if name in TEXT or name in TEXT_LISTS:
        return text_problem(line.value, name in TEXT_LISTS, name)
    kind, problem = value_type(line)
    if problem or kind is None or name not in VALUE_TYPES:
        return problem
    items = line.value.split(",") if name in LISTS else [line.value]
    for item in items:
        problem = _check_one(name, kind, item)
        if problem:
            return problem
        tzid = line.param("TZID")
        if kind == "DATE-TIME" and tzid is not None and item.endswith("Z"):
            # RFC 5545 §3.2.19: no TZID on a UTC time; icalendar reads it as local time
            # in the zone, dropping the Z: an hour or more from what the text says
            return f"{name} value {item!r} is UTC (Z) and names the time zone {tzid[:60]!r}: two different times"
    return None


def _check_one(name: str, kind: str, value: str) -> str | None:
    from icalendar.prop import vDate, vDatetime, vDuration, vPeriod, vUTCOffset

    bad = f"{name} value {value[:40]!r} is not a valid {kind}"
    if kind == "DATE":
        if not _DATE.fullmatch(value):
            return bad + " (YYYYMMDD)"
        return _reads(vDate, value, bad)
    if kind == "DATE-TIME":
        if not _DATE_TIME.fullmatch(value):
            return bad + " (YYYYMMDDTHHMMSS, Z for UTC)"
        if name in UTC_ONLY and not value.endswith("Z"):
            return f"{name} value {value!r} must be in UTC (YYYYMMDDTHHMMSSZ)"
        return _reads(vDatetime, value, bad)
    if kind == "DURATION":
        return _reads(vDuration, value, bad)
    if kind == "PERIOD":
        return _reads(vPeriod, value, bad)
    if kind == "UTC-OFFSET":
        # RFC 5545 3.3.14: +HHMM or +HHMMSS, never -0000; icalendar reads more
        # ('+0200000' as two hours), so the form is checked first
        if not _UTC_OFFSET.fullmatch(value) or value.lstrip("-").strip("0") == "":
            return bad + " (+HHMM or +HHMMSS; not -0000)"
        return _reads(vUTCOffset, value, bad)
    if kind == "RECUR":
        return recur_problem(value)
    if kind == "INTEGER":
        if not _INTEGER.fullmatch(value):
            return bad
        low, high = _RANGES.get(name, (None, None))
        number = int(value)
        if (low is not None and number < low) or (high is not None and number > high):
            return f"{name} value {number} is out of range"
        return None
    if kind == "FLOAT":  # GEO: latitude;longitude
        parts = value.split(";")
        if len(parts) != 2 or not all(_FLOAT.fullmatch(p) for p in parts):
            return f"GEO value {value[:40]!r} is not latitude;longitude"
        if abs(float(parts[0])) > 90 or abs(float(parts[1])) > 180:
            return f"GEO value {value!r} is out of range"
    return None


def _reads(cls, value: str, bad: str) -> str | None:
    try:
        cls.from_ical(value)
    except Exception:
        return bad
    return None


# --- RRULE -----------------------------------------------------------------------------
_FREQS = frozenset({"SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"})
_RECUR_INTS = {
    "BYSECOND": (0, 60, False),
    "BYMINUTE": (0, 59, False),
    "BYHOUR": (0, 23, False),
    "BYMONTHDAY": (1, 31, True),
    "BYYEARDAY": (1, 366, True),
    "BYWEEKNO": (1, 53, True),
    "BYMONTH": (1, 12, False),
    "BYSETPOS": (1, 366, True),
}
_RECUR_PARTS = frozenset({*_RECUR_INTS, "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYDAY", "WKST", "RSCALE", "SKIP"})
_WEEKDAYS = frozenset({"SU", "MO", "TU", "WE", "TH", "FR", "SA"})
_BYDAY = re.compile(r"([+-]?[0-9]{1,2})?([A-Z]{2})")


def recur_problem(value: str) -> str | None:
    """Why ``value`` is no RECUR value (RFC 5545 3.3.10), or ``None``."""
    from icalendar.prop import vRecur

    seen: set[str] = set()
    for part in value.split(";"):
        key, eq, arg = part.partition("=")
        key = key.upper()
        if not eq or not arg:
            return f"RRULE part {part[:30]!r} is not NAME=value"
        if key in seen:
            return f"RRULE part {key} given twice"
        seen.add(key)
        if key not in _RECUR_PARTS and not key.startswith("X-"):
            return f"RRULE has no part {key}"
        problem = _recur_part(key, arg.upper())
        if problem:
            return problem
    if "FREQ" not in seen:
        return "RRULE without FREQ"
    if "UNTIL" in seen and "COUNT" in seen:
        return "RRULE with both UNTIL and COUNT"
    try:
        vRecur.from_ical(value)
    except Exception as err:
        return f"RRULE {value[:40]!r} cannot be read: {err}"
    return None


def _recur_part(key: str, arg: str) -> str | None:
    if key == "FREQ" and arg not in _FREQS:
        return f"RRULE FREQ={arg[:20]} is no frequency"
    if key in ("COUNT", "INTERVAL") and not (arg.isdigit() and arg.isascii() and int(arg) >= 1):
        return f"RRULE {key}={arg[:20]} is not a whole number ≥ 1"
    if key == "WKST" and arg not in _WEEKDAYS:
        return f"RRULE WKST={arg[:20]} is no weekday"
    if key == "UNTIL" and not (_DATE.fullmatch(arg) or _DATE_TIME.fullmatch(arg)):
        return f"RRULE UNTIL={arg[:30]} is no date or date-time"
    if key == "BYDAY":
        for item in arg.split(","):
            m = _BYDAY.fullmatch(item)
            if not m or m.group(2) not in _WEEKDAYS or (m.group(1) and not 1 <= abs(int(m.group(1))) <= 53):
                return f"RRULE BYDAY item {item[:20]!r} is no weekday"
    spec = _RECUR_INTS.get(key)
    if spec is not None:
        low, high, signed = spec
        for item in arg.split(","):
            digits = item[1:] if signed and item[:1] in "+-" else item
            if not (digits.isdigit() and digits.isascii() and low <= int(digits) <= high):
                return f"RRULE {key} item {item[:20]!r} is out of range"
    return None


# --- time-zone rules ---------------------------------------------------------------------
#: A ``VTIMEZONE`` may yield at most this many transitions (RRULE and EXRULE instances up
#: to UNTIL, COUNT or 2038, the year icalendar stops at, and RDATE values, over all its
#: STANDARD and DAYLIGHT parts). Finding a date-time's offset walks them from the start
#: (dateutil's ``rrule.before``) on every ``utcoffset``: a real zone from 1601 (Outlook
#: writes that DTSTART) has about 900.
MAX_ZONE_TRANSITIONS = 2_000
#: The frequencies a zone changes its offset by; what changes more often than monthly is
#: no time zone (and ``FREQ=SECONDLY`` from 1970 made every ``utcoffset`` run for minutes).
ZONE_FREQS = frozenset({"YEARLY", "MONTHLY"})
_ZONE_LAST_YEAR = 2038  # icalendar's end for a rule without UNTIL or COUNT


def zone_rule_problem(value: str) -> str | None:
    """Why the RRULE or EXRULE ``value`` of a STANDARD or DAYLIGHT part cannot be a time
    zone's rule (a frequency other than yearly or monthly), or ``None``."""
    freq = _recur_parts(value).get("FREQ", "")
    if freq not in ZONE_FREQS:
        return f"a time-zone rule changes the offset yearly or monthly, not FREQ={freq[:20]}"
    return None


def zone_transitions(value: str, dtstart: str, asked_year: int = 0) -> int:
    """An upper bound of the instances of the zone rule ``value`` (one ``zone_rule_problem``
    accepts) from the DTSTART value ``dtstart`` up to its UNTIL, else up to 2038 or
    ``asked_year`` (the latest year a date-time asks the zone about), whichever is later:
    what dateutil may walk for one offset."""
    parts = _recur_parts(value)
    count = parts.get("COUNT", "")
    if count.isdigit():
        return int(count)
    first = int(dtstart[:4]) if dtstart[:4].isdigit() else 1
    until = parts.get("UNTIL", "")
    last = int(until[:4]) if until[:4].isdigit() else max(_ZONE_LAST_YEAR, asked_year)
    months = max(0, last - first + 1) * 12
    interval = parts.get("INTERVAL", "1")
    step = (int(interval) if interval.isdigit() and int(interval) > 0 else 1) * (12 if parts["FREQ"] == "YEARLY" else 1)
    periods = -(-months // step)
    return periods * _per_period(parts)


def _per_period(parts: dict[str, str]) -> int:
    """An upper bound of a yearly or monthly rule's instances in one period: its days
    times the times of each day (``BYHOUR`` by ``BYMINUTE`` by ``BYSECOND``), at most
    ``BYSETPOS``'s size."""
    sizes = {key: len(arg.split(",")) for key, arg in parts.items()}
    times = sizes.get("BYHOUR", 1) * sizes.get("BYMINUTE", 1) * sizes.get("BYSECOND", 1)
    month_days = [sizes["BYMONTHDAY"]] if "BYMONTHDAY" in parts else []
    if "BYDAY" in parts:  # 1MO is one day of a month, MO up to five
        month_days.append(sum(1 if item[:1] in "+-0123456789" else 5 for item in parts["BYDAY"].split(",")))
    days = min(month_days) if month_days else 1
    if parts["FREQ"] == "YEARLY":
        in_year = [sizes.get("BYMONTH", 12 if month_days else 1) * days]
        if "BYYEARDAY" in parts:
            in_year.append(sizes["BYYEARDAY"])
        if "BYWEEKNO" in parts:
            in_year.append(7 * sizes["BYWEEKNO"])
        days = min(in_year) if month_days or len(in_year) == 1 else min(in_year[1:])
    return min(days * times, sizes.get("BYSETPOS", days * times))


def _recur_parts(value: str) -> dict[str, str]:
    out = {}
    for part in value.split(";"):
        key, _, arg = part.partition("=")
        out[key.strip().upper()] = arg.strip().upper()
    return out


# --- text ------------------------------------------------------------------------------
_ESCAPABLE = frozenset("\\;,nN")


def text_problem(value: str, is_list: bool, name: str = "text") -> str | None:
    """Why ``value`` is not escaped as RFC 5545 3.3.11 wants (``\\;``, ``\\,``, ``\\\\``,
    ``\\n``), or ``None``. In a list, unescaped commas separate the items."""
    i = value.find("\\")
    semi = value.find(";")
    comma = -1 if is_list else value.find(",")
    # fast path: nothing that needs a look
    if i < 0:
        if semi >= 0:
            return f"{name} has an unescaped ';' (write \\;)"
        if comma >= 0:
            return f"{name} has an unescaped ',' (write \\,)"
        return None
    n = len(value)
    k = 0
    while k < n:
        ch = value[k]
        if ch == "\\":
            if k + 1 >= n or value[k + 1] not in _ESCAPABLE:
                return f"{name} has a backslash that escapes nothing (write \\\\ for a backslash)"
            k += 2
            continue
        if ch == ";":
            return f"{name} has an unescaped ';' (write \\;)"
        if ch == "," and not is_list:
            return f"{name} has an unescaped ',' (write \\,)"
        k += 1
    return None


def split_text_list(value: str) -> list[str]:
    """The items of a text list (commas not escaped separate them), still escaped."""
    return split_unescaped(value, ",")


# --- time zones --------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def known_zones() -> frozenset[str]:
    """The IANA zone names the tz database (``tzdata``) knows, read once."""
    import zoneinfo  # noqa: PLC0415 - reading the zone list costs a few ms: only when a TZID is checked

    try:
        return frozenset(zoneinfo.available_timezones())
    except Exception:  # no tz database at all: no zone is known
        return frozenset()
