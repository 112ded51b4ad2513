"""White space Python strips but a format's grammar does not allow (U+00A0, U+2028, U+3000,
U+0085, the separators U+001C–U+001F) at the end of a reply: check() strips it at the
payload's end and accepts the reply as it stands, so a strict guard must not stop it
(fuzz seed 24601: '<answer></answer>\\xa0' was stopped as "text after the root element's
end"). The guard holds such white space back until text follows it."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check
from formatbook_core.streaming import PY_SPACE

CALENDAR = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:1\r\n"
    "DTSTAMP:20211004T150245Z\r\nDTSTART:20211101T160000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


@pytest.mark.parametrize(("expect", "payload"), [("EXPECT XML", "<answer></answer>"), ("EXPECT ICALENDAR", CALENDAR)])
@pytest.mark.parametrize("space", ["\xa0", "\u2028", "\u3000", "\x85", "\x1c", " \xa0\n"])
def test_a_strict_guard_lets_trailing_white_space_pass(expect: str, payload: str, space: str) -> None:
    reply = payload + space
    result = check(reply, expect)
    assert result.ok and not result.repairs and result.text == payload.strip()
    guard = StreamGuard(expect, strict=True)
    assert all(guard.feed(ch) for ch in reply)
    assert guard.finish().ok


def test_text_after_held_white_space_still_stops_the_guard() -> None:
    guard = StreamGuard("EXPECT XML", strict=True)
    assert guard.feed("<a/>\xa0")
    status = guard.feed("x")
    assert not status and "after the root" in status.reason
    assert status.position == len("<a/>")  # the held character is where the text goes wrong


def test_ascii_blanks_are_fed_at_once() -> None:
    # a value settles at its line's end: the guard stops there, not a chunk later
    guard = StreamGuard("EXPECT CSV\nEXPECT MAX 2 WORDS", strict=True)
    assert guard.feed("a,b\nx y,z w")  # the row's values settle at its line break
    status = guard.feed("\n")
    assert not status and "4 words" in status.reason


def test_py_space_is_every_character_str_isspace_takes() -> None:
    # the guard skips _unheld for a piece that ends with none of these: a character
    # missing here would let unusual white space at a payload's end reach the checker
    assert frozenset(c for c in map(chr, range(0x110000)) if c.isspace()) == PY_SPACE
