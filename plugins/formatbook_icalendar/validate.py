"""Parses versus valid.

*Parses*: every line is a content line, ``BEGIN``/``END`` balance and nest, and the
``icalendar`` library reads the text. *Valid*: on top of that, CRLF line breaks, only
``VCALENDAR`` objects at the top, the properties RFC 5545 requires, none given twice that
may occur once, no excluded pairs, values of their type, every ``TZID`` known (a
``VTIMEZONE`` of the calendar or an IANA zone) — and the schema, when one is given.

Violations name the component with its index (``VEVENT[1] in VCALENDAR[0]``), and
``path`` leads to it: ``("VCALENDAR", 0, "VEVENT", 1, "UID")``.

White space around the calendar (blank lines before ``BEGIN``, ``str.isspace`` after the
last ``END``) is no part of it, as the locator strips it from a payload and
as vCard and JSON read it: ``is_valid``, the strict checker and ``check()`` agree on it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from formatbook_core import Analysis, Span, Violation
from formatbook_core.verdicts import Verdicts

from . import isolated, rules
from .tree import Component, Tree, read_tree

# A lone surrogate cannot be written as UTF-8: no calendar holds one.
SURROGATE = re.compile("[\ud800-\udfff]")
_PROBLEM_CODES = {"syntax": "icalendar.syntax", "structure": "icalendar.structure"}


def line_ending_problem(text: str) -> int:
    """The offset of the first line break that is not CRLF, or -1."""
    i = text.find("\n")
    while i >= 0:
        if i == 0 or text[i - 1] != "\r":
            return i
        i = text.find("\n", i + 1)
    i = text.find("\r")
    while i >= 0:
        if i + 1 >= len(text) or text[i + 1] != "\n":
            return i
        i = text.find("\r", i + 1)
    return -1


# The verdicts (violations, not values) of the last texts analysed: ``is_valid``,
# ``validate`` and ``heal`` of one reply ask about the same text object, and each reading
# runs the icalendar library over all of it (see formatbook_core.verdicts).
_VERDICTS: Verdicts[tuple[Violation, ...]] = Verdicts()


def violations_of(text: Any, schema: Any = None, max_size: int = 0, max_depth: int = 1000) -> tuple[Violation, ...]:
    """``analyze(...).violations``, from the verdicts remembered when ``text`` (the same
    object, schema and limits) was analysed lately."""
    known = remembered(text, schema, max_size, max_depth)
    return analyze(text, schema, max_size, max_depth).violations if known is None else known


def remembered(text: Any, schema: Any, max_size: int, max_depth: int) -> tuple[Violation, ...] | None:
    """The violations remembered for ``text`` (see :func:`violations_of`), else ``None``."""
    return _VERDICTS.get(text, (schema, max_size, max_depth))


def analyze(text: Any, schema: Any = None, max_size: int = 0, max_depth: int = 1000) -> Analysis:
    """Parse and validate ``text``; the value is the ``icalendar.Calendar`` (a list of them
    for several calendars) when the text parses, else ``None``."""
    analysis = _analyze(text, schema, max_size, max_depth)
    _VERDICTS.put(text, analysis.violations, (schema, max_size, max_depth))
    return analysis


def _analyze(text: Any, schema: Any = None, max_size: int = 0, max_depth: int = 1000) -> Analysis:
    if not isinstance(text, str):
        return Analysis(None, (Violation("icalendar.syntax", f"not text: {type(text).__name__}"),))
    if max_size and len(text) > max_size:
        return Analysis(None, (Violation("icalendar.too_large", f"the text is longer than {max_size} characters"),))
    if not text.strip():
        return Analysis(None, (Violation("icalendar.empty", "no iCalendar content (the text is empty)"),))
    # blank lines before the calendar and white space after it are no part of it (a space
    # opening the first line is a fold continuing nothing: refused, as the locator does)
    lead, end = len(text) - len(text.lstrip("\r\n")), len(text.rstrip())
    if end - lead < len(text):
        inner = _analyze(text[lead:end], schema, max_size, max_depth)
        return replace(inner, violations=tuple(v.shift(lead) for v in inner.violations))
    surrogate = SURROGATE.search(text)
    if surrogate is not None:
        at = surrogate.start()
        return Analysis(
            None, (Violation("icalendar.syntax", "a lone surrogate: not Unicode text", span=Span(at, at + 1)),)
        )
    tree = read_tree(text, max_depth)
    if tree.problems and tree.problems[0].kind == "too_deep":  # refused: nothing else is judged
        deep = tree.problems[0]
        return Analysis(None, (Violation("icalendar.too_deep", deep.message, span=Span(deep.start, deep.end)),))
    violations: list[Violation] = []
    bad_break = line_ending_problem(text)
    if bad_break >= 0:
        violations.append(
            Violation(
                "icalendar.line_ending",
                "lines must end with CRLF (RFC 5545 3.1), found a bare " + ("LF" if text[bad_break] == "\n" else "CR"),
                span=Span(bad_break, bad_break + 1),
                expected="\\r\\n",
            )
        )
    for p in tree.problems:
        violations.append(Violation(_PROBLEM_CODES[p.kind], p.message, span=Span(p.start, p.end)))
    if not tree.roots and not tree.problems:
        violations.append(Violation("icalendar.empty", "no component (BEGIN:VCALENDAR) in the text"))
    for root in tree.roots:
        if root.name != "VCALENDAR":
            violations.append(
                Violation(
                    "icalendar.no_calendar",
                    f"{root.label} is not inside a VCALENDAR (a bare component is no iCalendar object)",
                    path=root.path,
                    span=Span(root.start, root.end if root.end >= 0 else len(text)),
                    expected="VCALENDAR",
                )
            )
    violations.extend(component_violations(tree))
    value = None
    # a zone whose rules are refused is not read: its offsets would take minutes to find.
    # Nor is a text holding a bare component: it is no iCalendar object, whatever the
    # library makes of it (as vCard reads no text its scan refused; check() reads the
    # healed calendar, and the library's reading was half the steps of each bare event)
    unbounded_zone = any(v.code == "icalendar.zone_rule" for v in violations)
    bare = any(root.name != "VCALENDAR" for root in tree.roots)
    if not tree.problems and tree.roots and not unbounded_zone and not bare:
        value, error = parse_value(text)
        if error is not None:
            violations.append(Violation("icalendar.parse", f"the icalendar library cannot read the text: {error}"))
    if schema is not None and not violations:
        violations.extend(schema.violations(tree))
    return Analysis(value, tuple(violations))


def parse_value(text: str) -> tuple[Any, str | None]:
    """``icalendar``'s reading of the text: one ``Calendar`` (a list for several), or the
    error it raised."""
    try:
        found = isolated.from_ical(text)
    except Exception as err:
        return None, str(err) or type(err).__name__
    for comp in found:
        for sub in comp.walk():
            errors = getattr(sub, "errors", None)
            if errors:
                prop, message = errors[0]
                return None, f"{sub.name}: {prop or ''} {message}".strip()
    if not found:
        return None, "no calendar"
    return (found[0] if len(found) == 1 else list(found)), None


def component_violations(tree: Tree) -> list[Violation]:
    """The RFC 5545 rules on every component of the tree."""
    out: list[Violation] = []
    for root in tree.roots:
        zones = {z.get("TZID")[0].line.value for z in root.walk() if z.name == "VTIMEZONE" and z.get("TZID")}
        method = bool(root.get("METHOD"))
        asked = _latest_years(root) if zones else {}
        for comp in root.walk():
            out.extend(_component(comp, zones, method, asked))
    return out


def _latest_years(root: Component) -> dict[str, int]:
    """The latest year of a date-time in each time zone the calendar names (``TZID=``):
    how far dateutil walks that zone's rules to find the calendar's offsets."""
    latest: dict[str, int] = {}
    for comp in root.walk():
        for p in comp.props:
            tzid = p.line.param("TZID")
            if tzid is None:
                continue
            years = [int(item[:4]) for item in p.line.value.split(",") if item[:4].isdigit()]
            if years:
                latest[tzid] = max(latest.get(tzid, 0), *years)
    return latest


def _v(code: str, comp: Component, prop: str | None, message: str, start: int, end: int, **kw: Any) -> Violation:
    path = (*comp.path, prop) if prop else comp.path
    return Violation(code, message, path=path, span=Span(start, end), **kw)


def _component(comp: Component, zones: set[str], method: bool, asked: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    name = comp.name
    end = comp.end if comp.end >= 0 else comp.start
    if comp.top == "VCALENDAR":
        where = rules.placement_problem(name, comp.parent_name)
        if where:
            out.append(_v("icalendar.structure", comp, None, f"{comp.label}: {where}", comp.start, end))
    counts: dict[str, int] = {}
    for p in comp.props:
        counts[p.name] = counts.get(p.name, 0) + 1
    required = list(rules.REQUIRED.get(name, ()))
    if name == "VEVENT" and not method:
        required.append("DTSTART")
    for prop in required:
        if prop not in counts:
            out.append(
                _v(
                    "icalendar.missing_property",
                    comp,
                    prop,
                    f"{comp.label} has no {prop}",
                    comp.start,
                    end,
                    expected=prop,
                )
            )
    if name == "VTIMEZONE" and not any(c.name in ("STANDARD", "DAYLIGHT") for c in comp.children):
        out.append(
            _v("icalendar.missing_component", comp, None, f"{comp.label} has no STANDARD or DAYLIGHT", comp.start, end)
        )
    if name == "VTIMEZONE":
        tzids = comp.get("TZID")
        out.extend(_zone_rules(comp, end, asked.get(tzids[0].line.value, 0) if tzids else 0))
    if name == "VTODO" and "DURATION" in counts and "DTSTART" not in counts:
        out.append(
            _v(
                "icalendar.missing_property",
                comp,
                "DTSTART",
                f"{comp.label} has DURATION but no DTSTART",
                comp.start,
                end,
            )
        )
    if name == "VALARM" and ("DURATION" in counts) != ("REPEAT" in counts):
        out.append(
            _v(
                "icalendar.missing_property",
                comp,
                "REPEAT" if "DURATION" in counts else "DURATION",
                f"{comp.label}: DURATION and REPEAT go together",
                comp.start,
                end,
            )
        )
    once = rules.ONCE.get(name, frozenset())
    for prop, n in counts.items():
        if n > 1 and prop in once:
            second = comp.get(prop)[1]
            out.append(
                _v(
                    "icalendar.duplicate_property",
                    comp,
                    prop,
                    f"{comp.label} has {prop} {n} times (at most once)",
                    second.start,
                    second.end,
                )
            )
    for a, b in rules.EXCLUSIVE.get(name, ()):
        if a in counts and b in counts:
            p = comp.get(b)[0]
            out.append(
                _v("icalendar.exclusive_properties", comp, b, f"{comp.label} has both {a} and {b}", p.start, p.end)
            )
    for later in ("DTEND", "DUE"):
        problem = _before_start(comp, later)
        if problem:
            p = comp.get(later)[0]
            out.append(_v("icalendar.value", comp, later, f"{comp.label}: {problem}", p.start, p.end))
    if name == "VCALENDAR":
        for p in comp.get("VERSION"):
            if p.line.value not in ("2.0",) and not p.line.value.endswith(";2.0"):
                out.append(
                    _v(
                        "icalendar.version",
                        comp,
                        "VERSION",
                        f"VERSION is {p.line.value[:20]!r}, not 2.0",
                        p.start,
                        p.end,
                        expected="2.0",
                    )
                )
    for p in comp.props:
        problem = rules.check_value(p.line)
        if problem:
            code = "icalendar.text_escape" if p.name in rules.TEXT or p.name in rules.TEXT_LISTS else "icalendar.value"
            out.append(_v(code, comp, p.name, f"{comp.label}: {problem}", p.start, p.end))
        tzid = p.line.param("TZID")
        if tzid is not None and tzid not in zones and tzid not in rules.known_zones():
            out.append(
                _v(
                    "icalendar.unknown_tzid",
                    comp,
                    p.name,
                    f"{comp.label}: {p.name} names the time zone {tzid[:60]!r}, which is no IANA zone and no VTIMEZONE of the calendar",
                    p.start,
                    p.end,
                )
            )
    return out


def _zone_rules(zone: Component, end: int, asked_year: int = 0) -> list[Violation]:
    """A time zone's rules bounded: yearly or monthly, and at most
    ``rules.MAX_ZONE_TRANSITIONS`` transitions in all, up to 2038 or ``asked_year`` (the
    latest year of the calendar's date-times in the zone). Its offsets are found by
    walking them from DTSTART up to the date-time asked about (dateutil, on every
    ``utcoffset``), so a rule of every second from 1970 made reading the returned
    calendar's dates run for minutes, and so did a rule bounded by 2038 with an event in
    9999."""
    out: list[Violation] = []
    transitions = 0
    for part in zone.children:
        if part.name not in ("STANDARD", "DAYLIGHT"):
            continue
        starts = part.get("DTSTART")
        dtstart = starts[0].line.value if starts else ""
        for p in part.props:
            if p.name == "RDATE":
                transitions += len(p.line.value.split(","))
            if p.name not in ("RRULE", "EXRULE") or rules.recur_problem(p.line.value):
                continue  # a value that is no RECUR is reported as such
            problem = rules.zone_rule_problem(p.line.value)
            if problem:
                out.append(_v("icalendar.zone_rule", part, p.name, f"{part.label}: {problem}", p.start, p.end))
            else:
                transitions += rules.zone_transitions(p.line.value, dtstart, asked_year)
    if transitions > rules.MAX_ZONE_TRANSITIONS:
        message = (
            f"{zone.label}: its rules give up to {transitions:,} offset changes"
            + (f" up to {asked_year}, the latest year of a date-time in it " if asked_year > 2038 else " ")
            + f"(at most {rules.MAX_ZONE_TRANSITIONS:,}: a real zone changes a few times a year)"
        )
        out.append(_v("icalendar.zone_rule", zone, None, message, zone.start, end))
    return out


def _instant(value: str) -> tuple[str, str] | None:
    """``(form, sortable text)`` of a DATE (``YYYYMMDD``) or DATE-TIME
    (``YYYYMMDDTHHMMSS``, ``Z`` for UTC) value; ``None`` for anything else (another
    check reports it)."""
    if len(value) == 8 and value.isdigit():
        return "date", value
    if len(value) in (15, 16) and value[8:9] == "T" and value[:8].isdigit() and value[9:15].isdigit():
        if len(value) == 15:
            return "local", value
        if value[15] == "Z":
            return "utc", value[:15]
    return None


def _before_start(comp: Component, later: str) -> str | None:
    """RFC 5545 3.8.2.2 and 3.8.2.3: ``DTEND`` and ``DUE`` have DTSTART's value type and
    are not before it. Compared only where the text alone tells: both dates, both UTC,
    or both local times of the same zone (or both floating)."""
    starts, ends = comp.get("DTSTART"), comp.get(later)
    if len(starts) != 1 or len(ends) != 1:
        return None
    start, end = starts[0].line, ends[0].line
    a, b = _instant(start.value), _instant(end.value)
    if a is None or b is None:
        return None
    if (a[0] == "date") != (b[0] == "date"):
        kinds = {True: "a DATE", False: "a DATE-TIME"}
        return f"{later} is {kinds[b[0] == 'date']} while DTSTART is {kinds[a[0] == 'date']} (they must be of one type)"
    same_zone = a[0] == b[0] and (a[0] != "local" or start.param("TZID") == end.param("TZID"))
    if same_zone and b[1] < a[1]:
        return f"{later} {end.value} is before DTSTART {start.value}"
    return None
