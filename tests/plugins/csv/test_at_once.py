"""The readings made at once (csv.reader for a table with quoted fields, the locator's
lines split at once) agree with the line-by-line readings they stand in for, on many
generated tables and on each of them damaged: the same rows, row starts, errors."""

from __future__ import annotations

import csv
import io
import random

from formatbook_csv.locate import _lines
from formatbook_csv.syntax import CsvError, Table, _lexicon, _quotes_open_fields, parse

CELLS = ["a", "b c", "", "x,y", 'say "hi"', "1.5", " lead", "tab\there", "two\nlines", "cr\rhere", "é", '"']


def _field(rng: random.Random, d: str) -> str:
    cell = rng.choice(CELLS)
    if (rng.random() < 0.7 and any(c in cell for c in f'{d}"\r\n')) or (cell[:1] == " " and rng.random() < 0.8):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def _table(rng: random.Random, d: str) -> str:
    width = rng.randint(1, 4)
    eol = rng.choice(["\n", "\r\n"])
    lines = [d.join(f"h{i}" for i in range(width))]
    for _ in range(rng.randint(1, 6)):
        lines.append(d.join(_field(rng, d) for _ in range(width)))
    return eol.join(lines) + rng.choice(["", eol])


def _damaged(rng: random.Random, text: str) -> str:
    """``text`` with one character inserted, removed or doubled somewhere after its header."""
    start = text.find("\n") + 1
    if start <= 0 or start >= len(text):
        return text
    at = rng.randrange(start, len(text))
    kind = rng.randrange(3)
    if kind == 0:
        return text[:at] + rng.choice(['"', ",", ";", "\n", "\r", " ", "\t", "\n\n"]) + text[at:]
    if kind == 1:
        return text[:at] + text[at + 1 :]
    return text[:at] + text[at] + text[at:]


def _reading(text: str, d: str, at_once: bool) -> tuple:
    """What ``parse`` makes of ``text``, and whether csv.reader read its rows."""
    try:
        table = parse(text, d, min_columns=1, at_once=at_once)
    except CsvError as err:
        return ("error", err.code, err.message, err.span, err.row, err.column), False
    by_reader = table._source is not None
    return (table.header, table.rows, table.starts, table.data_start), by_reader


def test_csv_reader_reads_as_the_line_loop() -> None:
    """1,500 tables (half of them damaged) under three delimiters: identical readings, and
    the tables with quoted fields do go through csv.reader (``_source`` is set)."""
    rng = random.Random(29)
    by_reader = 0
    for i in range(1_500):
        d = (",", ";", "\t")[i % 3]
        text = _table(rng, d)
        if i % 2:
            text = _damaged(rng, text)
        fast, read_at_once = _reading(text, d, True)
        by_reader += read_at_once
        assert fast == _reading(text, d, False)[0], repr(text)
    assert by_reader > 200, by_reader  # the path under test was taken


def test_a_wrong_row_after_many_is_found_where_the_loop_finds_it() -> None:
    """csv.reader reads the rows before the first wrong one; the loop says what is wrong
    with it, at its offset (after rows holding line breaks in quotes)."""
    text = 'a,b\n1,"x\ny"\n2,3\n4,5,6\n7,8\n'
    err = _reading(text, ",", True)[0]
    assert err == ("error", "csv.field_count", "row 3 has 3 fields where the header has 2", (16, 21), 3, None)
    assert err == _reading(text, ",", False)[0]


def _lines_by_hand(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """The locator's logical lines, character by character: a line feed ends a line unless
    an odd number of quotes came before it on that logical line."""
    out = []
    line_start = start
    quotes = 0
    for i in range(start, end):
        if text[i] == '"':
            quotes += 1
        elif text[i] == "\n" and quotes % 2 == 0:
            out.append((line_start, i, text[line_start:i]))
            line_start = i + 1
            quotes = 0
    out.append((line_start, end, text[line_start:end]))
    return out


def test_locator_lines_split_at_once_agree() -> None:
    rng = random.Random(30)
    for _ in range(3_000):
        text = "".join(rng.choice('ab,\n"\r ') for _ in range(rng.randint(0, 16)))
        start = rng.randint(0, len(text))
        end = rng.randint(start, len(text))
        assert _lines(text, start, end) == _lines_by_hand(text, start, end), (text, start, end)


def _reader_takes(text: str, d: str) -> bool:
    try:
        list(csv.reader(io.StringIO(text, newline="\n"), delimiter=d, strict=True))
    except csv.Error:
        return False
    return True


def test_quotes_opening_fields_is_strict_only_where_the_lexicon_says_so() -> None:
    """``_quotes_open_fields`` stands in for the lexicon's regex where csv.reader (strict)
    reads the text: on 16,000 short texts of the characters that matter, under four
    delimiters, it never says strict where the lexicon does not, and says it for most
    of what the lexicon takes."""
    rng = random.Random(31)
    shown = matched = 0
    for i in range(16_000):
        d = (",", ";", "\t", " ")[i % 4]
        alphabet = ["a", d, d, '"', '"', '""', " ", "\t", "\r", "\n", "\n", "\r\n"]
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        if not _reader_takes(text, d):
            continue
        lexical = _lexicon(d).fullmatch(text) is not None
        matched += lexical
        if _quotes_open_fields(text, d):
            shown += 1
            assert lexical, (d, text)
    assert shown > matched * 0.7 > 3_000, (shown, matched)


def test_what_csv_reader_takes_and_the_strict_reading_refuses() -> None:
    """Each is read by csv.reader (strict) without error and is not strict CSV; by hand."""
    for text in ['1,a"b"\n', '1,a"\n', '"x"\n1, "y"\n', '"x",\n "y",1\n', '"x"\r', '"x"\r\r\n2', '1,"x"\n\t2,3']:
        assert _reader_takes(text, ",")
        assert not _quotes_open_fields(text, ","), text
        assert _lexicon(",").fullmatch(text) is None
    for text in ['1,"a, b"\n"",""\n', '"x"""\r\n2,"y\n\nz"', '"a"\t""\n\t"b"']:
        d = "\t" if "\t" in text else ","
        assert _quotes_open_fields(text, d) and _lexicon(d).fullmatch(text), text


def test_blank_lines_read_at_once_as_by_the_loop() -> None:
    """A blank line is a row of no cell to csv.reader (the loop then says what is wrong
    there); inside a quoted field it is text."""
    for text in ['a,b\n1,"x"\n\n2,3\n', 'a,b\r\n1,"x"\r\n\r\n2,3', 'a,b\n1,"x\n\ny"\n2,3\n', 'a,b\n"1",2\n\n']:
        assert _reading(text, ",", True)[0] == _reading(text, ",", False)[0], text
    assert _reading('a,b\n1,"x\n\ny"\n2,3\n', ",", True)[1]  # csv.reader read it


def test_row_dicts_as_zip_makes_them() -> None:
    """The dicts made by a function generated for the width are ``dict(zip(...))``'s, for
    every width up to past the generated ones, rows of another width and a repeated name
    included."""
    for width in (1, 2, 4, 17, 64, 65, 80):
        header = [f"c{i}" for i in range(width)]
        rows = [[f"{r}.{i}" for i in range(width)] for r in range(3)]
        assert Table(header, rows).records() == [dict(zip(header, row, strict=True)) for row in rows]
    odd = [["1", "2"], ["3"], ["4", "5", "6"]]
    assert Table(["a", "b"], odd).records() == [{"a": "1", "b": "2"}, {"a": "3"}, {"a": "4", "b": "5"}]
    assert Table(["a", "a"], [["1", "2"]]).records() == [{"a": "2"}]
    assert Table(["a", "b"], []).records() == []
