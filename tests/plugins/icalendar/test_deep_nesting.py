"""Components nested deeply (issue 30): refused past ``max_depth`` with one violation,
before the work; healing linear in the lines however deep they nest; memory per character
bounded. Work is counted (steps, elements copied, bytes hashed), never timed.

The held-out finding: ``BEGIN:VCALENDAR`` then ``BEGIN:VEVENT`` / ``UID:1`` repeated took
2.6 / 8.1 / 25.6 s at 0.4 / 0.8 / 1.6 MB, at 300-1,190 bytes a character. The validator
reported every ``BEGIN`` past the limit and every open component; healing closed all
19,000, inserted its added lines into its output at each ``END`` and copied each
component's lines into its parent's, and confirm read the whole 19,000-deep calendar again.
"""

from __future__ import annotations

import hashlib
import sys
from types import SimpleNamespace
from typing import Any

import pytest

import formatbook_icalendar.heal.required as required
from formatbook_core import HealError, Span, check, get_format
from formatbook_core.fuzzing.pathological import count_steps, peak_bytes_per_character
from formatbook_icalendar.heal import PLAN
from formatbook_icalendar.heal.state import Healing

FMT = get_format("icalendar")
NOW = "2025-01-01T00:00:00Z"
HEAD = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"


def stack(n: int) -> str:
    """The finding's shape: ``n`` unclosed events, each with a UID."""
    return "BEGIN:VCALENDAR\r\n" + "BEGIN:VEVENT\r\nUID:1\r\n" * n


# the 1,000th event is the 1,001st level: its BEGIN, 17 + 999 * 21 characters in
TOO_DEEP = 17 + 999 * 21


def test_a_stack_past_the_limit_is_one_violation() -> None:
    text = stack(1_200)
    (found,) = FMT.validate(text)
    assert (found.code, found.message) == ("icalendar.too_deep", "components nested deeper than 1000 levels")
    assert found.span == Span(TOO_DEEP, TOO_DEEP + len("BEGIN:VEVENT"))
    result = check(text, "EXPECT ICALENDAR")
    assert not result.ok and [(v.code, v.span) for v in result.violations] == [("icalendar.too_deep", found.span)]
    with pytest.raises(HealError) as refused:
        FMT.heal(text, now=NOW)
    assert [(v.code, v.span) for v in refused.value.violations] == [("icalendar.too_deep", found.span)]


def test_the_limit_is_max_depth() -> None:
    # VCALENDAR > VEVENT > VALARM > X-A: four levels
    text = (
        HEAD + "BEGIN:VEVENT\r\nBEGIN:VALARM\r\nBEGIN:X-A\r\nEND:X-A\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    x_a = text.index("BEGIN:X-A")
    assert FMT.validate(text, max_depth=4) == FMT.validate(text)  # what else is wrong, the same
    (deep,) = FMT.validate(text, max_depth=3)
    assert deep.code == "icalendar.too_deep" and deep.span == Span(x_a, x_a + len("BEGIN:X-A"))
    assert deep.message == "components nested deeper than 3 levels"
    with pytest.raises(HealError) as refused:
        FMT.heal(text.replace("\r\n", "\n"), now=NOW, max_depth=3)  # LF breaks: healed, not valid
    assert [v.code for v in refused.value.violations] == ["icalendar.too_deep"]


def test_the_depth_healing_counts_is_the_healed_calendars() -> None:
    # END:X-A with X-B open: the validator keeps X-B open (2 more levels a round, too deep
    # at the 10th of 15), healing closes X-B first (2 levels at most): it heals
    text = "BEGIN:VCALENDAR\r\n" + "BEGIN:X-A\r\nBEGIN:X-B\r\nEND:X-A\r\n" * 15 + "END:VCALENDAR\r\n"
    assert [v.code for v in FMT.validate(text, max_depth=20)] == ["icalendar.too_deep"]
    healed = FMT.heal(text, now=NOW, max_depth=20)
    assert healed.text.count("END:X-B\r\nEND:X-A\r\n") == 15
    assert [r.kind for r in healed.repairs].count("closed_component") == 15
    assert FMT.validate(healed.text, max_depth=3) == []


def _required_work(n: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """Steps, list elements copied by ``extend`` and bytes hashed by the ``required`` step
    on ``n`` nested events without a UID (healed up to it, under a depth limit past n)."""
    text = "BEGIN:VCALENDAR\r\n" + "BEGIN:VEVENT\r\nSUMMARY:x\r\n" * n
    h = Healing(text, None, {"now": NOW, "max_depth": 2 * n})
    for step in PLAN[: [s.name for s in PLAN].index("required")]:
        step.run(h)
    hashed = 0

    def sha256(data: bytes = b"") -> Any:
        nonlocal hashed
        hashed += len(data)
        return hashlib.sha256(data)

    monkeypatch.setattr(required, "hashlib", SimpleNamespace(sha256=sha256))
    copied = 0
    sizes: list[int] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal copied
        if getattr(arg, "__name__", "") == "extend" and isinstance(arg.__self__, list):
            if event == "c_call":
                sizes.append(len(arg.__self__))
            elif event == "c_return":
                copied += len(arg.__self__) - sizes.pop()

    sys.setprofile(profile)
    try:
        steps = count_steps(required.add_required, h)
    finally:
        sys.setprofile(None)
    return steps, copied, hashed


def test_healing_nested_events_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    # before: 8n copied 64x the elements and hashed 63x the bytes (each event's lines
    # copied into its parent's at each END, each event's UID hashed from all the lines in it)
    small, large = _required_work(150, monkeypatch), _required_work(1_200, monkeypatch)
    assert all(b <= 9 * a for a, b in zip(small, large, strict=True)), (small, large)
    # by hand: the innermost event hashes "VEVENT#0\n" and its line "SUMMARY:x"; the
    # others hold an event (they cannot heal: confirm refuses the placement) and hash
    # their name and index alone
    assert small[2] == len("VEVENT#0\nSUMMARY:x") + sum(len(f"VEVENT#{i}\n") for i in range(1, 150))


def test_added_lines_follow_their_begin() -> None:
    # checked by hand: VEVENT#0 is the inner event (closed first); the outer holds it
    text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:a\r\nBEGIN:VEVENT\r\nSUMMARY:b\r\n"
    h = Healing(text, None, {"now": NOW})
    for step in PLAN[: [s.name for s in PLAN].index("required") + 1]:
        step.run(h)
    inner = hashlib.sha256(b"VEVENT#0\nSUMMARY:b").hexdigest()[:32]
    outer = hashlib.sha256(b"VEVENT#1\n").hexdigest()[:32]
    assert [line.text for line in h.lines] == [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//formatbook//healed//EN",
        "BEGIN:VEVENT",
        f"UID:{outer}@formatbook",
        "DTSTAMP:20250101T000000Z",
        "SUMMARY:a",
        "BEGIN:VEVENT",
        f"UID:{inner}@formatbook",
        "DTSTAMP:20250101T000000Z",
        "SUMMARY:b",
        "END:VEVENT",
        "END:VEVENT",
        "END:VCALENDAR",
    ]


def test_an_event_in_a_calendar_keeps_its_uid() -> None:
    # a UID derived from all the event's lines, the alarm's included, as before
    text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20250501T100000Z\nBEGIN:VALARM\nACTION:DISPLAY\n"
    text += "TRIGGER:-PT5M\nDESCRIPTION:go\nEND:VALARM\nSUMMARY:Tea\nEND:VEVENT\nEND:VCALENDAR\n"
    content = "DTSTART:20250501T100000Z\nACTION:DISPLAY\nTRIGGER:-PT5M\nDESCRIPTION:go\nSUMMARY:Tea"
    uid = hashlib.sha256(f"VEVENT#0\n{content}".encode()).hexdigest()[:32]
    assert f"\r\nUID:{uid}@formatbook\r\n" in FMT.heal(text, now=NOW).text


def test_memory_per_character_is_bounded() -> None:
    # before: 1,260 bytes a character for the stack (42 KB), 276 for the valid calendar
    # nested 500 deep (a path tuple per component); now 76 and 78
    assert peak_bytes_per_character(stack(2_000), "EXPECT ICALENDAR") < 150
    deep = HEAD + "BEGIN:X-A\r\n" * 500 + "END:X-A\r\n" * 500 + "END:VCALENDAR\r\n"
    assert peak_bytes_per_character(deep, "EXPECT ICALENDAR") < 150
