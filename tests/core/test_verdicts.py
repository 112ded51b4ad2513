"""The verdict on the last text read (formatbook_core.verdicts): answered again without a
new reading, for verdict-only callers; never a shared value. Counted, never timed."""

from __future__ import annotations

import threading

import pytest
import vobject

from formatbook_core import Analysis, StreamGuard, Violation, check, get_format
from formatbook_core.verdicts import LastVerdict
from formatbook_icalendar import isolated

CARD = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n"
CALENDAR = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a@b\r\n"
    "DTSTAMP:20250101T000000Z\r\nDTSTART:20250101T100000Z\r\nSUMMARY:Talk\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


def _counting(found: Analysis) -> tuple[list[int], object]:
    calls = [0]

    def read() -> Analysis:
        calls[0] += 1
        return found

    return calls, read


def test_an_equal_text_is_answered_from_the_last_verdict() -> None:
    last = LastVerdict()
    bad = Analysis(None, (Violation("x.bad", "bad"),))
    calls, read = _counting(bad)
    text = "a" * 1000
    assert last.violations(text, 1, read) == bad.violations
    assert last.violations("".join(["a"] * 1000), 1, read) == bad.violations  # equal, another object
    assert calls == [1]
    assert last.violations(text, 2, read) == bad.violations  # another key: read again
    assert last.violations("a" * 999 + "b", 2, read) == bad.violations  # another text: read again
    assert calls == [3]


def test_analysis_always_reads_and_keeps_no_value() -> None:
    last = LastVerdict()
    calls, read = _counting(Analysis(value=[1, 2]))
    first = last.analysis("t", None, read)
    second = last.analysis("t", None, read)
    assert calls == [2] and first.value == [1, 2] and second.value == [1, 2]
    assert last.violations("t", None, read) == () and calls == [2]


def test_threads_keep_their_own_last_text() -> None:
    last = LastVerdict()
    calls, read = _counting(Analysis())
    last.violations("t", None, read)
    worker = threading.Thread(target=last.violations, args=("t", None, read))
    worker.start()
    worker.join()
    assert calls == [2]


@pytest.fixture
def vobject_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads = [0]
    real = vobject.readComponents

    def counted(*args: object, **kwargs: object) -> object:
        reads[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(vobject, "readComponents", counted)
    return reads


@pytest.fixture
def ical_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads = [0]
    real = isolated.from_ical

    def counted(text: str) -> object:
        reads[0] += 1
        return real(text)

    monkeypatch.setattr(isolated, "from_ical", counted)
    return reads


@pytest.mark.parametrize("crlf", [True, False])
def test_vcard_reads_a_text_once_for_every_verdict(vobject_reads: list[int], crlf: bool) -> None:
    fmt = get_format("vcard")
    text = CARD if crlf else CARD.replace("\r\n", "\n")
    assert fmt.is_valid(text) is crlf
    assert (fmt.validate(text) == []) is crlf
    checker = fmt.stream(strict=True)
    checker.feed(text)
    assert bool(checker.finish()) is crlf
    fmt.heal(text)  # a valid text: heal's first look is the verdict already found
    # the valid text is read once; the LF text never reaches vobject (the grammar refuses
    # it), and its repair is read once, to confirm it
    assert vobject_reads == [1]


def test_vcard_values_are_never_shared(vobject_reads: list[int]) -> None:
    fmt = get_format("vcard")
    first, second = fmt.parse(CARD), fmt.parse(CARD)
    assert first is not second and vobject_reads == [2]
    first.fn.value = "Changed"
    assert check(CARD, "EXPECT VCARD").value.fn.value == "Ada Lovelace"


def test_icalendar_reads_a_text_once_for_every_verdict(ical_reads: list[int]) -> None:
    fmt = get_format("icalendar")
    assert fmt.is_valid(CALENDAR) and fmt.validate(CALENDAR) == []
    assert fmt.heal(CALENDAR).text == CALENDAR
    guard = StreamGuard("EXPECT ICALENDAR", strict=False)
    for i in range(0, len(CALENDAR), 7):
        guard.feed(CALENDAR[i : i + 7])
    assert guard.finish().ok
    # one reading for the verdicts; finish()'s check() reads a value of its own
    assert ical_reads == [2]


def test_icalendar_limits_still_refuse(ical_reads: list[int]) -> None:
    fmt = get_format("icalendar")
    assert fmt.is_valid(CALENDAR)
    assert [v.code for v in fmt.validate(CALENDAR, max_size=20)] == ["icalendar.too_large"]
    assert ical_reads == [1]  # refused before any reading
    assert fmt.is_valid(CALENDAR) and ical_reads == [2]  # the last verdict was another limit's
