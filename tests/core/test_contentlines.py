"""The content-line layer RFC 5545 and RFC 6350 share (formatbook_core.contentlines):
each expected value below is worked out by hand from the RFC text."""

from __future__ import annotations

import pytest

from formatbook_core.contentlines import (
    fold,
    octets,
    outside_think_blocks,
    physical_lines,
    raw_backslashes,
    split_unescaped,
    unescape_text,
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


def test_outside_think_blocks_keeps_the_lines_no_block_covers_whole():
    text = "A:1\n<think>x\nB:2\n</think>\nC:3\n<think>y</think>\nD:4"
    lines = [(s, e, b) for s, e, b in physical_lines(text)]
    kept, blocks = outside_think_blocks(text, lines)
    assert [text[s:e] for s, e, _ in kept] == ["A:1", "C:3", "D:4"]
    assert [text[b.start : b.end] for b in blocks] == ["<think>x\nB:2\n</think>", "<think>y</think>"]
    assert outside_think_blocks("A:1\nB:2", lines[:2]) == (lines[:2], [])
