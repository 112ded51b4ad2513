"""Replies a new user checked as models write them, each a bug found in review: the
reply must never pass with data it did not mean."""

from __future__ import annotations

import datetime as dt

import pytest

from formatbook_core import check

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
