"""The tolerant reading healing starts from: records of cells, each with where it was,
read with one delimiter the way a person reads a model's CSV.

- blanks after a delimiter (or at a line's start) are layout, not data: skipped, noted;
- a quote opens a quoted field only at a field's start; inside one, a quote closes it
  only where a delimiter, a line end or the end of the text follows (blanks allowed
  between), else it is a quote inside the field (``"He said "hi" to me"``), noted;
- a quote inside an unquoted field is a character of it (``5'11"``), noted;
- a carriage return alone ends a line; a blank line is no record, noted;
- a quoted field the text ends inside of marks its record as cut off.

Linear: each character is looked at a bounded number of times (``str.find`` and one
anchored regular expression per unquoted field).
"""

from __future__ import annotations

import re

from formatbook_core.decoding import bom_length
from formatbook_core.runs import Run, run

_UNQUOTED: dict[str, Run] = {}
_BLANK_RUN = re.compile(r"(?:[ \t]*\r?\n)+")
_WHITE_RUN = re.compile(r"[ \t\r\n]*")


class Record:
    """One record: ``cells``, ``quoted`` (per cell; a shared tuple until changed), ``starts`` (per cell, into the text;
    worked out when first asked for), ``start``/``end`` (its span without the line end),
    ``eol`` (its line end, ``""`` at the end of the text), ``cut`` (the text ended inside a
    quoted field)."""

    __slots__ = ("cells", "quoted", "_starts", "_raw", "_raw_at", "start", "end", "eol", "cut", "cut_multiline")

    def __init__(
        self,
        cells: list[str] | None = None,
        quoted: list[bool] | tuple[bool, ...] | None = None,
        starts: list[int] | None = None,
        start: int = 0,
        end: int = 0,
        eol: str = "",
    ):
        self.cells = [] if cells is None else cells
        self.quoted: list[bool] | tuple[bool, ...] = [] if quoted is None else quoted
        self._starts = starts
        self._raw: list[str] | None = None
        self._raw_at = -1  # >= 0: ``_raw`` are a Markdown row's cells as written, from there
        self.start = start
        self.end = end
        self.eol = eol
        self.cut = False
        self.cut_multiline = False

    @property
    def starts(self) -> list[int]:
        if self._raw is not None and self._raw_at >= 0:  # a Markdown row: a cell starts at its text
            raw, self._raw = self._raw, None
            at = self._raw_at
            starts = []
            for written in raw:
                blank = len(written) - len(written.lstrip())
                starts.append(at + (blank if blank < len(written) else 0))
                at += len(written) + 1
            self._starts = starts
        elif self._raw is not None:  # a quote-free line: from the cells as written
            raw, self._raw = self._raw, None
            at = self.start
            starts = []
            for written, cell in zip(raw, self.cells, strict=True):
                starts.append(at + len(written) - len(cell))
                at += len(written) + 1
            self._starts = starts
        if self._starts is None:
            self._starts = []
        return self._starts

    @starts.setter
    def starts(self, value: list[int]) -> None:
        self._raw = None
        self._starts = value

    def start_of(self, i: int) -> int:
        """``starts[i]``, without working out (and keeping) every start of a quote-free line."""
        raw = self._raw
        if raw is None or self._raw_at >= 0:
            return self.starts[i]
        return self.start + sum(map(len, raw[:i])) + i + len(raw[i]) - len(self.cells[i])

    def keep(self, width: int) -> None:
        """The first ``width`` cells kept, with their flags and starts (a record whose
        flags are the shared tuple of unquoted ones gets the shared tuple of that width)."""
        del self.cells[width:]
        if isinstance(self.quoted, tuple) and not any(self.quoted):
            self.quoted = unquoted_flags(width)
        else:
            del own_flags(self)[width:]
        if self._raw is not None:  # starts still to be worked out: from the cells kept
            del self._raw[width:]
        elif self._starts is not None:
            del self._starts[width:]


def _unquoted(delimiter: str) -> Run:
    pattern = _UNQUOTED.get(delimiter)
    if pattern is None:
        pattern = run(rf"[^{re.escape(delimiter)}\r\n]*")
        _UNQUOTED[delimiter] = pattern
    return pattern


def _blanks(delimiter: str) -> str:
    return " " if delimiter == "\t" else " \t"


Note = tuple[str, int, int, str]


def read(text: str, delimiter: str) -> tuple[list[Record], list[tuple[int, int]], list[Note]]:
    """The records of ``text``, the spans of its blank lines, and the notes made while
    reading: ``(kind, start, end, message)``, in text order.

    Lines of white space only (tabs included) after the last record with data are blank
    lines, not records of empty cells: the strict reading takes them as white space after
    the table (``syntax.table_bounds``), and so does the locator."""
    records, blank_lines, notes = _read(text, delimiter)
    while records and not records[-1].cut and not text[records[-1].start : records[-1].end].strip():
        last = records.pop()
        end = last.end + len(last.eol)
        if blank_lines and blank_lines[-1][0] == end:
            blank_lines[-1] = (last.start, blank_lines[-1][1])
        else:
            blank_lines.append((last.start, end))
    return records, blank_lines, notes


def first(text: str, delimiter: str) -> tuple[list[Record], list[tuple[int, int]], list[Note]]:
    """``read``, up to the first record (the header) only: what a refused header needs,
    and a line that the line-by-line healing leaves to this reading."""
    return _read(text, delimiter, 1)


def _read(text: str, delimiter: str, limit: int = -1) -> tuple[list[Record], list[tuple[int, int]], list[Note]]:
    records: list[Record] = []
    notes: list[Note] = []
    blank_lines: list[tuple[int, int]] = []
    n = len(text)
    pos = bom_length(text)  # a byte-order mark opening the text is no part of the first name
    unquoted = _unquoted(delimiter).match
    blanks = _blanks(delimiter)
    # the next line feed, quote and carriage return at or after pos, each found once and
    # kept until pos passes it (a text of lone carriage returns must not be rescanned)
    next_nl = next_q = next_cr = -2
    while pos < n and len(records) != limit:
        # the common case: a line without a quote or a lone carriage return, split at once
        if next_nl != -1 and next_nl < pos:
            next_nl = text.find("\n", pos)
        if next_q != -1 and next_q < pos:
            next_q = text.find('"', pos)
        if next_cr != -1 and next_cr < pos:
            next_cr = text.find("\r", pos)
        nl = next_nl
        line_end = n if nl < 0 else nl
        cr = next_cr
        if (
            0 <= cr < line_end - 1
            and not (0 <= next_q < cr)
            and _cr_line(text, pos, cr, delimiter, blanks, records, notes)
        ):
            pos = cr + 1
            continue
        if not (0 <= next_q < line_end) and not (0 <= cr < line_end - 1):
            line = text[pos:line_end]
            crlf = line.endswith("\r")
            body = line[:-1] if crlf else line
            if not body.strip(blanks):
                # a run of blank lines at once, one span (linear: each repeat ends at a \n)
                end = _blank_run_end(text, pos) if nl >= 0 else n  # it matches: the line is blank to its \n
                end = max(end, line_end + 1 if nl >= 0 else n)
                add_blank(blank_lines, pos, end)
                pos = end
                continue
            records.append(_split(body, pos, delimiter, blanks, "\r\n" if crlf else ("\n" if nl >= 0 else ""), notes))
            pos = line_end + 1 if nl >= 0 else n
            continue
        # a blank line (blanks only) is no record
        j = pos
        while j < n and text[j] in blanks:
            j += 1
        if j >= n or text[j] in "\r\n":
            end = j + (2 if text.startswith("\r\n", j) else 1 if j < n else 0)
            blank_lines.append((pos, min(end, n)))
            pos = min(end, n)
            continue
        rec = Record(start=pos)
        while True:
            # one field
            j = pos
            while j < n and text[j] in blanks:
                j += 1
            if j > pos:
                after = text[j] if j < n else ""
                if after and after not in "\r\n" and after != delimiter:
                    kind = "space_after_delimiter" if rec.cells else "leading_space"
                    notes.append((kind, pos, j, "removed blanks before a field"))
                elif j > pos:  # a field of blanks only: empty
                    notes.append(("space_after_delimiter", pos, j, "emptied a field holding only blanks"))
            pos = j
            if pos < n and text[pos] == '"':
                cell, pos, closed = _quoted(text, pos, delimiter, blanks, notes)
                rec.cells.append(cell)
                own_flags(rec).append(True)
                rec.starts.append(j)
                if not closed:
                    rec.cut = True
                    rec.cut_multiline = "\n" in cell or "\r" in cell
                    rec.end = n
                    records.append(rec)
                    return records, blank_lines, notes
                k = pos
                while k < n and text[k] in blanks:
                    k += 1
                if k > pos:
                    notes.append(("space_after_delimiter", pos, k, "removed blanks after a quoted field"))
                pos = k
            else:
                m = unquoted(text, pos)
                cell = m.group()
                if '"' in cell:
                    q = pos + cell.index('"')
                    notes.append(("unescaped_quote", q, q + 1, "kept a quote inside an unquoted field as text"))
                rec.cells.append(cell)
                own_flags(rec).append(False)
                rec.starts.append(pos)
                pos = m.end()
            if pos >= n:
                rec.end = n
                records.append(_shared_flags(rec))
                return records, blank_lines, notes
            ch = text[pos]
            if ch == delimiter:
                pos += 1
                continue
            rec.end = pos
            if text.startswith("\r\n", pos):
                rec.eol = "\r\n"
            elif ch == "\r":
                rec.eol = "\r"
                notes.append(("line_break", pos, pos + 1, "read a carriage return alone as a line end"))
            else:
                rec.eol = "\n"
            pos += len(rec.eol)
            records.append(_shared_flags(rec))
            break
    return records, blank_lines, notes


def add_blank(spans: list[tuple[int, int]], start: int, end: int) -> None:
    """The blank line(s) ``start:end`` added to ``spans``: one span with the last when
    they follow it."""
    if spans and spans[-1][1] == start:
        spans[-1] = (spans[-1][0], end)
    else:
        spans.append((start, end))


def _cr_line(
    text: str, pos: int, cr: int, delimiter: str, blanks: str, records: list[Record], notes: list[Note]
) -> bool:
    """A line ended by a carriage return alone at ``cr``, without a quote: split at once
    when no field starts with a blank (the field-by-field reading notes those); False when
    it is left to that reading."""
    body = text[pos:cr]
    if not body.strip(blanks) or body[:1] in blanks or (delimiter + " ") in body or (delimiter + blanks[-1]) in body:
        return False
    records.append(_split(body, pos, delimiter, blanks, "\r", notes))
    notes.append(("line_break", cr, cr + 1, "read a carriage return alone as a line end"))
    return True


def _blank_run_end(text: str, pos: int) -> int:
    """Where the lines of blanks from ``pos`` end (after the last one's line feed), as the
    match of ``_BLANK_RUN`` says (the end of the text when it fails), found with one run
    of a character class, which the engine steps through without a group per line."""
    white = _WHITE_RUN.match(text, pos)
    white_end = pos if white is None else white.end()  # it matches "": never None
    run = text[pos:white_end]
    if run.count("\r") == run.count("\r\n"):  # every carriage return ends a line
        last = run.rfind("\n")
        return pos + last + 1 if last >= 0 else len(text)
    m = _BLANK_RUN.match(text, pos)  # a carriage return alone among the blanks
    return len(text) if m is None else m.end()


def _split(body: str, pos: int, delimiter: str, blanks: str, eol: str, notes: list[Note]) -> Record:
    """The record of one quote-free line: its cells, blanks before them noted and taken off."""
    rec = Record(start=pos, end=pos + len(body), eol=eol)
    raw = list(body.split(delimiter))  # a copy: split leaves room for 12 cells (96 bytes a row)
    rec._raw = raw
    rec.quoted = unquoted_flags(len(raw))
    if body[:1] not in blanks and (delimiter + " ") not in body and (delimiter + blanks[-1]) not in body:
        rec.cells = raw
        return rec
    rec.cells = [c.lstrip(blanks) for c in raw]
    # one note for the line (its span: the line), however many fields lost blanks
    notes.append(("space_after_delimiter", pos, pos + len(body), "removed blanks before fields of this row"))
    return rec


_FLAGS: dict[int, tuple[bool, ...]] = {}


def unquoted_flags(count: int) -> tuple[bool, ...]:
    """``quoted`` for ``count`` cells none of which is quoted: one tuple shared by every
    record of that width (a list per row took 72 bytes of a 4-character row); a step
    that changes a record's cells gives it a list of its own (:func:`own_flags`)."""
    flags = _FLAGS.get(count)
    if flags is None:
        flags = _FLAGS[count] = (False,) * count
    return flags


def _shared_flags(rec: Record) -> Record:
    """``rec``, its flags the shared tuple when none of its cells was quoted (a list a
    row of ``1, 2<CR>`` rows, read field by field, was 17 bytes a character)."""
    if not any(rec.quoted):
        rec.quoted = unquoted_flags(len(rec.quoted))
    return rec


def own_flags(rec: Record) -> list[bool]:
    """``rec.quoted`` as a list of the record's own, to change."""
    if not isinstance(rec.quoted, list):
        rec.quoted = list(rec.quoted)
    return rec.quoted


def _quoted(text: str, start: int, delimiter: str, blanks: str, notes: list[Note]) -> tuple[str, int, bool]:
    """The quoted field at ``start``: its value, the offset after its closing quote, and
    whether it was closed."""
    n = len(text)
    parts: list[str] = []
    pos = start + 1
    while True:
        q = text.find('"', pos)
        if q < 0:
            parts.append(text[pos:])
            return "".join(parts), n, False
        parts.append(text[pos:q])
        if q + 1 < n and text[q + 1] == '"':
            parts.append('"')
            pos = q + 2
            continue
        k = q + 1
        while k < n and text[k] in blanks:
            k += 1
        if k >= n or text[k] in "\r\n" or text[k] == delimiter:
            return "".join(parts), q + 1, True
        notes.append(("unescaped_quote", q, q + 1, "kept a quote inside a quoted field as text (it closes nothing)"))
        parts.append('"')
        pos = q + 1
