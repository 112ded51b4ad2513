"""The ``formatbook`` commands: ``formats``, ``check`` (one reply or a folder; many rows in
``batch``, IFEval rows in ``ifeval``), ``heal``, ``guidance`` and ``ask`` (``ask``)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..decoding import decode_reply
from .common import (
    EXIT_NOT_MET,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    check_bytes,
    format_expectation_error,
    load_expectations,
    print_json,
    read_bytes,
)

# --- commands ------------------------------------------------------------------------------


def cmd_formats(args: argparse.Namespace) -> int:
    from ..options import declared_options
    from ..registry import default_registry, list_formats

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
        print_json(rows)
        return EXIT_OK
    from .render import make_renderer

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
    batch = args.jsonl is not None or getattr(args, "parquet", None) is not None
    if (getattr(args, "report", None) or getattr(args, "group_by", None)) and (
        getattr(args, "ifeval", False) or not batch
    ):
        raise UsageError("--report goes with --jsonl FILE or --parquet FILE (without --ifeval)")
    if getattr(args, "ifeval", False):
        from .ifeval import cmd_check_ifeval

        return cmd_check_ifeval(args)
    if batch:
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
    result = check_bytes(read_bytes(source), expectations)
    if args.json:
        print_json({"file": None if source == "-" else source, **result.to_dict()})
    else:
        from .render import make_renderer

        make_renderer().result(result, label="" if source == "-" else source, expectations=expectations)
    return EXIT_OK if result.ok else EXIT_NOT_MET


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
    from ..results import ExpectationError
    from .render import make_renderer, summarize, summary_line

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
        print_json({"folder": str(folder), "results": records, "summary": totals})
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
    """``check_bytes`` for batches: a crash on one reply is reported on that reply, so
    the others are still checked."""
    from ..results import CheckResult, ExpectationError, Violation

    try:
        return check_bytes(data, expectations)
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
    from . import batch as rows_batch  # many rows, every core

    return rows_batch.run(args)


def cmd_heal(args: argparse.Namespace) -> int:
    from ..results import HealError

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
    from ..pipeline import heal

    try:
        healed = heal(text, expectations)
    except HealError as exc:
        return _heal_failed(args, exc.violations, str(exc))
    if args.json:
        from ..serialising import fields_json

        print_json(
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
        from ..serialising import fields_json

        print_json(
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
    from ..prompting import guidance

    text = guidance(expectations)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK


def cmd_ask(args: argparse.Namespace) -> int:
    from . import ask

    expectations = load_expectations(args.expect, args.expect_file, required=False)
    prompt = sys.stdin.read() if args.prompt == "-" else args.prompt
    if not prompt.strip():
        raise UsageError("the prompt is empty")
    try:
        return ask.run(args, expectations, prompt)
    except ask.EndpointError as exc:  # one line, exit 2, never a traceback
        raise UsageError(str(exc)) from None
