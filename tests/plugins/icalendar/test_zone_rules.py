"""Time-zone rules are bounded: a VTIMEZONE whose offsets take long to find is refused.

dateutil finds a date-time's offset in a VTIMEZONE by walking the instances of its rules
from DTSTART (``rrule.before`` on every ``utcoffset``): ``RRULE:FREQ=SECONDLY`` from 1970
made ``repr(result.value)`` and ``DTSTART.dt.utcoffset()`` run for minutes. A zone's rules
are yearly or monthly, pick no hours, minutes or seconds, and give at most
``MAX_ZONE_TRANSITIONS`` transitions; a refused zone is not read (no value is returned).
"""

from __future__ import annotations

import pytest

from formatbook_core import check
from formatbook_icalendar import rules


def calendar(
    standard: str, daylight: str = "DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n"
) -> str:
    """A calendar with one zone (its STANDARD and DAYLIGHT lines given) and an event in it."""
    return (
        "BEGIN:VCALENDAR\r\nPRODID:-//x//y//EN\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Here\r\n"
        f"BEGIN:STANDARD\r\n{standard}TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
        f"BEGIN:DAYLIGHT\r\n{daylight}TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n"
        "END:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20240101T000000Z\r\n"
        "DTSTART;TZID=Here:20240702T100000\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )


@pytest.mark.parametrize(
    "standard",
    [
        "DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n",
        # Outlook writes zones from 1601
        "DTSTART:16010101T030000\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\n",
        # Lotus Notes: the second Sunday as days 8 to 14 that are Sundays
        "DTSTART:19701108T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=8,9,10,11,12,13,14;BYDAY=SU\r\n",
        # Lotus Notes again: the time of day repeated in the rule
        "DTSTART:19501029T020000\r\nRRULE:FREQ=YEARLY;BYMINUTE=0;BYHOUR=2;BYDAY=-1SU;BYMONTH=10\r\n",
        "DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;UNTIL=19961027T010000Z;BYMONTH=10;BYDAY=-1SU\r\n",
        "DTSTART:19701025T030000\r\nrrule:freq=monthly;byday=1su\r\n",
        "DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;COUNT=3\r\n",
        "DTSTART:19701025T030000\r\nRDATE:19711031T030000,19721029T030000\r\n",
    ],
)
def test_real_zone_rules_pass(standard: str) -> None:
    result = check(calendar(standard), "EXPECT ICALENDAR")
    assert result.ok, result.violations
    event = next(c for c in result.value.walk() if c.name == "VEVENT")
    assert event["DTSTART"].dt.utcoffset() is not None


@pytest.mark.parametrize(
    ("standard", "says"),
    [
        ("DTSTART:19700101T000000\r\nRRULE:FREQ=SECONDLY\r\n", "not FREQ=SECONDLY"),
        ("DTSTART:19700101T000000\r\nRRULE:FREQ=MINUTELY;BYMONTH=3\r\n", "not FREQ=MINUTELY"),
        ("DTSTART:19700101T000000\r\nRRULE:FREQ=HOURLY;UNTIL=20380101T000000Z\r\n", "not FREQ=HOURLY"),
        ("DTSTART:19700101T000000\r\nrrule:freq=daily\r\n", "not FREQ=DAILY"),
        ("DTSTART:19700101T000000\r\nRRULE:FREQ=WEEKLY;BYDAY=SU\r\n", "not FREQ=WEEKLY"),
        # yearly, but every minute of every day
        (
            "DTSTART:19700101T000000\r\nRRULE:FREQ=YEARLY;BYMONTH=1,2,3;BYHOUR="
            + ",".join(map(str, range(24)))
            + ";BYMINUTE="
            + ",".join(map(str, range(60)))
            + "\r\n",
            "offset changes",
        ),
        (
            "DTSTART:19700101T000000\r\nRRULE:FREQ=YEARLY;BYYEARDAY=" + ",".join(map(str, range(1, 367))) + "\r\n",
            "offset changes",
        ),
        (
            "DTSTART:19700101T000000\r\nRRULE:FREQ=YEARLY;BYWEEKNO=" + ",".join(map(str, range(1, 54))) + "\r\n",
            "offset changes",
        ),
        # yearly, every day of every month: 25,668 instances up to 2038
        (
            "DTSTART:19700101T000000\r\nRRULE:FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;"
            "BYMONTHDAY=" + ",".join(map(str, range(1, 32))) + "\r\n",
            "offset changes",
        ),
        ("DTSTART:19700101T000000\r\nRRULE:FREQ=MONTHLY;BYDAY=SU,MO,TU,WE,TH,FR,SA\r\n", "offset changes"),
        (
            "DTSTART:00010101T000000\r\nRRULE:FREQ=YEARLY;UNTIL=99991231T000000Z;BYMONTH=3;BYDAY=-1SU\r\n",
            "offset changes",
        ),
        ("DTSTART:19700101T000000\r\nRRULE:FREQ=YEARLY;COUNT=1000000\r\n", "offset changes"),
        (
            "DTSTART:19700101T000000\r\nRDATE:" + ",".join(f"19700101T{h:02d}0000" for h in range(24)) * 100 + "\r\n",
            "offset changes",
        ),
    ],
)
def test_unbounded_zone_rules_fail_without_a_value(standard: str, says: str) -> None:
    result = check(calendar(standard), "EXPECT ICALENDAR")
    assert not result.ok
    refused = [v for v in result.violations if v.code == "icalendar.zone_rule"]
    assert refused and says in refused[0].message, result.violations
    assert result.value is None  # nothing a caller could hang on
    assert len(repr(result)) > 0


def test_the_bound_counts_every_part_of_a_zone() -> None:
    """Two parts under the bound each can be over it together."""
    rule = "FREQ=YEARLY;BYMONTH=1,2,3;BYDAY=1SU"  # 3 a year: 1,314 from 1601 to 2038
    assert rules.zone_transitions(rule, "16010101T000000") == 1_314 <= rules.MAX_ZONE_TRANSITIONS < 2 * 1_314
    one = calendar(f"DTSTART:16010101T000000\r\nRRULE:{rule}\r\n")
    assert check(one, "EXPECT ICALENDAR").ok
    both = calendar(f"DTSTART:16010101T000000\r\nRRULE:{rule}\r\n", f"DTSTART:16010101T000000\r\nRRULE:{rule}\r\n")
    assert [v.code for v in check(both, "EXPECT ICALENDAR").violations] == ["icalendar.zone_rule"]


@pytest.mark.parametrize(
    "wrap",
    [
        lambda cal: cal,
        lambda cal: "Here it is:\n```ics\n" + cal + "```\n",
        lambda cal: "<think>a zone</think>\n" + cal,
    ],
)
def test_refused_in_any_surroundings(wrap) -> None:
    result = check(wrap(calendar("DTSTART:19700101T000000\r\nRRULE:FREQ=SECONDLY\r\n")), "EXPECT ICALENDAR")
    assert not result.ok and result.value is None
    assert "icalendar.zone_rule" in {v.code for v in result.violations}


def _asking(calendar_text: str, *stamps: str) -> str:
    """``calendar_text`` with its event's DTSTART (2024) moved to ``stamps[0]``, and an
    RDATE list in the zone for the others."""
    moved = calendar_text.replace("DTSTART;TZID=Here:20240702T100000", f"DTSTART;TZID=Here:{stamps[0]}")
    if len(stamps) > 1:
        moved = moved.replace("SUMMARY:x", f"RDATE;TZID=Here:{','.join(stamps[1:])}\r\nSUMMARY:x")
    return moved


# 24 changes a year: 1,656 from 1970 to 2038, under the bound; dateutil walks them up to
# the date-time asked about, so up to 9999 they are 192,720 (2 s for one repr of a 500-byte
# reply, 11 s for eight such zones)
_MANY_RULE = "FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYDAY=1SU,2SU"
_MANY_A_YEAR = f"DTSTART:19700101T000000\r\nRRULE:{_MANY_RULE}\r\n"


@pytest.mark.parametrize(
    "stamps",
    [
        ("99991201T000000",),
        ("20240702T100000", "99991201T000000"),
        ("20240702T100000", "30000101T000000", "20250101T000000"),
    ],
    ids=["start-in-9999", "rdate-in-9999", "rdate-list-in-3000"],
)
def test_the_bound_counts_up_to_the_latest_date_time_in_the_zone(stamps) -> None:
    # issue 30 (held-out): the transitions were counted up to 2038 whatever year the
    # calendar's date-times asked about, while dateutil walks up to that year
    assert rules.zone_transitions(_MANY_RULE, "19700101T000000") == 1_656
    assert check(calendar(_MANY_A_YEAR), "EXPECT ICALENDAR").ok
    result = check(_asking(calendar(_MANY_A_YEAR), *stamps), "EXPECT ICALENDAR")
    assert [v.code for v in result.violations] == ["icalendar.zone_rule"]
    assert result.value is None
    year = max(stamp[:4] for stamp in stamps)
    assert f"up to {year}, the latest year of a date-time in it" in result.violations[0].message


def test_a_real_zone_passes_with_a_date_time_after_2038() -> None:
    # one change a year from 1970: 2 x 131 transitions up to 2100
    real = "DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n"
    result = check(_asking(calendar(real), "21000702T100000"), "EXPECT ICALENDAR")
    assert result.ok, result.violations
    event = next(c for c in result.value.walk() if c.name == "VEVENT")
    assert event["DTSTART"].dt.utcoffset().total_seconds() == 7200  # summer time, from the DAYLIGHT part


def test_a_date_time_in_another_zone_does_not_count() -> None:
    other = calendar(_MANY_A_YEAR).replace("SUMMARY:x", "RDATE;TZID=Europe/Berlin:99991201T000000\r\nSUMMARY:x")
    assert "icalendar.zone_rule" not in {v.code for v in check(other, "EXPECT ICALENDAR").violations}
