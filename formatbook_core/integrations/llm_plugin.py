"""A plugin for simonw's ``llm`` CLI: ``llm expect`` asks a model and checks its reply with formatbook.

``pip install 'formatbook[llm]'`` registers it (the ``formatbook`` entry point of the
``llm`` group)::

    llm expect -e "JSON contact.json" -e "MAX 40 WORDS" "Ada's contact card" -m gpt-4o-mini

The prompt goes to the model with the instructions the EXPECT lines give; the reply is
checked while it streams (a doomed one is stopped), and a reply that fails is asked again
with what was wrong (``--attempts``). As ``llm`` does, stdout holds the answer: the
payload, healed when healing was needed (or, with ``--json``, the ``CheckResult``); the
verdict goes to stderr. Exit status 0 when a reply met the expectations, 1 when none did,
2 for a bad command or bad expectations.

A stop ends the reply at once: ``ask`` closes the generator that reads llm's ``Response``
and runs the cycle collector once, which closes the HTTP stream llm's own OpenAI models
leave in a reference cycle (measured against a scripted server: the server stops sending).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import click
import llm

from ..cli.ask import usage_line
from ..cli.common import UsageError, load_expectations
from ..llm import AskError, ask
from ..results import Attempt, CheckResult, ExpectationError
from ..serialising import dumps_json


@click.command(name="expect")
@click.argument("prompt")
@click.option("-e", "--expect", "lines", multiple=True, metavar="LINE", help='an EXPECT line, e.g. -e "JSON s.json"')
@click.option("--expect-file", type=click.Path(dir_okay=False), help="a file of EXPECT lines")
@click.option("-m", "--model", "model_id", help="the model (default: llm's default model)")
@click.option("-s", "--system", help="a system prompt")
@click.option("-o", "--option", "options", type=(str, str), multiple=True, help="a model option: -o name value")
@click.option("--key", help="an API key, or the alias of one llm keeps")
@click.option("--attempts", default=3, show_default=True, type=click.IntRange(1, 20), help="calls at most")
@click.option("--no-guidance", is_flag=True, help="send the prompt without formatbook's format instructions")
@click.option("--json", "as_json", is_flag=True, help="print the final CheckResult (with every attempt) as JSON")
@click.option("-u", "--usage", "show_usage", is_flag=True, help="show the token usage of all attempts (on stderr)")
def expect_command(
    prompt: str,
    lines: tuple[str, ...],
    expect_file: str | None,
    model_id: str | None,
    system: str | None,
    options: tuple[tuple[str, str], ...],
    key: str | None,
    attempts: int,
    no_guidance: bool,
    as_json: bool,
    show_usage: bool,
) -> None:
    """Ask a model and check its reply against EXPECT lines (formatbook), re-asking with what was wrong."""
    try:
        expectations = load_expectations(lines, expect_file)
    except (UsageError, ExpectationError) as exc:
        raise click.UsageError(str(exc)) from exc
    try:
        model = llm.get_model(model_id)
    except llm.UnknownModelError as exc:
        raise click.UsageError(str(exc)) from exc
    asked = _Prompter(model, system, dict(options), key)
    try:
        result = ask(asked, prompt, expectations, max_attempts=attempts, with_guidance=not no_guidance)
    except AskError as exc:
        _report(exc.attempts, attempts, None, as_json, show_usage)
        sys.exit(1)
    _report(result.attempts, attempts, result, as_json, show_usage)


class _Prompter:
    """``llm``'s model as formatbook's prompt callable: each call one streamed response."""

    def __init__(self, model: Any, system: str | None, options: dict[str, str], key: str | None):
        self.model = model
        self.system = system
        self.options = options
        self.key = key

    def __call__(self, prompt: str) -> Any:
        # the Response itself: ask knows how to stop one (its generator closed, the HTTP
        # stream it leaves in a reference cycle collected at once)
        return self.model.prompt(prompt, system=self.system, key=self.key, options=self.options or None)


def _report(attempts: list[Attempt], most: int, result: CheckResult | None, as_json: bool, show_usage: bool) -> None:
    """The answer (or the JSON) on stdout, the verdict (and the usage) on stderr."""
    last = attempts[-1].result if attempts else None
    if as_json and last is not None:
        final = result if result is not None else replace(last, attempts=attempts)
        click.echo(dumps_json(final.to_dict(), indent=2))
    elif result is not None:
        click.echo(result.text if result.text is not None else result.reply)
    if last is None:
        return
    verdict = result.verdict if result is not None else "fail"
    fmt = f" ({last.format})" if last.format else ""
    click.echo(f"{verdict.upper()} attempt {len(attempts)} of {most}{fmt}", err=True)
    if result is None:
        for violation in last.violations[:5]:
            click.echo(f"  {violation.code}: {violation}", err=True)
    if show_usage:
        click.echo(usage_line(attempts), err=True)


@llm.hookimpl
def register_commands(cli: Any) -> None:
    """Add ``llm expect``."""
    cli.add_command(expect_command)
