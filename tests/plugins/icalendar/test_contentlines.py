"""The content-line layer (RFC 5545 3.1) on its own."""

from __future__ import annotations

import pytest

from formatbook_icalendar.contentlines import (
    ContentLine,
    LineError,
    LineScanner,
    fold,
    format_line,
    octets,
    serialize,
    split,
    unfold,
)


def test_split_names_params_and_value():
    line = split('attendee;CN="Doe, Jane";ROLE=REQ-PARTICIPANT;MEMBER=a,b:mailto:jane@example.com')
    assert line == ContentLine(
        "ATTENDEE",
        (("CN", ("Doe, Jane",)), ("ROLE", ("REQ-PARTICIPANT",)), ("MEMBER", ("a", "b"))),
        "mailto:jane@example.com",
    )
    assert line.param("CN") == "Doe, Jane" and line.param("X") is None
    assert split("SUMMARY:") == ContentLine("SUMMARY", (), "")


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("", 0),
        ("SUMMARY", 7),
        (":value", 0),
        ("SUM MARY:x", 3),
        ("DTSTART;;VALUE=DATE:20250101", 8),
        ("X;P:v", 3),
        ('X;P="a"b:v', 7),
        ('X;P=a"b:v', 5),
        ("X:a\x00b", 3),
        ('X;P="open', 9),
    ],
)
def test_what_is_no_content_line_says_where(text, offset):
    problem = split(text)
    assert isinstance(problem, LineError) and problem.offset == offset


def test_unfold_joins_folds_and_keeps_spans():
    text = "DESCRIPTION:ab\r\n c\r\n\td\r\nSUMMARY:x"
    lines = unfold(text)
    assert [ln.text for ln in lines] == ["DESCRIPTION:abcd", "SUMMARY:x"]
    assert text[lines[0].start : lines[0].end] == "DESCRIPTION:ab\r\n c\r\n\td"


def test_fold_at_75_octets_never_inside_a_character():
    line = "DESCRIPTION:" + "é" * 100
    folded = fold(line)
    parts = folded.split("\r\n")
    assert all(octets(p) <= 75 for p in parts)
    assert "".join(p[1:] if i else p for i, p in enumerate(parts)) == line
    assert fold("SHORT:x") == "SHORT:x"
    assert serialize(["A:1", "B:2"]) == "A:1\r\nB:2\r\n"


def test_format_line_quotes_what_needs_it():
    assert format_line("X", (("P", ("a:b", "c")),), "v") == 'X;P="a:b",c:v'


def test_the_scanner_fails_at_the_first_impossible_character_across_pieces():
    scanner = LineScanner()
    assert scanner.feed("DTST") is None
    assert scanner.feed("ART;TZ") is None
    problem = scanner.feed("ID@")
    assert problem is not None and problem.offset == 12  # "DTSTART;TZID@": the @ is the 13th character
    whole = LineScanner()
    assert whole.feed("X:") is None and whole.done() is None
