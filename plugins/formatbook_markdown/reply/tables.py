"""GFM pipe tables, found line by line so that broken ones can be repaired.

markdown-it rejects a table whose separator row has the wrong number of cells (it reads
the lines as a paragraph); this module still finds it, so that the repair plan can fix
the separator. A table is a header row holding an unescaped ``|``, a separator row
(``---``, ``:--``, ``--:``, ``:-:`` cells) and the rows after it up to a blank line or a
line without ``|``. Rows may leave out the outer pipes; ``\\|`` is a pipe inside a cell.
Lines in code fences are never table rows.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .blocks import Lines, LineSet, Scan, code_lines_of, scan

_SEP_CELL = re.compile(r"^\s*:?-+:?\s*$")
_PIPE = re.compile(r"(?<!\\)\|")  # an unescaped pipe


@dataclass
class ParsedTable:
    """A table: ``columns`` (header cells, the ``#`` column included) and ``rows`` of
    cell strings (inline Markdown, ``\\|`` unescaped). ``kind`` is ``ordered_table`` when
    the first column is ``#``; ``by`` comes from the spec table it matches."""

    columns: list[str]
    rows: list[list[str]]
    kind: str = "table"
    by: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: ``columns``, ``rows``, ``kind`` and ``by``."""
        return {"columns": list(self.columns), "rows": [list(r) for r in self.rows], "kind": self.kind, "by": self.by}


@dataclass
class TableBlock:
    """Where a table sits (lines ``[line, end_line)``, the separator on ``line + 1``),
    its cells and whether its separator has as many cells as its header."""

    line: int
    end_line: int
    header: list[str]
    aligns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    outer_pipes: bool = True

    @property
    def separator_ok(self) -> bool:
        return len(self.aligns) == len(self.header)

    def parsed(self) -> ParsedTable:
        kind = "ordered_table" if self.header and self.header[0].strip() == "#" else "table"
        return ParsedTable(list(self.header), [list(r) for r in self.rows], kind)


def has_pipe(line: str) -> bool:
    """``line`` holds a ``|`` that is not escaped."""
    return "|" in line and _PIPE.search(line) is not None


def split_row(line: str) -> list[str]:
    """The cells of a table row: outer pipes dropped, split on unescaped ``|``, cells
    stripped and ``\\|`` unescaped."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells = _PIPE.split(s)
    return [c.strip().replace("\\|", "|") for c in cells]


def separator_cells(line: str) -> list[str] | None:
    """The alignment cells of a separator row, or ``None`` when ``line`` is not one."""
    if "-" not in line:
        return None
    s = line.strip()
    if "|" not in s:
        return None  # a bare '---' is a thematic break or a setext underline
    cells = split_row(s)
    if not cells or not all(_SEP_CELL.match(c) for c in cells):
        return None
    return [c.strip() for c in cells]


def find_tables(sc: Scan) -> list[TableBlock]:
    """Every pipe table of a scanned text, in order (broken separators included). Found
    once per scan (the repair steps and the extraction ask again about an unchanged
    text): the blocks are shared, read them only."""
    found = sc.__dict__.get("_tables")
    if found is None:
        found = sc.__dict__["_tables"] = tuple(_find_tables(sc.text, sc.lines, sc.code_lines))
    return list(found)


#: A row's cells already read, asked with the row's line number and text (see
#: :func:`parse_tables`), or ``None``
SameRow = Callable[[int, str], "list[str] | None"]


def _find_tables(text: str, lines: Lines, code_lines: LineSet, same: SameRow | None = None) -> list[TableBlock]:
    out: list[TableBlock] = []
    n = len(lines)
    i = 0
    while i + 1 < n:
        if i in code_lines or (i + 1) in code_lines:
            i += 1
            continue
        head = lines.text(text, i)
        if not has_pipe(head) or head.startswith("    ") or head.lstrip().startswith(("#", ">")):
            i += 1
            continue
        aligns = separator_cells(lines.text(text, i + 1))
        if aligns is None:
            i += 1
            continue
        block = TableBlock(i, i + 2, split_row(head), aligns, outer_pipes=head.strip().startswith("|"))
        j = i + 2
        while j < n and j not in code_lines:
            row = lines.text(text, j)
            if not row.strip() or not has_pipe(row):
                break
            cells = same(j, row) if same is not None else None
            block.rows.append(split_row(row) if cells is None else cells)
            j += 1
        block.end_line = j
        out.append(block)
        i = j
    return out


def parse_tables(md: str, source: tuple[Scan, int] | None = None) -> list[ParsedTable]:
    """Every table of ``md`` as a :class:`ParsedTable` (an empty list for non-strings).

    ``source``: ``(sc, line)`` when ``md`` is a stretch of the scanned text ``sc`` whose
    lines are, from ``line`` on, ``md``'s (a section's text): a row whose line reads the
    same as the line there, a row of one of ``sc``'s tables, shares that row's cells
    (:func:`split_row` reads the line alone: the same cells), not a second copy of each
    (a section of tables held its cells twice, 8 bytes a character). A line that reads
    otherwise is split as it is."""
    if not isinstance(md, str) or not md:
        return []
    same = _rows_of(*source) if source is not None else None
    read = code_lines_of(md)  # a section's text: seldom parsed again (see code_lines_of)
    if read is None:
        sc = scan(md)
        read = sc.lines, sc.code_lines
    return [t.parsed() for t in _find_tables(md, *read, same)]


def _rows_of(sc: Scan, first: int) -> SameRow:
    """The cells of ``sc``'s table row on line ``first + j`` when that line reads ``row``."""
    blocks = find_tables(sc)
    starts = [b.line + 2 for b in blocks]  # each table's first row

    def same(j: int, row: str) -> list[str] | None:
        at = first + j
        k = bisect_right(starts, at) - 1
        if k < 0:
            return None
        block = blocks[k]
        i = at - starts[k]
        if i >= len(block.rows) or sc.line_text(at) != row:
            return None
        return block.rows[i]

    return same


def format_row(cells: list[str], outer: bool = True) -> str:
    """A table row for ``cells`` (pipes inside cells escaped)."""
    body = " | ".join(c.replace("|", "\\|") for c in cells)
    return f"| {body} |" if outer else body


def format_separator(aligns: list[str], outer: bool = True) -> str:
    """A separator row for alignment cells such as ``---`` or ``:-:``."""
    body = " | ".join(aligns)
    return f"| {body} |" if outer else body
