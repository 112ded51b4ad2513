"""``formatbook report`` (a batch's verdicts as an HTML page) and ``formatbook serve``
(the playground): their parsers and commands.

Only argparse is imported at start-up; the report and the server when a command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from . import common


def add_parsers(sub: Any) -> None:
    """Add the ``report`` and ``serve`` commands to the ``formatbook`` parser."""
    p = sub.add_parser(
        "report",
        help="a batch's verdicts as one self-contained HTML page",
        description="Read the verdicts of `formatbook check --jsonl ... --out VERDICTS.jsonl` and write one HTML "
        "file (no network needed to view it): the pass / healed / fail split, the top violation codes and "
        "repair kinds, counts against their limits, a table per group, and the worst replies with their "
        "repairs and violations marked (give the input with --replies to see the replies themselves).",
    )
    p.add_argument("verdicts", metavar="VERDICTS.jsonl", help="the verdicts (JSONL, one record a line)")
    p.add_argument("-o", "--output", metavar="FILE.html", default="report.html", help="where (default: report.html)")
    p.add_argument("--replies", metavar="INPUT.jsonl", help="the JSONL file the verdicts were made from")
    p.add_argument("--field", default="reply", help="with --replies: the field holding the reply (default: reply)")
    p.add_argument(
        "--group-by",
        metavar="FIELD",
        help="the field to split the numbers by (default: the first of model, group, provider... the rows carry; "
        "'' for none)",
    )
    p.add_argument("--worst", type=int, default=20, metavar="N", help="how many of the worst replies to show")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser(
        "serve",
        help="a playground in the browser: paste a reply and EXPECT lines, see the verdict",
        description="Serve the playground on http://127.0.0.1:PORT: paste a reply and EXPECT lines (or pick an "
        "example), see the verdict, the healed payload, each repair and violation marked on the reply, the "
        "counts and the prompt guidance; replay the reply as a stream. Nothing leaves the machine.",
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="the port (default: 8765; 0: any free port)")
    p.add_argument("--examples", metavar="DIR", help="a folder of example replies (default: examples/replies)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.set_defaults(func=cmd_serve)


def cmd_report(args: argparse.Namespace) -> int:
    """Write the report; exit 0 (the report is made whatever the verdicts say)."""
    from ..report import write_report

    for path in filter(None, (args.verdicts, args.replies)):
        if not Path(path).is_file():
            raise common.UsageError(f"no such file: {path}")
    if args.worst < 0:
        raise common.UsageError("--worst needs a number ≥ 0")
    try:
        tally = write_report(
            args.verdicts,
            args.output,
            replies=args.replies,
            field=args.field,
            group_by=args.group_by,
            worst=args.worst,
        )
    except OSError as exc:
        raise common.UsageError(f"cannot use {exc.filename or args.output}: {exc.strerror or exc}") from None
    v = tally.verdicts
    sys.stderr.write(
        f"{args.output}: {tally.rows} verdicts ({v['pass']} pass, {v['healed']} healed, {v['fail']} fail)"
        + (f", {tally.unreadable} lines skipped" if tally.unreadable else "")
        + "\n"
    )
    return common.EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the playground until interrupted."""
    from ..serve import run

    return run(args.host, args.port, examples=args.examples, open_browser=args.open)
