"""The ``formatbook`` command: check, heal and describe LLM replies from a shell.

::

    formatbook formats                                  every registered format
    formatbook check reply.json -e "JSON s.json" -e "MAX 3 WORDS"
    formatbook check examples/replies/                  each NAME.* against NAME.expect beside it
    formatbook check --jsonl replies.jsonl --field reply -e JSON --out verdicts.jsonl
    formatbook heal reply.json --format json --diff
    formatbook guidance -e "JSON s.json"
    formatbook ask -e "JSON s.json" -e "MAX 40 WORDS" "Give me Ada's contact card"

Exit status: 0 the expectations are met, 1 they are not (or a reply cannot be healed, or
its bytes are not UTF-8), 2 the command itself was wrong (a bad EXPECT line, a missing
file, an unknown format), 3 formatbook itself failed (a bug: please report it).

Only the standard library is imported here at start-up; the pipeline, the plugins and
rich are imported when a command needs them, so that ``formatbook --help`` is fast.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar

from .decoding import decode_reply

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
    from .expectations import Expectations, parse_expectations
    from .results import ExpectationError

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


# --- commands ------------------------------------------------------------------------------


def cmd_formats(args: argparse.Namespace) -> int:
    from .options import declared_options
    from .registry import default_registry, list_formats

    entries = list_formats()
    rows: list[dict[str, Any]] = []
    for entry in sorted(entries, key=lambda e: e.format.name):
        fmt = entry.format
        declared = declared_options(fmt)
        rows.append(
            {
                "name": fmt.name,
                "aliases": list(fmt.aliases or ()) + default_registry().option_aliases(fmt),
                "mime_types": list(fmt.mime_types or ()),
                "plugin": entry.plugin,
                "scope_kind": fmt.scope_kind,
                "description": fmt.description or "",
                # None: the format declares no options and takes any, unchecked
                "options": None
                if declared is None
                else [
                    {"name": o.name, "type": o.describe_type(), "default": o.default, "doc": o.doc}
                    for o in declared.values()
                ],
            }
        )
    if args.json:
        _print_json(rows)
        return EXIT_OK
    from .cli_render import make_renderer

    out = make_renderer()
    if args.options:
        table = []
        for r in rows:
            if r["options"] is None:
                table.append([r["name"], "(any)", "", "", "declares no options: any is passed on unchecked"])
            for o in r["options"] or ():
                table.append([r["name"], o["name"], o["type"], _show_default(o["default"]), o["doc"]])
        out.table("Format options" if out.rich else None, ["format", "option", "type", "default", "doc"], table)
        return EXIT_OK
    out.table(
        "Registered formats" if out.rich else None,
        ["name", "aliases", "mime types", "plugin", "description"],
        [[r["name"], ", ".join(r["aliases"]), ", ".join(r["mime_types"]), r["plugin"], r["description"]] for r in rows],
    )
    return EXIT_OK


def _show_default(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value).lower()
    return json.dumps(value) if isinstance(value, str) else str(value)


def cmd_check(args: argparse.Namespace) -> int:
    if getattr(args, "ifeval", False):
        from .cli_ifeval import cmd_check_ifeval

        return cmd_check_ifeval(args)
    if args.jsonl is not None or getattr(args, "parquet", None) is not None:
        if args.input not in (None, "-"):
            raise UsageError("give either a reply FILE or --jsonl FILE, not both")
        if args.jsonl is not None and args.parquet is not None:
            raise UsageError("give either --jsonl FILE or --parquet FILE, not both")
        return _check_jsonl(args)
    source = args.input if args.input is not None else "-"
    if source != "-" and Path(source).is_dir():
        return _check_folder(Path(source), args)
    if source != "-" and not Path(source).exists():
        raise UsageError(f"no such file: {source}")
    expect_file = args.expect_file
    if expect_file is None and not args.expect and source != "-":
        beside = Path(source).with_suffix(".expect")
        if beside.is_file() and beside != Path(source):
            expect_file = str(beside)
    expectations = load_expectations(args.expect, expect_file)
    result = _check_bytes(read_bytes(source), expectations)
    if args.json:
        _print_json({"file": None if source == "-" else source, **result.to_dict()})
    else:
        from .cli_render import make_renderer

        make_renderer().result(result, label="" if source == "-" else source, expectations=expectations)
    return EXIT_OK if result.ok else EXIT_NOT_MET


def _check_bytes(data: bytes | None, expectations: Any) -> Any:
    """``check`` on raw bytes: bytes that are not UTF-8 make a failed result, not an error
    (``None`` is no reply at all: ``check`` says so)."""
    from .results import CheckResult

    if data is None:
        from .pipeline import check

        return check(None, expectations)
    text, bad = decode_reply(data)
    if bad is not None:
        return CheckResult(ok=False, reply=text, format=getattr(expectations, "format", None), violations=[bad])
    from .pipeline import check

    return check(text, expectations)


def _folder_pairs(folder: Path) -> tuple[list[tuple[Path, Path]], list[str]]:
    """``(reply, NAME.expect)`` for each reply in ``folder`` and notes about files skipped."""
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    expects = {p.stem: p for p in files if p.suffix == ".expect"}
    pairs, notes, used = [], [], set()
    for p in files:
        if p.suffix == ".expect":
            continue
        # NAME is the file name without its last suffix (answer.level2.md -> answer.level2)
        name = p.stem if p.suffix else p.name
        if name in expects:
            pairs.append((p, expects[name]))
            used.add(name)
        else:
            notes.append(f"skipped {p.name}: no {name}.expect beside it")
    for name in sorted(set(expects) - used):
        notes.append(f"skipped {name}.expect: no reply {name}.* beside it")
    return pairs, notes


def _check_folder(folder: Path, args: argparse.Namespace) -> int:
    from .cli_render import make_renderer, summarize, summary_line
    from .results import ExpectationError

    if args.expect or args.expect_file:
        raise UsageError("a folder is checked against the NAME.expect file beside each reply: drop -e/--expect-file")
    pairs, notes = _folder_pairs(folder)
    if not pairs:
        raise UsageError(f"no replies in {folder}: expected files NAME.* each with NAME.expect beside it")
    out = make_renderer()
    err = make_renderer(sys.stderr)
    records: list[dict[str, Any]] = []
    bad_expectations = False
    for reply_path, expect_path in pairs:
        record: dict[str, Any] = {"name": reply_path.stem, "file": str(reply_path), "expect": str(expect_path)}
        try:
            expectations = load_expectations((), str(expect_path))
        except (ExpectationError, UsageError, LookupError) as exc:
            bad_expectations = True
            message = (format_expectation_error(exc) if isinstance(exc, ExpectationError) else str(exc)).replace(
                "formatbook: ", "", 1
            )
            record.update(verdict="error", ok=False, error=message)
            records.append(record)
            if not args.json:
                out.verdict("error", reply_path.name)
                out.write("  " + message.replace("\n", "\n  "))
            continue
        result = _safe_check(read_bytes(str(reply_path)), expectations)
        record.update(result.to_dict())
        records.append(record)
        if not args.json:
            out.result(result, label=reply_path.name, expectations=expectations)
    totals = summarize(r["verdict"] for r in records)
    if args.json:
        _print_json({"folder": str(folder), "results": records, "summary": totals})
    else:
        out.write()
        rows = [
            [
                r["file"].rsplit(os.sep, 1)[-1],
                r.get("format") or "",
                r["verdict"],
                len(r.get("repairs", ())),
                len(r.get("violations", ())),
                _counts_cell(r.get("counts")),
            ]
            for r in records
        ]
        out.table(
            "Summary" if out.rich else None, ["reply", "format", "verdict", "repairs", "violations", "counts"], rows
        )
        out.write(summary_line(totals))
    for note in notes:
        err.write(f"formatbook: {note}")
    if bad_expectations:
        return EXIT_USAGE
    return EXIT_OK if all(r["ok"] for r in records) else EXIT_NOT_MET


def _safe_check(data: bytes | None, expectations: Any) -> Any:
    """``_check_bytes`` for batches: a crash on one reply is reported on that reply, so
    the others are still checked."""
    from .results import CheckResult, ExpectationError, Violation

    try:
        return _check_bytes(data, expectations)
    except ExpectationError:
        raise
    except Exception as exc:  # a bug in a plugin must not hide the other verdicts
        return CheckResult(
            ok=False,
            reply="",
            violations=[Violation("internal.error", f"formatbook failed on this reply: {type(exc).__name__}: {exc}")],
        )


def _counts_cell(counts: dict[str, int] | None) -> str:
    return ", ".join(f"{k} {v}" for k, v in (counts or {}).items())


def _check_jsonl(args: argparse.Namespace) -> int:
    """Many replies, one JSON object (or JSON string) a line: verdicts as JSONL.

    The input is read a line at a time (constant memory whatever its size). Its first
    non-blank row is read before anything is checked: when it is an object without the
    ``--field`` asked for, the command is wrong (exit 2), not each reply.
    """
    from . import cli_batch  # many rows, every core: cli_batch.py

    return cli_batch.run(args)


def _open_binary(source: str) -> contextlib.AbstractContextManager[IO[bytes]]:
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


def _first_row(lines: Iterator[bytes]) -> tuple[int, bytes | None]:
    """How many blank lines come first, and the first non-blank line (``None``: there is none)."""
    blank = 0
    for raw in lines:
        if raw.strip():
            return blank, raw
        blank += 1
    return blank, None


def _require_field(first: bytes | None, field: str, number: int) -> None:
    """A usage error when the first row is a JSON object without ``field``."""
    if first is None:
        return
    try:
        row = json.loads(first)
    except (ValueError, UnicodeDecodeError):
        return  # reported on its line like any other line that is not JSON
    if isinstance(row, dict) and field not in row:
        keys = list(row)
        has = ", ".join(json.dumps(k, ensure_ascii=False) for k in keys[:20]) + (", ..." if len(keys) > 20 else "")
        raise UsageError(
            f"the replies have no field {field!r}: the first row (line {number}) has "
            + (f"the fields {has}; choose one with --field NAME" if keys else "no fields")
        )


def _count_lines(source: str) -> int | None:
    """The number of lines of a file, read in blocks (``None`` for standard input)."""
    if source == "-":
        return None
    count, last = 0, b"\n"
    with open(source, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")


def _progress(
    items: Iterator[T], total: Callable[[], int | None], line: Callable[[T], int], label: str = "checking"
) -> Iterator[T]:
    """A rich progress bar on stderr when it is a terminal (``line(item)``: the input line the
    item has reached); the items unchanged otherwise."""
    from .cli_render import is_terminal

    if not is_terminal(sys.stderr):
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


def cmd_heal(args: argparse.Namespace) -> int:
    from .results import HealError

    source = args.input if args.input is not None else "-"
    lines = list(args.expect)
    if args.format:
        line = f"EXPECT {args.format}"
        if args.schema:
            schema = str(Path(args.schema).resolve())
            line += f' "{schema}"' if re.search(r"\s", schema) else f" {schema}"
        lines.insert(0, line + "".join(f" {opt}" for opt in args.option))
    elif args.schema or args.option:
        raise UsageError("--schema and --option need --format")
    expectations = load_expectations(lines, args.expect_file, required=False)
    if getattr(expectations, "format", None) is None:
        raise UsageError("heal needs a format: --format json (or -e JSON)")
    data = read_bytes(source)
    text, bad = decode_reply(data)
    err = sys.stderr
    if bad is not None:
        return _heal_failed(args, [bad], "cannot heal")
    from .pipeline import heal

    try:
        healed = heal(text, expectations)
    except HealError as exc:
        return _heal_failed(args, exc.violations, str(exc))
    if args.json:
        from .serialising import fields_json

        _print_json(
            {
                "ok": True,
                "changed": bool(healed.repairs),
                "text": healed.text,
                "repairs": [fields_json(r) for r in healed.repairs],
                "set_aside": [fields_json(s) for s in healed.set_aside],
            }
        )
        return EXIT_OK
    if args.diff:
        import difflib

        name = "stdin" if source == "-" else source
        diff = difflib.unified_diff(
            text.splitlines(keepends=True),
            healed.text.splitlines(keepends=True),
            fromfile=name,
            tofile=f"{name} (healed)",
        )
        for chunk in diff:
            sys.stdout.write(chunk if chunk.endswith("\n") else chunk + "\n\\ No newline at end of file\n")
    else:
        sys.stdout.write(healed.text if healed.text.endswith("\n") or not healed.text else healed.text + "\n")
    if not args.quiet:
        if healed.repairs:
            err.write(f"healed: {len(healed.repairs)} repair{'s' if len(healed.repairs) != 1 else ''}\n")
            for r in healed.repairs:
                err.write(f"  - {r.kind}: {r.message}\n")
        else:
            err.write("valid: nothing to repair\n")
    return EXIT_OK


def _heal_failed(args: argparse.Namespace, violations: Sequence[Any], message: str) -> int:
    if args.json:
        from .serialising import fields_json

        _print_json(
            {
                "ok": False,
                "changed": False,
                "text": None,
                "error": message,
                "violations": [fields_json(v) for v in violations],
            }
        )
    else:
        sys.stderr.write(f"formatbook: {message}\n")
        for v in violations:
            sys.stderr.write(f"  - {v.code}: {v}\n")
    return EXIT_NOT_MET


def cmd_guidance(args: argparse.Namespace) -> int:
    expectations = load_expectations(args.expect, args.expect_file)
    from .prompting import guidance

    text = guidance(expectations)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK


def cmd_ask(args: argparse.Namespace) -> int:
    from . import cli_ask

    expectations = load_expectations(args.expect, args.expect_file, required=False)
    prompt = sys.stdin.read() if args.prompt == "-" else args.prompt
    if not prompt.strip():
        raise UsageError("the prompt is empty")
    try:
        return cli_ask.run(args, expectations, prompt)
    except cli_ask.EndpointError as exc:  # one line, exit 2, never a traceback
        raise UsageError(str(exc)) from None


# --- parser --------------------------------------------------------------------------------


class _VersionAction(argparse.Action):
    """``--version`` that looks the version up only when asked (importlib.metadata is slow-ish)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: Any):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from importlib import metadata

        try:
            version = metadata.version("formatbook")
        except metadata.PackageNotFoundError:
            version = "unknown (not installed)"
        sys.stdout.write(f"formatbook {version}\n")
        parser.exit()


def _add_expect_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-e",
        "--expect",
        action="append",
        default=[],
        metavar="LINE",
        help='one EXPECT line, with or without the word EXPECT: -e "JSON schema.json" -e "MAX 3 WORDS"',
    )
    p.add_argument(
        "--expect-file", metavar="FILE", help="a file of EXPECT lines (schema paths in it are relative to its folder)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="formatbook",
        description="Check what an LLM wrote against what you expected: format, schema, limits.",
        epilog="Exit status: 0 expectations met, 1 not met, 2 the command was wrong.",
    )
    parser.add_argument("--version", action=_VersionAction, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "formats",
        help="list every registered format",
        description="Every registered format: name, aliases, MIME types, plugin; with --options, the "
        "options each format takes (EXPECT CSV delimiter=';').",
    )
    p.add_argument("--json", action="store_true", help="print JSON (each format with its options)")
    p.add_argument("--options", action="store_true", help="list each format's options: type, default, meaning")
    p.set_defaults(func=cmd_formats)

    p = sub.add_parser(
        "check",
        help="check replies against EXPECT lines",
        description="Check one reply (FILE or - for stdin), every reply NAME.* of a folder against the NAME.expect "
        "beside it, or many replies from a JSONL file (--jsonl). A reply FILE without -e is checked "
        "against NAME.expect beside it when there is one.",
    )
    p.add_argument("input", nargs="?", metavar="FILE|DIR|-", help="the reply (default: stdin) or a folder of replies")
    _add_expect_options(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON (CheckResult.to_dict())")
    p.add_argument("--jsonl", metavar="FILE", help="check many replies: one JSON object a line")
    p.add_argument("--field", default="reply", help="with --jsonl: the field holding the reply (default: reply)")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="with --jsonl: write the verdicts (JSONL) here; without it they go to stdout when it is piped",
    )
    from .cli_batch import add_arguments as add_batch_arguments  # --workers, --resume, --parquet...
    from .cli_ifeval import add_ifeval_options

    add_batch_arguments(p)
    add_ifeval_options(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "heal",
        help="repair a reply",
        description="Print the repaired reply (or the repairs as a diff); exit 1 when it cannot be healed.",
    )
    p.add_argument("input", nargs="?", metavar="FILE|-", help="the reply (default: stdin)")
    p.add_argument("--format", "-f", help="the format (name, alias or MIME type)")
    p.add_argument("--schema", help="a schema file (JSON Schema, Markdown contract...)")
    p.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help="a format option, e.g. -o level=2"
    )
    _add_expect_options(p)
    p.add_argument("--diff", action="store_true", help="print the repairs as a unified diff")
    p.add_argument("--json", action="store_true", help="print JSON: text, repairs, set_aside (or violations)")
    p.add_argument("--quiet", "-q", action="store_true", help="do not list the repairs on stderr")
    p.set_defaults(func=cmd_heal)

    p = sub.add_parser(
        "guidance",
        help="the instructions to put in a prompt",
        description="Print prompt instructions asking for what the EXPECT lines want.",
    )
    _add_expect_options(p)
    p.set_defaults(func=cmd_guidance)

    from .cli_ask import add_parser  # a small module of argparse only: --help stays fast

    add_parser(sub, _add_expect_options).set_defaults(func=cmd_ask)
    return parser


def _print_json(data: Any) -> None:
    from .serialising import dumps_json

    # exact decimals as numbers, never a bare Infinity or NaN, any depth
    sys.stdout.write(dumps_json(data, indent=2) + "\n")


_warned: set[str] = set()


def _show_warning(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
    text = str(message)
    if text not in _warned:  # once per message, wherever it was raised from
        _warned.add(text)
        sys.stderr.write(f"formatbook: warning: {text}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    import warnings

    from .registry import ConflictError, UnknownFormatError
    from .results import ExpectationError

    try:
        with warnings.catch_warnings():
            # a plugin that fails to load is one line on stderr, not a source listing
            warnings.showwarning = _show_warning
            return args.func(args)
    except ExpectationError as exc:
        sys.stderr.write(format_expectation_error(exc) + "\n")
        return EXIT_USAGE
    except (UsageError, UnknownFormatError, ConflictError) as exc:
        sys.stderr.write(f"formatbook: {exc}\n")
        return EXIT_USAGE
    except FileNotFoundError as exc:  # a schema or contract named by an EXPECT line
        sys.stderr.write(f"formatbook: no such file: {exc.filename or exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # `formatbook ... | head`: the reader left, nothing more to say
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if os.environ.get("FORMATBOOK_DEBUG"):
            raise
        sys.stderr.write(
            f"formatbook: internal error: {type(exc).__name__}: {exc}\n"
            "  (a bug in formatbook or a plugin; set FORMATBOOK_DEBUG=1 to see the traceback)\n"
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
