"""The strict reading of CSV: RFC 4180 quoting, LF or CRLF line ends, one delimiter,
a header of column names (see :mod:`.names`), at least one data row, every row with the
header's number of fields.

Choices where RFC 4180 leaves room (each tested):

- an unquoted field holds no quote, no line break and does not start with a blank
  (a space, or a tab when tab is not the delimiter): ``a, b`` is written by models
  meaning ``b`` — strictly invalid, healing removes the blank (quote a field to keep it);
- a blank line is never a row (write ``""`` for a one-column row holding nothing);
  one line break may end the text, no more;
- a carriage return alone is no line end;
- column names are unique.

:func:`parse` reads the whole text once: a line without a quote is split by ``str.split``
(the common case, fast); a line with one goes through one anchored regular expression per
field, linear (the quoted body is ``[^"]*(?:""[^"]*)*``).
"""

from __future__ import annotations

import csv
import io
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, islice, repeat
from operator import add, contains, itemgetter, methodcaller
from typing import Any

from formatbook_core import Span

from .names import header_problem, name_problem, others

_FIELDS: dict[str, re.Pattern[str]] = {}


def field_pattern(delimiter: str) -> re.Pattern[str]:
    """One field at a position: a quoted body (group 1) or an unquoted run (group 2)."""
    pattern = _FIELDS.get(delimiter)
    if pattern is None:
        d = re.escape(delimiter)
        pattern = re.compile(rf'"([^"]*(?:""[^"]*)*)"|([^"{d}\r\n]*)')
        _FIELDS[delimiter] = pattern
    return pattern


class CsvError(Exception):
    """A strict reading failed: ``code`` (``csv.quote``...), ``message``, ``span``, and the
    data row (1-based, 0 for the header) and column it concerns, where known."""

    def __init__(self, code: str, message: str, span: Span, row: int | None = None, column: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
        self.row = row
        self.column = column


class Table:
    """A strictly read CSV: ``header`` (column names), ``rows`` (data rows as lists of
    cells) and ``starts`` (the offset where each data row starts; worked out when first
    asked for when the rows were read at once, see :func:`_quoted_rows`).

    A table read at once keeps its rows as the dicts of :meth:`records` only (the value:
    a list and a dict a row were 1.5 times what reading the text costs csv.reader);
    ``rows`` are then made from them when first asked for."""

    __slots__ = ("header", "_rows", "_records", "_starts", "header_start", "delimiter", "data_start", "_source")

    def __init__(
        self,
        header: list[str],
        rows: list[list[str]] | None = None,
        _starts: list[int] | None = None,
        header_start: int = 0,
        delimiter: str = ",",
        data_start: int = 0,
        _source: tuple[str, int] | None = None,
        *,
        records: list[dict[str, str]] | None = None,
    ):
        self.header = header
        #: ``None`` when the table holds its rows as ``records`` only (made from them when asked for)
        self._rows: list[list[str]] | None = rows if rows is not None or records is not None else []
        #: the rows' dicts, when the rows were read as dicts (every row of the header's width)
        self._records = records
        self._starts = _starts
        self.header_start = header_start
        self.delimiter = delimiter
        #: where the first data row starts (after the header's line end)
        self.data_start = data_start
        #: ``(text, offset)``: the rows' starts are to be found in ``text``, shifted by ``offset``
        self._source = _source

    def __repr__(self) -> str:
        return f"Table(header={self.header!r}, rows={self.rows!r}, delimiter={self.delimiter!r})"

    @property
    def rows(self) -> list[list[str]]:
        if self._rows is None:
            self._rows = list(map(list, map(dict.values, self._records or ())))
        return self._rows

    def cells(self) -> Iterator[Iterable[str]]:
        """Each data row's cells, in order (without making ``rows`` from the dicts)."""
        if self._rows is None:
            return map(dict.values, self._records or ())
        return iter(self._rows)

    def column(self, i: int) -> list[str]:
        """The cells of column ``i`` (``i`` a column of the header), row by row."""
        if self._rows is None:
            return list(map(itemgetter(self.header[i]), self._records or ()))
        return [row[i] for row in self._rows]

    def repeats_header(self) -> bool:
        """Whether a data row is the header again (cell for cell)."""
        if self._rows is not None:
            return self.header in self._rows
        records = self._records or []
        first = self.header[0] if self.header else None
        if first is None or first not in map(itemgetter(first), records):
            return False
        return dict(zip(self.header, self.header, strict=True)) in records

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = []
        if self._source is not None:
            text, offset = self._source
            self._source = None
            found = parse(text, self.delimiter, min_columns=1, at_once=False).starts
            self._starts = [start + offset for start in found] if offset else found
        return self._starts

    @starts.setter
    def starts(self, value: list[int]) -> None:
        self._source = None
        self._starts = value

    def shift(self, offset: int) -> None:
        """The rows' starts moved by ``offset`` (the table was read from a slice)."""
        self.data_start += offset
        if self._source is not None:
            self._source = (self._source[0], self._source[1] + offset)
        else:
            self.starts = [start + offset for start in self.starts]

    def records(self) -> list[dict[str, str]]:
        """The rows as dicts keyed by the header (a row of another width: ``zip``'s dict, cut
        at the shorter). A table read as dicts gives its list (the same list each time)."""
        if self._records is not None:
            return self._records
        rows = self.rows
        width = len(self.header)
        if 0 < width <= _MAX_MADE:
            try:
                return list(map(_row_maker(width)(*self.header), rows))
            except ValueError:  # a row of another width (healing builds tables from records)
                pass
        return list(map(dict, map(zip, repeat(self.header), rows)))


#: the widest header whose rows' dicts are made by a function made for its width
_MAX_MADE = 64
_MAKERS: dict[int, Callable[..., Callable[[list[str]], dict[str, str]]]] = {}


def _row_maker(width: int) -> Callable[..., Callable[[list[str]], dict[str, str]]]:
    """A function of ``width`` column names giving the function that makes a row's dict:
    ``a0, a1, ... = row`` and ``{k0: a0, k1: a1, ...}``, twice as fast as ``dict(zip(...))``
    (one display, no iterator a row). The generated source holds the width only: the names
    are bound as the maker's arguments, never written into code. A row of another width
    raises ``ValueError``."""
    maker = _MAKERS.get(width)
    if maker is None:
        keys = ", ".join(f"k{i}" for i in range(width))
        cells = ", ".join(f"a{i}" for i in range(width))
        pairs = ", ".join(f"k{i}: a{i}" for i in range(width))
        source = (
            f"def maker({keys}):\n    def row(r):\n        {cells}, = r\n        return {{{pairs}}}\n    return row\n"
        )
        namespace: dict[str, Any] = {}
        exec(compile(source, f"<csv row of {width}>", "exec"), namespace)
        maker = _MAKERS[width] = namespace["maker"]
    return maker


def _blank_start(cell: str, delimiter: str) -> bool:
    return bool(cell) and (cell[0] == " " or (cell[0] == "\t" and delimiter != "\t"))


def split_line(
    text: str, pos: int, delimiter: str, row: int, quoted: list[bool] | None = None
) -> tuple[list[str], int, list[int]]:
    """The fields of the record starting at ``pos`` (it may span lines inside quotes), the
    offset after its line end, and where each field starts (``quoted``, when given, gets
    whether each was quoted). Raises :class:`CsvError`."""
    n = len(text)
    nl = text.find("\n", pos)
    line_end = n if nl < 0 else nl
    line = text[pos:line_end]
    if '"' not in line:
        body = line[:-1] if line.endswith("\r") else line
        if "\r" in body:
            at = pos + body.index("\r")
            raise CsvError("csv.line_break", "a carriage return alone is no line end", Span(at, at + 1), row)
        cells = body.split(delimiter)
        if (
            body[:1] == " "
            or (delimiter + " ") in body
            or (delimiter != "\t" and (body[:1] == "\t" or (delimiter + "\t") in body))
        ):
            at = pos
            for cell in cells:
                if _blank_start(cell, delimiter):
                    raise _blank_error(at, row)
                at += len(cell) + 1
        starts = []
        if quoted is not None:  # the header: where each cell starts is wanted
            at = pos
            for cell in cells:
                starts.append(at)
                at += len(cell) + 1
        if quoted is not None:
            quoted += [False] * len(cells)
        return cells, (n if nl < 0 else nl + 1), starts
    pattern = field_pattern(delimiter)
    cells = []
    starts = []
    while True:
        m = pattern.match(text, pos)
        assert m is not None  # the unquoted alternative matches the empty string
        starts.append(pos)
        body = m.group(1)
        if quoted is not None:
            quoted.append(body is not None)
        if body is not None:
            cells.append(body.replace('""', '"'))
        else:
            cell = m.group(2)
            if _blank_start(cell, delimiter):
                raise _blank_error(pos, row)
            if m.end() < n and text[m.end()] == '"':
                if not cell and text.find('"', m.end() + 1) < 0:
                    raise CsvError("csv.unclosed_quote", "a quoted field is never closed", Span(pos, n), row)
                at = m.end()
                raise CsvError(
                    "csv.quote",
                    "a quote inside an unquoted field (quote the field and double the quote)",
                    Span(at, at + 1),
                    row,
                )
            cells.append(cell)
        end = m.end()
        if end >= n:
            return cells, n, starts
        ch = text[end]
        if ch == delimiter:
            pos = end + 1
            continue
        if ch == "\n":
            return cells, end + 1, starts
        if ch == "\r":
            if end + 1 < n and text[end + 1] == "\n":
                return cells, end + 2, starts
            raise CsvError("csv.line_break", "a carriage return alone is no line end", Span(end, end + 1), row)
        raise CsvError(
            "csv.quote", "text after a closing quote (a quote inside a field must be doubled)", Span(end, end + 1), row
        )


def _blank_error(at: int, row: int) -> CsvError:
    return CsvError(
        "csv.leading_space",
        "a field starts with a blank (after the delimiter): quote the field to keep it",
        Span(at, at + 1),
        row,
    )


def parse(
    text: str, delimiter: str = ",", *, min_columns: int = 2, at_once: bool = True, lexical: bool = False
) -> Table:
    """The strict reading of ``text`` (see the module doc); raises :class:`CsvError`.
    ``at_once``: rows with quoted fields may be read by ``csv.reader`` (see
    :func:`_quoted_rows`); else line by line here. ``lexical``: the caller vouches that
    the rows are lexically strict (:func:`_lexicon`), as healing's line-by-line writing
    makes them: not tested again before csv.reader reads them."""
    n = len(text)
    if not text.strip():
        raise CsvError("csv.empty", "no CSV: the text is empty", Span(0, n))
    if text[0] in "\r\n":
        raise CsvError("csv.blank_line", "a blank line is no row", Span(0, 1), 0)
    quoted: list[bool] = []
    # a byte-order mark opening the text marks its encoding: no part of the first name
    header, pos, starts = split_line(text, 1 if text.startswith("\ufeff") else 0, delimiter, 0, quoted)
    seen: set[str] = set()
    other = others(delimiter)
    for i, name in enumerate(header):
        problem = name_problem(name, "" if quoted[i] else other)
        end = starts[i + 1] - 1 if i + 1 < len(starts) else pos
        if problem is None and name in seen:
            problem = f"the column {name!r} appears twice"
            code = "csv.duplicate_column"
        else:
            code = "csv.header"
        if problem is not None:
            raise CsvError(code, problem, Span(starts[i], max(starts[i], end)), 0, name)
        seen.add(name)
    problem = header_problem(header)
    if problem is not None:
        raise CsvError("csv.header", problem, Span(0, pos), 0)
    if len(header) < min_columns:
        raise CsvError(
            "csv.columns",
            f"the header has {len(header)} column; CSV data has at least {min_columns} "
            "(a schema may declare a single column)",
            Span(0, pos),
            0,
        )
    width = len(header)
    make = _row_maker(width)(*header) if width <= _MAX_MADE else None
    d = delimiter
    broken = pos < n and first_row_broken(text, pos, d, width)  # the loop says what at once
    plain = None if broken else _plain_rows(text, pos, d, width, make)
    if plain is not None:
        rows_read, records, row_starts = plain
        return Table(header, rows_read, row_starts, delimiter=delimiter, data_start=pos, records=records)
    table = Table(header, delimiter=delimiter, data_start=pos)
    rows = table.rows
    row_starts = table.starts
    number = 0
    blank_after = (d + " ", d + "\t") if d != "\t" else (d + " ",)
    find = text.find
    skipped = False
    if at_once and pos < n and not broken:
        read = _quoted_rows(text, pos, d, width, rows, make, lexical)
        if isinstance(read, list):  # every row's dict: their starts found when asked for
            return Table(header, None, None, delimiter=delimiter, data_start=pos, _source=(text, 0), records=read)
        if read is True:
            table._starts = None
            table._source = (text, 0)
            pos = n
        elif isinstance(read, tuple):  # rows before the first wrong one are right: the loop starts there
            number, pos = read
            skipped = True
    while pos < n:
        if text[pos] == "\n" or text.startswith("\r\n", pos):
            raise CsvError("csv.blank_line", "a blank line is no row", Span(pos, pos + 1), number + 1)
        number += 1
        start = pos
        # the common case inline: a line without a quote, a blank after a delimiter or a
        # lone carriage return (anything else goes through split_line, which says what)
        nl = find("\n", pos)
        line = text[pos:] if nl < 0 else text[pos:nl]
        if line.endswith("\r"):
            line = line[:-1]
        if (
            '"' not in line
            and "\r" not in line
            and line[:1] not in (" ", "\t")
            and not any(b in line for b in blank_after)
        ):
            if line.count(d) + 1 != width:
                raise CsvError(
                    "csv.field_count",
                    f"row {number} has {line.count(d) + 1} fields where the header has {width}",
                    Span(start, n if nl < 0 else nl),
                    number,
                )
            rows.append(list(line.split(d)))  # str.split leaves room for 12 cells: 168 bytes a row
            row_starts.append(start)
            pos = n if nl < 0 else nl + 1
            continue
        cells, pos, _ = split_line(text, pos, delimiter, number)
        if len(cells) != width:
            raise CsvError(
                "csv.field_count",
                f"row {number} has {len(cells)} fields where the header has {width}",
                Span(start, pos),
                number,
            )
        rows.append(cells)
        row_starts.append(start)
    if skipped:  # the row skipped to always fails (csv.reader read it as the loop does): never here
        return parse(text, delimiter, min_columns=min_columns, at_once=False)
    if not rows:
        raise CsvError("csv.no_data", "a header and no data row: CSV data has at least one row", Span(0, n), 0)
    return table


def _plain_rows(
    text: str, pos: int, d: str, width: int, make: Callable[[list[str]], dict[str, str]] | None
) -> tuple[list[list[str]] | None, list[dict[str, str]] | None, list[int]] | None:
    """The data rows from ``pos`` read at once when no line needs more than a split: no
    quote, carriage return, blank line or blank opening a field anywhere, and every line
    with the header's field count (else ``None``, nothing read: the loop says what is
    wrong). ``(rows, None, starts)``, or with ``make`` (the row maker of the header)
    ``(None, dicts, starts)``: each line's split made a dict at once, no list kept."""
    rest = text[pos:]
    if not rest or '"' in rest or "\r" in rest or "\n\n" in rest or rest[:1] in (" ", "\t", "\n"):
        return None
    if "\n " in rest or "\n\t" in rest or (d + " ") in rest or (d != "\t" and (d + "\t") in rest):
        return None
    lines = (rest[:-1] if rest.endswith("\n") else rest).split("\n")
    del rest
    starts = list(accumulate(map(add, map(len, lines[:-1]), repeat(1)), initial=pos))
    if make is not None:
        try:
            return None, list(map(make, map(methodcaller("split", d), lines))), starts
        except ValueError:  # a line of another field count
            return None
    cells = list(map(list, map(methodcaller("split", d), lines)))  # a copy: split leaves room for 12
    if set(map(len, cells)) != {width}:
        return None
    return cells, None, starts


def odd_quotes(text: str) -> bool:
    """Whether a line of ``text`` holds an odd number of quotes (a quoted field across
    lines, or a stray quote). Split at quotes, the pieces at odd places are between the
    quotes paired in order: every line holds an even number exactly when there is an
    even number in all and no such piece holds a line feed (the first line of an odd
    number pairs its last quote with one on a later line). At C speed, with a piece a
    quote: no pass over the lines."""
    pieces = text.split('"')
    return not len(pieces) & 1 or any(map(contains, islice(pieces, 1, None, 2), repeat("\n")))


_LEXICON: dict[str, re.Pattern[str]] = {}


def _lexicon(delimiter: str) -> re.Pattern[str]:
    """The lines of strict CSV, lexically: each field quoted (``[^"]*(?:""[^"]*)*``) or an
    unquoted run without a quote or line break that does not start with a blank, lines
    ended by LF or CRLF. Linear: every alternative is told apart by its first character
    and every repetition is possessive (nothing is tried twice)."""
    pattern = _LEXICON.get(delimiter)
    if pattern is None:
        d = re.escape(delimiter)
        lead = "" if delimiter == "\t" else "\t"
        one = rf'(?:"[^"]*+(?:""[^"]*+)*+"|[^"{d}\r\n {lead}][^"{d}\r\n]*+|)'
        line = rf"{one}(?:{d}{one})*+"
        pattern = _LEXICON[delimiter] = re.compile(rf"(?:{line}\r?\n)*+(?:{line})?")
    return pattern


_BLANK_RUNS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {}


def blank_runs(delimiter: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The blanks opening a field (a space, or a tab when tab is not the delimiter) after a
    delimiter, and after a line feed: two patterns, each led by a literal that the engine
    searches for (one pattern of a character class first tries every position: six times
    slower)."""
    found = _BLANK_RUNS.get(delimiter)
    if found is None:
        blank = "[ ]+" if delimiter == "\t" else "[ \t]+"
        found = _BLANK_RUNS[delimiter] = (re.compile(re.escape(delimiter) + blank), re.compile("\n" + blank))
    return found


def quotes_open_fields(rest: str, d: str) -> bool:
    """Whether ``rest`` (from a row's start) is lexically strict CSV (:func:`_lexicon`)
    *provided* ``csv.reader`` (``strict=True``) reads it without error; False: not shown,
    the lexicon decides. Split at quotes, the even pieces are the text outside quoted
    fields (an empty one between two quotes is a doubled quote). csv.reader's strict mode
    refuses text after a closing quote other than a delimiter or a line end, a quoted field
    never closed, and a carriage return followed by anything but a line feed or another
    carriage return on its line; it takes a quote inside an unquoted field as text, a
    blank opening a field, and a carriage return at the end of the text or before another.
    Those are ruled out here with splits, joins and searches at C speed (the lexicon's
    regex costs half of csv.reader's reading; this a third)."""
    pieces = rest.split('"')
    if not len(pieces) & 1:
        return False
    outside = pieces[::2]
    del pieces
    # every quote that does not close a field opens one, at a field's start
    if not all(map(methodcaller("endswith", (d, "\n")), filter(None, islice(outside, len(outside) - 1)))):
        return False
    text = '"'.join(outside)  # quotes only where a quoted field was: no blank before one
    del outside
    after_delimiter, after_line = blank_runs(d)
    if text[:1] in (" ", "\t") or after_delimiter.search(text) or after_line.search(text):
        return False
    return "\r" not in text or text.count("\r") == text.count("\r\n")


#: rows csv.reader reads at a time before they are made dicts
_READ_BATCH = 512


_quotes_open_fields = quotes_open_fields  # the name tests/plugins/csv/test_at_once.py knows


def _quoted_rows(
    text: str,
    pos: int,
    d: str,
    width: int,
    rows: list[list[str]],
    make: Callable[[list[str]], dict[str, str]] | None = None,
    lexical: bool = False,
) -> list[dict[str, str]] | bool | tuple[int, int] | None:
    """The data rows from ``pos`` read at once by ``csv.reader`` (C) when the text is
    lexically strict CSV (:func:`_lexicon`: then csv.reader's cells are the strict
    reading's) and every row has the header's field count: with ``make`` (the header's
    row maker), their dicts, made as csv.reader gives them a batch at a time (no list a
    row is kept); else True, the rows added to ``rows``. The rows' starts are left to be
    found when asked for: only violations ask. When a row has another count (a blank
    line is read as a row of none): ``(rows before it, its offset)``, nothing read, so
    that the line loop reads that row and says what is wrong. ``None``: the loop reads it
    all."""
    rest = text[pos:]
    if rest[:1] in ("\r", "\n"):
        return None  # a blank line first: the loop says so (one later is a row of no cell)
    if not lexical and not quotes_open_fields(rest, d) and _lexicon(d).fullmatch(text, pos) is None:
        return None
    reader = csv.reader(io.StringIO(rest, newline="\n"), delimiter=d, strict=True)
    if make is not None:
        records: list[dict[str, str]] = []
        read = 0
        while True:
            try:
                batch = list(islice(reader, _READ_BATCH))
            except (csv.Error, TypeError, ValueError):  # a field past csv's size limit, a NUL...
                return None
            if not batch:
                return records or None
            read += len(batch)
            try:
                records += map(make, batch)
            except ValueError:  # a row of another width: the one after the dicts made
                wrong = len(records)
                break
        del batch, records
        # every row so far one line: the wrong row starts after ``wrong`` lines
        lines = wrong if reader.line_num == read else None
    else:
        try:
            rows_read = list(reader)
        except (csv.Error, TypeError, ValueError):  # a field past csv's size limit, a NUL...
            return None
        if not rows_read:
            return None
        if set(map(len, rows_read)) == {width}:
            rows += rows_read
            return True
        wrong = list(map(width.__ne__, map(len, rows_read))).index(True)
        # as many lines as rows: a row a line
        lines = wrong if rest.count("\n") + (not rest.endswith("\n")) == len(rows_read) else None
    if lines is None:  # the rows before it read again: how many lines they take
        again = csv.reader(io.StringIO(rest, newline="\n"), delimiter=d, strict=True)
        deque(islice(again, wrong), maxlen=0)
        lines = again.line_num
    return wrong, pos + sum(map(len, rest.split("\n", lines)[:lines])) + lines


def first_row_broken(text: str, pos: int, delimiter: str, width: int) -> bool:
    """Whether the record at ``pos`` (the first data row, after a header of ``width``
    fields) shows the text is not strict CSV at once: a blank line, a blank opening a
    field before its first quote (outside quotes then), or, holding no quote, another
    field count or a carriage return but at its end. How models break a table (blank
    lines between rows, blanks after commas) shows in its first row: the line loop then
    says what is wrong, without a reading of the whole text at once first."""
    nl = text.find("\n", pos)
    line = text[pos:] if nl < 0 else text[pos:nl]
    if line.endswith("\r"):
        line = line[:-1]
    if not line:
        return True
    quote = line.find('"')
    before = line if quote < 0 else line[:quote]  # outside quotes: no quote opened yet
    blanks = tuple(b for b in (" ", "\t") if b != delimiter)  # a blank that is the delimiter opens no field
    if before.startswith(blanks) or any(delimiter + b in before for b in blanks):
        return True
    return quote < 0 and ("\r" in line or line.count(delimiter) + 1 != width)


def cut_short(text: str, delimiter: str) -> tuple[int, int] | None:
    """Where the last line of ``text`` (a table, as :func:`table_bounds` leaves it) starts,
    and its field count, when that line shows the text is not strict CSV without reading
    the rows before it: the text does not end with a line feed, neither the header line
    nor the last line holds a quote, and the last line (not blank, not the header) has
    fewer fields than the header. Strict CSV has no such last line: it is a row with too
    few fields, or text inside a quoted field never closed. A reply cut off mid-row, as
    models' replies are, is so told in the time of reading two lines (``None`` else)."""
    first_end = text.find("\n")
    if first_end < 0 or text[-1] == "\n" or '"' in text[:first_end]:
        return None
    last_start = text.rfind("\n") + 1
    last = text[last_start:]
    if '"' in last or not last.strip():
        return None
    count = last.count(delimiter) + 1
    return (last_start, count) if count < text.count(delimiter, 0, first_end) + 1 else None


def table_bounds(text: str) -> tuple[int, int]:
    """Where the table of ``text`` starts and ends: blank lines and spaces before it (what
    ``check()``'s locator sets aside) and blank lines after its last line break are
    not part of it, so ``is_valid``, the strict checker and ``check()`` agree on a table
    followed by blank lines. White space on the last line itself is kept (a tab there may
    be an empty last field)."""
    n = len(text)
    if not text or not (text[0].isspace() or text[-1].isspace()):
        return 0, n
    # blank lines before the table, then spaces: a tab on its first line is a delimiter
    # (an empty first field of a tab-separated header), never white space around it
    blank = n - len(text.lstrip())
    lead = max(text.rfind("\n", 0, blank), text.rfind("\r", 0, blank)) + 1
    while lead < blank and text[lead] == " ":
        lead += 1
    last = len(text.rstrip())
    nl = text.find("\n", last)
    return lead, n if nl < 0 else nl + 1
