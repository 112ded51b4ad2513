"""``formatbook check --jsonl FILE`` / ``--parquet FILE``: many replies, every core.

Rows are read in chunks and checked in ``--workers`` processes (default: the machine's
cores; ``--workers 1``: this process); at most a few chunks a worker are in flight, so
memory stays flat whatever the input's size, and verdicts are written in input order.

Verdicts go to ``--out`` as JSONL (one record a row: ``line``, ``id``, the
:mod:`formatbook_core.batch.record` fields) or, when ``--out`` ends in ``.parquet``, as
Parquet (nested parts as JSON text). ``--resume`` keeps the verdicts already in a JSONL
``--out`` (an interrupted run's) and checks only the rows after them: each row then has
exactly one verdict. ``--timeout SECONDS`` limits each reply (``batch.timeout``; a
worker stuck in C code past the limit is killed, the row it was at times out, and the
chunk's other rows are checked again one by one);
a plugin that raises, or a worker that dies, costs its row a ``batch.crashed`` verdict,
not the run, for the first rows as for the last (every row is checked in a worker; both
verdicts keep the row's ``id``). A worker ends when the command does, even after a
``kill -9`` (:func:`formatbook_core.batch.pool.exit_with_parent`). A row may
carry its own EXPECT text in ``--expect-field``: schema paths relative to the input
file's folder and confined to it (no absolute path, no ``..``, no symbolic link leading
out, no URL, no ``allow_fetch``/``base_dir`` option), since rows are data and an EXPECT
line may otherwise name any file the process can read.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from . import common

CHUNK = 32  # rows a task: large enough to pay for the round trip, small enough to share out


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The batch options of ``formatbook check``."""
    p.add_argument(
        "--parquet",
        metavar="FILE",
        help="check many replies from a Parquet file (needs pyarrow); an --out FILE.parquet is written as Parquet",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help=(
            "with --jsonl/--parquet: worker processes (default: the machine's cores); 1: this process, "
            "where a crash or a hang in C code ends the run instead of costing its row a verdict"
        ),
    )
    p.add_argument("--resume", action="store_true", help="keep the verdicts already in --out and check the rest")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help="time limit for each reply")
    p.add_argument(
        "--report",
        metavar="FILE.html",
        help="with --jsonl/--parquet: write an HTML report of the verdicts here at the end (see formatbook report)",
    )
    p.add_argument(
        "--group-by",
        metavar="FIELD",
        help="with --report: the rows' field to split the numbers by (default: model, group, provider... when present)",
    )
    p.add_argument(
        "--expect-field",
        metavar="NAME",
        help=(
            "the field holding a row's own EXPECT lines (a string or a list of lines), if any; "
            "their schema files must lie inside the input file's folder"
        ),
    )


@dataclass(frozen=True)
class Job:
    """What each worker needs (plain, picklable): expectations are parsed in the worker."""

    expect: tuple[str, ...]
    expect_file: str | None
    field: str
    expect_field: str | None
    base_dir: str
    timeout: float | None
    columnar: bool


_job: Job | None = None
_expectations: Any = None
_pid = 0


def _init(job: Job) -> None:
    """Set a worker (or this process) up: the shared expectations parsed once."""
    global _job, _expectations, _pid
    if _job == job and _pid != os.getpid():
        return  # a worker forked from the process that set this job up: nothing to parse again
    _job, _pid = job, os.getpid()
    needed = bool(job.expect) or job.expect_file is not None
    _expectations = common.load_expectations(job.expect, job.expect_file) if needed else None


def _check_chunk(chunk: list[tuple[int, Any]]) -> list[tuple[int, bool, str, Any]]:
    """Check ``(row number, raw JSONL line or row dict)`` pairs: ``(number, ok, verdict, output)``."""
    assert _job is not None, "_init runs first"
    from ..batch.pool import mark

    out = []
    for number, item in chunk:
        mark(number)  # a worker found stuck was at this row (numbers start at 1)
        try:
            record = _record(number, item)
        except Exception as exc:  # reading the row failed outside the check: this row's verdict, not the run's end
            record = _failed(number, item, exc)
        mark(0)
        out.append(_output(number, record, getattr(record, "exact", True)))
    return out


def _failed(number: int, item: Any, exc: Exception) -> dict[str, Any]:
    """The ``batch.crashed`` verdict of a row whose reading raised outside the check."""
    from ..batch import failure_record
    from ..batch.record import CRASHED

    message = f"formatbook failed on line {number}: {type(exc).__name__}: {exc}"
    return {"line": number, **_row_id(item), **failure_record(CRASHED, message)}


def _record(number: int, item: Any) -> dict[str, Any]:
    from ..batch import check_row, failure_record
    from ..batch.core import expect_text

    assert _job is not None
    if isinstance(item, bytes):
        try:
            item = common.load_row(item)
        except ValueError as exc:
            return {"line": number, **failure_record("input.jsonl", f"line {number} is not JSON: {exc}")}
    expect = _expectations
    if expect is None and not (isinstance(item, dict) and expect_text(item.get(_job.expect_field or "")) is not None):
        from ..batch.record import BAD_EXPECTATIONS

        record = failure_record(BAD_EXPECTATIONS, f"line {number} has no EXPECT text in field {_job.expect_field!r}")
        return {"line": number, **({"id": item["id"]} if isinstance(item, dict) and "id" in item else {}), **record}
    record = check_row(
        item,
        expect,
        field=_job.field,
        expect_field=_job.expect_field,
        base_dir=_job.base_dir,
        timeout=_job.timeout,
        input_code="input.jsonl",
        where=f"line {number}",
        confine=True,  # a row's own EXPECT text is data: it reads schema files inside base_dir only
    )
    return _numbered(number, record)


def _numbered(number: int, record: dict[str, Any]) -> Any:
    """``{"line": number, **record}``, keeping what the record knows of its JSON."""
    from ..batch.record import VerdictRecord

    out = VerdictRecord(line=number)
    out.update(record)
    out.exact = getattr(record, "exact", True)
    return out


def _output(number: int, record: dict[str, Any], exact: bool = True) -> tuple[int, bool, str, Any]:
    from ..batch import flat_record
    from ..batch.record import record_json
    from ..serialising import dumps_json

    assert _job is not None
    if not _job.columnar:
        return number, record["ok"], record["verdict"], record_json(record, exact) + "\n"
    ident = record.get("id")
    flat = {"line": number, "id": ident if ident is None or isinstance(ident, str) else dumps_json(ident)}
    return number, record["ok"], record["verdict"], {**flat, **flat_record(record)}


def _deadline(chunk: list[tuple[int, Any]]) -> float | None:
    """How long a chunk may take before its worker is taken for stuck (``--timeout`` only):
    each row its limit, and a margin, since the alarm stops a row in Python code long
    before this."""
    if _job is None or _job.timeout is None:
        return None
    return _job.timeout * (len(chunk) + 1) + 2.0


def _lost(one: list[tuple[int, Any]], how: str, at: frozenset[int] = frozenset()) -> list[tuple[int, bool, str, Any]]:
    """The verdict of a row whose check hung (``batch.timeout``) or killed its worker (``batch.crashed``)."""
    from ..batch import failure_record
    from ..batch.record import CRASHED, TIMEOUT

    number, item = one[0]
    if how == "hung":
        code = TIMEOUT
        message = f"the check of line {number} did not return within its time limit, even when interrupted"
    else:
        code = CRASHED
        message = f"the worker process died while checking line {number} (a crash in a plugin or out of memory)"
    return [_output(number, {"line": number, **_row_id(item), **failure_record(code, message)})]


def _crashed_chunk(
    chunk: list[tuple[int, Any]], how: str = "died", at: frozenset[int] = frozenset()
) -> list[tuple[int, bool, str, Any]]:
    """A chunk whose worker died or hung: each row again on its own, the culprit a
    ``batch.crashed`` or ``batch.timeout`` verdict. A hung worker's row (in ``at``, the
    rows the workers were at) times out without being checked again: run alone, it would
    only wait out a deadline a second time."""
    from ..batch.pool import OrderedPool

    # a chunk runs in one worker: at most one of its rows is a step the workers were at;
    # stuck there past the chunk's deadline, it was past its own limit too
    stuck = next((row for row in chunk if row[0] in at), None) if how == "hung" else None
    assert _job is not None
    pool: OrderedPool[list[tuple[int, Any]], list[tuple[int, bool, str, Any]]] = OrderedPool(
        _check_chunk, 1, initializer=_init, initargs=(_job,), window=1, on_broken=_lost, deadline=_deadline
    )
    try:
        checked = pool.map([[row] for row in chunk if row is not stuck])
        return [out for row in chunk for out in (_lost([row], how) if row is stuck else next(checked))]
    finally:
        pool.close()


def _row_id(item: Any) -> dict[str, Any]:
    """``{"id": ...}`` when the row (a raw JSONL line or a row dict) has one, as every
    verdict of it carries; ``{}`` otherwise."""
    if isinstance(item, bytes):
        try:
            item = common.load_row(item)
        except ValueError:
            return {}
    return {"id": item["id"]} if isinstance(item, dict) and "id" in item else {}


# --- input -----------------------------------------------------------------------------------


def _jsonl_rows(stream: IO[bytes], args: argparse.Namespace) -> Iterator[tuple[int, Any]]:
    """The non-blank lines; the first is read now: a first row without ``--field`` is a
    usage error before anything is written."""
    lines = iter(stream)
    blank, first = common.first_row(lines)
    common.require_field(first, args.field, blank + 1)
    rows = lines if first is None else itertools.chain([first], lines)
    return ((number, raw) for number, raw in enumerate(rows, start=blank + 1) if raw.strip())


def _parquet_rows(path: str, args: argparse.Namespace) -> tuple[Iterator[tuple[int, Any]], int]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise common.UsageError("--parquet needs pyarrow: pip install 'formatbook[parquet]'") from None
    try:
        parquet = pq.ParquetFile(path)
    except FileNotFoundError:
        raise common.UsageError(f"no such file: {path}") from None
    except Exception as exc:
        raise common.UsageError(f"cannot read {path} as Parquet: {exc}") from None
    names = parquet.schema_arrow.names
    if args.field not in names:
        raise common.UsageError(f"the replies have no field {args.field!r}: the columns are {', '.join(names[:20])}")
    grouping = _grouping_fields(args)
    wanted = [
        n for n in dict.fromkeys(["id", args.field, args.expect_field, *grouping]) if n is not None and n in names
    ]

    def rows() -> Iterator[tuple[int, Any]]:
        number = 0
        for batch in parquet.iter_batches(batch_size=1024, columns=wanted):
            for row in batch.to_pylist():
                number += 1
                yield number, row

    return rows(), parquet.metadata.num_rows


def _grouping_fields(args: argparse.Namespace) -> list[str]:
    """The columns a report may group by (read from a Parquet input only when asked for)."""
    if not getattr(args, "report", None):
        return []
    if args.group_by is not None:
        return [args.group_by] if args.group_by else []
    from ..report.aggregate import GROUP_FIELDS

    return list(GROUP_FIELDS)


def _chunks(rows: Iterator[tuple[int, Any]], skip: int) -> Iterator[list[tuple[int, Any]]]:
    rows = (r for r in rows if r[0] > skip)
    while chunk := list(itertools.islice(rows, CHUNK)):
        yield chunk


# --- output ----------------------------------------------------------------------------------


class _ParquetSink:
    """Verdict rows to a Parquet file, a row group every few thousand rows."""

    GROUP = 4096

    def __init__(self, path: str) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise common.UsageError("a .parquet --out needs pyarrow: pip install 'formatbook[parquet]'") from None
        from ..batch import arrow_schema

        self.pa = pa
        self.schema = pa.schema([("line", pa.int64()), ("id", pa.string()), *arrow_schema()])
        try:
            self.writer = pq.ParquetWriter(path, self.schema)
        except OSError as exc:
            raise common.UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
        self.rows: list[dict[str, Any]] = []

    def write(self, row: dict[str, Any]) -> None:
        self.rows.append(row)
        if len(self.rows) >= self.GROUP:
            self.flush()

    def flush(self) -> None:
        if self.rows:
            self.writer.write_table(self.pa.Table.from_pylist(self.rows, schema=self.schema))
            self.rows = []

    def close(self) -> None:
        self.flush()
        self.writer.close()


def _open_sink(args: argparse.Namespace, report_default: Any) -> tuple[Any, Any, Any]:
    """(JSONL sink or None, Parquet sink or None, the renderer for the summary)."""
    from .render import is_terminal, make_renderer

    if args.out and args.out.endswith(".parquet"):
        if args.resume:
            raise common.UsageError("--resume needs a JSONL --out (a Parquet file cut short cannot be read back)")
        return None, _ParquetSink(args.out), make_renderer()
    if args.out:
        try:
            return open(args.out, "a" if args.resume else "w", encoding="utf-8"), None, make_renderer()
        except OSError as exc:
            raise common.UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    if args.resume:
        raise common.UsageError("--resume needs --out FILE (the verdicts already written there are kept)")
    if args.json or not is_terminal(sys.stdout):
        return sys.stdout, None, make_renderer(sys.stderr)
    return None, None, report_default


# --- the command -----------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """Check every row of ``--jsonl`` or ``--parquet``; exit 0 when all are met, 1 otherwise."""
    from ..batch.resume import ResumeError, resume_point
    from .render import make_renderer, summarize, summary_line

    if args.workers is not None and args.workers < 1:
        raise common.UsageError("--workers needs a number ≥ 1")
    if args.timeout is not None and args.timeout <= 0:
        raise common.UsageError("--timeout needs a number of seconds > 0")
    source = args.parquet if args.parquet is not None else args.jsonl
    base_dir = str(Path(source).resolve().parent) if source != "-" else os.getcwd()
    job = Job(
        tuple(args.expect),
        args.expect_file,
        args.field,
        args.expect_field,
        base_dir,
        args.timeout,
        bool(args.out and args.out.endswith(".parquet")),
    )
    _init(job)  # bad shared expectations: exit 2 before any row is read (and the workers parse them again)
    if _expectations is None and args.expect_field is None:
        common.load_expectations((), None)  # raises the usage error that names -e
    done = None
    if args.resume and args.out:
        try:
            done = resume_point(args.out)
        except ResumeError as exc:
            raise common.UsageError(f"cannot resume: {exc}") from None
    page = _batch_report(args, source, done)
    with _Input(source, args) as (rows, total):
        if page is not None:
            rows = page.rows(rows, done.last if done else 0)
        sink, parquet, report = _open_sink(args, make_renderer())
        totals = summarize(())
        if done is not None:
            for name, n in done.totals.items():
                totals[name] = totals.get(name, 0) + n
        not_met = done.not_met if done is not None else 0
        failed: list[int] = []
        try:
            for item in common.progress(
                _verdicts(rows, done.last if done else 0, args.workers, job), total, lambda item: item["line"]
            ):
                totals[item["verdict"]] = totals.get(item["verdict"], 0) + 1
                if page is not None:
                    page.add(item["line"], item["out"])
                if not item["ok"]:
                    not_met += 1
                    if len(failed) < 20:
                        failed.append(item["line"])
                if sink is not None:
                    sink.write(item["out"])
                elif parquet is not None:
                    parquet.write(item["out"])
                if item["flush"] and sink is not None:
                    sink.flush()  # whole chunks reach the file: --resume finds them after a kill
        finally:
            if parquet is not None:
                parquet.close()
            if sink is not None and sink is not sys.stdout:
                sink.close()
    if done is not None and done.rows:
        report.write(f"resumed: {done.rows} verdicts already in {args.out} (up to line {done.last})")
    report.table("Verdicts" if report.rich else None, ["verdict", "replies"], [[n, c] for n, c in totals.items()])
    if not_met and sink is None and parquet is None:
        shown = ", ".join(str(n) for n in failed) + (" ..." if not_met > len(failed) else "")
        report.write(f"lines not met: {shown} (use --out FILE for every verdict)")
    report.write(summary_line(totals))
    if page is not None:
        page.write(Path(source).name if source != "-" else "standard input")
        report.write(f"report: {args.report}")
    return common.EXIT_OK if not not_met else common.EXIT_NOT_MET


def _batch_report(args: argparse.Namespace, source: str, done: Any) -> Any:
    """The report a run writes with ``--report`` (``None`` without), fed first with the
    verdicts a resumed run keeps."""
    if not args.report:
        if args.group_by is not None:
            raise common.UsageError("--group-by goes with --report FILE.html")
        return None
    from ..report.batch import BatchReport

    folder = Path(args.report).resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):  # say so now, not after the whole run
        raise common.UsageError(f"cannot write {args.report}: no folder {folder} to write in")
    page = BatchReport(args.report, args.field, args.group_by)
    if done is not None and done.rows:
        jsonl = source if args.parquet is None and source != "-" else None
        page.resume(args.out, jsonl, done.last)
    return page


class _Input:
    """The input's rows and a function giving their count (for the progress bar)."""

    def __init__(self, source: str, args: argparse.Namespace) -> None:
        self.source, self.args = source, args
        self.stream: Any = None

    def __enter__(self) -> tuple[Iterator[tuple[int, Any]], Any]:
        if self.args.parquet is not None:
            rows, count = _parquet_rows(self.source, self.args)
            return rows, lambda: count
        self.stream = common.open_binary(self.source).__enter__()
        return _jsonl_rows(self.stream, self.args), lambda: common.count_lines(self.source)

    def __exit__(self, *exc: object) -> None:
        if self.stream is not None and self.stream is not sys.stdin.buffer:
            self.stream.close()


def _verdicts(rows: Iterator[tuple[int, Any]], skip: int, workers: int | None, job: Job) -> Iterator[dict[str, Any]]:
    """The verdict of each row after ``skip``, in order: ``line``, ``ok``, ``verdict``, ``out``.

    ``--workers 1`` checks every row in this process. Otherwise every row, the first ones
    too, is checked in a worker process, even for a small input: a worker that crashes or
    hangs in C code then costs its row a verdict, never the run. The workers are forked
    after the shared expectations were parsed (and their schema compiled), so they start
    with them."""
    chunks = _chunks(rows, skip)
    if workers == 1:
        yield from _items(map(_check_chunk, chunks))
        return
    from ..batch.pool import OrderedPool

    first = next(chunks, None)
    if first is None:
        return
    pool = OrderedPool(
        _check_chunk,
        workers if workers is not None else (os.cpu_count() or 1),
        initializer=_init,
        initargs=(job,),
        on_broken=_crashed_chunk,
        deadline=_deadline,
    )
    try:
        yield from _items(pool.map(itertools.chain([first], chunks)))
    finally:
        pool.close()


def _items(results: Iterator[list[tuple[int, bool, str, Any]]]) -> Iterator[dict[str, Any]]:
    for chunk in results:
        for i, (number, ok, verdict, out) in enumerate(chunk):
            yield {"line": number, "ok": ok, "verdict": verdict, "out": out, "flush": i == len(chunk) - 1}
