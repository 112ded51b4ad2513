"""Check one reply, one row, or many rows: never an exception for what a reply holds."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..expectations import Expectations
from ..pipeline import check
from ..results import CheckResult, Violation
from .cache import as_cached
from .guard import ReplyTimeout, within
from .record import BAD_EXPECTATIONS, CRASHED, TIMEOUT, VerdictRecord, failure_record, verdict_record


def check_one(
    reply: str | bytes | None,
    expect: Expectations | str | None = None,
    *,
    base_dir: str | Path | None = None,
    timeout: float | None = None,
    confine: bool = False,
) -> dict[str, Any]:
    """The verdict record of one reply (see :mod:`formatbook_core.batch.record`).

    ``expect`` is ``Expectations`` or EXPECT text (parsed once per process through the
    cache; schema paths relative to ``base_dir``, default the current folder, and with
    ``confine`` only files inside it: see :func:`~formatbook_core.parse_expectations`). Bad
    expectations make a record with the violation ``batch.expectations``; a plugin that
    raises (``SystemExit`` and ``GeneratorExit`` too; ``KeyboardInterrupt`` stops the run),
    ``batch.crashed``; a check longer than ``timeout`` seconds, ``batch.timeout``.
    """
    try:
        exp = as_cached(expect, base_dir, confine=confine)
    except Exception as exc:  # an ExpectationError, or a schema file that cannot be read
        return failure_record(BAD_EXPECTATIONS, f"bad expectations: {exc}")
    try:
        result = within(timeout, lambda: check(reply, exp))
    except ReplyTimeout as exc:
        return verdict_record(CheckResult(False, "", format=exp.format, violations=[Violation(TIMEOUT, str(exc))]), exp)
    except KeyboardInterrupt:
        raise  # Ctrl-C stops the run
    except BaseException as exc:  # a bug in a plugin costs this reply, not the run: sys.exit() in it too
        message = f"formatbook failed on this reply: {type(exc).__name__}: {exc}"
        return verdict_record(CheckResult(False, "", format=exp.format, violations=[Violation(CRASHED, message)]), exp)
    return verdict_record(result, exp)


def expect_text(value: Any) -> str | None:
    """A row's own EXPECT text: a string, or a list of lines (as JSON or a Parquet list
    column holds them) joined; ``None`` for anything else."""
    if isinstance(value, str):
        return value
    if hasattr(value, "tolist"):  # a numpy array: a list column read by pandas
        value = value.tolist()
    if isinstance(value, (list, tuple)) and value and all(isinstance(line, str) for line in value):
        return "\n".join(value)
    return None


def check_row(
    row: Any,
    expect: Expectations | str | None = None,
    *,
    field: str = "reply",
    expect_field: str | None = None,
    base_dir: str | Path | None = None,
    timeout: float | None = None,
    input_code: str = "input.row",
    where: str = "the row",
    confine: bool = False,
) -> dict[str, Any]:
    """The verdict record of one row: a reply string, or a mapping with the reply under
    ``field`` (and, under ``expect_field`` when the row has it, its own EXPECT text, which
    replaces ``expect``). A row's ``id`` is copied to the record. With ``confine``, a
    row's own EXPECT text is data, not trusted: it may name schema files inside
    ``base_dir`` only (see :func:`~formatbook_core.parse_expectations`)."""
    own: str | None = None
    record = VerdictRecord()
    if isinstance(row, dict):
        if "id" in row:
            record["id"] = row["id"]
        own = expect_text(row.get(expect_field)) if expect_field is not None else None
        if expect_field is not None and row.get(expect_field) is not None:
            if own is None:
                record.update(failure_record(input_code, f"{where} has no EXPECT text in field {expect_field!r}"))
                return record
            expect = own
        if field not in row:
            record.update(failure_record(input_code, f"{where} has no field {field!r}"))
            return record
        reply = row[field]
    else:
        reply = row
    if reply is not None and not isinstance(reply, (str, bytes)):
        record.update(failure_record(input_code, f"{where} has no string in field {field!r}"))
        return record
    if isinstance(reply, str):
        try:
            reply.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (JSON's "\\ud800"): reported as bytes that are not UTF-8
            reply = reply.encode("utf-8", "surrogatepass")
    checked = check_one(reply, expect, base_dir=base_dir, timeout=timeout, confine=confine and own is not None)
    record.update(checked)
    # an id that is not plain JSON as it is (a float NaN from a Parquet column, a numpy
    # number, a date) is written by the exact writer, which writes any value: json.dumps
    # refused NaN and ended the run
    record.exact = getattr(checked, "exact", True) or ("id" in record and type(record["id"]) not in _PLAIN_IDS)
    return record


_PLAIN_IDS = (str, int, bool, type(None))


def check_rows(
    rows: Iterable[Any],
    expect: Expectations | str | None = None,
    *,
    field: str = "reply",
    expect_field: str | None = None,
    base_dir: str | Path | None = None,
    timeout: float | None = None,
    confine: bool = False,
) -> Iterator[dict[str, Any]]:
    """:func:`check_row` on each row, lazily, in order, in this process."""
    for row in rows:
        yield check_row(
            row, expect, field=field, expect_field=expect_field, base_dir=base_dir, timeout=timeout, confine=confine
        )
