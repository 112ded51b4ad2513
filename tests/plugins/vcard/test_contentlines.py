"""The RFC 6350 content-line layer: physical lines, unfolding, folding at 75 octets,
the grammar (whole and in pieces), text escapes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from formatbook_vcard.contentlines import (
    ContentLine,
    ContentLineError,
    LineScanner,
    escape_text,
    fold,
    octets,
    parse,
    physical_lines,
    split_unescaped,
    unescape_text,
    unfold,
)


def test_physical_lines_and_their_breaks():
    assert physical_lines("a\r\nb\nc\rd") == [(0, 1, "\r\n"), (3, 4, "\n"), (5, 6, "\r"), (7, 8, "")]
    assert physical_lines("a\r\n") == [(0, 1, "\r\n")]
    assert physical_lines("") == []


def test_unfold_removes_break_and_one_blank():
    text = "NOTE:a\r\n  b\r\n\tc\r\nFN:x"
    lines = unfold(text)
    assert [ln.text for ln in lines] == ["NOTE:a bc", "FN:x"]
    assert (lines[0].start, lines[0].end) == (0, len("NOTE:a\r\n  b\r\n\tc"))
    assert lines[1].brk == ""


def test_parse():
    cl = parse('item1.tel;type="cell,voice";pref=1:tel:+1-555')
    assert cl == ContentLine("TEL", "tel:+1-555", (("TYPE", ("cell,voice",)), ("PREF", ("1",))), "item1")
    assert parse("X-A;P=a,b,;Q=:v:w") == ContentLine("X-A", "v:w", (("P", ("a", "b", "")), ("Q", ("",))))
    assert parse("N:;;;;").value == ";;;;"
    assert parse("TEL;TYPE=a;TYPE=b:1").param("type") == ("a", "b")


@pytest.mark.parametrize(
    "line, column",
    [
        ("FN John", 2),
        ("FN", 2),
        (":x", 0),
        ("A.B.C:x", 3),
        ("A;=x:y", 2),
        ('A;P="x', 6),
        ('A;P=x"y:z', 5),
        ("A:\x01", 2),
    ],
)
def test_errors_name_the_column(line, column):
    with pytest.raises(ContentLineError) as err:
        parse(line)
    assert err.value.column == column


@given(st.text(min_size=0, max_size=60), st.integers(min_value=1, max_value=10))
def test_scanner_in_pieces_agrees_with_the_whole(line, step):
    whole = LineScanner()
    a = whole.feed(line) or whole.end()
    pieces = LineScanner()
    b = None
    for i in range(0, len(line), step):
        b = pieces.feed(line[i : i + step])
        if b is not None:
            break
    b = b or pieces.end()
    assert (a is None) == (b is None)
    if a is not None and b is not None:
        assert a.column == b.column


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_fold_then_unfold_gives_the_line_back(line):
    line = line.replace("\r", "").replace("\n", "")
    folded = fold(line)
    assert all(octets(piece) <= 75 for piece in folded.split("\r\n"))
    (logical,) = unfold(folded) or [type("L", (), {"text": ""})()]
    assert logical.text == line


def test_fold_never_splits_a_character():
    line = "FN:" + "é" * 100
    pieces = fold(line).split("\r\n")
    assert [octets(p) for p in pieces][:2] == [75, 75]  # 3 + 36 × 2 = 75; then " " + 37 × 2
    assert "".join(p[1:] if i else p for i, p in enumerate(pieces)) == line


@given(st.text(max_size=80))
def test_escape_then_unescape(value):
    value = value.replace("\r", "")
    assert unescape_text(escape_text(value)) == value
    assert "\n" not in escape_text(value)


def test_split_unescaped():
    assert split_unescaped("a\\,b,c", ",") == ["a\\,b", "c"]
    assert split_unescaped("a\\\\,b", ",") == ["a\\\\", "b"]
