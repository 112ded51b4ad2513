"""White space after the last ``END:VCALENDAR`` line is no part of the calendar for
check() (locate strips it, no repair), so the strict stream's ``feed`` holds a line-break
fault there (LF alone, CR alone, an empty line) until a character other than white space
shows that it ends a content line. Its ``finish()`` accepts it, as ``is_valid`` does (issue
31: white space around the calendar is no part of it, for every reader; before, check()
said ``pass`` while ``is_valid`` refused the same text). Fuzz seed 909 found the strict
checker refusing the final LF at once (tests/fuzz/repros/icalendar-guard_agrees-09ea8884b5.json)."""

from __future__ import annotations

import pytest

from formatbook_core import check, get_format

FMT = get_format("icalendar")
CAL = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\n"
    "DTSTAMP:20250505T090000Z\r\nDTSTART:20250512T140000Z\r\nEND:VEVENT\r\nEND:VCALENDAR"
)
WHITE_TAILS = ["\n", "\n\n", "\r", "\r \t", "\r\n\r\n", "\r\n\n", "\r\n \n", "\n  \t\r\n", "\r\n\t\n"]


def first_failure(text: str, size: int = 1) -> int | None:
    """The end of the chunk the strict checker first fails on, or None."""
    checker = FMT.stream(strict=True)
    for i in range(0, len(text), size):
        if not checker.feed(text[i : i + size]):
            return i + size - 1
    return None


@pytest.mark.parametrize("tail", WHITE_TAILS)
@pytest.mark.parametrize("size", [1, 7, 1000])
def test_white_space_after_the_calendar_is_never_refused(tail, size):
    text = CAL + tail
    result = check(text, "EXPECT ICALENDAR")
    assert result.ok and not result.repairs  # valid as it stands
    assert first_failure(text, size) is None
    assert FMT.can_be_valid(text)
    # is_valid and finish() agree with check(): the white space is no part of the calendar
    assert FMT.is_valid(text)
    checker = FMT.stream(strict=True)
    assert checker.feed(text)
    assert checker.finish()
    assert FMT.is_valid(CAL) and FMT.is_valid(CAL + "\r\n")


@pytest.mark.parametrize("head", ["\n", "\r\n", "\n\n\r\n"])
@pytest.mark.parametrize("size", [1, 7, 1000])
def test_blank_lines_before_the_calendar_are_no_part_of_it(head, size):
    text = head + CAL + "\r\n"
    result = check(text, "EXPECT ICALENDAR")
    assert result.ok and not result.repairs
    assert first_failure(text, size) is None and FMT.is_valid(text) and FMT.can_be_valid(text)
    checker = FMT.stream(strict=True)
    for i in range(0, len(text), size):
        checker.feed(text[i : i + size])
    assert checker.finish()
    # a violation inside is still reported at its place in the text
    broken = head + CAL.replace("UID:1\r\n", "")
    (v, *_) = FMT.analyze(broken).violations
    assert broken[v.span.start : v.span.end].startswith("BEGIN:VEVENT") or v.span.start >= len(head)


def test_a_space_opening_the_calendar_is_still_a_fold_of_nothing():
    text = " " + CAL
    assert not FMT.is_valid(text) and first_failure(text) == 0


@pytest.mark.parametrize(
    ("tail", "fault"),  # fault: where in the tail the line-break fault is
    [("\nX", 0), ("\n\nX", 0), ("\r X", 0), ("\r\n\nBEGIN:VCALENDAR", 2)],  # the last: an empty line
)
def test_text_after_the_held_fault_fails_at_its_first_visible_character(tail, fault):
    text = CAL + tail
    visible = len(CAL) + len(tail) - len(tail.lstrip(" \t\r\n"))
    assert first_failure(text) == visible
    assert not FMT.can_be_valid(text)
    status = FMT.stream(strict=True)
    status.feed(text)
    failed = status.finish()
    assert not failed.ok and failed.position == len(CAL) + fault  # reported at the fault itself


@pytest.mark.parametrize(
    "text",
    [
        # inside the calendar no white space can end it: the fault fails at once
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nEND:VEVENT\n",
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\n",
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n\r\n",
    ],
)
def test_a_fault_inside_the_calendar_still_fails_at_once(text):
    assert first_failure(text) == len(text) - 1 - (1 if text.endswith("\r\n\r\n") else 0)


def test_the_fault_is_held_only_after_an_end_closing_the_calendar():
    # "END:VCAL" closes no open component... but the line is an END with only VCALENDAR
    # open: held while white space follows, judged at finish()
    text = CAL[: -len("VCALENDAR")] + "VCAL\n"
    checker = FMT.stream(strict=True)
    assert checker.feed(text)
    assert not checker.finish().ok
    assert not FMT.is_valid(text)
