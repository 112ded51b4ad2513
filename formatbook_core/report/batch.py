"""The report of a batch run (``formatbook check --jsonl ... --report FILE``), tallied as
the verdicts come out of the workers.

The rows handed to the workers are remembered until their verdict comes back (a few
chunks a worker are in flight, so this stays small), so that each verdict is tallied
with its row's reply and grouping field without reading the input twice; a resumed run
first tallies the verdicts already in its ``--out``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..batch.columns import COLUMNS
from . import RowSource, tally_file
from .aggregate import Tally
from .render import render


class BatchReport:
    """A tally fed by a batch run: :meth:`rows` wraps the input rows, :meth:`add` takes
    each verdict item, :meth:`write` writes the page."""

    def __init__(self, path: str, field: str, group_by: str | None) -> None:
        self.path, self.field = path, field
        self.tally = Tally(group_by)
        self.pending: dict[int, Any] = {}

    def resume(self, out: str, source: str | None, upto: int) -> None:
        """Tally the verdicts an interrupted run left in ``out`` (rows from ``source``, a
        JSONL input file, when given)."""
        with open(out, "rb") as verdicts:
            if source is None:
                tally_file(verdicts, self.tally, upto=upto)
                return
            with open(source, "rb") as rows:
                tally_file(verdicts, self.tally, RowSource(rows, self.field), upto=upto)

    def rows(self, rows: Iterator[tuple[int, Any]], skip: int) -> Iterator[tuple[int, Any]]:
        """The same rows, each remembered until its verdict comes (rows up to ``skip`` are not checked)."""
        for number, row in rows:
            if number > skip:
                self.pending[number] = row
            yield number, row

    def add(self, line: int, out: Any) -> None:
        """Tally one verdict: ``out`` is its JSONL line or its flat (Parquet) row."""
        raw = self.pending.pop(line, None)
        row = _row(raw)
        record = json.loads(out) if isinstance(out, str) else unflatten(out)
        reply = row.get(self.field) if row is not None else None
        self.tally.add(record, row, reply if isinstance(reply, str) else None)

    def write(self, source: str) -> None:
        """Write the page."""
        Path(self.path).write_text(render(self.tally, source), encoding="utf-8")


def _row(raw: Any) -> Mapping[str, Any] | None:
    if isinstance(raw, (bytes, str)):
        try:
            raw = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return None
    return raw if isinstance(raw, Mapping) else None


def unflatten(flat: Mapping[str, Any]) -> dict[str, Any]:
    """A flat verdict row (nested parts as JSON text) as a verdict record again."""
    record = dict(flat)
    for name, as_json in COLUMNS:
        if as_json and isinstance(record.get(name), str):
            try:
                record[name] = json.loads(record[name])
            except ValueError:
                record[name] = None
    return record
