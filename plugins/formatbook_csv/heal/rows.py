"""Rows: the header cleaned, every data row brought to the header's field count where the
repair is certain, and the result written.

- reading notes (blanks, quotes, carriage returns) and blank lines become repairs;
- header cells lose blanks around them (``header_spaces``); an empty last column that
  every row leaves empty too (a delimiter ending every line) is dropped
  (``trailing_delimiter``); a header that is still no header of column names (prose, a
  duplicate) is a violation;
- a data row with fewer fields: split at a second delimiter when that fits
  (:mod:`.delimiters`); the last row, cut off by the end of the text, is dropped
  (``truncated_row``); another is padded with empty fields only when the schema lets the
  missing columns be empty (``ragged_row``), else a violation;
- a row that repeats the header (a second table after a blank line?) is a violation;
- a row with more fields: empty unquoted fields past the header's count are dropped
  (``trailing_delimiter``); anything else is ambiguous (which delimiter is data?): a
  violation.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from itertools import islice, repeat
from operator import itemgetter, lt
from typing import Any

from formatbook_core.decoding import bom_length
from formatbook_core.results import make_repairs

from .. import dialect
from ..locate import ELISIONS
from ..names import header_problem, name_problem, others
from . import delimiters
from .reader import Note, Record, own_flags
from .state import Healing
from .writer import write

_NOTE_KINDS = {"leading_space": "space_after_delimiter"}


_BLANK_LINES = "dropped blank line(s) between rows"


def notes(h: Healing) -> None:
    """Reading notes and blank lines as repairs, in text order (sorted as tuples
    ``(start, end, kind, message)``). The reading gives both in that order already, as a
    rule: then they are merged as they come, without a sorted copy of every note (a
    reply of lone carriage returns has one a line), and let go once listed. A reply with
    notes only, or blank lines only (most damaged tables), lists them as they are, a batch
    at a time."""
    if h.notes and (h.blank or not _in_order(h.notes)):
        _merged(h)
    elif h.notes:
        _listed(h, h.notes, _noted)
    else:
        _listed(h, h.blank, _blank_lines)
    h.notes, h.blank = [], []


def place_notes(h: Healing) -> None:
    """The plan's ``notes`` step: where the notes' repairs go among the repairs is fixed
    here (after the reading's, before the steps' after it); they are made by
    :func:`listed_notes` once the records are let go. A note (a tuple) takes less than its
    repair: a row of ``1, 2<CR>`` kept its record and its two repairs at once, 150 bytes
    a character; its record and its notes, then its repairs without the record, 125."""
    h.notes_at = len(h.repairs)


def listed_notes(h: Healing) -> None:
    """The notes' repairs made (:func:`notes`) where :func:`place_notes` placed them."""
    if h.notes_at < 0:
        return
    later = h.repairs[h.notes_at :]
    del h.repairs[h.notes_at :]
    h.notes_at = -1
    notes(h)
    h.repairs += later


def _merged(h: Healing) -> None:
    """``notes`` for notes and blank lines both, or notes out of order."""
    if _in_order(h.notes):
        # each note let go as its repair is made (a lone carriage return and a blank
        # before a field are two notes of a 5-character row): taken from the end of the
        # lists reversed
        h.notes.reverse()
        h.blank.reverse()
        blank = ((start, end, "blank_line", _BLANK_LINES) for start, end in _popped(h.blank))
        read = ((start, end, _NOTE_KINDS.get(kind, kind), message) for kind, start, end, message in _popped(h.notes))
        h.repair_all(heapq.merge(blank, read))
    else:
        blank = ((start, end, "blank_line", _BLANK_LINES) for start, end in h.blank)
        read = ((start, end, _NOTE_KINDS.get(kind, kind), message) for kind, start, end, message in h.notes)
        h.repair_all(sorted([*blank, *read]))


#: notes or blank lines listed at a time by :func:`_listed`
_BATCH = 256
_KIND, _START, _END, _MESSAGE = map(itemgetter, range(4))
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def _noted(h: Healing, notes: list[Note]) -> None:
    """Reading notes (``(kind, start, end, message)``) listed as repairs."""
    kinds = list(map(_KIND, notes))
    if "leading_space" in kinds:
        kinds = [_NOTE_KINDS.get(kind, kind) for kind in kinds]
    h.repairs += make_repairs(kinds, map(_MESSAGE, notes), map(_START, notes), map(_END, notes))


def _blank_lines(h: Healing, spans: list[tuple[int, int]]) -> None:
    """Blank-line spans listed as repairs."""
    h.repairs += make_repairs(repeat("blank_line"), repeat(_BLANK_LINES), map(_FIRST, spans), map(_SECOND, spans))


def _listed(h: Healing, items: list[Any], listed: Callable[[Healing, list[Any]], None]) -> None:
    """``items`` ``listed`` (in the order the repairs list them), a batch at a time, each
    batch let go of ``items`` (taken from its end, after one reversal) as its repairs are
    made: the notes and their repairs are not all alive at once."""
    items.reverse()
    while items:
        batch = items[-_BATCH:]
        del items[-_BATCH:]
        batch.reverse()
        listed(h, batch)


def _popped(items: list[Any]) -> Iterator[Any]:
    """The items of ``items`` from its end, each taken off the list as it is given."""
    pop = items.pop
    while items:
        yield pop()


def _in_order(notes: list[tuple[str, int, int, str]]) -> bool:
    """Whether ``notes`` are sorted as the repairs list them (by start, end, kind, message):
    at once when their starts only rise (as a reading makes them), else note by note."""
    starts = list(map(_START, notes))
    if all(map(lt, starts, islice(starts, 1, None))):
        return True
    last: tuple[int, int, str, str] | None = None
    for kind, start, end, message in notes:
        key = (start, end, _NOTE_KINDS.get(kind, kind), message)
        if last is not None and key < last:
            return False
        last = key
    return True


def header(h: Healing) -> None:
    if not h.records:
        raise h.fail("csv.empty", "no CSV: the text holds no row")
    head = h.records[0]
    for i, cell in enumerate(head.cells):
        stripped = cell.strip(" \t")
        if stripped != cell and not head.quoted[i] and stripped:
            h.repair(
                "header_spaces",
                f"removed blanks around the column name {stripped!r}",
                head.starts[i],
                head.starts[i] + len(cell),
            )
            head.cells[i] = stripped
    rows = h.records[1:]
    while (
        len(head.cells) > 1
        and not head.cells[-1].strip()
        and all(len(r.cells) < len(head.cells) or not r.cells[-1] for r in rows if len(r.cells) <= len(head.cells))
    ):
        h.repair(
            "trailing_delimiter",
            "dropped an empty last column (a delimiter ending the header)",
            head.starts[-1] - 1,
            head.end,
        )
        _drop_last(head)
        for r in rows:
            if len(r.cells) == len(head.cells) + 1 and not r.cells[-1]:
                h.repair("trailing_delimiter", "dropped an empty field past the last column", r.starts[-1] - 1, r.end)
                _drop_last(r)
    seen: set[str] = set()
    other = others(h.delimiter)
    for i, cell in enumerate(head.cells):
        problem = name_problem(cell, "" if head.quoted[i] else other)
        code = "csv.header"
        if problem is None and cell in seen:
            problem, code = f"the column {cell!r} appears twice", "csv.duplicate_column"
        if problem is not None:
            raise h.fail(code, f"{problem}: the first row is not a header of column names", head.starts[i], head.end)
        seen.add(cell)
    problem = header_problem(head.cells)
    if problem is not None:
        raise h.fail("csv.header", problem, head.start, head.end)
    minimum = 1 if h.schema is not None else 2
    if len(head.cells) < minimum:
        raise h.fail(
            "csv.columns",
            f"the header has {len(head.cells)} column; CSV data has at least {minimum} (a schema may declare one)",
            head.start,
            head.end,
        )


def _drop_last(rec: Record) -> None:
    rec.cells.pop()
    own_flags(rec).pop()
    rec.starts.pop()


def _elision(rec: Record) -> bool:
    """A row standing for rows left out (``...``): no cut-off row, the table is not whole."""
    return len(rec.cells) == 1 and not rec.quoted[0] and rec.cells[0].strip() in ELISIONS


def rows(h: Healing) -> None:
    head = h.records[0]
    width = len(head.cells)
    kept: list[Record] = [head]
    data = h.records[1:]
    for index, rec in enumerate(data):
        number = index + 1
        last = index == len(data) - 1
        if rec.cut:
            if rec.cut_multiline or not last:
                raise h.fail(
                    "csv.unclosed_quote",
                    f"row {number} opens a quoted field that runs across lines to the end of the text: "
                    "a cut-off cell or a stray quote cannot be told apart",
                    rec.start,
                    rec.end,
                )
            h.repair("truncated_row", f"dropped row {number}, cut off inside a quoted field", rec.start, rec.end)
            continue
        if rec.cells == head.cells:
            raise h.fail(
                "csv.ambiguous_row",
                f"row {number} repeats the header: a second table follows, and which rows belong where cannot be told",
                rec.start,
                rec.end,
                path=(index,),
            )
        if len(rec.cells) != width:
            delimiters.resplit(h, rec, width, number)
        if _elision(rec) and width > 1:
            raise h.fail(
                "csv.field_count",
                f"row {number} is {rec.cells[0].strip()!r}, standing for rows left out: the table is not whole",
                rec.start,
                rec.end,
                path=(index,),
            )
        if len(rec.cells) < width:
            if last and not rec.eol:
                h.repair("truncated_row", f"dropped row {number}, cut off by the end of the text", rec.start, rec.end)
                continue
            missing = head.cells[len(rec.cells) :]
            if h.schema is None or not all(h.schema.may_be_empty(c) for c in missing):
                why = "no schema lets" if h.schema is None else "the schema does not let"
                raise h.fail(
                    "csv.field_count",
                    f"row {number} has {len(rec.cells)} fields where the header has {width} (a ragged row; {why} "
                    f"{', '.join(repr(c) for c in missing)} be empty)",
                    rec.start,
                    rec.end,
                    path=(index,),
                )
            h.repair("ragged_row", f"padded row {number} with {len(missing)} empty field(s)", rec.end, rec.end)
            rec.cells += [""] * len(missing)
            own_flags(rec).extend([False] * len(missing))
        if len(rec.cells) > width:
            extra = rec.cells[width:]
            if any(extra) or any(rec.quoted[width:]):
                raise h.fail(
                    "csv.ambiguous_row",
                    f"row {number} has {len(rec.cells)} fields where the header has {width}: a delimiter inside an "
                    "unquoted field? which one cannot be told",
                    rec.start,
                    rec.end,
                    path=(index,),
                )
            h.repair(
                "trailing_delimiter",
                f"dropped {len(extra)} empty field(s) past the last column of row {number}",
                rec.start_of(width) - 1,
                rec.end,
            )
            rec.keep(width)
        kept.append(rec)
    _drop_blank_tail(h, kept)
    if len(kept) < 2:
        raise h.fail("csv.no_data", "a header and no data row: CSV data has at least one row")
    if not kept[-1].eol and len(kept) < len(h.records):
        pass
    h.records = kept


def write_out(h: Healing) -> None:
    records = h.records
    eol = next((r.eol for r in records if r.eol), "\n")
    if eol == "\r":
        eol = "\n"
    last = len(records) - 1
    ends_open = not h.text.endswith(("\n", "\r"))

    def out_rows() -> Iterator[tuple[list[str], Sequence[bool], str]]:
        """Each record as ``(cells, quoted, line end)``, made as the writer asks (no list of them)."""
        for i, rec in enumerate(records):
            cells, quoted = rec.cells, rec.quoted
            rec_eol = rec.eol if rec.eol in ("\n", "\r\n") else (eol if rec.eol == "\r" or i < last else "")
            # the text ends with a line break only when the reply's did (a dropped last row
            # leaves the row before it with its own: taken off, as locate would take it)
            if i == last:
                if ends_open:
                    rec_eol = ""
                if cells and cells[-1][-1:].isspace() and not quoted[-1]:
                    # a last cell ending in blanks is quoted, so that the text does not end in
                    # white space (before its line break), which locate would take off the
                    # next time (the value is kept)
                    quoted = [*quoted[:-1], True]
            yield cells, quoted, rec_eol

    written = write(out_rows(), h.delimiter if h.delimiter != dialect.AUTO else h.reading, h.limits.max_size)
    # the reply's byte-order mark stays where it was: read past, never a part of a name
    h.out = h.text[: bom_length(h.text)] + written


def _drop_blank_tail(h: Healing, kept: list[Record]) -> None:
    """Drop the last rows whose cells are all empty when the delimiter written is white
    space: written out, such a row is a line of tabs, which every reader takes as white
    space after the table (``syntax.table_bounds``), not as a row."""
    if not h.delimiter.isspace():
        return
    while len(kept) > 1 and not any(kept[-1].cells) and not any(kept[-1].quoted):
        rec = kept.pop()
        h.repair("blank_row", "dropped a last row of empty fields (written with tabs it is blank)", rec.start, rec.end)
