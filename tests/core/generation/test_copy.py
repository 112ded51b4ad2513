"""Copies of checkers and guards are independent: a copy fed separately never changes what
the original answers (generation feeds one copy per candidate)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formatbook_core import StreamGuard, get_format, list_formats
from formatbook_core.textlog import RUN, TextLog

JUNK = ["\x01", "}]", "<think>", "## X\n", ",,\n", "word " * 3, '"', "\n\n"]


def _samples() -> list[tuple[str, str]]:
    return [(e.name, sample) for e in list_formats() for sample in getattr(e.format, "samples", ())]


@pytest.mark.parametrize("name,sample", _samples())
def test_a_guard_copy_fed_junk_never_changes_the_original(name, sample):
    expect = f"EXPECT {name}\nEXPECT MAX 1000 WORDS"
    alone = StreamGuard(expect, strict=True)
    watched = StreamGuard(expect, strict=True)
    for i, ch in enumerate(sample):
        clone = watched.copy()
        for junk in JUNK[i % len(JUNK) :] + JUNK[: i % len(JUNK)]:
            clone.feed(junk)
        clone.can_end()
        assert watched.feed(ch) == alone.feed(ch), (name, i)
        assert watched.can_end() == alone.can_end(), (name, i)
    assert watched.text == alone.text == sample
    # compared as data: a vobject value has no equality of its own
    assert watched.finish().to_dict() == alone.finish().to_dict()


@pytest.mark.parametrize("name,sample", _samples())
def test_a_checker_copy_fed_junk_never_changes_the_original(name, sample):
    fmt = get_format(name)
    alone, watched = fmt.stream(strict=True), fmt.stream(strict=True)
    for i, ch in enumerate(sample):
        clone = watched.copy()
        clone.feed(JUNK[i % len(JUNK)])
        clone.finish()
        assert watched.feed(ch) == alone.feed(ch), (name, i)
    assert watched.finish() == alone.finish()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=5), max_size=3 * RUN), st.data())
def test_textlog_copies_share_nothing_that_changes(chunks, data):
    log = TextLog()
    copies: list[tuple[TextLog, str]] = []
    for i, chunk in enumerate(chunks):
        if data.draw(st.booleans()):
            copies.append((log.copy(), "".join(chunks[:i])))
        if i % 97 == 0:
            log.text()  # joining in between changes nothing either
        log.append(chunk)
    for clone, expected in copies:
        assert clone.text() == expected
        clone.append("x")
        assert clone.text() == expected + "x"
    assert log.text() == "".join(chunks)


def test_a_guard_copy_costs_the_state_not_the_reply():
    guard = StreamGuard("EXPECT TEXT", strict=True)
    for _ in range(10 * RUN):
        guard.feed("a ")
    clone = guard.copy()
    assert len(clone._log._parts) < RUN  # recent chunks only: the rest is a shared chain
    assert clone._log._runs is guard._log._runs


def test_a_lag_guard_copies_its_gathered_chunks_and_can_end_checks_them():
    guard = StreamGuard("EXPECT JSON", strict=True, lag=64)
    assert guard.feed('{"a": [1, 2') and guard._batch  # gathered, not checked yet
    clone = guard.copy()
    clone.feed("]}")
    assert clone.can_end() and not guard.can_end()  # the original still has an open array
    assert guard.feed("]}") and guard.can_end() and guard.finish().ok
    assert clone.text == guard.text == '{"a": [1, 2]}'


def test_can_end_reads_text_held_as_a_possible_think_tag():
    guard = StreamGuard("EXPECT JSON", strict=True)
    assert guard.feed("[1] <thi")  # may begin a think tag: held back
    assert not guard.can_end()  # at the end it is text after the JSON: not valid
    assert guard.copy().feed("nk>x</think>") and guard.feed("nk>x</think>")
    assert guard.can_end() and guard.finish().ok


# (expectation, a piece the instruction refuses, a piece it takes)
INSTRUCTIONS = [
    ("EXPECT CASE lower", "A", "a"),
    ('EXPECT STARTS WITH "ab"', "z", "a"),
    ("EXPECT QUOTED", "z", '"'),
    ('EXPECT ONE OF "ab" | "cd"', "z", "c"),
    ('EXPECT NOT CONTAINS "x"', "x", "y"),
    ('EXPECT MAX 0 ","', ",", "a"),
]


@pytest.mark.parametrize("expect,refused,taken", INSTRUCTIONS)
def test_an_instruction_stream_is_not_shared_between_guard_copies(expect, refused, taken):
    # a regression: the instruction streams were shared, so a refused probe on one copy
    # made every later copy refuse too (generate() then backtracked to the start)
    guard = StreamGuard(expect, strict=True)
    assert not guard.copy().feed(refused)
    assert guard.copy().feed(taken)
    assert guard.feed(taken)
