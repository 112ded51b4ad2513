"""Healing replies written the way models write them; every field the reply gave is read
back from the healed text with icalendar and compared with what the reply said."""

from __future__ import annotations

import datetime
import datetime as dt

import pytest
from icalendar import Calendar

import formatbook_core
from formatbook_core import HealError, check, get_format
from formatbook_icalendar.heal import required

FMT = get_format("icalendar")
NOW = "2025-04-20T08:00:00Z"
UTC = datetime.timezone.utc


def heal(text: str):
    healed = FMT.heal(text, now=NOW)
    assert FMT.is_valid(healed.text), healed.text
    again = FMT.heal(healed.text, now=NOW)
    assert again.text == healed.text and not again.repairs
    return healed, Calendar.from_ical(healed.text)


def kinds(healed) -> set[str]:
    return {r.kind for r in healed.repairs}


def test_lf_iso_dates_missing_uid_dtstamp_version_prodid():
    reply = (
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Quarterly review\nDTSTART:2025-05-01T10:00\n"
        "DTEND:2025-05-01 11:30:00+02:00\nLOCATION:Room 4\nEND:VEVENT\nEND:VCALENDAR\n"
    )
    healed, cal = heal(reply)
    assert {"line_endings", "iso_date", "added_uid", "added_dtstamp", "added_version", "added_prodid"} <= kinds(healed)
    assert "\n" not in healed.text.replace("\r\n", "")
    ev = cal.walk("VEVENT")[0]
    assert str(ev["SUMMARY"]) == "Quarterly review"
    assert str(ev["LOCATION"]) == "Room 4"
    assert ev["DTSTART"].dt == datetime.datetime(2025, 5, 1, 10, 0)  # floating, as written
    assert ev["DTEND"].dt == datetime.datetime(2025, 5, 1, 9, 30, tzinfo=UTC)  # 11:30+02:00
    assert ev["DTSTAMP"].dt == datetime.datetime(2025, 4, 20, 8, 0, tzinfo=UTC)
    assert str(cal["VERSION"]) == "2.0"


def test_uid_is_derived_from_the_content():
    reply = "BEGIN:VEVENT\nSUMMARY:A\nDTSTART:20250501T100000Z\nEND:VEVENT"
    first, _ = heal(reply)
    second, _ = heal(reply)
    other, _ = heal(reply.replace("SUMMARY:A", "SUMMARY:B"))
    uid = [line for line in first.text.split("\r\n") if line.startswith("UID:")]
    assert uid and uid == [line for line in second.text.split("\r\n") if line.startswith("UID:")]
    assert uid != [line for line in other.text.split("\r\n") if line.startswith("UID:")]


def test_bare_event_is_wrapped_and_text_escaped():
    reply = "BEGIN:VEVENT\nSUMMARY:Lunch, with Bob; bring C:\\cake\nDTSTART:20250501T120000Z\nEND:VEVENT"
    healed, cal = heal(reply)
    assert {"wrapped", "escaped"} <= kinds(healed)
    assert str(cal.walk("VEVENT")[0]["SUMMARY"]) == "Lunch, with Bob; bring C:\\cake"
    assert "SUMMARY:Lunch\\, with Bob\\; bring C:\\\\cake" in healed.text


def test_a_description_broken_over_lines_is_joined_with_its_line_breaks():
    reply = (
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20250501T090000Z\nDESCRIPTION:Agenda:\n1. budget\n"
        "2. hiring, maybe\nSUMMARY:Board\nEND:VEVENT\nEND:VCALENDAR"
    )
    healed, cal = heal(reply)
    assert "unfolded" in kinds(healed)
    ev = cal.walk("VEVENT")[0]
    assert str(ev["DESCRIPTION"]) == "Agenda:\n1. budget\n2. hiring, maybe"
    assert str(ev["SUMMARY"]) == "Board"


def test_truncated_reply_is_closed():
    reply = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250501T100000Z\r\nSUMMARY:Tea"
    healed, cal = heal(reply)
    assert "truncated_component" in kinds(healed)
    assert healed.text.endswith("END:VEVENT\r\nEND:VCALENDAR")  # no break after: the reply ended without one
    assert str(cal.walk("VEVENT")[0]["SUMMARY"]) == "Tea"
    assert str(cal.walk("VEVENT")[0]["UID"]) == "1"


def test_windows_zone_to_iana():
    reply = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;TZID=Eastern Standard Time:20250501T090000\nSUMMARY:Call\nEND:VEVENT\nEND:VCALENDAR"
    healed, cal = heal(reply)
    assert "windows_zone" in kinds(healed)
    start = cal.walk("VEVENT")[0]["DTSTART"].dt
    assert start.replace(tzinfo=None) == datetime.datetime(2025, 5, 1, 9, 0)
    assert str(start.tzinfo) in ("America/New_York",) or "New_York" in repr(start.tzinfo)


def test_offset_with_a_known_tzid_keeps_the_zone_and_the_instant():
    reply = "BEGIN:VEVENT\nDTSTART;TZID=Europe/Berlin:2025-05-01T10:00:00+02:00\nEND:VEVENT"
    healed, cal = heal(reply)
    start = cal.walk("VEVENT")[0]["DTSTART"].dt
    assert start == datetime.datetime(2025, 5, 1, 8, 0, tzinfo=UTC)
    assert "TZID=Europe/Berlin:20250501T100000" in healed.text


def test_long_lines_are_folded_when_healing():
    text = "x" * 300 + " é" * 40
    reply = f"BEGIN:VEVENT\nDTSTART:20250501T100000Z\nDESCRIPTION:{text}\nEND:VEVENT"
    healed, cal = heal(reply)
    assert all(len(line.encode()) <= 75 for line in healed.text.split("\r\n"))
    assert str(cal.walk("VEVENT")[0]["DESCRIPTION"]) == text


def test_a_valid_calendar_is_unchanged_even_with_long_lines():
    text = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20250101T000000Z\r\n"
        "DTSTART:20250501T100000Z\r\nSUMMARY:" + "y" * 120 + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    healed = FMT.heal(text)
    assert healed.text == text and not healed.repairs


def test_date_only_start_gets_value_date():
    healed, cal = heal("BEGIN:VEVENT\nDTSTART:2025-05-01\nSUMMARY:Holiday\nEND:VEVENT")
    assert cal.walk("VEVENT")[0]["DTSTART"].dt == datetime.date(2025, 5, 1)
    assert "DTSTART;VALUE=DATE:20250501" in healed.text


@pytest.mark.parametrize(
    "reply",
    [
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:No start\nEND:VEVENT\nEND:VCALENDAR",  # DTSTART cannot be invented
        "BEGIN:VEVENT\nDTSTART:20250501T100000Z\nDTEND:20250501T110000Z\nDURATION:PT1H\nEND:VEVENT",
        "BEGIN:VEVENT\nDTSTART;TZID=Nowhere/Town:20250501T100000\nEND:VEVENT",
        "Sorry, I cannot make a calendar.",
    ],
)
def test_what_cannot_be_repaired_without_inventing_data_raises(reply):
    with pytest.raises(HealError) as info:
        FMT.heal(reply, now=NOW)
    assert info.value.violations


def test_check_heals_a_reply_with_prose_and_a_fence():
    reply = (
        "Here is your event:\n\n```ics\nBEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Dentist\n"
        "DTSTART:2025-06-02T15:00:00Z\nEND:VEVENT\nEND:VCALENDAR\n```\nAnything else?"
    )
    result = check(reply, "EXPECT ICALENDAR now=2025-01-01T00:00:00Z")
    assert result.ok and result.verdict == "healed"
    assert str(result.value.walk("VEVENT")[0]["SUMMARY"]) == "Dentist"
    assert any(r.kind == "located" for r in result.repairs)
    for r in result.repairs:
        assert r.span is not None and 0 <= r.span.start <= r.span.end <= len(reply)


def test_a_last_line_cut_off_inside_its_name_is_removed_not_glued_to_the_value_before():
    reply = "BEGIN:VEVENT\nDTSTART:20250501T100000Z\nSUMMARY:Tea\nDTST"
    healed, cal = heal(reply)
    assert {"truncated_line", "truncated_component"} <= kinds(healed)
    assert str(cal.walk("VEVENT")[0]["SUMMARY"]) == "Tea"
    assert any(s.text == "DTST" for s in healed.set_aside)


def test_a_reply_that_is_an_unclosed_think_block_has_no_calendar():
    # found by the short fuzz pass (seed 2026), when the fallback span was the whole reply
    # and heal read the think block's text as the calendar; a reply of think blocks only has
    # no payload (issue 9): heal raises, as check fails
    reply = (
        "<think>BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:1\nDTSTART;TZID=America/New_York:19970101T180000\n"
        "END:VEVENT\nEND:V<think>CALENDAR\n"
    )
    exp = "EXPECT ICALENDAR now=20260101T000000Z"
    assert [v.code for v in formatbook_core.check(reply, exp).violations] == ["icalendar.empty"]
    with pytest.raises(HealError) as info:
        formatbook_core.heal(reply, exp)
    assert info.value.violations[0].code == "icalendar.empty"


def test_check_and_heal_of_one_reply_a_second_apart_write_the_same_dtstamp(monkeypatch):
    """User finding (was test_user_findings.py)."""
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
    assert formatbook_core.heal(reply, "EXPECT ICALENDAR").text == first
    other = reply.replace("Lunch", "Dinner")
    assert "DTSTAMP:20260101T000059Z" in formatbook_core.heal(other, "EXPECT ICALENDAR").text
