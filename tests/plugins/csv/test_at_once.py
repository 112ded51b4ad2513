"""The readings made at once (csv.reader for a table with quoted fields, the locator's
lines split at once) agree with the line-by-line readings they stand in for, on many
generated tables and on each of them damaged: the same rows, row starts, errors."""

from __future__ import annotations

import random

from formatbook_csv.locate import _lines
from formatbook_csv.syntax import CsvError, parse

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
