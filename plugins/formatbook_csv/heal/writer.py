"""Writing healed records back as strict CSV: each record with its own line end, a cell
quoted when it was quoted or must be (it holds the delimiter, a quote or a line break, or
starts with a blank), quotes doubled."""

from __future__ import annotations


def needs_quotes(cell: str, delimiter: str) -> bool:
    return (
        delimiter in cell
        or '"' in cell
        or "\n" in cell
        or "\r" in cell
        or (cell[:1] == " ")
        or (cell[:1] == "\t" and delimiter != "\t")
    )


def cell_text(cell: str, quoted: bool, delimiter: str) -> str:
    if quoted or needs_quotes(cell, delimiter):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def write(rows: list[tuple[list[str], list[bool], str]], delimiter: str) -> str:
    """``rows`` as ``(cells, quoted, line end)``."""
    out: list[str] = []
    for cells, quoted, eol in rows:
        out.append(delimiter.join(cell_text(c, q, delimiter) for c, q in zip(cells, quoted, strict=False)) + eol)
    return "".join(out)
