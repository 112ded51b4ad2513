"""Issue 9 (fuzz repro icalendar-heal_idempotent-e01d148471): a second heal took the first
calendar of the first heal's two. The cause was the locator, not the spelling of the names:
the ```` ``` ```` line hid the rest of the reply, so the whole reply was healed into a stream
of two calendars, and the locator then offered each calendar alone (the first one valid).
Calendars with only white space between them are one payload now (an ``icalstream``).

Names are compared in any case (RFC 5545 3.6); an ``END`` the healer adds is written in
upper case, which is valid and stays so under a second heal. A Markdown fence line is set
aside (a listed repair and set-aside text), never joined to the value before it."""

from __future__ import annotations

from formatbook_core import check, get_format
from formatbook_core import heal as pipeline_heal

FMT = get_format("icalendar")
EXPECT = "EXPECT ICALENDAR"
HEADER = "VERSION:2.0\r\nPRODID:-//formatbook//healed//EN\r\n"


def _twice(text: str) -> str:
    once = pipeline_heal(text, EXPECT)
    assert FMT.is_valid(once.text)
    assert pipeline_heal(once.text, EXPECT).text == once.text
    return once.text


def test_the_fuzz_repro_heals_once() -> None:
    healed = _twice("BEGIN:VCaLENDaR\n```\nEND:VCaLENDaR\nBEGIN:VCaLENDaR")
    # two calendars: the first closed by the reply, the second by the healer (upper case)
    assert healed == (
        "BEGIN:VCaLENDaR\r\n" + HEADER + "END:VCaLENDaR\r\n" + "BEGIN:VCaLENDaR\r\n" + HEADER + "END:VCALENDAR"
    )


def test_the_same_in_upper_case() -> None:
    healed = _twice("BEGIN:VCALENDAR\n```\nEND:VCALENDAR\nBEGIN:VCALENDAR")
    assert healed.count("BEGIN:VCALENDAR") == 2 and healed.count("END:VCALENDAR") == 2


def test_a_valid_stream_is_one_payload() -> None:
    one = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR\r\n"
    two = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:y\r\nEND:VCALENDAR\r\n"
    stream = one + two
    assert FMT.locate(stream)[0] == (0, len(stream) - 2)  # the white space at the end is left out
    result = check(stream, EXPECT)
    assert result.ok and not result.set_aside
    assert pipeline_heal(stream, EXPECT).text == stream.rstrip()


def test_calendars_with_prose_between_are_not_one_stream() -> None:
    one = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR"
    two = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:y\r\nEND:VCALENDAR"
    reply = f"Here:\n{one}\nand also\n{two}"
    spans = FMT.locate(reply)
    assert [reply[s.start : s.end] for s in spans] == [one, two]


def test_a_fence_line_in_a_calendar_is_set_aside_not_joined() -> None:
    text = (
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\nBEGIN:VEVENT\nUID:1\nDTSTAMP:20240101T000000Z\n"
        "DTSTART:20240101T000000Z\nSUMMARY:Lunch\n```\nEND:VEVENT\nEND:VCALENDAR\n"
    )
    healed = FMT.heal(text)
    # before: SUMMARY:Lunch\n``` (the fence line read as the value's second line)
    assert "SUMMARY:Lunch\r\nEND:VEVENT" in healed.text
    assert [(s.kind, s.text) for s in healed.set_aside] == [("prose", "```")]
    assert "prose_removed" in {r.kind for r in healed.repairs}
    assert FMT.heal(healed.text).text == healed.text


def test_a_line_of_text_is_still_joined_to_its_value() -> None:
    # not a fence line: the rest of a value broken by a raw line break, kept (escaped)
    text = (
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\nBEGIN:VEVENT\nUID:1\nDTSTAMP:20240101T000000Z\n"
        "DTSTART:20240101T000000Z\nSUMMARY:Lunch\nbring snacks\nEND:VEVENT\nEND:VCALENDAR\n"
    )
    healed = FMT.heal(text)
    assert "SUMMARY:Lunch\\nbring snacks\r\n" in healed.text and not healed.set_aside
