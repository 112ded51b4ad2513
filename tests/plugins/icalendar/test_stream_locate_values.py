"""Streaming (early failure, linear work), locate, values and scopes through check, schema."""

from __future__ import annotations

import pytest

from formatbook_core import ExpectationError, Expectations, StreamGuard, check, get_format, guidance

FMT = get_format("icalendar")
GOOD = FMT.samples[0]
HEAD = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"


def first_failure(text: str) -> int | None:
    checker = FMT.stream(strict=True)
    for i, ch in enumerate(text):
        if not checker.feed(ch):
            return i
    return None


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (HEAD + "BEGIN:VEVENT\r\nEND:VTODO\r\nX", "X"),  # the wrong END, known once its line ends
        (HEAD + "SUM@MARY:x", "@"),  # a line that is no property: at the character
        (HEAD + "BEGIN:VEVENT\r\nDTSTART:2025-", "-"),  # a value that can never parse: at the character
        (HEAD + "BEGIN:VEVENT\r\nRRULE:FREQ=OFTEN\r\nX", "X"),  # one judged when its line is complete
        ("BEGIN:VEVENT\r\nX", "X"),  # a bare component
        (HEAD + "BEGIN:VEVENT\nX", "\n"),  # LF alone
        (HEAD + "BEGIN:VEVENT\r\nUID:1\r\nUID:2\r\nX", "X"),  # once-only property twice
        (HEAD + "BEGIN:VEVENT\r\nUID:1\r\nEND:VEVENT\r\nX", "X"),  # closed without DTSTAMP
    ],
)
def test_the_strict_checker_fails_as_soon_as_the_text_shows_it(text, where):
    assert first_failure(text) == text.rindex(where)
    assert not FMT.can_be_valid(text)
    assert FMT.can_be_valid(text[: text.rindex(where)])


def test_a_fold_keeps_the_line_open():
    text = HEAD + "BEGIN:VEVENT\r\nDTSTART:2025\r\n 0501T100000Z\r\n"
    assert first_failure(text) is None


def test_feed_work_does_not_grow_with_the_text_before():
    # a long valid calendar fed in small chunks: each feed touches only its chunk
    body = "".join(
        f"BEGIN:VEVENT\r\nUID:{i}\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T000000Z\r\nSUMMARY:n {i}\r\nEND:VEVENT\r\n"
        for i in range(3000)
    )
    text = HEAD + body + "END:VCALENDAR\r\n"
    checker = FMT.stream(strict=True)
    for i in range(0, len(text), 7):
        assert checker.feed(text[i : i + 7])
    assert checker.finish()
    assert len(checker._line) <= 2  # only the open line is kept in pieces


def test_locate_fences_and_calendars_in_prose():
    reply = f"Sure!\n```ics\n{GOOD}```\nDone."
    (span, *_) = FMT.locate(reply)
    assert reply[span.start : span.end].strip() == GOOD.strip()
    reply = f"Here:\n{GOOD}\nHope it helps"
    (span, *_) = FMT.locate(reply)
    assert reply[span.start : span.end].strip() == GOOD.strip()
    bare = "BEGIN:VEVENT\nSUMMARY:a\nEND:VEVENT"
    reply = f"Event: \n{bare}\n\n{bare}\nbye"
    (span, *_) = FMT.locate(reply)
    assert reply[span.start : span.end] == f"{bare}\n\n{bare}"


def test_values_and_scopes_through_check():
    text = (
        HEAD + "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T100000Z\r\n"
        "SUMMARY:Planning\\, part two\r\nDESCRIPTION:one two three four five six\r\n"
        "ATTENDEE;CN=Ana Lima:mailto:ana@example.com\r\nCATEGORIES:Work,Team\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    assert FMT.extract_values(text) == ["Planning, part two", "one two three four five six", "Ana Lima", "Work", "Team"]
    ok = check(text, 'EXPECT ICALENDAR\nEXPECT MAX 6 WORDS IN "DESCRIPTION"')
    assert ok.ok and ok.counts == {'words IN "DESCRIPTION"': 6}
    bad = check(text, 'EXPECT ICS\nEXPECT MAX 5 WORDS IN "DESCRIPTION"')
    assert not bad.ok and bad.violations[0].code == "count.max"
    words = check(text, "EXPECT ICAL\nEXPECT MAX 13 WORDS")
    assert words.ok and words.counts["words"] == 3 + 6 + 2 + 1 + 1  # dates, UIDs and names of properties not counted
    missing = check(text, 'EXPECT ICALENDAR\nEXPECT MAX 5 WORDS IN "LOCATION"')
    assert not missing.ok and missing.violations[0].code == "count.scope_missing"
    with pytest.raises(ExpectationError):
        check(text, 'EXPECT ICALENDAR\nEXPECT MAX 5 WORDS IN "/title"')


def test_schema_required_and_min():
    schema = {"VEVENT": {"min": 1, "required": ["SUMMARY", "DTSTART", "LOCATION"]}}
    assert FMT.is_valid(GOOD, schema)
    no_location = GOOD.replace("LOCATION:Cafe Luna\\, 2nd floor\r\n", "")
    violations = FMT.validate(no_location, schema)
    assert [v.code for v in violations] == ["schema.required"]
    assert violations[0].path == ("VCALENDAR", 0, "VEVENT", 0, "LOCATION")
    assert [v.code for v in FMT.validate(GOOD, {"VTODO": {"min": 1}})] == ["schema.min_components"]
    assert [v.code for v in FMT.validate(GOOD, {"VEVENT": {"max": 0}})] == ["schema.max_components"]
    with pytest.raises(ExpectationError):
        FMT.load_schema({"VEVENT": {"minimum": 1}})
    result = check(no_location, _expect(schema))
    assert not result.ok and result.violations[0].code == "schema.required"


def _expect(schema):
    return Expectations(format="icalendar", schema=schema)


def test_the_guard_stops_an_ics_reply_on_a_settled_word_limit():
    guard = StreamGuard("EXPECT ICALENDAR\nEXPECT MAX 3 WORDS", strict=True)
    status = guard.feed(HEAD + "BEGIN:VEVENT\r\nSUMMARY:one two three four five\r\nX")
    assert not status


def test_guidance_is_short_and_says_the_date_form():
    text = guidance("EXPECT ICALENDAR")
    assert "YYYYMMDDTHHMMSSZ" in text and "VCALENDAR" in text and len(text) < 900
    schema_text = FMT.guidance({"VEVENT": {"min": 1, "required": ["LOCATION"]}})
    assert "at least 1 VEVENT" in schema_text and "LOCATION" in schema_text
