"""``formatbook export``: the expectations as a grammar or a ``response_format``, for the
engines that constrain decoding.

    formatbook export -e "JSON contact.json" --to response_format   # OpenAI-compatible servers
    formatbook export -e "JSON contact.json" --to gbnf              # llama.cpp (--grammar-file)
    formatbook export -e "CSV columns.json" --to lark               # Outlines, vLLM, llguidance

The export goes to stdout; what it leaves to the checker (schema keywords a grammar cannot
say, what strict mode loses, counts, instructions) is listed on stderr unless ``--quiet``.
Exit status 0, or 2 when the target is unknown, the format has no such export, or an
EXPECT line is wrong. Nothing but argparse is imported here until the command runs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import EXIT_OK, UsageError, load_expectations

TARGETS_HELP = "response_format (OpenAI-compatible servers), gbnf (llama.cpp) or lark (Outlines, vLLM, llguidance)"


def add_parser(sub: Any, add_expect_options: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "export",
        help="export the expectations as a grammar or an OpenAI response_format",
        description="Print the EXPECT lines as a grammar for constrained decoding (GBNF, Lark) or as the "
        "response_format of an OpenAI-compatible request. The reply still needs checking: what the "
        "export leaves to the checker is listed on stderr.",
    )
    add_expect_options(p)
    p.add_argument("--to", required=True, metavar="TARGET", help=TARGETS_HELP)
    p.add_argument("--quiet", "-q", action="store_true", help="do not list what is left to the checker")
    return p


def cmd_export(args: argparse.Namespace) -> int:
    """Print the export; list on stderr what it leaves to the checker."""
    from ..exports import dumps, export, left_to_check
    from ..results import ExportError

    expectations = load_expectations(args.expect, args.expect_file)
    try:
        text = dumps(export(expectations, args.to))
        left = [] if args.quiet else left_to_check(expectations, args.to)
    except ExportError as exc:
        raise UsageError(str(exc)) from None
    sys.stdout.write(text)
    if left:
        sys.stderr.write("formatbook: the reply still needs check(); this export leaves to it:\n")
        sys.stderr.write("".join(f"  {line}\n" for line in left))
    return EXIT_OK
