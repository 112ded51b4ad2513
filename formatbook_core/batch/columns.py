"""Verdicts as columns, for tables (Arrow, pandas, Hugging Face ``datasets``), and
:class:`BatchChecker`, the callable that Ray Data, Spark and ``datasets`` call on a batch.

Nested parts of a record (value, repairs, violations, counts, expectations) become JSON
text columns: a table's columns need one type, and a parsed value has any shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..serialising import dumps_json
from .core import check_row

#: the verdict columns, in order, and whether each holds JSON text
COLUMNS: tuple[tuple[str, bool], ...] = (
    ("ok", False),
    ("verdict", False),
    ("format", False),
    ("text", False),
    ("value", True),
    ("repairs", True),
    ("violations", True),
    ("violation_codes", False),
    ("counts", True),
    ("expectations", True),
)


def flat_record(record: dict[str, Any]) -> dict[str, Any]:
    """A verdict record with its nested parts as JSON text (``violation_codes``: a list)."""
    out: dict[str, Any] = {}
    for name, as_json in COLUMNS:
        if name == "violation_codes":
            out[name] = [v["code"] for v in record["violations"]]
        elif as_json:
            out[name] = dumps_json(record[name])
        else:
            out[name] = record[name]
    return out


def to_columns(records: Iterable[dict[str, Any]], prefix: str = "") -> dict[str, list[Any]]:
    """Records as a dict of columns (``prefix`` before each column name)."""
    columns: dict[str, list[Any]] = {prefix + name: [] for name, _ in COLUMNS}
    for record in records:
        for name, value in flat_record(record).items():
            columns[prefix + name].append(value)
    return columns


def arrow_schema(prefix: str = "") -> Any:
    """The Arrow types of the verdict columns (pyarrow imported here, when asked)."""
    import pyarrow as pa  # noqa: PLC0415 - an optional dependency

    types = {"ok": pa.bool_(), "violation_codes": pa.list_(pa.string())}
    return pa.schema([(prefix + name, types.get(name, pa.string())) for name, _ in COLUMNS])


class BatchChecker:
    """Check a batch of rows: a callable class for ``map_batches`` and its kin.

    ``expect`` is the EXPECT text for every row; ``expect_field`` names a column holding
    each row's own EXPECT text (a row whose cell is empty uses ``expect``); with
    ``confine``, that text may name schema files inside ``base_dir`` only (see
    :func:`~formatbook_core.parse_expectations`), as it should when the rows are untrusted.
    The object holds only these settings (plain, picklable); expectations are parsed once
    per process through :func:`~formatbook_core.batch.cache.cached_expectations`.

    Called with a ``pyarrow.Table`` it returns the table with the verdict columns added;
    with a ``pandas.DataFrame``, the frame with them added; with a dict of lists (a
    ``datasets`` batch), the dict with them added. Verdict columns replace input columns
    of the same name: give a ``prefix`` (``"fb_"``) to keep both.
    """

    def __init__(
        self,
        expect: str | None = None,
        *,
        field: str = "reply",
        expect_field: str | None = None,
        base_dir: str | Path | None = None,
        timeout: float | None = None,
        prefix: str = "",
        confine: bool = False,
    ) -> None:
        if expect is None and expect_field is None:
            raise ValueError("give expect (EXPECT text for every row) or expect_field (a column of EXPECT text)")
        self.expect = expect
        self.field = field
        self.expect_field = expect_field
        self.base_dir = str(base_dir) if base_dir is not None else None
        self.timeout = timeout
        self.prefix = prefix
        self.confine = confine

    def records(self, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """The verdict record of each row (a dict with the reply under ``field``)."""
        return [
            check_row(
                row,
                self.expect,
                field=self.field,
                expect_field=self.expect_field,
                base_dir=self.base_dir,
                timeout=self.timeout,
                confine=self.confine,
            )
            for row in rows
        ]

    def check_columns(self, columns: Mapping[str, Sequence[Any]]) -> dict[str, list[Any]]:
        """The verdict columns of a batch given as a dict of columns."""
        names = [self.field] + ([self.expect_field] if self.expect_field is not None else [])
        present = [n for n in names if n in columns]
        length = len(next(iter(columns.values()))) if columns else 0
        rows = [{n: columns[n][i] for n in present} for i in range(length)]
        return to_columns(self.records(rows), self.prefix)

    def __call__(self, batch: Any) -> Any:
        if isinstance(batch, Mapping):  # a dict, or the LazyBatch that datasets.map passes
            return {**batch, **self.check_columns(batch)}
        module = type(batch).__module__.split(".")[0]
        if module == "pyarrow":
            import pyarrow as pa  # noqa: PLC0415 - an optional dependency

            wanted = [n for n in (self.field, self.expect_field) if n is not None and n in batch.column_names]
            columns = self.check_columns(
                {n: batch.column(n).to_pylist() for n in wanted} or {"": [None] * batch.num_rows}
            )
            schema = arrow_schema(self.prefix)
            out = batch
            for name in schema.names:
                array = pa.array(columns[name], type=schema.field(name).type)
                if name in out.column_names:
                    out = out.set_column(out.column_names.index(name), name, array)
                else:
                    out = out.append_column(name, array)
            return out
        if module == "pandas":
            wanted = [n for n in (self.field, self.expect_field) if n is not None and n in batch.columns]
            # a missing cell is NaN or NA in pandas: None here, as in Arrow
            cells = {n: batch[n].astype(object).where(batch[n].notna(), None).tolist() for n in wanted}
            columns = self.check_columns(cells or {"": [None] * len(batch)})
            out = batch.copy()
            for name, values in columns.items():
                out[name] = values
            return out
        raise TypeError(
            f"a batch is a pyarrow.Table, a pandas.DataFrame or a dict of lists, not {type(batch).__name__}"
        )
