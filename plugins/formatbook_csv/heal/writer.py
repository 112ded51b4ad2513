"""Writing healed records back as strict CSV: each record with its own line end, a cell
quoted when it was quoted or must be (it holds the delimiter, a quote or a line break, or
starts with a blank), quotes doubled."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from formatbook_core.healing import Written

_SPECIAL: dict[str, re.Pattern[str]] = {}


def _special(delimiter: str) -> re.Pattern[str]:
    pattern = _SPECIAL.get(delimiter)
    if pattern is None:
        lead = " " if delimiter == "\t" else " \t"
        pattern = re.compile(rf'[{re.escape(delimiter)}"\r\n]|^[{lead}]')
        _SPECIAL[delimiter] = pattern
    return pattern


def needs_quotes(cell: str, delimiter: str) -> bool:
    return _special(delimiter).search(cell) is not None


def cell_text(cell: str, quoted: bool, delimiter: str) -> str:
    if quoted or (cell and needs_quotes(cell, delimiter)):
        return '"' + cell.replace('"', '""') + '"'
    return cell


#: rows written at a time: the plain test (``_plain``) runs on a batch's joined text, at C
#: speed, and the rows may come from a generator, read once and not kept as a list
BATCH = 512


def write(rows: Iterable[tuple[list[str], Sequence[bool], str]], delimiter: str, max_size: int) -> str:
    """``rows`` as ``(cells, quoted, line end)``; ``HealError`` (the core's
    ``reply.too_large``) at the row that takes the text past ``max_size``."""
    out = Written(max_size)
    batch: list[tuple[list[str], Sequence[bool], str]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            _write_batch(out, batch, delimiter)
            batch = []
    if batch:
        _write_batch(out, batch, delimiter)
    return "".join(out)


def _write_batch(out: Written, rows: list[tuple[list[str], Sequence[bool], str]], delimiter: str) -> None:
    whole = _plain(rows, delimiter, out.max_size - out.size)
    if whole is not None:
        out.append(whole)
        return
    tab_ok = delimiter == "\t"  # a tab after a tab delimiter is an empty field, not a blank
    for cells, quoted, eol in rows:
        line = delimiter.join(cells)
        if not line and len(cells) == 1:  # one empty cell: "" (an empty line is no row)
            out.append('""' + eol)
            continue
        # the common case at C speed: nothing quoted and nothing that needs quotes (no
        # quote or line break, no delimiter inside a cell, no cell starting with a blank)
        if (
            True not in quoted
            and '"' not in line
            and "\n" not in line
            and "\r" not in line
            and line.count(delimiter) == len(cells) - 1
            and line[:1] not in (" ", "\t")
            and (delimiter + " ") not in line
            and (tab_ok or (delimiter + "\t") not in line)
        ):
            out.append(line + eol)
            continue
        out.append(delimiter.join(cell_text(c, q, delimiter) for c, q in zip(cells, quoted, strict=False)) + eol)


def _plain(rows: list[tuple[list[str], Sequence[bool], str]], delimiter: str, max_size: int) -> str | None:
    """A batch of ``rows`` written at once when none needs more than a join: the test
    ``_write_batch`` makes of each row (nothing quoted, no quote or line break, no
    delimiter inside a cell, no cell starting with a blank, no empty line), made on all of
    them together; ``None`` when one fails or the text passes ``max_size`` (the room left:
    ``_write_batch`` then goes row by row and says which row)."""
    if any(True in quoted for _, quoted, _ in rows):
        return None
    lines = [delimiter.join(cells) for cells, _, _ in rows]
    if "" in lines:
        return None
    body = "\n".join(lines)  # a line feed inside a cell shows as one more
    if '"' in body or "\r" in body or body.count("\n") != len(lines) - 1:
        return None
    if body.count(delimiter) != sum(len(cells) - 1 for cells, _, _ in rows):  # one inside a cell
        return None
    if body[:1] in (" ", "\t") or "\n " in body or "\n\t" in body or (delimiter + " ") in body:
        return None
    if delimiter != "\t" and (delimiter + "\t") in body:
        return None
    text = "".join([line + eol for line, (_, _, eol) in zip(lines, rows, strict=True)])
    return text if len(text) <= max_size else None
