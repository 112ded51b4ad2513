"""The content-line layer RFC 5545 and RFC 6350 share (formatbook_core.contentlines):
each expected value below is worked out by hand from the RFC text."""

from __future__ import annotations

import pytest

from formatbook_core.contentlines import (
    LineFault,
    LineScanner,
    fold,
    octets,
    physical_lines,
    raw_backslashes,
    read_line,
    split_line,
    split_unescaped,
    unescape_text,
    unfold,
)


def test_physical_lines_tell_each_break_as_written() -> None:
    text = "A\r\nB\nC\rD"
    assert physical_lines(text) == [(0, 1, "\r\n"), (3, 4, "\n"), (5, 6, "\r"), (7, 8, "")]
    assert physical_lines("A\r\n") == [(0, 1, "\r\n")]  # no empty line after a final break
    assert physical_lines("") == []


def test_fold_keeps_every_physical_line_within_75_octets_and_unfolds_back() -> None:
    line = "DESCRIPTION:" + "é" * 100  # two octets each: a fold never splits one
    folded = fold(line)
    parts = folded.split("\r\n")
    assert all(octets(p) <= 75 for p in parts)
    assert all(p.startswith(" ") for p in parts[1:])
    assert "".join([parts[0], *(p[1:] for p in parts[1:])]) == line
    assert fold("SUMMARY:short") == "SUMMARY:short"


def test_split_unescaped_keeps_escaped_separators_in_their_item() -> None:
    assert split_unescaped("a\\,b,c", ",") == ["a\\,b", "c"]
    assert split_unescaped(";;12 Main St;London", ";") == ["", "", "12 Main St", "London"]


def test_unescape_text_decodes_the_five_escapes_and_keeps_an_unknown_one() -> None:
    assert unescape_text("one\\ntwo\\, three\\; four\\\\") == "one\ntwo, three; four\\"
    assert unescape_text("C:\\Users") == "C:\\Users"


@pytest.mark.parametrize(
    ("value", "raw"),
    [
        ("C:\\Users\\ada\\notes.txt", True),  # '\U' escapes nothing
        ("ends with \\", True),
        ("one\\ntwo\\, three", False),
        ("no backslash", False),
        ("D:\\new\\notes", False),  # every backslash a valid escape: read as escapes
    ],
)
def test_raw_backslashes(value: str, raw: bool) -> None:
    assert raw_backslashes(value) is raw


# --- unfolding and the grammar, shared by iCalendar (no groups) and vCard (groups) --------


def test_unfold_joins_continuations_and_keeps_the_source_spans() -> None:
    text = "SUMMARY:a\r\n  b\r\nX:y"
    lines = unfold(text)
    assert [(line.text, line.start, line.end, line.brk) for line in lines] == [
        ("SUMMARY:a b", 0, 14, "\r\n"),
        ("X:y", 16, 19, ""),
    ]
    assert lines[0].pieces == ((0, 9), (11, 14))


def _scan(line: str, *, groups: bool = False, pieces: int = 1) -> LineFault | None:
    scanner = LineScanner(groups=groups)
    size = max(1, len(line) // pieces)
    for i in range(0, len(line), size):
        fault = scanner.feed(line[i : i + size])
        if fault is not None:
            return fault
    return scanner.end()


@pytest.mark.parametrize(
    ("line", "groups", "fault"),
    [
        ('DTSTART;TZID="Europe/Paris":20260101T090000', False, None),
        ("item1.EMAIL;TYPE=work,pref:a@b.c", True, None),
        ("item1.EMAIL:a@b.c", False, LineFault("name", 5, ".")),
        ("a.b.C:x", True, LineFault("name", 3, ".")),
        (":x", False, LineFault("name_start", 0, ":")),
        ("X;=a:b", False, LineFault("param_name_start", 2, "=")),
        ("X;A.B=c:d", False, LineFault("param_name", 3, ".")),
        ('X;A=b"c:d', False, LineFault("param_value", 5, '"')),
        ('X;A="b"c:d', False, LineFault("after_quote", 7, "c")),
        ('X;A="b\x01":d', False, LineFault("quoted", 6, "\x01")),
        ("X:a\x00b", False, LineFault("value", 3, "\x00")),
        ("", False, LineFault("empty", 0)),
        ("SUMMARY", False, LineFault("ends_name", 7)),
        ('X;A="b', False, LineFault("ends_quoted", 6)),
        ("X;A=b", False, LineFault("ends_unquoted", 5)),
    ],
)
def test_the_scanner_says_what_is_wrong_and_where(line: str, groups: bool, fault: LineFault | None) -> None:
    assert _scan(line, groups=groups) == fault
    assert _scan(line, groups=groups, pieces=3) == fault  # fed in pieces: the same answer
    # read whole, in one match: a line is read exactly when the scanner accepts it
    assert (read_line(line, groups=groups) is None) is (fault is not None)


def test_value_start_and_the_parts() -> None:
    line = 'g.X;A="p;q",r;B=s:v:w'
    scanner = LineScanner(groups=True)
    assert scanner.feed(line) is None and scanner.end() is None and scanner.in_value
    assert line[scanner.value_start :] == "v:w"
    assert split_line(line) == ("g", "X", (("A", ("p;q", "r")), ("B", ("s",))), "v:w")
    assert read_line(line, groups=True) == split_line(line)
    assert read_line('x;a=,"b:c",;B=:', groups=False) == (None, "X", (("A", ("", "b:c", "")), ("B", ("",))), "")
    assert read_line("x.y:v", groups=False) is None and read_line("x.y:v", groups=True) == ("x", "Y", (), "v")


def test_a_copy_goes_on_alone() -> None:
    scanner = LineScanner()
    scanner.feed("X;A=")
    clone = scanner.copy()
    assert clone.feed('"q":v') is None and clone.end() is None
    assert scanner.end() == LineFault("ends_param_value", 4)
