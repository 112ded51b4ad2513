"""The bundled examples stay true: each reply in examples/replies/ gets the verdict its
file name announces (pass-*, healed-*, fail-*), and each examples/*.py script runs and
prints what its comments promise."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from formatbook_core import check, get_format, parse_expectations
from formatbook_core.cli import main

ROOT = Path(__file__).resolve().parents[2]
REPLIES = ROOT / "examples" / "replies"
SCRIPTS = ROOT / "examples"
VERDICTS = ("pass", "healed", "fail")


def _available(name: str) -> bool:
    try:
        get_format(name)
    except Exception:
        return False
    return True


def _replies() -> list[Path]:
    return sorted(p for p in REPLIES.iterdir() if p.is_file() and p.suffix != ".expect")


def _format_of(expect: Path) -> str | None:
    for line in expect.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if (
            len(words) >= 2
            and words[0].upper() == "EXPECT"
            and words[1].upper() not in ("MIN", "MAX", "EXACTLY", "MINIMUM", "MAXIMUM", "EXACT")
            and words[1].lower() not in _KIND_WORDS
        ):
            return words[1].lower()
    return None


# the first words of the registered expectation kinds (ENDS WITH, CASE...): no format names
_KIND_WORDS = {phrase.split()[0] for phrase in __import__("formatbook_core").registry.default_registry().kind_phrases()}


def _skip_without(fmt: str | None) -> None:
    # every format the bundled examples use ships with formatbook: missing is a failure
    assert fmt is None or _available(fmt), f"the {fmt} plugin is not registered"


def test_the_replies_folder_is_well_formed():
    replies = _replies()
    assert len(replies) >= 12
    for reply in replies:
        verdict = reply.name.split("-", 1)[0]
        assert verdict in VERDICTS, f"{reply.name} does not start with pass-, healed- or fail-"
        assert reply.with_suffix(".expect").is_file(), f"{reply.name} has no .expect file"
    for expect in REPLIES.glob("*.expect"):
        assert any(p.stem == expect.stem for p in replies), f"{expect.name} has no reply"
    # every verdict is shown, for text, JSON and Markdown replies
    kinds = {(r.name.split("-", 1)[0], _format_of(r.with_suffix(".expect"))) for r in replies}
    for verdict in VERDICTS:
        assert (verdict, "json") in kinds
        assert (verdict, "markdown") in kinds
    assert ("pass", "text") in kinds and ("fail", "text") in kinds


@pytest.mark.parametrize("reply", _replies(), ids=lambda p: p.name)
def test_each_reply_gets_the_verdict_its_name_announces(reply: Path):
    expect = reply.with_suffix(".expect")
    _skip_without(_format_of(expect))
    expectations = parse_expectations(expect.read_text(encoding="utf-8"), base_dir=REPLIES)
    # bytes, as the CLI reads them: line breaks as written (CRLF is part of vCard and iCalendar)
    result = check(reply.read_bytes().decode("utf-8"), expectations)
    wanted = reply.name.split("-", 1)[0]
    details = [str(v) for v in result.violations] + [r.message for r in result.repairs]
    assert result.verdict == wanted, details
    if wanted == "fail":
        assert result.violations
    if wanted == "healed":
        assert result.repairs and not result.violations


def test_the_word_limit_example_fails_on_values_not_keys():
    _skip_without("json")
    reply = (REPLIES / "fail-word-limit.json").read_text()
    result = check(reply, parse_expectations((REPLIES / "fail-word-limit.expect").read_text()))
    assert result.counts["words"] == 4  # John Smith + Peter Green; keys are not counted
    assert [v.code for v in result.violations] == ["count.max"]


def test_formatbook_check_on_the_folder_reports_the_same_verdicts(capsys):
    needed = {_format_of(p.with_suffix(".expect")) for p in _replies()} - {None}
    missing = sorted(f for f in needed if not _available(f))
    assert not missing, f"plugins not registered: {', '.join(missing)}"
    code = main(["check", str(REPLIES), "--json"])
    data = json.loads(capsys.readouterr().out)
    got = {r["name"]: r["verdict"] for r in data["results"]}
    assert got == {p.stem: p.name.split("-", 1)[0] for p in _replies()}
    assert code == 1  # the fail-* replies fail
    assert data["summary"]["fail"] == sum(1 for p in _replies() if p.name.startswith("fail-"))


# --- the scripts ---------------------------------------------------------------------------


def _run_script(name: str) -> str:
    # offline: the ask_* scripts use a scripted model when no endpoint is configured
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_BASE_URL", "FORMATBOOK_MODEL")}
    env["NO_COLOR"] = "1"
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / name)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_script_is_tested():
    scripts = sorted(p.name for p in SCRIPTS.glob("*.py"))
    assert scripts == [
        "ask_contact.py",
        "ask_markdown.py",
        "check_reply.py",
        "heal_reply.py",
        "prompt_guidance.py",
        "stream_guard.py",
    ]


def test_check_reply_script():
    _skip_without("json")
    out = _run_script("check_reply.py")
    assert "two words: pass (words: 2)" in out
    assert "four words: fail (words: 4)" in out
    assert "fenced, trailing comma: healed (words: 2)" in out
    assert "violation: count.max" in out


def test_heal_reply_script():
    _skip_without("json")
    out = _run_script("heal_reply.py")
    healed = re.search(r"^healed text: (.*)$", out, re.MULTILINE)
    assert healed is not None
    assert json.loads(healed.group(1)) == {"city": "Lisbon", "sights": ["Belém Tower", "Alfama"]}
    assert "cannot heal:" in out


def test_prompt_guidance_script():
    _skip_without("json")
    out = _run_script("prompt_guidance.py")
    first, second = out.split("---\n")
    assert "JSON" in first and "3" in first and "lastName" in first
    assert "20" in second


def test_stream_guard_script():
    _skip_without("json")
    out = _run_script("stream_guard.py")
    stopped = re.search(r"^stopped after (\d+) characters", out, re.MULTILINE)
    assert stopped is not None, out
    reply_length = 95  # len of the streamed reply in the script
    # the 9th word is settled long before the string closes: the guard stops early
    assert int(stopped.group(1)) < reply_length
    assert "verdict: fail" in out
    assert "short reply: pass" in out


def test_ask_contact_script():
    _skip_without("json")
    out = _run_script("ask_contact.py")
    assert "verdict: healed" in out
    stopped = re.search(r"^attempt 1: fail, stopped after (\d+) characters \((\d+) words already exceed", out, re.M)
    assert stopped is not None, out
    assert int(stopped.group(1)) < 1000  # the scripted reply is about 1,100 characters long
    assert int(stopped.group(2)) > 40
    assert "attempt 2: healed, finished" in out
    assert "contact: Ada Lovelace <ada@example.org>" in out
    assert "the last request: user -> assistant -> user" in out
    assert "the correction sent: Your reply was stopped" in out


def test_ask_markdown_script():
    _skip_without("markdown")
    out = _run_script("ask_markdown.py")
    assert "verdict: pass after 2 attempt(s)" in out
    assert 'words in "Short answer" exceed the maximum of 25' in out
    assert 'write at most 25 words in the section "Short answer"' in out
    assert "short answer: Yes: it heats with a third of the energy an electric heater uses." in out
