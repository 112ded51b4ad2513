"""Each text is read once: a check, a relaxed checker and a StreamGuard parse the reply and
the healed calendar once each, however many events they hold.

The parse (``read_tree``, then the icalendar library) is the bulk of the work. Healing
starts from the analysis the pipeline made (``heal_analyzed``) and hands back the analysis
it confirmed the healed text with (``Healed.analysis``); before, a damaged reply was read
four times in ``check()`` and three in a relaxed checker's ``finish()``. Calls are counted,
not timed, so a regression shows on any machine.
"""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check, get_format, heal
from formatbook_icalendar.tree import Tree

FMT = get_format("icalendar")
NOW = "2025-01-01T00:00:00Z"


def _valid(events: int) -> str:
    body = "".join(
        f"BEGIN:VEVENT\r\nUID:e{i}@x\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250501T100000Z\r\n"
        f"SUMMARY:Meeting {i}\\, room 2\r\nEND:VEVENT\r\n"
        for i in range(events)
    )
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n{body}END:VCALENDAR\r\n"


def _damaged(events: int) -> str:
    # LF breaks, ISO dates, no UID/DTSTAMP/VERSION/PRODID, an unescaped comma, no END:VCALENDAR
    body = "".join(
        f"BEGIN:VEVENT\nDTSTART:2025-05-01T10:00:00Z\nSUMMARY:Meeting {i}, room 2\nEND:VEVENT\n" for i in range(events)
    )
    return "BEGIN:VCALENDAR\n" + body


def _size(text: str) -> int:
    return len(text.strip())


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text the validator parses, in order (white space around a
    calendar is no part of it: the validator reads it stripped)."""
    from formatbook_icalendar import validate  # noqa: PLC0415 - the module whose reads are counted

    seen: list[int] = []
    original = validate.read_tree

    def counted(text: str, max_depth: int = 1000) -> Tree:
        seen.append(len(text))
        return original(text, max_depth)

    monkeypatch.setattr(validate, "read_tree", counted)
    return seen


def _guard(text: str, strict: bool) -> bool:
    guard = StreamGuard(f"EXPECT ICALENDAR now={NOW}", strict=strict)
    for i in range(0, len(text), 64):
        guard.feed(text[i : i + 64])
    return bool(guard.finish())


@pytest.mark.parametrize("events", [1, 40])
def test_check_reads_a_valid_reply_once(reads: list[int], events: int) -> None:
    text = _valid(events)
    assert check(text, "EXPECT ICALENDAR").ok
    assert reads == [_size(text)]


@pytest.mark.parametrize("events", [1, 40])
def test_check_reads_a_damaged_reply_and_its_healing_once_each(reads: list[int], events: int) -> None:
    text = _damaged(events)
    result = check(text, f"EXPECT ICALENDAR now={NOW}")
    assert result.ok and result.repairs
    healed = heal(text, f"EXPECT ICALENDAR now={NOW}").text
    reads.clear()
    check(text, f"EXPECT ICALENDAR now={NOW}")
    assert reads == [_size(text), _size(healed)]


@pytest.mark.parametrize("strict", [True, False])
def test_a_stream_guard_reads_as_check_does(reads: list[int], strict: bool) -> None:
    text = _damaged(40)
    assert _guard(text, strict)
    assert len(reads) == 2
    reads.clear()
    assert _guard(_valid(40), strict)
    assert reads == [_size(_valid(40))]


def test_the_relaxed_checker_does_not_read_the_healed_text_again(reads: list[int]) -> None:
    text = _damaged(40)
    checker = FMT.stream(strict=False, now=NOW)
    checker.feed(text)
    status = checker.finish()
    healed = FMT.heal(text, now=NOW)
    assert status.ok and status.complete
    # the reply, then the healed text, once each (was: the healed text twice more)
    # heal here: the reply's verdict is remembered (invalid), only its healing is read
    assert reads == [_size(text), _size(healed.text), _size(healed.text)]


def test_a_verdict_is_remembered_and_never_a_value(reads: list[int]) -> None:
    text, good = _damaged(5), _valid(5)
    assert not FMT.is_valid(text) and FMT.validate(text) and not FMT.is_valid(text)
    assert reads == [_size(text)]  # is_valid and validate of one text: read once
    first = FMT.analyze(good)
    assert FMT.is_valid(good) and FMT.analyze(good).value is not first.value  # a Calendar is not shared
    # other limits: read again (the default ones stay remembered)
    reads.clear()
    assert FMT.validate(text, max_depth=5) == FMT.validate(text)
    assert reads == [_size(text)]


def test_the_analysis_handed_back_is_the_one_the_options_ask_for() -> None:
    text = _damaged(3)
    healed = FMT.heal(text, now=NOW)
    assert healed.analysis is not None and healed.analysis.ok
    assert healed.analysis.violations == FMT.analyze(healed.text).violations == ()
    # a depth limit other than the one healing confirms with: no analysis, the caller reads again
    assert FMT.heal(text, now=NOW, max_depth=500).analysis is None
    # a healed text longer than max_size (healing added lines): none either
    assert FMT.heal(text, now=NOW, max_size=len(text)).analysis is None
    assert not FMT.analyze(healed.text, max_size=len(text)).ok
