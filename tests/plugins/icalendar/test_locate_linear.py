"""The locator's work grows linearly with the reply (issue 30): the reply is upper-cased
once, not once per component; which candidates cover an offset is a bisect, not a scan of
every earlier candidate; nested calendars are read in one pass. Work is counted, not timed."""

from __future__ import annotations

import random
import sys
from typing import Any

from formatbook_core import Span
from formatbook_core.fuzzing.pathological import count_steps
from formatbook_icalendar.locate import _Covered, locate

EVENT = "BEGIN:VEVENT\nUID:1\nDTSTAMP:20250101T000000Z\nEND:VEVENT\n"
FULL = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nEND:VCALENDAR"


def _upper_cased(text: str) -> int:
    """Characters ``str.upper`` was called on while locating in ``text`` (C work that no
    step count sees)."""
    total = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal total
        if event == "c_call" and getattr(arg, "__name__", "") == "upper" and isinstance(arg.__self__, str):
            total += len(arg.__self__)

    sys.setprofile(profile)
    try:
        locate(text)
    finally:
        sys.setprofile(None)
    return total


def test_bare_components_are_upper_cased_once() -> None:
    small, large = ("Here:\n" + EVENT * n for n in (200, 1_600))
    assert _upper_cased(large) <= 9 * _upper_cased(small)
    assert _upper_cased(large) <= 4 * len(large)


def test_calendars_between_prose_are_upper_cased_once() -> None:
    small, large = ((FULL + "\n\nand\n\n") * n for n in (200, 1_600))
    assert _upper_cased(large) <= 4 * len(large)
    assert [s.start for s in locate(small)][-2:] == [len(FULL + "\n\nand\n\n") * 198, len(FULL + "\n\nand\n\n") * 199]


def test_nested_unclosed_calendars_take_linear_steps() -> None:
    small, large = (count_steps(locate, "BEGIN:VCALENDAR\n" * n) for n in (500, 4_000))
    assert large <= 10 * small


def test_nested_calendars_are_one_payload() -> None:
    # checked by hand: the outer block only; its nested blocks are part of it
    closed = "BEGIN:VCALENDAR\n" * 3 + "END:VCALENDAR\n" * 3
    assert locate(closed) == [Span(0, len(closed) - 1)]
    unclosed = "BEGIN:VCALENDAR\r\n" * 4
    assert locate(unclosed) == [Span(0, len(unclosed) - 2)]


def test_a_calendar_started_over_inside_a_cut_off_one_is_a_payload() -> None:
    reply = "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:x\n" + FULL + "\n"
    inner = reply.index(FULL)
    assert locate(reply) == [Span(0, len(reply) - 1), Span(inner, inner + len(FULL))]


def test_a_begin_line_with_more_after_the_name_is_no_calendar() -> None:
    reply = "BEGIN:VCALENDARX\n" + FULL
    assert locate(reply) == [Span(reply.index(FULL), len(reply))]


def test_covered_agrees_with_a_scan_of_every_span() -> None:
    rng = random.Random(30)
    for _ in range(200):
        spans = [Span(a, a + rng.randrange(0, 12)) for a in (rng.randrange(0, 60) for _ in range(rng.randrange(0, 6)))]
        covered = _Covered(spans)
        for offset in range(-1, 75):
            assert (offset in covered) == any(s.start <= offset < s.end for s in spans), (spans, offset)


def test_a_begin_vcalendarx_line_leaves_bare_components_to_be_found() -> None:
    # checked by hand: no calendar opens, so the bare VTODO runs to the end of the reply
    reply = "BEGIN:VTODO\nUID:1\nBEGIN:VCALENDARX\n"
    assert locate(reply) == [Span(0, len(reply) - 1)]
