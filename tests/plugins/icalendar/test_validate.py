"""Parses versus valid: each RFC 5545 rule gives its code, naming the component and property."""

from __future__ import annotations

import datetime as dt

import pytest
from icalendar import Calendar

from formatbook_core import check, get_format

FMT = get_format("icalendar")
HEAD = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
TAIL = "END:VCALENDAR\r\n"
EVENT = "BEGIN:VEVENT\r\nUID:1@x\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250501T100000Z\r\n{}END:VEVENT\r\n"


def cal(body: str) -> str:
    return HEAD + body + TAIL


def codes(text: str) -> set[str]:
    return {v.code for v in FMT.validate(text)}


def test_a_minimal_event_is_valid_and_the_value_is_the_calendar():
    analysis = FMT.analyze(cal(EVENT.format("SUMMARY:Tea\r\n")))
    assert analysis.ok
    assert isinstance(analysis.value, Calendar)
    assert str(analysis.value.walk("VEVENT")[0]["SUMMARY"]) == "Tea"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (cal(EVENT.format("")).replace("\r\n", "\n"), "icalendar.line_ending"),
        (EVENT.format(""), "icalendar.no_calendar"),
        (cal(EVENT.format("")).replace("UID:1@x\r\n", ""), "icalendar.missing_property"),
        (cal(EVENT.format("")).replace("DTSTAMP:20250101T000000Z\r\n", ""), "icalendar.missing_property"),
        (cal(EVENT.format("")).replace("DTSTART:20250501T100000Z\r\n", ""), "icalendar.missing_property"),
        (cal(EVENT.format("DTEND:20250501T110000Z\r\nDURATION:PT1H\r\n")), "icalendar.exclusive_properties"),
        (cal(EVENT.format("UID:2@x\r\n")), "icalendar.duplicate_property"),
        (cal(EVENT.format("DTEND:2025-05-01\r\n")), "icalendar.value"),
        (cal(EVENT.format("DURATION:1 hour\r\n")), "icalendar.value"),
        (cal(EVENT.format("RRULE:FREQ=SOMETIMES\r\n")), "icalendar.value"),
        (cal(EVENT.format("RRULE:FREQ=DAILY;COUNT=2;UNTIL=20250601\r\n")), "icalendar.value"),
        (cal(EVENT.format("RRULE:FREQ=WEEKLY;BYDAY=XX\r\n")), "icalendar.value"),
        (cal(EVENT.format("SUMMARY:a, b\r\n")), "icalendar.text_escape"),
        (cal(EVENT.format("DTEND;TZID=Mars/Olympus:20250501T110000\r\n")), "icalendar.unknown_tzid"),
        (cal(EVENT.format("FOO BAR\r\n")), "icalendar.syntax"),
        (cal(EVENT.format("")).replace("END:VEVENT", "END:VTODO"), "icalendar.structure"),
        (HEAD + EVENT.format(""), "icalendar.structure"),
        (cal(EVENT.format("")).replace("VERSION:2.0", "VERSION:1.0"), "icalendar.version"),
        ("", "icalendar.empty"),
        (cal("BEGIN:VTIMEZONE\r\nTZID:X\r\nEND:VTIMEZONE\r\n"), "icalendar.missing_component"),
    ],
)
def test_each_rule_has_its_code(text, code):
    assert code in codes(text)


def test_a_violation_names_the_component_with_its_index_and_the_property():
    text = cal(EVENT.format("") + EVENT.format("").replace("UID:1@x\r\n", ""))
    (v,) = FMT.validate(text)
    assert v.code == "icalendar.missing_property"
    assert v.path == ("VCALENDAR", 0, "VEVENT", 1, "UID")
    assert "VEVENT[1]" in v.message and "UID" in v.message
    assert text[v.span.start : v.span.end].startswith("BEGIN:VEVENT")


def test_a_tzid_defined_by_a_vtimezone_later_in_the_file_is_known():
    zone = (
        "BEGIN:VTIMEZONE\r\nTZID:My Zone\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
        "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
    )
    text = cal(EVENT.format("DTEND;TZID=My Zone:20250501T110000\r\n") + zone)
    assert FMT.validate(text) == []
    assert FMT.validate(cal(EVENT.format("DTEND;TZID=Europe/Paris:20250501T110000\r\n"))) == []


def test_method_makes_dtstart_optional_and_long_lines_are_valid():
    text = HEAD + "METHOD:CANCEL\r\n" + EVENT.format("").replace("DTSTART:20250501T100000Z\r\n", "") + TAIL
    assert FMT.validate(text) == []
    assert FMT.is_valid(cal(EVENT.format("SUMMARY:" + "x" * 200 + "\r\n")))


def test_a_date_needs_value_date():
    assert "icalendar.value" in codes(cal(EVENT.format("DTEND:20250502\r\n")))
    assert FMT.is_valid(
        cal(
            EVENT.format("DTEND;VALUE=DATE:20250502\r\n").replace(
                "DTSTART:20250501T100000Z", "DTSTART;VALUE=DATE:20250501"
            )
        )
    )


def test_several_calendars_are_a_list():
    text = cal(EVENT.format("")) + cal(EVENT.format("").replace("1@x", "2@x"))
    value = FMT.parse(text)
    assert isinstance(value, list) and len(value) == 2


_EVENT = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:1@x\r\n"
    "DTSTAMP:20240101T000000Z\r\n{start}\r\nSUMMARY:Team meeting\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


_ZONE = (
    "BEGIN:VCALENDAR\r\nPRODID:-//x//y//EN\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
    "BEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:{offset}\r\nTZOFFSETTO:+0100\r\n"
    "END:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"
)


@pytest.mark.parametrize(
    "start",
    [
        "DTSTART;TZID=Europe/Paris:20240105T100000Z",
        "DTSTART;TZID=America/New_York:2024-01-05T10:00:00Z",
    ],
)
def test_a_utc_time_with_a_tzid_is_not_read_as_local_time(start: str) -> None:
    """User finding (was test_user_findings.py)."""
    # It passed, icalendar reading 10:00 in Paris (09:00 UTC) where the text says 10:00 UTC.
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert not result.ok
    assert "icalendar.value" in [v.code for v in result.violations]


@pytest.mark.parametrize(
    ("start", "utc"),
    [
        ("DTSTART:20240105T100000Z", dt.datetime(2024, 1, 5, 10, tzinfo=dt.timezone.utc)),
        ("DTSTART;TZID=Europe/Paris:20240105T100000", dt.datetime(2024, 1, 5, 9, tzinfo=dt.timezone.utc)),
        ("DTSTART:2024-01-05T10:00:00+02:00", dt.datetime(2024, 1, 5, 8, tzinfo=dt.timezone.utc)),
    ],
)
def test_times_that_say_one_instant_still_pass_with_it(start: str, utc: dt.datetime) -> None:
    """User finding (was test_user_findings.py)."""
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert result.ok
    assert result.value.walk("VEVENT")[0]["DTSTART"].dt == utc


def test_a_windows_path_keeps_its_backslashes() -> None:
    """User finding (was test_user_findings.py)."""
    # '\n' of '\notes' was kept as an escape while '\U' and '\a' were doubled: the
    # DESCRIPTION passed as 'Open C:\Users\ada' + newline + 'otes.txt'.
    start = "DTSTART:20240105T100000Z\r\nDESCRIPTION:Open C:\\Users\\ada\\notes.txt"
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert result.ok
    assert str(result.value.walk("VEVENT")[0]["DESCRIPTION"]) == "Open C:\\Users\\ada\\notes.txt"


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        # a value broken by a raw line break: the break is joined as an escaped '\n',
        # the path's backslashes stay backslashes
        ("Open C:\\Users\\ada\r\n\\notes.txt now", "Open C:\\Users\\ada\n\\notes.txt now"),
        ("Open C:\\Users\\ada\\notes.txt\r\nand read it", "Open C:\\Users\\ada\\notes.txt\nand read it"),
        ("Path D:\\new\\data, then D:\\temp", "Path D:\\new\\data, then D:\\temp"),
    ],
)
def test_a_windows_path_in_a_broken_value_keeps_its_backslashes(description: str, expected: str) -> None:
    """User finding (was test_user_findings.py)."""
    start = "DTSTART:20240105T100000Z\r\nDESCRIPTION:" + description
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert result.ok
    assert str(result.value.walk("VEVENT")[0]["DESCRIPTION"]) == expected


def test_escapes_the_writer_meant_are_still_read() -> None:
    """User finding (was test_user_findings.py)."""
    start = "DTSTART:20240105T100000Z\r\nDESCRIPTION:one\\ntwo\\, three; four"
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert result.ok
    assert str(result.value.walk("VEVENT")[0]["DESCRIPTION"]) == "one\ntwo, three; four"


def test_escapes_in_a_value_broken_over_lines_are_still_read() -> None:
    """User finding (was test_user_findings.py)."""
    start = "DTSTART:20240105T100000Z\r\nDESCRIPTION:one\\, two\r\nthree; four"
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert result.ok
    assert str(result.value.walk("VEVENT")[0]["DESCRIPTION"]) == "one, two\nthree; four"


@pytest.mark.parametrize(
    "times",
    [
        "DTSTART:20240105T100000\r\nDTEND:20240105T090000",  # an end before the start (floating)
        "DTSTART:20240105T100000Z\r\nDTEND:20240104T100000Z",
        "DTSTART;TZID=Europe/Paris:20240105T100000\r\nDTEND;TZID=Europe/Paris:20240105T093000",
        "DTSTART;VALUE=DATE:20240105\r\nDTEND;VALUE=DATE:20240104",
        "DTSTART;VALUE=DATE:20240105\r\nDTEND:20240106T100000Z",  # a DATE and a DATE-TIME
    ],
)
def test_an_event_ending_before_it_starts_fails(times: str) -> None:
    """User finding (was test_user_findings.py)."""
    # It passed: RFC 5545 3.8.2.2 wants DTEND of DTSTART's type and later than it.
    result = check(_EVENT.format(start=times), "EXPECT ICALENDAR")
    assert not result.ok
    assert "icalendar.value" in [v.code for v in result.violations]


@pytest.mark.parametrize(
    "times",
    [
        "DTSTART:20240105T100000\r\nDTEND:20240105T110000",
        "DTSTART;VALUE=DATE:20240105\r\nDTEND;VALUE=DATE:20240106",
        # two zones: 10:00 in New York is 16:00 in Paris, so this end is after the start
        "DTSTART;TZID=America/New_York:20240105T100000\r\nDTEND;TZID=Europe/Paris:20240105T170000",
    ],
)
def test_an_event_ending_after_it_starts_passes(times: str) -> None:
    """User finding (was test_user_findings.py)."""
    assert check(_EVENT.format(start=times), "EXPECT ICALENDAR").ok


def test_a_task_due_before_it_starts_fails() -> None:
    """User finding (was test_user_findings.py)."""
    todo = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VTODO\r\nUID:1@x\r\n"
        "DTSTAMP:20240101T000000Z\r\nDTSTART:20240105T100000Z\r\nDUE:20240101T100000Z\r\n"
        "SUMMARY:Report\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    )
    result = check(todo, "EXPECT ICALENDAR")
    assert not result.ok
    assert "icalendar.value" in [v.code for v in result.violations]


@pytest.mark.parametrize("offset", ["+0200000", "-0000", "+02", "+2400"])
def test_a_utc_offset_not_in_the_rfc_form_fails(offset: str) -> None:
    """User finding (was test_user_findings.py)."""
    # '+0200000' passed (icalendar reads it as two hours) while the strict stream refused
    # it: found by the contract's mutation run. RFC 5545 3.3.14: +HHMM or +HHMMSS, no -0000.
    fmt = get_format("icalendar")
    assert not fmt.is_valid(_ZONE.format(offset=offset))
    assert "icalendar.value" in [v.code for v in fmt.analyze(_ZONE.format(offset=offset)).violations]


@pytest.mark.parametrize("offset", ["+0200", "-0130", "+023000", "+0000"])
def test_a_utc_offset_in_the_rfc_form_passes(offset: str) -> None:
    """User finding (was test_user_findings.py)."""
    assert get_format("icalendar").is_valid(_ZONE.format(offset=offset))


def test_a_deep_component_s_label_names_its_outer_and_inner_levels_only() -> None:
    """Every open component of a reply nested 250 deep is reported: its label names the
    two outermost and the three innermost levels around it and counts the others, so
    the messages grow with the depth, not with its square."""
    text = "BEGIN:VCALENDAR\r\n" + "BEGIN:X-A\r\n" * 249
    messages = [v.message for v in FMT.validate(text)]
    deepest = "X-A[0] in VCALENDAR[0] > X-A[0] > … 244 levels > X-A[0] > X-A[0] > X-A[0] is never closed (no END:X-A)"
    assert deepest in messages
    assert sum("is never closed" in m for m in messages) == 250
    assert "X-A[0] in VCALENDAR[0] > X-A[0] > X-A[0] > X-A[0] > X-A[0] is never closed (no END:X-A)" in messages
    assert (
        "X-A[0] in VCALENDAR[0] > X-A[0] > … 1 level > X-A[0] > X-A[0] > X-A[0] is never closed (no END:X-A)"
        in messages
    )
    assert sum(map(len, messages)) < 250 * 120
