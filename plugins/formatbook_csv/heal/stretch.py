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
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, and_, contains, itemgetter, ne, not_, or_

from formatbook_core import Analysis

from .. import dialect
from ..locate import ELISIONS
from ..syntax import odd_quotes, quotes_open_fields
from . import delimiters, markdown_table, rows
from .reader import Note, first
from .state import Healing
from .writer import cell_text

_SPACES = "removed blanks before fields of this row"
_DELIMITERS = (",", ";", "|")
_LEAD: dict[str, re.Pattern[str]] = {}
_STRICT: dict[str, re.Pattern[str]] = {}
_LINE_LEAD = re.compile(r"\n[ \t]+")
_BEFORE = "removed blanks before a field"
_EMPTIED = "emptied a field holding only blanks"
_AFTER_QUOTED = "removed blanks after a quoted field"


def _lead(delimiter: str) -> re.Pattern[str]:
    """Blanks after a delimiter: each cell's, as ``lstrip`` takes them (a literal first
    character, which the engine searches for: a pattern trying each position was ten
    times slower)."""
    pattern = _LEAD.get(delimiter)
    if pattern is None:
        pattern = _LEAD[delimiter] = re.compile(rf"{re.escape(delimiter)}[ \t]+")
    return pattern


def _unlead(lines: str, delimiter: str) -> str:
    """``lines`` (joined by line feeds) without blanks where a cell starts: one space
    after each delimiter taken off by ``str.replace``, what is left (a longer run, a tab,
    a line's start) by the patterns (a substitution a match costs as much as a row)."""
    if lines[:1] in (" ", "\t") or "\n " in lines or "\n\t" in lines:
        lines = _LINE_LEAD.sub("\n", "\n" + lines)[1:]
    lines = lines.replace(delimiter + " ", delimiter)
    if delimiter + " " in lines or delimiter + "\t" in lines:
        lines = _lead(delimiter).sub(delimiter, lines)
    return lines


def _strict(delimiter: str) -> re.Pattern[str]:
    """A line the strict reading takes as it is (possessive: linear): quoted fields with
    doubled quotes, unquoted ones holding no quote and starting with no blank."""
    pattern = _STRICT.get(delimiter)
    if pattern is None:
        d = re.escape(delimiter)
        field = rf'(?:"[^"]*+(?:""[^"]*+)*+"|[^"{d}\n \t][^"{d}\n]*+|)'
        pattern = _STRICT[delimiter] = re.compile(rf"{field}(?:{d}{field})*+")
    return pattern


_BLANKS_IN_LINES: dict[tuple[str, bool], re.Pattern[str]] = {}


def _blanks_in_lines(delimiter: str, line_starts: bool) -> re.Pattern[str]:
    """A quoted field with the blanks after it (group 1), or blanks where a field starts
    (group 2): what :func:`_unblanked_lines` takes off lines with a quote joined by line
    feeds, found in one pass. Without ``line_starts`` (no line starts with a blank) the
    blanks are those after a delimiter, which the pattern matches with it: each
    alternative then opens with a character of ``"`` and the delimiter, and the engine
    skips to the next of those (at each position one alternative or the other tried was
    four times as slow)."""
    pattern = _BLANKS_IN_LINES.get((delimiter, line_starts))
    if pattern is None:
        d = re.escape(delimiter)
        quoted = r'"[^"]*+(?:""[^"]*+)*+"([ \t]*+)'
        if line_starts:
            pattern = re.compile(rf"{quoted}|(?:^|(?<={d}))([ \t]++)", re.MULTILINE)
        else:
            pattern = re.compile(rf"{quoted}|{d}([ \t]++)")
        _BLANKS_IN_LINES[(delimiter, line_starts)] = pattern
    return pattern


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
    # lines with a quote taken as written when they look strict (the table read strictly
    # then says whether they are); when it says not, each is looked at
    healed = _healed(h, text, eol, reading, write, changed, trust=True)
    if healed is None:
        healed = _healed(h, text, eol, reading, write, changed, trust=False)
    return bool(healed)


def _healed(
    h: Healing, text: str, eol: str, reading: str, write: str, changed: tuple[int, int] | None, *, trust: bool
) -> bool | None:
    """``heal`` with the delimiters decided; ``trust``: the lines with a quote are strict
    as written if :func:`_lines` finds them lexically so. ``None``: some were taken so, and
    the table read at the end refused them (``h`` as it was)."""
    found = _lines(text, reading, write, eol, trust)
    if found is None:
        return False
    fail = None if found[4] else False  # taken on trust: any refusal is looked at again
    out, notes, blank, last, _ = found
    if len(out) < 2:
        return fail
    width = _width(out[0], write)
    truncated = None
    ends_open = not text.endswith("\n")
    if ends_open and last is not None:
        start, count = last
        line = text[start:]
        if count < width:
            if len(out) < 3 or (count == 1 and line.strip() in ELISIONS):
                return fail
            if any(other in line for other in dialect.CANDIDATES if other != reading):
                return fail  # the plan would try splitting it there too
            truncated = (len(out) - 1, start)
            out.pop()
    if out[-1][-1:].isspace():
        return fail  # written quoted by the plan, that locate keeps it (line break or not)
    healed = eol.join(out) if ends_open else eol.join(out) + eol
    del out  # let go before the table is read (a line a row)
    if len(healed) > h.limits.max_size:
        return fail
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
    return _confirm(h, healed) or fail


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
    found = _markdown_at_once(text, eol, write) or _markdown_lines(text, eol, write)
    if found is None:
        return False
    out, blank, align, head, emphasis, last_end = found
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


_MarkdownRows = tuple[list[str], list[tuple[int, int]], "tuple[int, int] | None", tuple[int, int], bool, int]


def _markdown_lines(text: str, eol: str, write: str) -> _MarkdownRows | None:
    """A Markdown table's rows written with ``write``, its blank lines, its alignment
    row, its header's span and whether emphasis came off its names, where its last row
    ends; ``None`` for a row of one cell (the plan writes it otherwise, or refuses it)."""
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
                return None  # a row of one cell: the plan writes it otherwise, or refuses it
            if not out:
                names = markdown_table.plain_names(cells)
                head, emphasis, cells = (pos, end), names != cells, names
            last_end = end
            if write in body or '"' in body:
                out.append(write.join([cell_text(c, False, write) for c in cells]))
            else:
                out.append(write.join(cells))
    return out, blank, align, head, emphasis, last_end


#: a cell standing between two rows of a Markdown table healed at once (a text holding it
#: is healed row by row)
_ROW_END = "\x00"


def _markdown_at_once(text: str, eol: str, write: str) -> _MarkdownRows | None:
    """:func:`_markdown_lines` for the common table, each step a ``map`` of builtins over
    the lines (no Python loop but over the rows that hold the delimiter written or a
    quote, whose cells are quoted): every row between pipes, the alignment row second,
    each row at least two cells. ``None``: the line loop decides."""
    lines = text.split(eol)
    if not lines[-1]:
        lines.pop()
    stripped = list(map(str.strip, lines))
    kept = list(compress(range(len(lines)), stripped))  # the lines that are not blank
    if len(kept) < 3 or not markdown_table.ALIGN.fullmatch(lines[kept[1]]):
        return None
    rows = list(map(stripped.__getitem__, kept))
    del rows[1]
    if set(map(itemgetter(0), rows)) != {"|"} or set(map(itemgetter(-1), rows)) != {"|"}:
        return None
    bodies = list(map(str.strip, map(itemgetter(slice(1, -1)), rows)))
    if not all(map(contains, bodies, repeat("|"))):
        return None
    header = _markdown_lines(lines[kept[0]], eol, write)
    if header is None or len(header[0]) != 1:
        return None
    del bodies[0]
    if _ROW_END in text:
        return None
    # every data row's cells at once: split at the pipes, a cell of its own (``_ROW_END``)
    # between two rows, each stripped, quoted when it holds the delimiter or a quote (as
    # the writer quotes a stripped cell), joined by ``write``, rows taken apart again
    cells = list(map(str.strip, f"|{_ROW_END}|".join(bodies).split("|")))
    for i in compress(
        range(len(cells)), map(or_, map(contains, cells, repeat(write)), map(contains, cells, repeat('"')))
    ):
        cells[i] = '"' + cells[i].replace('"', '""') + '"'
    out = header[0] + write.join(cells).replace(f"{write}{_ROW_END}{write}", "\n").split("\n")
    n = len(text)
    size = len(eol)
    starts = list(accumulate(map(add, map(len, lines), repeat(size)), initial=0))
    blank = [(starts[i], min(starts[i + 1], n)) for i in compress(range(len(lines)), map(not_, stripped))]
    at = kept[1]
    head = (starts[kept[0]], starts[kept[0]] + header[3][1])
    last = kept[-1]
    return out, blank, (starts[at], min(starts[at + 1], n)), head, header[4], starts[last] + len(lines[last])


def _confirm(h: Healing, healed: str) -> bool:
    """``healed`` read strictly: the healing's text and analysis when it is taken, True;
    else the repairs listed so far taken back, False."""
    # written lexically strict (blanks taken off, cells quoted as the writer quotes them, lines
    # with a quote strict as lines): csv.reader's reading is what is left to confirm
    analysis: Analysis = h.analyze(healed, lexical=True)
    table = analysis.document
    if analysis.violations or table.repeats_header():  # the plan refuses a row repeating the header
        h.repairs = []
        return False
    h.out, h.analysis = healed, analysis
    return True


def _lines(
    text: str, reading: str, write: str, eol: str, trust: bool = False
) -> tuple[list[str], list[Note], list[tuple[int, int]], tuple[int, int] | None, bool] | None:
    """The healed lines of ``text``, the reading's notes and blank lines, the last
    record's ``(start, field count)`` when it is a line without a quote (else ``None``),
    and whether the lines with a quote were taken as written on trust (``trust``, the
    delimiter kept, and :func:`~formatbook_csv.syntax.quotes_open_fields` finds them
    strict: the table read strictly must confirm it); ``None`` for a text the plan must read.

    Each test on every line is one pass of ``map`` over the lines (C): which are blank,
    which hold a quote, which lose blanks; Python looks only at the lines with a quote and
    makes a note for each line that loses blanks. The quote-free lines that lose blanks
    lose them at once, and so are given another delimiter."""
    lines = text.split(eol)
    if not lines[-1]:
        lines.pop()
    count = len(lines)
    size = len(eol)
    starts = list(accumulate(map(add, map(len, lines), repeat(size)), initial=0))
    stripped = list(map(str.strip, lines, repeat(" \t")))
    if any(map(str.isspace, stripped)):
        return None  # white space the plan's reading takes otherwise
    kept = list(map(bool, stripped))  # the lines that are not blank
    del stripped
    quote = list(map(contains, lines, repeat('"')))
    plain_lines = list(map(and_, kept, map(not_, quote)))  # kept lines without a quote
    # the quote-free lines joined (they hold no line feed): what they hold is looked for at once
    plain = "\n".join(compress(lines, plain_lines))
    spaced = _spaced(plain, lines, plain_lines, reading)
    notes: list[Note] = [("space_after_delimiter", starts[i], starts[i] + len(lines[i]), _SPACES) for i in spaced]
    last_kept = count - 1 - kept[::-1].index(True) if True in kept else -1
    last: tuple[int, int] | None = None
    if last_kept >= 0 and not quote[last_kept]:
        last = (starts[last_kept], lines[last_kept].count(reading) + 1)
    trusted = False
    if True in quote:
        quoted = list(compress(lines, quote))
        if odd_quotes(text):
            return None  # a quoted field across lines, or a stray quote: the plan's
        joined = "\n".join(quoted)
        del quoted
        trusted = trust and quotes_open_fields(joined + "\n", reading)
        if trusted and write != reading:
            written = _redelimited_quoted(joined, reading, write)
            trusted = written is not None
            if written is not None:
                for i, line in zip(compress(range(count), quote), written.split("\n"), strict=True):
                    lines[i] = line
        del joined
    if True in quote and not trusted:
        found = _quote_lines(lines, starts, list(compress(range(count), quote)), reading, write)
        if found is None:
            return None
        if found:  # the notes of lines with a quote among those of the lines without, line by line
            by_line = sorted([*zip(spaced, zip(notes), strict=True), *found], key=itemgetter(0))
            notes = list(chain.from_iterable(map(itemgetter(1), by_line)))
    # the quote-free lines' blanks taken off at once (a line without any is as it was), then
    # another delimiter given them
    if spaced:
        plain = _unlead(plain, reading)
    if write != reading:
        plain = _redelimited(plain, reading, write)
    # the lines kept, each from the quote-free ones or the ones with a quote, in order
    sources = [iter(plain.split("\n") if True in plain_lines else ()), compress(lines, quote)]
    out = list(map(next, map(sources.__getitem__, compress(quote, kept))))
    return out, notes, _blank_spans(kept, starts, len(text)), last, trusted


def _redelimited_quoted(lines: str, reading: str, write: str) -> str | None:
    """``lines`` (lines with quotes, joined by line feeds, each lexically strict with the
    delimiter ``reading``) with ``write`` for ``reading`` outside the quoted fields, as the
    plan's reading and writer write a strict line's cells (a quoted cell quoted again as
    it was); ``None`` when an unquoted cell holds ``write`` (the writer quotes it)."""
    pieces = lines.split('"')
    outside = '"'.join(pieces[::2])  # the text outside quoted fields, a quote where each was
    if write in outside:
        return None
    pieces[::2] = outside.replace(reading, write).split('"')
    return '"'.join(pieces)


def _redelimited(lines: str, reading: str, write: str) -> str:
    """Quote-free ``lines`` (joined by line feeds) split at ``reading``, joined by ``write``
    (a cell holding ``write`` quoted): at once when none holds ``write``."""
    if write not in lines:
        return lines.replace(reading, write)
    return "\n".join(
        [
            write.join([f'"{c}"' if write in c else c for c in line.split(reading)])
            if write in line
            else line.replace(reading, write)
            for line in lines.split("\n")
        ]
    )


def _blank_spans(kept: list[bool], starts: list[int], n: int) -> list[tuple[int, int]]:
    """The spans of the lines not ``kept`` (blank), one for lines that follow each other
    (found as runs of indexes one apart, by map passes: a million blank lines took a
    second one by one)."""
    if False not in kept:
        return []
    which = list(compress(range(len(kept)), map(not_, kept)))
    # a run's first line does not follow the line before it, its last is not followed by the next
    firsts = compress(which, map(ne, which, map(add, chain((-2,), which), repeat(1))))
    lasts = compress(which, map(ne, map(add, which, repeat(1)), chain(islice(which, 1, None), (-2,))))
    blank = list(zip(map(starts.__getitem__, firsts), map(starts.__getitem__, map(add, lasts, repeat(1)))))  # noqa: B905
    if blank[-1][1] > n:  # the last line, without a line end
        blank[-1] = (blank[-1][0], n)
    return blank


def _spaced(text: str, lines: list[str], plain: list[bool], reading: str) -> list[int]:
    """The indexes of the lines marked ``plain`` (no quote, not blank) that lose blanks:
    one starts with a blank, or one follows a delimiter. Each test runs on every line only
    when ``text`` (those lines joined by line feeds) shows it somewhere."""
    tests = []
    if text[:1] in (" ", "\t") or "\n " in text or "\n\t" in text:
        tests.append(map(contains, repeat(" \t"), map(itemgetter(slice(0, 1)), lines)))  # "": not plain (blank)
    for blank in (" ", "\t"):
        if reading + blank in text:
            tests.append(map(contains, lines, repeat(reading + blank)))
    if not tests:
        return []
    losing = tests[0] if len(tests) == 1 else map(any, zip(*tests, strict=True))
    return list(compress(range(len(lines)), map(and_, plain, losing)))


def _quote_lines(
    lines: list[str], starts: list[int], which: list[int], reading: str, write: str
) -> list[tuple[int, list[Note]]] | None:
    """The lines ``which`` (each holding an even number of quotes) healed in ``lines``,
    and the notes of each line that has some, with its index; ``None`` for a line the
    plan must read."""
    strict = _strict(reading).fullmatch
    out: list[tuple[int, list[Note]]] = []
    unblanked = _unblanked_lines([lines[i] for i in which], reading) if write == reading else None
    for k, i in enumerate(which):
        line = lines[i]
        pos = starts[i]
        if unblanked is not None:
            cleaned, found = unblanked[k]
            if not found and strict(line) is not None:
                continue  # kept as written: the plan's reading notes nothing in it
            if found and strict(cleaned) is not None:
                lines[i] = cleaned
                out.append((i, [(kind, start + pos, end + pos, message) for kind, start, end, message in found]))
                continue
        # the line read alone (the reader looks ahead for a carriage return: in
        # the whole text, to its end each time), its notes moved to the line's place
        records, _, read_notes = first(line, reading)
        rec = records[0]
        if rec.cut or rec.end != len(line):
            return None
        lines[i] = write.join([cell_text(c, q, write) for c, q in zip(rec.cells, rec.quoted, strict=True)])
        if read_notes:
            out.append((i, [(kind, start + pos, stop + pos, message) for kind, start, stop, message in read_notes]))
    return out


def _unblanked_lines(lines: list[str], delimiter: str) -> list[tuple[str, list[Note]]]:
    """Each of ``lines`` (with a quote: an even number of them) without its blanks before
    fields and after quoted fields, and the notes that takes (offsets into the line):
    when what is left is strict, the plan's reading reads the same cells and notes the
    same blanks. Found in one pass over the lines joined. A line with no note, or one
    where a quoted field is followed by other text than a delimiter (``[]``, the line as
    it is), is left to the caller: kept when strict, else read by the plan's reading; so
    is a cleaned line that is not strict."""
    joined = "\n".join(lines)
    pattern = _blanks_in_lines(delimiter, joined[:1] in (" ", "\t") or "\n " in joined or "\n\t" in joined)
    out: list[tuple[str, list[Note]]] = []
    ends = list(accumulate(map(add, map(len, lines), repeat(1))))  # after each line's line feed
    total = len(joined)
    line = 0  # the line being read, from ``line_start`` to ``ends[line]``
    line_start = at = 0  # ``at``: where the text not yet in ``parts`` starts
    parts: list[str] = []
    found: list[Note] = []
    refused = False
    for m in pattern.finditer(joined):
        if m.start() >= ends[line]:  # the lines before this match's are done
            while ends[line] <= m.start():
                if found and not refused:
                    parts.append(joined[at : ends[line] - 1])
                    out.append(("".join(parts), found))
                else:
                    out.append((lines[line], []))
                line_start = at = ends[line]
                parts, found, refused = [], [], False
                line += 1
        if refused:
            continue  # this line is the plan's: its other matches do not count
        start, end = m.span(1)
        if start >= 0:  # a quoted field, and the blanks after it
            if end < total and joined[end] != delimiter and joined[end] != "\n":
                refused = True  # a quote the plan's reading keeps as text: it closes nothing
            elif end > start:
                parts.append(joined[at:start])
                at = end
                found.append(("space_after_delimiter", start - line_start, end - line_start, _AFTER_QUOTED))
            continue
        start, end = m.span(2)
        parts.append(joined[at:start])
        at = end
        kind = "space_after_delimiter" if start > line_start else "leading_space"
        emptied = end == total or joined[end] == delimiter or joined[end] == "\n"
        found.append((kind, start - line_start, end - line_start, _EMPTIED if emptied else _BEFORE))
    while line < len(lines):  # the last lines
        if found and not refused:
            parts.append(joined[at : ends[line] - 1])
            out.append(("".join(parts), found))
        else:
            out.append((lines[line], []))
        at = ends[line]
        parts, found, refused = [], [], False
        line += 1
    return out


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
