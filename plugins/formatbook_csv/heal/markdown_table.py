"""A Markdown table given where CSV was asked for: read into records (the alignment row
``|---|:--:|`` dropped), each cell stripped and ``\\|`` unescaped. GFM's outer pipes are
optional (``Name | Age`` over ``--- | ---`` is a table), and a header cell's emphasis is
no part of its name (``**Name**`` names ``Name``: :func:`plain_names`). The caller writes them
as CSV and lists the conversion.

The table starts after a byte-order mark and invisible characters opening the text
(:func:`table_start`): ``\u200b| Name | Age |`` over ``|---|---|`` is the table a reader
sees, not a row of three cells the first of which is named by the zero-width space, over
a row of dashes read as data."""

from __future__ import annotations

import re

from formatbook_core.decoding import bom_length
from formatbook_core.invisible import invisible_run

from .reader import Record

# |---|:---:|---:| — cells of dashes with optional colons, pipes around optional
ALIGN = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")


def _lines(text: str, start: int = 0) -> list[tuple[int, int, str]]:
    out = []
    pos = start
    n = len(text)
    while pos < n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        body_end = end - 1 if end > pos and text[end - 1] == "\r" else end
        out.append((pos, body_end, "\r\n" if body_end < end else ("\n" if nl >= 0 else "")))
        pos = end + 1 if nl >= 0 else n
    return out


#: a character that is not white space, as ``str.strip`` reads white space (blank lines
#: before a table are skipped by the engine, not a line at a time)
_NOT_BLANK = re.compile(r"\S")


def table_start(text: str) -> int | None:
    """Where the Markdown table ``text`` is starts: 0, or past the byte-order mark and the
    invisible characters (with blanks among them) that open the text; ``None`` when the
    text is no Markdown table."""
    end, hidden = invisible_run(text, 0, " \t")
    start = end if hidden else 0
    return start if is_table(text, start) else None


def hidden_before(text: str, start: int) -> int:
    """How many invisible characters before ``start`` (a :func:`table_start`) the table
    leaves out, the byte-order mark opening the text not counted (it marks the encoding:
    every reading skips it)."""
    return invisible_run(text, bom_length(text), " \t")[1] if start else 0


def is_table(text: str, start: int = 0) -> bool:
    """The text from ``start`` is a Markdown table: a row of pipes, then an alignment row."""
    lines: list[str] = []
    pos = start
    while len(lines) < 2:  # only the first two non-blank lines: each holds the next non-blank character
        found = _NOT_BLANK.search(text, pos)
        if found is None:
            break
        # the line from where it starts, or from ``start`` (past the invisible characters)
        line_start = max(pos, text.rfind("\n", 0, found.start()) + 1)
        nl = text.find("\n", found.start())
        end = len(text) if nl < 0 else nl
        lines.append(text[line_start:end].rstrip("\r"))
        pos = end + 1
    if len(lines) < 2:
        return False
    first = lines[0].strip()
    second = lines[1]
    if "-" not in second or ALIGN.fullmatch(second) is None:
        return False
    if first.startswith("|"):
        return True
    # GFM's table without outer pipes ("Name | Age" over "--- | ---"): as many cells in
    # the alignment row as in the header, and a pipe in both
    return "|" in first and "|" in second and len(_cells(first, 0)[0]) == len(_cells(second, 0)[0])


def _cells(line: str, offset: int) -> tuple[list[str], list[int]]:
    """The cells of one table line (outer pipes dropped) and where each starts."""
    stripped = line.strip()
    lead = len(line) - len(line.lstrip())
    body_start = lead + (1 if stripped.startswith("|") else 0)
    body_end = lead + len(stripped) - (1 if stripped.endswith("|") and not stripped.endswith("\\|") else 0)
    cells: list[str] = []
    starts: list[int] = []
    body = line[body_start:body_end]
    if "\\" not in body:  # no escaped pipe: split at once
        at = offset + body_start
        for piece in body.split("|"):
            stripped = piece.strip()
            cells.append(stripped)
            starts.append(at + (len(piece) - len(piece.lstrip()) if stripped else 0))
            at += len(piece) + 1
        return cells, starts
    current: list[str] = []
    cell_start = body_start
    i = body_start
    while i < body_end:
        ch = line[i]
        if ch == "\\" and i + 1 < body_end and line[i + 1] == "|":
            current.append("|")
            i += 2
            continue
        if ch == "|":
            cells.append("".join(current).strip())
            starts.append(offset + cell_start)
            current = []
            cell_start = i + 1
        else:
            current.append(ch)
        i += 1
    cells.append("".join(current).strip())
    starts.append(offset + cell_start)
    return cells, starts


def read(text: str, at: int = 0) -> tuple[list[Record], tuple[int, int], list[tuple[int, int]]]:
    """The table's records (from ``at``), the span of its alignment row, and spans of
    lines that are not part of it (blank ones)."""
    records: list[Record] = []
    align: tuple[int, int] = (0, 0)
    blank: list[tuple[int, int]] = []
    seen_rows = 0
    for start, end, eol in _lines(text, at):
        line = text[start:end]
        if not line.strip():
            blank.append((start, end + len(eol)))
            continue
        if seen_rows == 1 and align == (0, 0) and ALIGN.fullmatch(line):
            align = (start, end + len(eol))
            continue
        rec = Record(None, None, None, start, end, eol)
        stripped = line.strip()
        if "\\" not in stripped:  # no escaped pipe: split at once, where cells start worked out when asked
            lead = len(line) - len(line.lstrip())
            body_start = lead + (1 if stripped.startswith("|") else 0)
            body = stripped[
                (1 if stripped.startswith("|") else 0) : len(stripped) - (1 if stripped.endswith("|") else 0)
            ]
            raw = body.split("|")
            rec.cells = [piece.strip() for piece in raw]
            rec._raw, rec._raw_at = raw, start + body_start
        else:
            rec.cells, rec.starts = _cells(line, start)
        rec.quoted = [False] * len(rec.cells)
        records.append(rec)
        seen_rows += 1
    return records, align, blank


_EMPHASIS = ("***", "**", "__", "*", "_")


def plain_names(cells: list[str]) -> list[str]:
    """Header cells without the emphasis that wraps them whole (``**Name**``, ``_Age_``):
    GFM shows them bold, the column is named ``Name``."""
    out = []
    for cell in cells:
        for mark in _EMPHASIS:
            inner = cell[len(mark) : -len(mark)]
            if len(cell) > 2 * len(mark) and cell.startswith(mark) and cell.endswith(mark) and inner.strip(mark[0]):
                cell = inner.strip()
                break
        out.append(cell)
    return out
