"""A ``BEGIN`` line indented by blanks at the start of a payload is still that line.

Finding: ``" BEGIN:VCALENDAR..."`` (a space before the calendar) was read as prose with a
bare ``VEVENT`` in it: the locator looked for ``BEGIN:VCALENDAR`` only right after a line
break, found none, took the event alone, set the calendar's lines aside and healed in its
own ``VERSION`` and ``PRODID``: the reply's ``PRODID`` was dropped while ``ok`` was true.
"""

from __future__ import annotations

import pytest
from icalendar import Calendar

from formatbook_core import StreamGuard, check, get_format

FMT = get_format("icalendar")
EXPECT = "EXPECT ICALENDAR"
LINES = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//x//y//EN",
    "BEGIN:VEVENT",
    "UID:1@x",
    "DTSTAMP:20240101T000000Z",
    "DTSTART:20240101T100000Z",
    "SUMMARY:Hi",
    "END:VEVENT",
    "END:VCALENDAR",
]
CRLF = "\r\n".join(LINES)
LF = "\n".join(LINES)


def _kept(result) -> None:
    """The reply's own calendar, whole: its PRODID, no header healed in, no lines set aside."""
    assert result.ok, result.violations
    assert result.text.startswith("BEGIN:VCALENDAR")
    cal = Calendar.from_ical(result.text)
    assert str(cal["PRODID"]) == "-//x//y//EN"
    assert str(cal.walk("VEVENT")[0]["SUMMARY"]) == "Hi"
    kinds = {r.kind for r in result.repairs}
    assert not kinds & {"wrapped", "added_version", "added_prodid"}
    assert all("VCALENDAR" not in s.text and "PRODID" not in s.text for s in result.set_aside)


@pytest.mark.parametrize("lead", [" ", "\t", "\u00a0", "   ", " \t\u00a0", "\n ", "\r\n\t", "\n\n  "])
@pytest.mark.parametrize("body", [CRLF, LF], ids=["crlf", "lf"])
def test_leading_blanks_before_the_calendar(lead: str, body: str) -> None:
    _kept(check(lead + body, EXPECT))
    (span, *_) = FMT.locate(lead + body)
    assert (lead + body)[span.start : span.end] == body


@pytest.mark.parametrize(
    "reply",
    [
        f"Here is your calendar:\n  {CRLF}\nEnjoy!",
        f"Here is your calendar:\r\n\t{CRLF}",
        f"```ics\n  {LF}\n```",
        f"```\n\u00a0{LF}\n```",
        f"<think>a calendar</think>\n {CRLF}",
        f"Sure.\n\n {LF}\n\nBye.",
    ],
)
def test_in_prose_fences_and_after_think_blocks(reply: str) -> None:
    result = check(reply, EXPECT)
    _kept(result)
    assert "x//y" not in "".join(s.text for s in result.set_aside)


def test_a_bare_component_indented_is_still_found() -> None:
    bare = "\n".join(LINES[3:9])
    result = check("  " + bare, EXPECT)
    assert result.ok and {"wrapped", "added_version", "added_prodid"} <= {r.kind for r in result.repairs}
    (span, *_) = FMT.locate("  " + bare)
    assert span.start == 2


def test_an_indented_begin_inside_a_calendar_is_a_fold() -> None:
    # a DESCRIPTION folded onto a line reading " BEGIN:VCALENDAR": its value, not a calendar
    lines = [*LINES[:8], "DESCRIPTION:see", " BEGIN:VCALENDAR", *LINES[8:]]
    reply = "\r\n".join(lines)
    (span, *rest) = FMT.locate(reply)
    assert (span.start, span.end) == (0, len(reply))
    assert all(s.start == 0 for s in rest)  # no candidate opens at the folded line
    result = check(reply, EXPECT)
    assert result.ok and not result.repairs
    assert str(Calendar.from_ical(result.text).walk("VEVENT")[0]["DESCRIPTION"]) == "seeBEGIN:VCALENDAR"


def test_an_indented_begin_after_a_blank_line_is_a_second_calendar() -> None:
    other = CRLF.replace("UID:1@x", "UID:2@x")
    reply = f"{CRLF}\r\n\r\n  {other}"
    result = check(reply, EXPECT)
    assert result.ok
    assert result.text.count("BEGIN:VCALENDAR") == 2 and "UID:2@x" in result.text


def test_a_calendar_indented_line_by_line_is_read_whole() -> None:
    # every line indented (a Markdown code block): the healer's indentation repair
    reply = "\n".join("    " + line for line in LINES)
    result = check(reply, EXPECT)
    assert result.ok and result.text == CRLF
    assert "indentation" in {r.kind for r in result.repairs}


def test_the_stream_guard_agrees() -> None:
    guard = StreamGuard(EXPECT, strict=True)
    reply = " " + CRLF
    for i in range(0, len(reply), 5):
        guard.feed(reply[i : i + 5])
    _kept(guard.finish())
