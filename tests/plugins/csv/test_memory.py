"""Memory per character of a check: bounded on tables of short rows."""

from __future__ import annotations

from formatbook_core.fuzzing.pathological import traced_check


def _bytes_per_character(text: str) -> float:
    result, peak = traced_check(text, "EXPECT CSV")
    assert result.ok
    return peak


def test_short_rows_stay_under_the_bound() -> None:
    """``str.split`` leaves room for 12 cells in every list it returns: a row of ``1,2``
    kept 168 bytes for 4 characters (102 bytes a character in all, now 82; the value's
    dicts take 46 of them)."""
    assert _bytes_per_character("a,b\n" + "1,2\n" * 10_000) < 90
    assert _bytes_per_character("name,email,age\n" + "Ada Lovelace,ada@example.com,36\n" * 3_000) < 50


def test_lone_carriage_returns_stay_under_the_bound() -> None:
    """Lines ended by a carriage return alone are healed, one repair a line: a row of
    ``1,2`` took 234 bytes a character (a list of room for 12 cells, a list of flags and
    a sorted copy of the notes per row, the records kept while the value was built); a
    shared tuple of flags, cells copied to size, notes merged and let go and the records
    let go before the value make it 143."""
    assert _bytes_per_character("a,b\r" + "1,2\r" * 10_000) < 150


def test_two_repairs_a_short_row_are_made_as_their_notes_go() -> None:
    """``1, 2<CR>``: a blank before a field and a lone carriage return, two notes and two
    repairs a 5-character row. The notes were held until every repair was made, and each
    record read field by field had a list of flags: 209 bytes a character at the peak
    (4,000 rows; 210 at 10,000). Each note is let go as its repair is made, a record of
    no quoted field shares the tuple of flags: 172 (166). Issue 30 asks 150: the records
    (a ``Record``, its cells and starts) and the repairs are the rest."""
    assert _bytes_per_character("a,b\r" + "1, 2\r" * 4_000) < 180


def test_a_refused_one_column_header_reads_no_further() -> None:
    """``a<CR>a<CR>...``: a one-column header, refused (``csv.columns``) whatever the rows
    say. Healing read every line first, as a record, a note and a repair each: 283 bytes a
    character at the peak. The header is decided first now (4 bytes a character)."""
    result, peak = traced_check("a\r" * 20_000, "EXPECT CSV")
    assert [v.code for v in result.violations] == ["csv.columns"]
    assert peak < 50


def test_two_repairs_a_short_row_within_issue_30s_bound() -> None:
    """``1, 2<CR>`` rows again, at issue 30's bound of 150 bytes a character: a slotted
    ``Repair`` (no ``__dict__``), the notes' repairs made once the records are let go
    (a note takes less than its repair), and the table keeping the rows' dicts only make
    it 145 (4,000 rows; 137 at 10,000)."""
    assert _bytes_per_character("a,b\r" + "1, 2\r" * 4_000) < 150
