"""Replies are untrusted: every unit and kind answers any text (lone surrogates, control
characters, long runs of the characters its patterns look for) without an exception, and
the hostile shapes stay fast (their growth: tests/plugins/instructions/test_streaming.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formatbook_core import StreamGuard, check

EVERYTHING = "\n".join(
    [
        'EXPECT MAX 5 ","',
        'EXPECT MIN 1 "data"',
        "EXPECT MAX 5 BULLETS",
        "EXPECT MAX 5 HIGHLIGHTS",
        "EXPECT MAX 5 PLACEHOLDERS",
        "EXPECT MAX 5 CAPITAL WORDS",
        'EXPECT MAX 5 PARAGRAPHS SEPARATED BY "***"',
        'EXPECT MAX 5 RESPONSES SEPARATED BY "******"',
        'EXPECT MAX 5 SECTIONS MARKED "SECTION"',
        'EXPECT CONTAINS "x"',
        'EXPECT NOT CONTAINS "data"',
        'EXPECT STARTS WITH "dear"',  # with CASE lower: "Dear" would contradict it (refused up front)
        'EXPECT ENDS WITH "bye"',
        "EXPECT CASE lower",
        'EXPECT ONE OF "a" | "b"',
        "EXPECT TITLE",
        'EXPECT POSTSCRIPT "P.S."',
        "EXPECT QUOTED",
        'EXPECT PARAGRAPH 3 STARTS WITH "However"',
    ]
)

HOSTILE = [
    "*" * 200_000,
    "[" * 200_000,
    "<<" * 100_000,
    " " * 200_000,
    "\n" * 200_000,
    "a" * 200_000,
    "A" * 200_000,
    "* " * 100_000,
    "- \n" * 70_000,
    "SECTION" * 30_000,
    "data" * 50_000,
    "\ud800" * 1000,
    "p.s. " * 40_000,
    "\r\n\r\n" * 50_000,
]


@pytest.mark.parametrize("reply", HOSTILE, ids=lambda r: repr(r[:8]))
def test_hostile_replies_are_answered(reply):
    result = check(reply, EVERYTHING)
    assert not result.ok and result.violations
    guard = StreamGuard(EVERYTHING)
    for i in range(0, len(reply), 4096):
        guard.feed(reply[i : i + 4096])
    assert guard.finish().ok is False


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_answered(reply):
    result = check(reply, EVERYTHING)
    assert isinstance(result.ok, bool)
    assert all(v.code.startswith(("count.", "instructions.")) for v in result.violations)
