"""Parses versus valid: each RFC 5545 rule gives its code, naming the component and property."""

from __future__ import annotations

import pytest
from icalendar import Calendar

from formatbook_core import get_format

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
