"""Exports of expectations (formatbook_core.exports, ``formatbook export``): the bundled
example replies against the grammar of their own EXPECT lines, in every engine, and clear
errors. No format is named here: the examples say which formats have grammars."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from formatbook_core import ExportError, check, list_formats, parse_expectations
from formatbook_core.cli import main
from formatbook_core.definition import FORMAT_DEFAULTS, give_defaults
from formatbook_core.exports import export, grammar, left_to_check, response_format
from formatbook_core.grammars import Grammar
from formatbook_core.testing.grammars import ENGINES, accepts

REPLIES = Path(__file__).parents[2] / "examples" / "replies"


def _examples() -> list[tuple[Path, Path]]:
    out = []
    for expect in sorted(REPLIES.glob("*.expect")):
        replies = [p for p in REPLIES.glob(expect.stem + ".*") if p.suffix != ".expect"]
        out += [(expect, reply) for reply in replies]
    return out


def _with_grammar() -> list[tuple[Path, Path]]:
    found = []
    for expect, reply in _examples():
        exp = parse_expectations(expect.read_text(), base_dir=expect.parent)
        try:
            grammar(exp)
        except ExportError:
            continue
        found.append((expect, reply))
    return found


WITH_GRAMMAR = _with_grammar()


def test_the_examples_hold_grammars_of_several_formats_and_verdicts():
    formats = {parse_expectations(e.read_text(), base_dir=e.parent).format for e, _ in WITH_GRAMMAR}
    verdicts = {r.name.split("-")[0] for _, r in WITH_GRAMMAR}
    assert len(formats) >= 3 and verdicts == {"pass", "healed", "fail"}


@pytest.mark.parametrize(("expect", "reply"), WITH_GRAMMAR, ids=lambda p: p.name)
def test_an_example_reply_matches_its_grammar_exactly_when_check_passes_it_as_written(expect, reply):
    """A passing reply matches in every engine; one that needs healing matches in none;
    a failing one matches only when what fails is left to the checker (counts,
    instructions, the keywords the grammar lists in ``left``)."""
    exp = parse_expectations(expect.read_text(), base_dir=expect.parent)
    text = reply.read_text(encoding="utf-8")
    result = check(text, exp)
    found = accepts(grammar(exp), text)
    assert len(set(found.values())) == 1, found  # the engines agree
    matched = found[ENGINES[0]]
    if result.verdict == "pass":
        assert matched
    elif result.verdict == "healed":
        assert not matched
    elif matched:
        counts_only = all(v.code.startswith("count.") for v in result.violations)
        assert counts_only or grammar(exp).left, [v.code for v in result.violations]


def test_export_to_each_target_and_what_is_left_to_check():
    expect = REPLIES / "pass-contact.expect"
    exp = parse_expectations(expect.read_text(), base_dir=expect.parent)
    assert export(exp, "gbnf").startswith("root ::= ")
    assert export(exp, "lark").startswith("start: ")
    body = export(exp, "response_format")
    assert isinstance(body, dict) and body["json_schema"]["strict"] is True
    assert response_format(exp).body == body
    assert left_to_check(exp, "gbnf") == ["MIN 2 WORDS", "MAX 3 WORDS"]
    assert "MAX 3 WORDS" in left_to_check(exp, "response_format")


def test_export_errors_are_clear():
    with pytest.raises(ExportError, match="unknown export target 'ebnf'"):
        export("EXPECT JSON", "ebnf")
    with pytest.raises(ExportError, match="name no format"):
        export("EXPECT MAX 3 WORDS", "gbnf")
    with pytest.raises(ExportError, match="has no grammar export"):
        export("EXPECT TEXT", "lark")


@pytest.fixture
def run(capsys):
    def _run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return _run


def test_the_command(run, monkeypatch):
    monkeypatch.chdir(REPLIES)
    code, out, err = run("export", "-e", "JSON schemas/contact.json", "-e", "MAX 3 WORDS", "--to", "gbnf")
    assert code == 0 and out.startswith("root ::= ") and '"\\"firstName\\""' in out
    assert "MAX 3 WORDS" in err and "check()" in err
    code, out, err = run("export", "--expect-file", "pass-csv-team.expect", "--to", "lark", "-q")
    assert code == 0 and out.startswith("start: ") and err == ""
    code, out, _ = run("export", "-e", "JSON schemas/contact.json", "--to", "response_format")
    assert code == 0 and json.loads(out)["json_schema"]["schema"]["required"] == ["firstName", "lastName", "email"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-e", "JSON", "--to", "xml"], "unknown export target 'xml'"),
        (["-e", "TEXT", "--to", "gbnf"], "format text has no grammar export"),
        (["-e", "MAX 3 WORDS", "--to", "gbnf"], "name no format"),
        (["-e", "JSON nope.json", "--to", "gbnf"], "nope.json"),
        (["--to", "lark"], "no expectations"),
    ],
)
def test_the_command_fails_with_one_line_and_status_2(run, args, message):
    code, out, err = run("export", *args)
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_export_help_is_fast_to_import():
    code = (
        "import sys\nfrom formatbook_core.cli import main\n"
        "try:\n    main(['export', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('jsonschema', 'lark', 'formatbook_core.exports') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert "response_format" in io.StringIO(done.stdout).getvalue()


def test_every_registered_format_gives_a_grammar_or_says_it_has_none():
    said: list[str] = []
    entries = list_formats()
    assert len(entries) >= 8
    for entry in entries:
        fmt, name = entry.format, entry.format.name
        for call in (fmt.grammar, fmt.response_format):
            try:
                found = call(None, **entry.options)
            except ExportError as exc:
                assert name in str(exc) or "needs" in str(exc), str(exc)
                said.append(str(exc))
            else:
                assert isinstance(found, Grammar) or hasattr(found, "body"), (name, found)
    assert any("has no grammar export" in text for text in said)
    assert any("has no response_format export" in text for text in said)


def test_a_format_that_does_not_subclass_base_format_gets_the_refusal():
    class Bare:
        name = "bare"

        def is_valid(self, value, schema=None, **options):
            return True

    fmt = give_defaults(Bare(), FORMAT_DEFAULTS, "format")
    with pytest.raises(ExportError, match="format bare has no grammar export"):
        fmt.grammar()
    with pytest.raises(ExportError, match="format bare has no response_format export"):
        fmt.response_format()
