"""What every ``formatbook`` command shares: exit statuses, usage errors, opening and
reading its input, loading EXPECT lines, a progress bar and JSON output.

Only the standard library is imported here at start-up (the pipeline, rich and the
plugins when a command needs them), so that ``formatbook --help`` is fast.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar

from ..decoding import decode_reply

EXIT_OK, EXIT_NOT_MET, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

_EXPECT_WORD = re.compile(r"(?i)^(?:-\s+)?expect\b")

T = TypeVar("T")


class UsageError(Exception):
    """The command was wrong (exit status 2); the message says how."""


# --- input ---------------------------------------------------------------------------------


def read_bytes(source: str) -> bytes:
    """The bytes of a file, or of standard input for ``-``."""
    if source == "-":
        return sys.stdin.buffer.read()
    path = Path(source)
    if path.is_dir():
        raise UsageError(f"{source} is a folder, not a file")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"no such file: {source}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror or exc}") from None


def read_text_file(path: Path, what: str) -> str:
    """A UTF-8 text file the command needs (an EXPECT file): problems are usage errors."""
    data = read_bytes(str(path))
    text, bad = decode_reply(data)
    if bad is not None:
        raise UsageError(f"{what} {path}: {bad.message}")
    return text


# --- expectations --------------------------------------------------------------------------


def expect_lines_text(lines: Sequence[str]) -> str:
    """``-e`` values as EXPECT text: each line gets the word EXPECT unless it has it."""
    out = []
    for value in lines:
        for line in value.splitlines():
            line = line.strip()
            if not line:
                continue
            out.append(line if _EXPECT_WORD.match(line) else f"EXPECT {line}")
    return "\n".join(out)


def load_expectations(lines: Sequence[str] = (), expect_file: str | None = None, *, required: bool = True) -> Any:
    """Parse ``-e`` lines and an EXPECT file into one ``Expectations``.

    Schema and contract paths in an EXPECT file are relative to that file's folder; in
    ``-e`` lines, to the current folder. When both are given their counts are joined and
    at most one of them may name a format.
    """
    from ..expectations import Expectations, parse_expectations
    from ..results import ExpectationError

    cli_text = expect_lines_text(lines)
    file_text = read_text_file(Path(expect_file), "expect file") if expect_file is not None else ""
    if not cli_text.strip() and not file_text.strip():
        if required:
            raise UsageError("no expectations: give -e LINE (e.g. -e JSON -e 'MAX 3 WORDS') or --expect-file FILE")
        return parse_expectations("")
    if not file_text.strip():
        return parse_expectations(cli_text)
    from_file = parse_expectations(file_text, base_dir=Path(expect_file).parent)  # type: ignore[arg-type]
    if not cli_text.strip():
        return from_file
    from_cli = parse_expectations(cli_text)
    if from_file.format is not None and from_cli.format is not None:
        raise ExpectationError(
            f"two formats expected: {from_file.format.upper()} (in {expect_file}) and {from_cli.format.upper()} (-e)"
        )
    main = from_file if from_file.format is not None else from_cli
    # Expectations validates the joined counts again (MIN 5 in one, MAX 3 in the other).
    return Expectations(
        format=main.format,
        schema=main.schema,
        options=main.options,
        counts=[*from_file.counts, *from_cli.counts],
        instructions=[*from_file.instructions, *from_cli.instructions],
        base_dir=main.base_dir,
    )


def format_expectation_error(exc: Any) -> str:
    """An ``ExpectationError`` with its line and suggestion, for a person."""
    message = str(exc)
    line = getattr(exc, "line", None)
    suggestion = getattr(exc, "suggestion", None)
    out = [f"formatbook: bad expectation: {message}"]
    if line and str(line) not in message:
        out.append(f"  in line: {line}")
    if suggestion and str(suggestion).lower() not in message.lower():
        out.append(f"  did you mean {suggestion}?")
    return "\n".join(out)


def open_binary(source: str) -> contextlib.AbstractContextManager[IO[bytes]]:
    """A file (or standard input for ``-``) to read as bytes; problems are usage errors."""
    if source == "-":
        return contextlib.nullcontext(sys.stdin.buffer)
    if Path(source).is_dir():
        raise UsageError(f"{source} is a folder, not a file")
    try:
        return open(source, "rb")
    except FileNotFoundError:
        raise UsageError(f"no such file: {source}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror or exc}") from None


def load_row(raw: bytes | str) -> Any:
    """The value of one JSONL line; ``ValueError`` for a line that is not JSON: one
    nested too deeply to read (``json`` recurses once a level: 100,000 brackets in one
    row raised ``RecursionError`` and ended the whole run), and ``NaN``, ``Infinity``,
    which ``json`` reads but no JSON holds (an ``id`` of ``NaN`` could not be written
    into the verdict, and ended the run too)."""
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply to be read") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is no JSON value")


def first_row(lines: Iterator[bytes]) -> tuple[int, bytes | None]:
    """How many blank lines come first, and the first non-blank line (``None``: there is none)."""
    blank = 0
    for raw in lines:
        if raw.strip():
            return blank, raw
        blank += 1
    return blank, None


def require_field(first: bytes | None, field: str, number: int) -> None:
    """A usage error when the first row is a JSON object without ``field``."""
    if first is None:
        return
    try:
        row = load_row(first)
    except ValueError:
        return  # reported on its line like any other line that is not JSON
    if isinstance(row, dict) and field not in row:
        keys = list(row)
        has = ", ".join(json.dumps(k, ensure_ascii=False) for k in keys[:20]) + (", ..." if len(keys) > 20 else "")
        raise UsageError(
            f"the replies have no field {field!r}: the first row (line {number}) has "
            + (f"the fields {has}; choose one with --field NAME" if keys else "no fields")
        )


def count_lines(source: str) -> int | None:
    """The number of lines of a file, read in blocks (``None`` for standard input)."""
    if source == "-":
        return None
    count, last = 0, b"\n"
    with open(source, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")


def progress(
    items: Iterator[T], total: Callable[[], int | None], line: Callable[[T], int], label: str = "checking"
) -> Iterator[T]:
    """A rich progress bar on stderr when it is a terminal and rich is installed
    (``line(item)``: the input line the item has reached); the items unchanged otherwise."""
    from .render import has_rich, is_terminal

    if not (is_terminal(sys.stderr) and has_rich()):
        yield from items
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=total())
        for item in items:
            progress.update(task, completed=line(item))
            yield item


def check_bytes(data: bytes | None, expectations: Any) -> Any:
    """``check`` on raw bytes: bytes that are not UTF-8 make a failed result, not an error
    (``None`` is no reply at all: ``check`` says so)."""
    from ..results import CheckResult

    if data is None:
        from ..pipeline import check

        return check(None, expectations)
    text, bad = decode_reply(data)
    if bad is not None:
        return CheckResult(ok=False, reply=text, format=getattr(expectations, "format", None), violations=[bad])
    from ..pipeline import check

    return check(text, expectations)


def print_json(data: Any) -> None:
    from ..serialising import dumps_json

    # exact decimals as numbers, never a bare Infinity or NaN, any depth
    sys.stdout.write(dumps_json(data, indent=2) + "\n")
