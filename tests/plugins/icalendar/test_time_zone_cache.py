"""A reply's verdict never hangs on the replies read before it: the icalendar library caches
each ``VTIMEZONE`` it reads for the whole process, and computes a zone only for a ``TZID``
not cached yet (fuzz seed 8675309: a calendar valid only after another one had defined its
``TZID``). Readings start from an empty cache and give the caller's cache back."""

from __future__ import annotations

import threading

from icalendar import Calendar
from icalendar.timezone import tzp

from formatbook_core import check


def _calendar(tzid: str, standard_extra: str = "") -> str:
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\n"
        f"BEGIN:VTIMEZONE\r\nTZID:{tzid}\r\n"
        f"BEGIN:STANDARD\r\nDTSTART:19501029T020000\r\n{standard_extra}"
        "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20211004T150245Z\r\n"
        f"DTSTART;TZID={tzid}:20211101T160000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )


def test_a_zone_the_library_cannot_build_fails_after_a_good_one_of_the_same_tzid_too() -> None:
    # 'E:' inside STANDARD: the library refuses to build that zone ("unsupported property")
    bad = _calendar("Test/Cached", "E:\r\n")
    first = check(bad, "EXPECT ICALENDAR")
    assert not first.ok and first.violations[0].code == "icalendar.parse"
    assert check(_calendar("Test/Cached"), "EXPECT ICALENDAR").ok
    again = check(bad, "EXPECT ICALENDAR")  # was ok: the good calendar's zone was cached
    assert [v.code for v in again.violations] == ["icalendar.parse"]


def test_a_calendar_reads_its_own_time_zone() -> None:
    result = check(_calendar("Test/Own"), "EXPECT ICALENDAR")
    start = result.value.walk("VEVENT")[0].decoded("DTSTART")
    # 16:00 in a zone one hour ahead of UTC (TZOFFSETTO +0100), checked by hand
    assert start.utcoffset().total_seconds() == 3600 and start.hour == 16


def test_no_zone_of_a_reply_stays_in_the_process() -> None:
    check(_calendar("Test/Leak"), "EXPECT ICALENDAR")
    assert tzp.timezone("Test/Leak") is None


def test_the_callers_cached_zones_are_kept() -> None:
    mine = Calendar.from_ical(_calendar("Test/Callers"))  # the caller's own reading caches it
    assert mine and tzp.timezone("Test/Callers") is not None
    check(_calendar("Test/Other"), "EXPECT ICALENDAR")
    assert tzp.timezone("Test/Callers") is not None


def test_readings_from_several_threads_agree() -> None:
    bad, good = _calendar("Test/Threads", "E:\r\n"), _calendar("Test/Threads")
    verdicts: list[bool] = []

    def run() -> None:
        for _ in range(20):
            check(good, "EXPECT ICALENDAR")
            verdicts.append(check(bad, "EXPECT ICALENDAR").ok)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert verdicts == [False] * 80
