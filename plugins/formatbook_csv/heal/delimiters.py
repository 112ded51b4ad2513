"""Delimiters: which one the reply uses, and rows written with another.

- The header line decides: the expected delimiter when it occurs there (outside quotes);
  else the one other candidate (``;``, tab, ``,``, ``|``) that does — a listed repair
  (``delimiter``); several others and not the expected one: ambiguous, a violation.
- A data row whose field count is not the header's, read again with its unquoted cells
  split also at one other candidate: when exactly one candidate gives the header's count,
  the row takes that split (``mixed_delimiters``); when several do, the split is ambiguous:
  a violation.
"""

from __future__ import annotations

from .. import dialect
from .reader import Record, first, read
from .state import Healing


def choose(h: Healing) -> None:
    """The plan's ``delimiter`` step, then the tolerant reading with it."""
    reading, span = decide(h)
    if span is not None:
        h.repair("delimiter", changed_message(reading, h.delimiter), *span)
    h.reading = reading
    text = h.text
    header_only = first(text, reading)
    if _refused(h, header_only[0]):  # the header step refuses it, whatever follows: not read
        h.records, h.blank, h.notes = header_only
        return
    h.records, h.blank, h.notes = read(text, reading)


def decide(h: Healing) -> tuple[str, tuple[int, int] | None]:
    """The delimiter the reply uses, from its header line, and the span of that line when
    it is not the expected one (a ``delimiter`` repair, see :func:`changed_message`); ``HealError``
    when the header holds several other candidates and not the expected one."""
    text = h.text
    end = dialect.header_line_end(text)
    header = text if end < 0 else text[:end]
    counts = dialect.count_outside_quotes(header, blank_opens_field=True)
    reading = h.delimiter
    if not counts.get(reading, 0) and reading in dialect.CANDIDATES:
        others = [c for c in dialect.CANDIDATES if c != reading and counts[c]]
        if len(others) > 1:
            names = " and ".join(dialect.name(c) for c in others)
            raise h.fail(
                "csv.ambiguous_delimiter",
                f"the header has no {dialect.name(reading)} but both {names}: which separates the fields cannot be told",
                0,
                len(header),
            )
        if others:
            return others[0], (0, len(header))
    return reading, None


def changed_message(reading: str, expected: str) -> str:
    """The ``delimiter`` repair's message: the delimiter read where another is expected."""
    return f"read fields separated by {dialect.name(reading)} where {dialect.name(expected)} is expected"


def _refused(h: Healing, records: list[Record]) -> bool:
    """Whether the header read alone has fewer fields than a table needs (two; one with a
    schema): the ``header`` step then refuses it, looking at nothing but the header, so the
    rows after it (a reply of lone carriage returns took 283 bytes a character as records,
    notes and repairs) are not read. A header of white space, or one that the text ends
    inside of, is left to the whole reading (which may take it as blank)."""
    if not records:
        return False
    head = records[0]
    return (
        len(head.cells) < (1 if h.schema is not None else 2)
        and not head.cut
        and bool(h.text[head.start : head.end].strip())
    )


def resplit(h: Healing, rec: Record, width: int, number: int) -> bool:
    """Split ``rec`` also at another delimiter when exactly one gives ``width`` fields."""
    fits: list[tuple[str, list[str], list[bool], list[int]]] = []
    raw = h.text[rec.start : rec.end]
    for other in dialect.CANDIDATES:
        if other == h.reading or other not in raw:
            continue
        cells: list[str] = []
        quoted: list[bool] = []
        starts: list[int] = []
        for cell, q, start in zip(rec.cells, rec.quoted, rec.starts, strict=False):
            if q or other not in cell:
                cells.append(cell)
                quoted.append(q)
                starts.append(start)
                continue
            at = start
            for piece in cell.split(other):
                stripped = piece.lstrip(" \t" if other != "\t" else " ")
                cells.append(stripped)
                quoted.append(False)
                starts.append(at + len(piece) - len(stripped))
                at += len(piece) + 1
        if len(cells) == width:
            fits.append((other, cells, quoted, starts))
    if len(fits) > 1:
        names = " or ".join(dialect.name(f[0]) for f in fits)
        raise h.fail(
            "csv.ambiguous_row",
            f"row {number} has {len(rec.cells)} fields where the header has {width}, and splitting it also at "
            f"{names} gives {width}: which is meant cannot be told",
            rec.start,
            rec.end,
        )
    if not fits:
        return False
    other, rec.cells, rec.quoted, rec.starts = fits[0]
    h.repair(
        "mixed_delimiters",
        f"split row {number} at {dialect.name(other)} too: it mixes {dialect.name(other)} with {dialect.name(h.reading)}",
        rec.start,
        rec.end,
    )
    return True
