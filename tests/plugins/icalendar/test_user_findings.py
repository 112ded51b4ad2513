"""Replies a new user checked as models write them, each a bug found in review: the
reply must never pass with data it did not mean."""

from __future__ import annotations

import datetime as dt

import pytest

from formatbook_core import check, get_format, heal
from formatbook_icalendar.heal import required

_EVENT = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:1@x\r\n"
    "DTSTAMP:20240101T000000Z\r\n{start}\r\nSUMMARY:Team meeting\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


@pytest.mark.parametrize(
    "start",
    [
        "DTSTART;TZID=Europe/Paris:20240105T100000Z",
        "DTSTART;TZID=America/New_York:2024-01-05T10:00:00Z",
    ],
)
def test_a_utc_time_with_a_tzid_is_not_read_as_local_time(start: str) -> None:
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
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert result.ok
    assert result.value.walk("VEVENT")[0]["DTSTART"].dt == utc


def test_a_windows_path_keeps_its_backslashes() -> None:
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
    start = "DTSTART:20240105T100000Z\r\nDESCRIPTION:" + description
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert result.ok
    assert str(result.value.walk("VEVENT")[0]["DESCRIPTION"]) == expected


def test_escapes_the_writer_meant_are_still_read() -> None:
    start = "DTSTART:20240105T100000Z\r\nDESCRIPTION:one\\ntwo\\, three; four"
    result = check(_EVENT.format(start=start), "EXPECT ICALENDAR")
    assert result.ok
    assert str(result.value.walk("VEVENT")[0]["DESCRIPTION"]) == "one\ntwo, three; four"


def test_escapes_in_a_value_broken_over_lines_are_still_read() -> None:
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
    assert check(_EVENT.format(start=times), "EXPECT ICALENDAR").ok


def test_a_task_due_before_it_starts_fails() -> None:
    todo = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VTODO\r\nUID:1@x\r\n"
        "DTSTAMP:20240101T000000Z\r\nDTSTART:20240105T100000Z\r\nDUE:20240101T100000Z\r\n"
        "SUMMARY:Report\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    )
    result = check(todo, "EXPECT ICALENDAR")
    assert not result.ok
    assert "icalendar.value" in [v.code for v in result.violations]


_ZONE = (
    "BEGIN:VCALENDAR\r\nPRODID:-//x//y//EN\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
    "BEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:{offset}\r\nTZOFFSETTO:+0100\r\n"
    "END:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"
)


@pytest.mark.parametrize("offset", ["+0200000", "-0000", "+02", "+2400"])
def test_a_utc_offset_not_in_the_rfc_form_fails(offset: str) -> None:
    # '+0200000' passed (icalendar reads it as two hours) while the strict stream refused
    # it: found by the contract's mutation run. RFC 5545 3.3.14: +HHMM or +HHMMSS, no -0000.
    fmt = get_format("icalendar")
    assert not fmt.is_valid(_ZONE.format(offset=offset))
    assert "icalendar.value" in [v.code for v in fmt.analyze(_ZONE.format(offset=offset)).violations]


@pytest.mark.parametrize("offset", ["+0200", "-0130", "+023000", "+0000"])
def test_a_utc_offset_in_the_rfc_form_passes(offset: str) -> None:
    assert get_format("icalendar").is_valid(_ZONE.format(offset=offset))


def test_check_and_heal_of_one_reply_a_second_apart_write_the_same_dtstamp(monkeypatch):
    # fuzz seed 909: check() and heal() straddled a second's boundary and wrote two DTSTAMPs
    reply = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x-1\nDTSTART:20250101T100000Z\nSUMMARY:Lunch\nEND:VEVENT\nEND:VCALENDAR"
    times = iter(
        [dt.datetime(2026, 1, 1, 0, 0, s, tzinfo=dt.timezone.utc) for s in (58, 59)]
        + [dt.datetime(2026, 1, 1, 0, 1, 0, tzinfo=dt.timezone.utc)] * 10
    )

    class Clock(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return next(times)

    monkeypatch.setattr(required.datetime, "datetime", Clock)
    monkeypatch.setattr(required, "_FIRST_HEALED", type(required._FIRST_HEALED)())
    first = check(reply, "EXPECT ICALENDAR").text
    assert "DTSTAMP:20260101T000058Z" in first
    assert heal(reply, "EXPECT ICALENDAR").text == first
    other = reply.replace("Lunch", "Dinner")
    assert "DTSTAMP:20260101T000059Z" in heal(other, "EXPECT ICALENDAR").text
