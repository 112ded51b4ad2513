"""The ``formatbook`` command: check, heal and describe LLM replies from a shell.

::

    formatbook formats                                  every registered format
    formatbook check reply.json -e "JSON s.json" -e "MAX 3 WORDS"
    formatbook check examples/replies/                  each NAME.* against NAME.expect beside it
    formatbook check --jsonl replies.jsonl --field reply -e JSON --out verdicts.jsonl
    formatbook heal reply.json --format json --diff
    formatbook guidance -e "JSON s.json"
    formatbook ask -e "JSON s.json" -e "MAX 40 WORDS" "Give me Ada's contact card"
    formatbook export -e "JSON s.json" --to gbnf        also lark, response_format

Exit status: 0 the expectations are met, 1 they are not (or a reply cannot be healed, or
its bytes are not UTF-8), 2 the command itself was wrong (a bad EXPECT line, a missing
file, an unknown format), 3 formatbook itself failed (a bug: please report it).

Only the standard library is imported here at start-up; the pipeline, the plugins and
rich are imported when a command needs them, so that ``formatbook --help`` is fast.

The package: this module builds the parser and runs a command; ``commands`` holds the
commands, ``common`` what they share (exit statuses, input, EXPECT lines, progress, JSON
output), ``batch`` many rows (``check --jsonl``/``--parquet``), ``ifeval`` IFEval rows,
``ask`` the ``ask`` command, ``export`` the ``export`` command and ``render`` the plain and
rich output.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from .commands import cmd_ask, cmd_check, cmd_formats, cmd_guidance, cmd_heal
from .common import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UsageError, format_expectation_error

__all__ = ["build_parser", "main"]


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
    from .batch import add_arguments as add_batch_arguments  # --workers, --resume, --parquet...
    from .ifeval import add_ifeval_options

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

    from .ask import add_parser  # a small module of argparse only: --help stays fast

    add_parser(sub, _add_expect_options).set_defaults(func=cmd_ask)
    from .export import add_parser as add_export  # argparse only until it runs
    from .export import cmd_export

    add_export(sub, _add_expect_options).set_defaults(func=cmd_export)

    from .report import add_parsers as add_page_parsers  # argparse only: --help stays fast

    add_page_parsers(sub)
    return parser


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

    from ..registry import ConflictError, UnknownFormatError
    from ..results import ExpectationError

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
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stdout for the rest of the process
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
