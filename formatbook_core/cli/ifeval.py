"""``formatbook check --jsonl rows.jsonl --ifeval``: score a file of IFEval rows.

Each line is an IFEval row (``key``, ``prompt``, ``instruction_id_list``, ``kwargs`` and
the reply in ``response``, or the field ``--field`` names). Prints IFEval's four
accuracies (prompt-level and instruction-level, strict and loose) and a table per
instruction id; ``--out FILE`` writes one JSON line per row (IFEval's output fields plus
the loose ones); ``--json`` prints the summary as JSON. ``--definitions ifeval`` applies
IFEval's own definitions (reproduces its reference checker), ``formatbook`` (default)
formatbook's. Exit status: 0 every reply follows every instruction (strict), 1 some does
not, 2 the command or a row is wrong (the line is named).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import IO, Any

from .common import EXIT_NOT_MET, EXIT_OK, UsageError, count_lines, open_binary, progress
from .render import make_renderer

__all__ = ["add_ifeval_options", "cmd_check_ifeval"]


def add_ifeval_options(parser: argparse.ArgumentParser) -> None:
    """The options ``check`` takes for IFEval rows."""
    parser.add_argument(
        "--ifeval",
        action="store_true",
        help="with --jsonl: the rows are IFEval rows (instruction_id_list, kwargs, response); print IFEval's "
        "accuracies, strict and loose, and a table per instruction",
    )
    parser.add_argument(
        "--definitions",
        choices=("formatbook", "ifeval"),
        default="formatbook",
        help="with --ifeval: judge by formatbook's definitions (default) or IFEval's own (reproduces its checker)",
    )


def _rows(stream: IO[bytes], field: str) -> Iterator[tuple[int, Any]]:
    from ..ifeval import read_row  # noqa: PLC0415
    from ..results import ExpectationError  # noqa: PLC0415

    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise UsageError(f"line {number} is not JSON: {exc}") from None
        name = field
        if isinstance(data, dict) and name == "reply" and "reply" not in data:
            name = "response"  # IFEval's own field, unless --field names another
        try:
            yield number, read_row(data, response_field=name)
        except ExpectationError as exc:
            raise UsageError(f"line {number}: {exc}") from None


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def cmd_check_ifeval(args: argparse.Namespace) -> int:
    """Score the IFEval rows of ``args.jsonl``; see the module docstring."""
    from ..ifeval import Score, score_row  # noqa: PLC0415

    if args.jsonl is None:
        raise UsageError("--ifeval scores a file of IFEval rows: give it with --jsonl FILE")
    if args.expect or args.expect_file:
        raise UsageError("--ifeval takes its instructions from each row, not from -e / --expect-file")
    total = None if args.jsonl == "-" else count_lines(args.jsonl)
    sink: IO[str] | None = None
    if args.out:
        try:
            sink = open(args.out, "w", encoding="utf-8")  # noqa: SIM115 - closed in the finally below
        except OSError as exc:
            raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    result = Score()
    try:
        with open_binary(args.jsonl) as stream:
            for _number, row in progress(_rows(stream, args.field), lambda: total, lambda item: item[0], "scoring"):
                row_result = score_row(row, args.definitions)
                result.rows.append(row_result)
                if sink is not None:
                    sink.write(json.dumps(row_result.as_dict(), ensure_ascii=False, default=str) + "\n")
    finally:
        if sink is not None:
            sink.close()
    if not result.rows:
        raise UsageError(f"{args.jsonl} holds no IFEval rows")
    table = result.per_instruction()
    fallbacks = sorted(
        {r.instruction_id for row in result.rows for r in row.results if r.definition != args.definitions}
    )
    if args.json:
        summary = {
            "rows": len(result.rows),
            "definitions": args.definitions,
            "prompt_strict": result.prompt_strict,
            "prompt_loose": result.prompt_loose,
            "instruction_strict": result.instruction_strict,
            "instruction_loose": result.instruction_loose,
            "per_instruction": {k: {"total": n, "strict": s, "loose": lo} for k, (n, s, lo) in table.items()},
            "judged_by_ifeval_definition": fallbacks,
        }
        print(json.dumps(summary, indent=2))
    else:
        report = make_renderer()
        report.table(
            f"IFEval accuracy ({len(result.rows)} replies, {args.definitions} definitions)",
            ["level", "strict", "loose"],
            [
                ["prompt", _percent(result.prompt_strict), _percent(result.prompt_loose)],
                ["instruction", _percent(result.instruction_strict), _percent(result.instruction_loose)],
            ],
        )
        report.table(
            "Per instruction",
            ["instruction", "n", "strict", "loose"],
            [[k, n, _percent(s / n), _percent(lo / n)] for k, (n, s, lo) in table.items()],
        )
        if fallbacks and args.definitions == "formatbook":
            report.write("judged by IFEval's definition (no formatbook line states them): " + ", ".join(fallbacks))
    return EXIT_OK if all(row.strict for row in result.rows) else EXIT_NOT_MET
