"""The README's third-party kind (NO EMOJI), run as written: its code block is executed as
a throwaway plugin module, registered on a fresh plugin manager, and then works in EXPECT
lines, in check(), in StreamGuard and on the command line."""

from __future__ import annotations

import io
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

from formatbook_core import Expectations, StreamGuard, Violation, check, guidance
from formatbook_core.cli import main
from formatbook_core.expectations import parse_expectations
from formatbook_core.registry import Registry, default_registry, set_default_registry
from formatbook_core.results import ExpectationError

README = Path(__file__).resolve().parents[3] / "plugins" / "formatbook_instructions" / "README.md"


def readme_plugin() -> types.ModuleType:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## A third-party kind") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    module = types.ModuleType("fb_no_emoji")
    exec(compile(code, str(README), "exec"), module.__dict__)
    return module


@pytest.fixture
def registry():
    previous = default_registry()  # restored after: other tests hold its format objects
    fresh = Registry()  # the built-in plugins from their entry points, plus this one
    fresh.register_plugin(readme_plugin(), "no-emoji")
    set_default_registry(fresh)
    yield fresh
    set_default_registry(previous)


def test_the_kind_works_in_expect_lines_and_check(registry):
    exp = parse_expectations("EXPECT NO EMOJI\nEXPECT CASE lower", registry=registry)
    assert [i.describe() for i in exp.instructions] == ["NO EMOJI", "CASE lower"]
    result = check("nice work 🎉🎉", exp)
    assert [v.code for v in result.violations] == ["emoji.found"]
    assert result.violations[0].message == "2 emoji"
    assert check("nice work", exp).ok
    assert "Do not use emoji." in guidance(exp)


def test_the_kind_is_judged_by_finish_in_a_stream(registry):
    guard = StreamGuard("EXPECT NO EMOJI")
    assert all(guard.feed(c) for c in "ok 🎉")  # stream() is None: only the end judges
    assert not guard.finish().ok


def test_the_kind_works_on_the_command_line(registry, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("party 🎉".encode())))
    code = main(["check", "-e", "NO EMOJI"])
    out = capsys.readouterr().out
    assert code != 0 and "1 emoji" in out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"party")))
    assert main(["check", "-e", "NO EMOJI"]) == 0


def test_without_the_plugin_the_line_is_an_error():
    with pytest.raises(ExpectationError, match="unknown format, sign or kind 'NO'"):
        parse_expectations("EXPECT NO EMOJI", registry=Registry())


def test_a_frozen_instruction_may_leave_out_also_values():
    """An instruction object given in code, a frozen dataclass without ``also_values``, is
    judged on the text as before (the registry gives registered objects their declared
    defaults; an instruction is a value and is not given them). Found by the differential
    check of the redesign: the built-in LANGUAGE instruction raised here."""

    @dataclass(frozen=True)
    class Shout:
        def describe(self) -> str:
            return "SHOUT"

        def guidance(self) -> str:
            return "Shout."

        def stream(self) -> None:
            return None

        def check(self, text: str) -> list[Violation]:
            return [] if text.isupper() else [Violation("shout.quiet", "not shouted")]

    assert check("HELLO", Expectations(instructions=[Shout()])).ok
    assert [v.code for v in check('{"a": "hi"}', Expectations(format="json", instructions=[Shout()])).violations] == [
        "shout.quiet"
    ]
