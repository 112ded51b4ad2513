"""Is a typed value plausible? EMAIL an address, TEL a phone number, BDAY a date, and
text values escaped as RFC 6350 §3.4 (and RFC 2426 §4 for 3.0) say.

Each check returns ``None`` when the value is fine, else a short reason. All of them are
plain string scanning, linear in the value.
"""

from __future__ import annotations

import datetime
import re

from .contentlines import unescape_text

#: Text properties holding one text value (a comma must be escaped; in 3.0 a semicolon too).
SINGLE_TEXT = frozenset({"FN", "NOTE", "TITLE", "ROLE", "LABEL", "PRODID", "SORT-STRING", "MAILER"})
#: Compound text properties whose fields are separated by ";" (a comma in them must be escaped).
COMPOUND_ESCAPED = frozenset({"ORG"})
#: Properties whose value may hold backslash escapes (their escapes must be known ones).
ESCAPED = SINGLE_TEXT | COMPOUND_ESCAPED | frozenset({"N", "ADR", "NICKNAME", "CATEGORIES"})
DATE_PROPERTIES = frozenset({"BDAY", "ANNIVERSARY", "DEATHDATE"})

_KNOWN_ESCAPES = frozenset("\\,;nN")
# a backslash, or a separator that must be escaped (by the separators that must be)
_SPECIAL = {"": re.compile(r"\\"), ",": re.compile(r"[\\,]"), ",;": re.compile(r"[\\,;]")}
_EMAIL_LOCAL_BAD = frozenset(' \t"(),:;<>@[\\]')
_PHONE_CHARS = frozenset("0123456789+-.() /*#")
_DIGITS = frozenset("0123456789")


def escaping_problem(name: str, value: str, version: str) -> str | None:
    """Why the text value of property ``name`` is wrongly escaped, or ``None``."""
    if name not in ESCAPED:
        return None
    must = ""
    if name in SINGLE_TEXT:
        must = ",;" if version == "3.0" else ","
    elif name in COMPOUND_ESCAPED:
        must = ","
    find = _SPECIAL[must].search  # from one backslash or separator to the next
    n = len(value)
    m = find(value)
    while m is not None:
        i = m.start()
        ch = value[i]
        if ch != "\\":
            return f"an unescaped {ch!r} (write \\{ch} in a {name} value)"
        if i + 1 >= n:
            return "a lone backslash ends the value (write \\\\ for a backslash)"
        if value[i + 1] not in _KNOWN_ESCAPES:
            return f"unknown escape \\{value[i + 1]} (only \\\\ \\, \\; \\n are escapes; write \\\\ for a backslash)"
        m = find(value, i + 2)
    return None


def email_problem(value: str) -> str | None:
    """Why ``value`` is not an e-mail address, or ``None``."""
    v = unescape_text(value)
    if v.count("@") != 1:
        return "an e-mail address has exactly one '@'"
    local, domain = v.split("@")
    if not local or any(c in _EMAIL_LOCAL_BAD or ord(c) < 32 for c in local):
        return f"{local!r} is not the local part of an e-mail address"
    labels = domain.split(".")
    if len(labels) < 2:
        return f"{domain!r} is not a domain with a dot"
    for label in labels:
        if not label or len(label) > 63 or label[0] == "-" or label[-1] == "-":
            return f"{domain!r} is not a domain name"
        if not all(c.isalnum() or c == "-" for c in label):
            return f"{domain!r} is not a domain name"
    tld = labels[-1]
    if len(tld) < 2 or tld.isdigit():
        return f"{domain!r} has no top-level domain"
    return None


def _split_extension(number: str) -> str:
    """``number`` without a trailing extension (``;ext=12``, ``x12``, ``ext. 12``)."""
    low = number.lower()
    for marker in (";ext=", "\\;ext=", " extension ", " ext. ", " ext.", " ext ", " x", "x"):
        at = low.rfind(marker)
        if at > 0:
            tail = number[at + len(marker) :].strip()
            if tail and all(c in _DIGITS for c in tail):
                return number[:at]
    return number


def phone_problem(value: str) -> str | None:
    """Why ``value`` is not a telephone number (text or a ``tel:`` URI), or ``None``."""
    v = value.strip()
    if v[:4].lower() == "tel:":
        v = v[4:]
    v = _split_extension(v)
    if not v.strip():
        return "no telephone number"
    bad = [c for c in v if c not in _PHONE_CHARS]
    if bad:
        return f"{bad[0]!r} is no part of a telephone number"
    digits = sum(c in _DIGITS for c in v)
    if digits < 3:
        return "a telephone number has at least 3 digits"
    if digits > 20:
        return "a telephone number has at most 20 digits"
    if v.count("+") > 1 or ("+" in v and v.lstrip("( ").find("+") != 0):
        return "'+' may only start a telephone number"
    return None


def _digits(text: str, count: int) -> bool:
    return len(text) == count and all(c in _DIGITS for c in text)


def _valid_date(year: int | None, month: int | None, day: int | None) -> bool:
    if month is not None and not 1 <= month <= 12:
        return False
    if day is not None:
        try:
            datetime.date(year if year is not None else 2000, month or 1, day)
        except ValueError:
            return False
    return True


def _date_part(text: str, version: str) -> bool:
    """A date (3.0: ISO 8601 basic or extended; 4.0: RFC 6350 §4.3.1, basic, reduced)."""
    if version == "3.0":
        if _digits(text, 8):
            return _valid_date(int(text[:4]), int(text[4:6]), int(text[6:]))
        if len(text) == 10 and text[4] == "-" and text[7] == "-":
            y, m, d = text[:4], text[5:7], text[8:]
            return _digits(y, 4) and _digits(m, 2) and _digits(d, 2) and _valid_date(int(y), int(m), int(d))
        return False
    if _digits(text, 8):
        return _valid_date(int(text[:4]), int(text[4:6]), int(text[6:]))
    if _digits(text, 4):
        return True
    if len(text) == 7 and text[4] == "-" and _digits(text[:4], 4) and _digits(text[5:], 2):
        return _valid_date(int(text[:4]), int(text[5:]), None)
    if text.startswith("---"):
        return _digits(text[3:], 2) and _valid_date(None, None, int(text[3:]))
    if text.startswith("--"):
        rest = text[2:]
        if _digits(rest, 2):
            return _valid_date(None, int(rest), None)
        return _digits(rest, 4) and _valid_date(None, int(rest[:2]), int(rest[2:]))
    return False


def _zone(text: str) -> bool:
    if text in ("", "Z"):
        return True
    if text[0] not in "+-":
        return False
    rest = text[1:].replace(":", "", 1)
    return (_digits(rest, 2) or _digits(rest, 4)) and int(rest[:2]) <= 14 and (len(rest) == 2 or int(rest[2:]) < 60)


def _time_part(text: str, version: str) -> bool:
    zone_at = len(text)
    for i, ch in enumerate(text):
        if ch in "Z+-":
            zone_at = i
            break
    clock, zone = text[:zone_at], text[zone_at:]
    if not _zone(zone):
        return False
    if version == "3.0" and ":" in clock:
        clock = clock.replace(":", "")
    if "." in clock and version == "3.0":
        clock, frac = clock.split(".", 1)
        if not frac.isdigit():
            return False
    if not (_digits(clock, 2) or _digits(clock, 4) or _digits(clock, 6)):
        return False
    h, m, s = int(clock[:2]), int(clock[2:4] or 0), int(clock[4:6] or 0)
    return h <= 23 and m <= 59 and s <= 60


def date_problem(value: str, version: str, value_type: str = "") -> str | None:
    """Why ``value`` is not a date (or date and time) for BDAY/ANNIVERSARY, or ``None``.
    A ``VALUE=text`` value is free text (4.0)."""
    if value_type.lower() == "text":
        return None
    v = value.strip()
    if "T" in v:
        date, _, time = v.partition("T")
        ok = (not date or _date_part(date, version)) and bool(time) and _time_part(time, version)
        if date and version == "4.0" and date.startswith("--") and len(date) < 6:
            ok = False  # a reduced date cannot take a time (date-noreduc)
    else:
        ok = _date_part(v, version)
    if ok:
        return None
    if version == "4.0":
        return f"{value!r} is not a vCard 4.0 date (YYYYMMDD, --MMDD, or YYYYMMDDTHHMMSS)"
    return f"{value!r} is not a date (YYYY-MM-DD or YYYYMMDD)"


def basic_date(value: str) -> str | None:
    """An ISO 8601 extended date or date-time (``1985-04-12``, ``1985-04-12T10:30:00Z``)
    in the basic form vCard 4.0 takes (``19850412``, ``19850412T103000Z``), or ``None``
    when ``value`` is not one."""
    v = value.strip()
    date, sep, time = v.partition("T")
    if not sep and " " in v:
        date, sep, time = v.partition(" ")
    if not (len(date) == 10 and date[4] == "-" and date[7] == "-"):
        return None
    out = date.replace("-", "")
    if sep:
        zone_at = len(time)
        for i, ch in enumerate(time):
            if ch in "Z+-":
                zone_at = i
                break
        clock, zone = time[:zone_at].replace(":", ""), time[zone_at:].replace(":", "")
        if "." in clock:
            return None
        out += "T" + clock + zone
    return out if date_problem(out, "4.0") is None else None
