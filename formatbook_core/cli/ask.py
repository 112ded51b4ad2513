"""``formatbook ask``: ask an OpenAI-compatible endpoint, check the reply as it streams,
re-ask with the violations, print the verdict.

    formatbook ask -e "JSON contact.json" -e "MAX 40 WORDS" "Give me Ada's contact card"

The endpoint comes from ``--base-url``/``--model``/``--api-key`` or the ``OPENAI_BASE_URL``,
``FORMATBOOK_MODEL`` and ``OPENAI_API_KEY`` variables. As with ``llm``, stdout holds the
answer: the payload of the reply that met the expectations, healed (``result.text``), and
nothing when none did; everything else goes to stderr: the reply as it streams, a line
for each attempt that did not pass, the verdict, and with ``--usage`` the token counts
added up over the attempts. ``--json`` puts the ``CheckResult`` with every attempt on stdout
instead. Exit status 0 when a reply met the expectations, 1 when none did, 2 when the
command or the endpoint was wrong: an endpoint that fails (an HTTP error, a broken stream,
a chunk that is not text) ends the command with one line and exit 2 (with ``--json``,
stdout still holds every attempt and the ``error``). ``--timeout`` bounds each attempt and
``--total-timeout`` all of them.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Any


class EndpointError(Exception):
    """The endpoint is not configured, or it answered with an error (exit status 2)."""


def add_parser(sub: Any, add_expect_options: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "ask",
        help="ask a model and check its reply (re-asking with the violations)",
        description="Send PROMPT to an OpenAI-compatible chat endpoint with the instructions the EXPECT "
        "lines give, check the reply while it streams (a doomed one is stopped early), and re-ask with "
        "what was wrong. Exit 0 when a reply met the expectations, 1 when none did.",
    )
    p.add_argument("prompt", metavar="PROMPT", help="the prompt, or - to read it from stdin")
    add_expect_options(p)
    p.add_argument("--base-url", help="the endpoint, e.g. http://localhost:11434/v1 (default: $OPENAI_BASE_URL)")
    p.add_argument("--model", "-m", help="the model name (default: $FORMATBOOK_MODEL)")
    p.add_argument("--api-key", help="the API key (default: $OPENAI_API_KEY)")
    p.add_argument("--max-attempts", type=int, default=3, metavar="N", help="calls at most (default: 3)")
    p.add_argument("--system", metavar="TEXT", help="a system message")
    p.add_argument("--temperature", type=float, help="sampling temperature")
    p.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS", help="for each attempt (default: 120)")
    p.add_argument(
        "--total-timeout", type=float, default=600.0, metavar="SECONDS", help="for all attempts (default: 600)"
    )
    p.add_argument("--no-stream", action="store_true", help="ask for whole replies instead of a stream")
    p.add_argument(
        "--structured",
        action="store_true",
        help="send the JSON schema as response_format (OpenAI's strict mode); the reply is still checked",
    )
    p.add_argument("--json", action="store_true", help="print the final CheckResult (with every attempt) as JSON")
    p.add_argument("--usage", "-u", action="store_true", help="show the token usage of all attempts (on stderr)")
    return p


def endpoint(args: argparse.Namespace) -> tuple[str, str, str]:
    """Base URL, model and key, from the options or the environment; a missing one is an error."""
    base_url = args.base_url or os.environ.get("OPENAI_BASE_URL")
    model = args.model or os.environ.get("FORMATBOOK_MODEL")
    key = args.api_key or os.environ.get("OPENAI_API_KEY")
    if not base_url:
        raise EndpointError(
            "no endpoint: give --base-url or set OPENAI_BASE_URL (https://api.openai.com/v1 for OpenAI)"
        )
    if not model:
        raise EndpointError("no model: give --model or set FORMATBOOK_MODEL")
    if not key:
        raise EndpointError("no API key: give --api-key or set OPENAI_API_KEY (any text for a server that needs none)")
    return base_url, model, key


def run(args: argparse.Namespace, expectations: Any, prompt: str) -> int:
    """Ask, show, judge: the exit status."""
    base_url, model_name, key = endpoint(args)
    if args.max_attempts < 1:
        raise EndpointError("--max-attempts must be at least 1")
    if not (args.timeout > 0 and args.total_timeout > 0):
        raise EndpointError("--timeout and --total-timeout need a number of seconds > 0")
    try:
        import openai  # noqa: PLC0415 - the optional SDK, only for this command
    except ImportError:
        raise EndpointError("formatbook ask needs the openai SDK: pip install 'formatbook[openai]'") from None
    from ..llm import AskError, ask, openai_chat  # noqa: PLC0415 - the CLI loads the library on use
    from ..results import ExportError  # noqa: PLC0415 - the CLI loads the library on use

    params: dict[str, Any] = {"stream": not args.no_stream}
    if args.structured:
        params["structured"] = True
    if args.temperature is not None:
        params["temperature"] = args.temperature
    client = openai.OpenAI(base_url=base_url, api_key=key, timeout=args.timeout, max_retries=1)
    shown = _Shown(sys.stderr, args.max_attempts)
    try:
        result = ask(
            openai_chat(model_name, client, **params),
            prompt,
            expectations,
            max_attempts=args.max_attempts,
            system=args.system,
            on_chunk=shown.chunk,
            on_attempt=shown.attempt,
            timeout=args.timeout,
            total_timeout=args.total_timeout,
        )
        ok, attempts, best = True, result.attempts, len(result.attempts) - 1
    except ExportError as exc:  # --structured with a format that has no response_format
        raise EndpointError(str(exc)) from None
    except AskError as error:
        if error.cause is not None:
            if args.json:
                _write_json(error.attempts[-1].result, error.attempts, error.best_index or 0, str(error.cause))
            if args.usage:
                sys.stderr.write(usage_line(error.attempts) + "\n")
            raise EndpointError(f"the endpoint failed: {_one_line(error.cause)}") from None
        best = error.best_index or 0
        result, attempts, ok = error.attempts[best].result, error.attempts, False
    finally:
        client.close()
    if args.json:
        _write_json(result, attempts, best)
    else:
        from .render import make_renderer  # noqa: PLC0415

        label = f"attempt {best + 1} of {len(attempts)}" + ("" if ok else " (the best)")
        make_renderer(sys.stderr).result(result, label=label, expectations=expectations)
        if ok and result.text is not None:  # the answer, alone on stdout: a pipe gets only it
            sys.stdout.write(result.text if result.text.endswith("\n") else result.text + "\n")
    if args.usage:
        sys.stderr.write(usage_line(attempts) + "\n")
    return 0 if ok else 1


def usage_line(attempts: list[Any]) -> str:
    """The token counts of ``attempts`` added up, in one line (as ``llm -u`` shows them)."""
    from ..results import total_usage  # noqa: PLC0415

    total = total_usage(attempts)
    count = f"{len(attempts)} attempt{'s' if len(attempts) != 1 else ''}"
    if total is None:
        return f"Token usage: not reported ({count})"
    parts = [f"{total[key]:,} {name}" for key, name in _USAGE_NAMES if key in total]
    estimated = sum(1 for a in attempts if a.usage_estimated)
    note = f"; {estimated} estimated, the endpoint did not count them" if estimated else ""
    return f"Token usage: {', '.join(parts)} ({count}{note})"


_USAGE_NAMES = (("prompt_tokens", "input"), ("completion_tokens", "output"), ("total_tokens", "total"))


def _write_json(result: Any, attempts: list[Any], best: int, error: str | None = None) -> None:
    """The verdict (``result``) with every attempt, the best one's number and the endpoint's failure."""
    from ..serialising import dumps_json  # noqa: PLC0415

    data = {**result.to_dict(attempts=False), "attempts": [a.to_dict() for a in attempts], "best_attempt": best + 1}
    if error is not None:
        data["error"] = error
    sys.stdout.write(dumps_json(data, indent=2) + "\n")


class _Shown:
    """The reply as it streams, and a line after each attempt that did not pass."""

    def __init__(self, stream: IO[str], max_attempts: int):
        self.stream = stream
        self.max_attempts = max_attempts
        self.count = 0
        self.at_line_start = True

    def chunk(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()
        self.at_line_start = text.endswith("\n")

    def attempt(self, attempt: Any) -> None:
        self.count += 1
        if not self.at_line_start:
            self.stream.write("\n")
            self.at_line_start = True
        from ..llm_replies import TRANSPORT  # noqa: PLC0415 - loaded by ask() already; --help stays light

        failed = attempt.result.violations[:1]
        if attempt.result.ok or (failed and failed[0].code == TRANSPORT):
            self.stream.flush()  # a failed endpoint ends the command with its own line
            return
        if attempt.stopped:
            what = f"stopped after {len(attempt.reply):,} characters: {attempt.stop_reason}"
        else:
            first = attempt.result.violations[0] if attempt.result.violations else "it did not pass"
            what = f"failed: {first}"
        again = "; asking again" if self.count < self.max_attempts else ""
        self.stream.write(f"[formatbook: attempt {self.count} {what}{again}]\n")
        self.stream.flush()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]
