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


def write(rows: Iterable[tuple[list[str], Sequence[bool], str]], delimiter: str, max_size: int) -> str:
    """``rows`` as ``(cells, quoted, line end)``; ``HealError`` (the core's
    ``reply.too_large``) at the row that takes the text past ``max_size``."""
    out = Written(max_size)
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
    return "".join(out)
