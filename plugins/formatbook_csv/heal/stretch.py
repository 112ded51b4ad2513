"""Healing line by line as text, for the common damage: no record a row.

The plan's reading (:mod:`.reader`) makes a ``Record`` a row and the steps after it walk
them; on a table whose damage is only blank lines, blanks after delimiters, another
delimiter, a last row cut off or quotes not doubled, or on a Markdown table, that is most
of the time healing takes. Here each line is healed as text: a line with no damage is
kept as it is; the quote-free lines that lose blanks lose them at once; a line with a
quote is cleaned by one pass of a pattern when what is left is strict, else it goes
through the plan's own reading (one record) and writer; a Markdown row is split at its
pipes. The lines kept are then read strictly: the healed text's analysis, as ``confirm``
makes it.

Lines ended by CRLF are healed as lines ended by a line feed are, and joined by CRLF
again (the plan's writer keeps each record's line end). The plan runs instead (nothing
here is kept) wherever this reading might differ from it: a schema, a carriage return
alone, line ends of both kinds, a Markdown table with an escaped pipe or a row of one cell,
a tab, a quoted field that runs across lines, white space other than blanks, a last row
the plan would split at another delimiter, a healed text the strict reading refuses, a
row repeating the header, a last cell ending in white space.
``tests/plugins/csv/test_stretch.py`` compares both on generated tables.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from formatbook_core import Analysis

from .. import dialect
from ..locate import ELISIONS
from . import delimiters, markdown_table, rows
from .reader import Note, add_blank, first
from .state import Healing
from .writer import cell_text

_SPACES = "removed blanks before fields of this row"
_DELIMITERS = (",", ";", "|")
_LEAD: dict[str, re.Pattern[str]] = {}
_STRICT: dict[str, re.Pattern[str]] = {}
_BLANKS: dict[str, re.Pattern[str]] = {}
_LINE_LEAD = re.compile(r"\n[ \t]+")
_BEFORE = "removed blanks before a field"


def _lead(delimiter: str) -> re.Pattern[str]:
    """Blanks after a delimiter: each cell's, as ``lstrip`` takes them (a literal first
    character, which the engine searches for: a pattern trying each position was ten
    times slower)."""
    pattern = _LEAD.get(delimiter)
    if pattern is None:
        pattern = _LEAD[delimiter] = re.compile(rf"{re.escape(delimiter)}[ \t]+")
    return pattern


def _unlead(lines: str, delimiter: str) -> str:
    """``lines`` (joined by line feeds) without blanks where a cell starts."""
    lines = _LINE_LEAD.sub("\n", "\n" + lines)[1:]
    return _lead(delimiter).sub(delimiter, lines)


def _strict(delimiter: str) -> re.Pattern[str]:
    """A line the strict reading takes as it is (possessive: linear): quoted fields with
    doubled quotes, unquoted ones holding no quote and starting with no blank."""
    pattern = _STRICT.get(delimiter)
    if pattern is None:
        d = re.escape(delimiter)
        field = rf'(?:"[^"]*+(?:""[^"]*+)*+"|[^"{d}\n \t][^"{d}\n]*+|)'
        pattern = _STRICT[delimiter] = re.compile(rf"{field}(?:{d}{field})*+")
    return pattern


def _blanks(delimiter: str) -> re.Pattern[str]:
    """A quoted field with the blanks after it (group 1), or blanks where a field starts
    (group 2): what :func:`_unblanked` takes off a line with a quote, found in one pass."""
    pattern = _BLANKS.get(delimiter)
    if pattern is None:
        d = re.escape(delimiter)
        pattern = _BLANKS[delimiter] = re.compile(rf'"[^"]*+(?:""[^"]*+)*+"([ \t]*+)|(?:^|(?<={d}))([ \t]++)')
    return pattern


def _unblanked(line: str, pos: int, delimiter: str, notes: list[Note]) -> str | None:
    """A line with a quote without its blanks before fields and after quoted fields, when
    what is left is strict (``None`` else): the plan's reading then reads the same cells
    and notes the same blanks, here added to ``notes`` (``pos``: where the line starts)."""
    pattern = _blanks(delimiter)
    found: list[Note] = []
    parts: list[str] = []
    at = 0
    n = len(line)
    for m in pattern.finditer(line):
        after = m.group(1)
        if after is not None and m.end() < n and line[m.end()] != delimiter:
            return None  # a quote the plan's reading keeps as text: it closes nothing
        if after:
            start = m.start(1)
            parts.append(line[at:start])
            at = m.end(1)
            found.append(("space_after_delimiter", pos + start, pos + at, "removed blanks after a quoted field"))
            continue
        if after is not None:  # a quoted field with no blank after it
            continue
        start, end = m.span(2)
        parts.append(line[at:start])
        at = end
        kind = "space_after_delimiter" if start else "leading_space"
        message = "emptied a field holding only blanks" if end == n or line[end] == delimiter else _BEFORE
        found.append((kind, pos + start, pos + end, message))
    if not found:  # nothing taken off: the line as it is, which is not strict
        return None
    parts.append(line[at:])
    cleaned = "".join(parts)
    if _strict(delimiter).fullmatch(cleaned) is None:
        return None
    notes += found
    return cleaned


def heal(h: Healing) -> bool:
    """Heal ``h`` here when its damage is of the kinds this module heals: its ``out``,
    ``repairs`` and ``analysis`` set as the plan sets them, True; False (``h`` as it was)
    when the plan must run."""
    text = h.text
    if h.schema is not None or not isinstance(text, str) or len(text) > h.limits.max_size:
        return False
    eol = _line_end(text)
    if eol is None:
        return False
    start = markdown_table.table_start(text)
    if start is not None:  # past a byte-order mark or invisible characters: the plan reads it
        return start == 0 and _markdown(h, eol)
    reading, changed = delimiters.decide(h)  # raises as the plan's delimiter step does
    write = h.delimiter if h.delimiter != dialect.AUTO else reading
    if reading not in _DELIMITERS or write not in _DELIMITERS:
        return False
    found = _lines(text, reading, write, eol)
    if found is None:
        return False
    out, notes, blank, last = found
    if len(out) < 2:
        return False
    width = _width(out[0], write)
    truncated = None
    ends_open = not text.endswith("\n")
    if ends_open and last is not None:
        start, count = last
        line = text[start:]
        if count < width:
            if len(out) < 3 or (count == 1 and line.strip() in ELISIONS):
                return False
            if any(other in line for other in dialect.CANDIDATES if other != reading):
                return False  # the plan would try splitting it there too
            truncated = (len(out) - 1, start)
            out.pop()
    if out[-1][-1:].isspace():
        return False  # written quoted by the plan, that locate keeps it (line break or not)
    healed = eol.join(out) if ends_open else eol.join(out) + eol
    del out  # let go before the table is read (a line a row)
    if len(healed) > h.limits.max_size:
        return False
    # the repairs listed before the table is read, and their notes let go (a blank line
    # a row kept both through the reading); taken back if the table is refused
    if changed is not None:
        h.repair("delimiter", delimiters.changed_message(reading, h.delimiter), *changed)
    h.notes, h.blank = notes, blank
    del notes, blank
    rows.notes(h)
    if truncated is not None:
        number, start = truncated
        h.repair("truncated_row", f"dropped row {number}, cut off by the end of the text", start, len(text))
    h.reading = reading
    return _confirm(h, healed)


def _line_end(text: str) -> str | None:
    """The line end every line of ``text`` has: a line feed, or a carriage return and a
    line feed (each record keeps its line end in the plan's writing: all alike, the lines
    are joined by it); ``None`` for a carriage return alone or line ends of both kinds."""
    if "\r" not in text:
        return "\n"
    crlf = text.count("\r\n")
    return "\r\n" if text.count("\r") == crlf == text.count("\n") else None


def _markdown(h: Healing, eol: str) -> bool:
    """A Markdown table with no backslash (an escaped pipe), healed line by line as the
    plan's Markdown reading and writer heal it: cells stripped, the alignment row and
    blank lines dropped, emphasis taken off header names, a cell holding the delimiter
    written or a quote quoted."""
    text = h.text
    write = h.delimiter if h.delimiter != dialect.AUTO else h.reading
    if "\\" in text or write not in _DELIMITERS:
        return False
    out: list[str] = []
    blank: list[tuple[int, int]] = []
    align: tuple[int, int] | None = None
    head: tuple[int, int] = (0, 0)
    emphasis = False
    last_end = 0
    for pos, end, stop, line in _numbered(text, eol):
        stripped = line.strip()
        if not stripped:
            blank.append((pos, stop))
        elif len(out) == 1 and align is None and markdown_table.ALIGN.fullmatch(line):
            align = (pos, stop)
        else:
            body = stripped[(1 if stripped[0] == "|" else 0) : len(stripped) - (1 if stripped[-1] == "|" else 0)]
            cells = [piece.strip() for piece in body.split("|")]
            if len(cells) < 2:
                return False  # a row of one cell: the plan writes it otherwise, or refuses it
            if not out:
                names = markdown_table.plain_names(cells)
                head, emphasis, cells = (pos, end), names != cells, names
            last_end = end
            if write in body or '"' in body:
                out.append(write.join([cell_text(c, False, write) for c in cells]))
            else:
                out.append(write.join(cells))
    if len(out) < 2 or align is None:
        return False
    ends_open = not text.endswith("\n")
    healed = eol.join(out) if ends_open else eol.join(out) + eol
    del out
    if len(healed) > h.limits.max_size:
        return False
    h.repair("markdown_table", "converted a Markdown table into CSV", head[0], last_end)
    h.repair("alignment_row", "dropped the Markdown table's alignment row", *align)
    if emphasis:
        h.repair("header_emphasis", "dropped the emphasis around header names (**Name** is Name)", *head)
    h.blank = blank
    rows.notes(h)
    return _confirm(h, healed)


def _confirm(h: Healing, healed: str) -> bool:
    """``healed`` read strictly: the healing's text and analysis when it is taken, True;
    else the repairs listed so far taken back, False."""
    analysis: Analysis = h.analyze(healed)
    table = analysis.document
    if analysis.violations or table.header in table.rows:  # the plan refuses a row repeating the header
        h.repairs = []
        return False
    h.out, h.analysis = healed, analysis
    return True


def _lines(
    text: str, reading: str, write: str, eol: str
) -> tuple[list[str], list[Note], list[tuple[int, int]], tuple[int, int] | None] | None:
    """The healed lines of ``text``, the reading's notes and blank lines, and the last
    record's ``(start, field count)`` when it is a line without a quote (else ``None``);
    ``None`` for a text the plan must read."""
    blanks = " \t"
    spaced: list[int] = []  # lines without a quote that lose blanks
    plain: list[int] = []  # lines without a quote, written with another delimiter
    strict = _strict(reading).fullmatch
    out: list[str] = []
    notes: list[Note] = []
    blank: list[tuple[int, int]] = []
    last: tuple[int, int] | None = None
    for pos, end, stop, line in _numbered(text, eol):
        if not line.strip(blanks):
            add_blank(blank, pos, stop)
            continue
        if not line.strip():
            return None  # white space the plan's reading takes otherwise
        if '"' not in line:
            last = (pos, line.count(reading) + 1)
            if line[0] in blanks or (reading + " ") in line or (reading + "\t") in line:
                notes.append(("space_after_delimiter", pos, end, _SPACES))
                spaced.append(len(out))
            if write != reading:
                plain.append(len(out))
            out.append(line)
        else:
            last = None
            if line.count('"') % 2:
                return None  # a quoted field across lines, or a stray quote: the plan's
            if write == reading and strict(line) is not None:
                out.append(line)  # kept as written: the plan's reading notes nothing in it
                continue
            unblanked = _unblanked(line, pos, reading, notes) if write == reading else None
            if unblanked is not None:
                line = unblanked
            else:
                # the line read alone (the reader looks ahead for a carriage return: in
                # the whole text, to its end each time), its notes moved to the line's place
                records, _, found = first(line, reading)
                rec = records[0]
                if rec.cut or rec.end != len(line):
                    return None
                notes += [(kind, start + pos, stop + pos, message) for kind, start, stop, message in found]
                line = write.join([cell_text(c, q, write) for c, q in zip(rec.cells, rec.quoted, strict=True)])
            out.append(line)
    if spaced:  # blanks taken off every such line at once (lines hold no line feed)
        for i, line in zip(spaced, _unlead("\n".join([out[i] for i in spaced]), reading).split("\n"), strict=True):
            out[i] = line
    for i in plain:  # another delimiter: a cell holding the one written is quoted (it holds no quote)
        line = out[i]
        if write in line:
            out[i] = write.join([f'"{c}"' if write in c else c for c in line.split(reading)])
        else:
            out[i] = line.replace(reading, write)
    return out, notes, blank, last


def _numbered(text: str, eol: str) -> Iterator[tuple[int, int, int, str]]:
    """Each line of ``text`` (split at ``eol``, which every line end is; none after a last
    one) with where it starts, where it ends, and where the next starts."""
    pos = 0
    lines = text.split(eol)
    if not lines[-1]:
        lines.pop()
    n = len(text)
    size = len(eol)
    for line in lines:
        end = pos + len(line)
        yield pos, end, min(end + size, n), line
        pos = end + size


def _width(written: str, write: str) -> int:
    """The header's field count (its line as written)."""
    if '"' not in written:
        return written.count(write) + 1
    return len(first(written, write)[0][0].cells)
