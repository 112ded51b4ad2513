"""``formatbook report``: a batch's verdicts as one self-contained HTML page.

:func:`write_report` reads a verdicts JSONL file (``formatbook check --jsonl ... --out``)
line by line, and, with ``replies``, the input JSONL beside it in step (a verdict's ``line``
is its row's line there): the reply of each of the worst verdicts is shown with its repairs
and violations marked on it, and the rows' grouping field (``model``...) splits the
numbers by group. Memory stays flat in the number of rows (see :mod:`.aggregate`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from .aggregate import Tally
from .render import render

__all__ = ["Tally", "RowSource", "read_records", "render", "write_report"]


def read_records(stream: IO[bytes], tally: Tally) -> Iterator[dict[str, Any]]:
    """The verdict records of a JSONL stream; a line that is not one is counted by
    ``tally.skip()``, not raised."""
    for raw in stream:
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            tally.skip()
            continue
        if not isinstance(record, dict) or not isinstance(record.get("verdict"), str):
            tally.skip()
            continue
        yield record


class RowSource:
    """The input rows, read in step with the verdicts: :meth:`row` of line ``n`` reads
    forward to line ``n`` (verdicts come in input order). A verdict for a line behind the
    last one read (verdicts of two runs appended) gets no row."""

    def __init__(self, stream: IO[bytes], field: str = "reply") -> None:
        self.stream, self.field = stream, field
        self.number = 0
        self.current: bytes | None = None

    def row(self, line: Any) -> Mapping[str, Any] | None:
        """The row at input line ``line`` as a mapping (``None``: no such line, or not a JSON object)."""
        if not isinstance(line, int) or isinstance(line, bool) or line < self.number:
            return None
        while self.number < line:
            raw = self.stream.readline()
            if not raw:
                return None
            self.number += 1
            self.current = raw
        try:
            row = json.loads(self.current or b"")
        except (ValueError, UnicodeDecodeError):
            return None
        return row if isinstance(row, dict) else None

    def reply(self, row: Mapping[str, Any] | None) -> str | None:
        """The reply a row carries under the field (``None``: none as text)."""
        value = row.get(self.field) if row is not None else None
        return value if isinstance(value, str) else None


def tally_file(verdicts: IO[bytes], tally: Tally, rows: RowSource | None = None, upto: int | None = None) -> Tally:
    """Add every verdict record of ``verdicts`` (up to input line ``upto``) to ``tally``."""
    for record in read_records(verdicts, tally):
        line = record.get("line")
        if upto is not None and isinstance(line, int) and line > upto:
            break
        row = rows.row(line) if rows is not None else None
        tally.add(record, row, rows.reply(row) if rows is not None else None)
    return tally


def write_report(
    verdicts: str | Path,
    out: str | Path,
    *,
    replies: str | Path | None = None,
    field: str = "reply",
    group_by: str | None = None,
    worst: int = 20,
) -> Tally:
    """Read ``verdicts`` (and the input ``replies``), write the HTML report to ``out``."""
    tally = Tally(group_by, worst)
    with open(verdicts, "rb") as stream:
        if replies is None:
            tally_file(stream, tally)
        else:
            with open(replies, "rb") as rows:
                tally_file(stream, tally, RowSource(rows, field))
    Path(out).write_text(render(tally, Path(verdicts).name), encoding="utf-8")
    return tally
