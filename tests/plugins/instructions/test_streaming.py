"""StreamGuard with instructions: stopped at the first comma, capital or wrong character,
once a MAX is passed; judged at finish() otherwise; never stopping a reply check()
accepts (property test); linear work (growth test that counts no time but compares two
sizes: tests/feed_growth.py)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import ExpectationError, StreamGuard, check
from formatbook_core.expectations import parse_expectations
from tests.feed_growth import feeding_grows_linearly


def stop(exp: str, reply: str, size: int = 1):
    guard = StreamGuard(exp)
    for i in range(0, len(reply), size):
        status = guard.feed(reply[i : i + size])
        if not status:
            return i, status
    return None


def test_stopped_at_the_first_comma():
    reply = "no commas here\nand then, one"
    at, status = stop('EXPECT MAX 0 ","', reply)
    assert at == reply.index(",")  # the chunk holding the comma is the one refused
    assert '1 "," already exceeds MAX 0 ","' in status.reason


def test_stopped_at_the_first_capital():
    reply = "all lower until Now"
    at, status = stop("EXPECT CASE lower", reply)
    assert at == reply.index("N") and status.position == reply.index("N")
    assert "capital letter 'N'" in status.reason


def test_stopped_at_the_first_wrong_character():
    reply = "\n  Dead Ada"
    at, status = stop('EXPECT STARTS WITH "Dear"', reply)
    assert at == reply.index("d", 4) and status.position == at
    # a right start is never stopped, whatever follows
    assert stop('EXPECT STARTS WITH "Dear"', "Dear Ada, hello") is None


def test_stopped_once_a_max_count_is_passed():
    reply = "* one\n* two\n* three\n* four\n"
    at, status = stop("EXPECT MAX 2 BULLETS", reply)
    # the third bullet is certain once its line has ended
    assert reply.index("* three") < at <= reply.index("* four")
    assert "3 bullets already exceed MAX 2 BULLETS" in status.reason


def test_a_whole_word_literal_waits_for_the_next_character():
    at, _ = stop('EXPECT MAX 1 "data"', "data and data!")
    assert at == len("data and data")  # 'data' could still become 'database' until '!'
    assert stop('EXPECT MAX 1 "data"', "data and database") is None


def test_not_contains_stops_at_the_word():
    reply = "we will delve into it"
    at, status = stop('EXPECT NOT CONTAINS "delve"', reply)
    assert status.position == reply.index("delve")
    assert at == reply.index("delve") + len("delve")  # the space after shows it is the word


def test_one_of_and_quoted_stop_early():
    assert stop('EXPECT ONE OF "My answer is yes." | "My answer is no."', "My answer is maybe.")[0] == len(
        "My answer is "
    )
    assert stop("EXPECT QUOTED", "  Hello")[0] == 2


@pytest.mark.parametrize(
    "exp",
    [
        'EXPECT ENDS WITH "Any other questions?"',
        'EXPECT MIN 3 "data"',
        "EXPECT TITLE",
        'EXPECT POSTSCRIPT "P.S."',
        'EXPECT PARAGRAPH 2 STARTS WITH "However"',
        'EXPECT CONTAINS "zebra"',
    ],
)
def test_end_only_instructions_are_judged_by_finish(exp):
    reply = "Thanks, that is all. Bye."
    guard = StreamGuard(exp)
    assert all(guard.feed(c) for c in reply)
    result = guard.finish()
    assert not result.ok and result.violations


def test_with_a_format_kinds_are_judged_by_finish_only():
    reply = 'Here it is: {"a": "B"}'
    guard = StreamGuard("EXPECT JSON\nEXPECT CASE lower")
    assert all(guard.feed(c) for c in reply)  # the capital H of the prose is set aside by check()
    assert [v.code for v in guard.finish().violations] == ["instructions.case"]  # the B


def test_think_block_opening_the_reply_is_set_aside_as_check_does():
    reply = "<think>Plan, Then Act</think>\nno capitals, one comma"
    assert stop("EXPECT CASE lower", reply) is None
    assert check(reply, "EXPECT CASE lower").ok
    at, _ = stop('EXPECT MAX 0 ","', reply)
    assert at == reply.index(",", reply.index("</think>"))


# --- the property: the guard never stops a reply check() accepts ---------------------------

ALPHABET = st.sampled_from(
    [
        "a",
        "b",
        "e",
        "A",
        "B",
        "É",
        " ",
        "\n",
        "\n\n",
        ",",
        ".",
        "*",
        "**",
        "- ",
        "* ",
        "[",
        "]",
        "(",
        "<<",
        ">>",
        '"',
        "“",
        "”",
        "data",
        "Data",
        "SECTION",
        " 1",
        "***",
        "******",
        "P.S.",
        "Dear",
        "However",
        "yes",
        "no",
        "<think>",
        "</think>",
        "ǅ",
        "ß",
        "\r",
    ]
)
INSTRUCTIONS = [
    "EXPECT CASE lower",
    "EXPECT CASE upper",
    'EXPECT STARTS WITH "Dear"',
    'EXPECT STARTS WITH "data, "',
    'EXPECT NOT CONTAINS "data"',
    'EXPECT NOT CONTAINS ","',
    'EXPECT NOT CONTAINS "**"',
    'EXPECT ONE OF "yes" | "no" | "yes no"',
    "EXPECT QUOTED",
    'EXPECT ENDS WITH "data"',
    "EXPECT TITLE",
]
COUNTED = [
    '"data"',
    '","',
    '"aa"',
    '"**"',
    "BULLETS",
    "HIGHLIGHTS",
    "PLACEHOLDERS",
    "CAPITAL WORDS",
    'PARAGRAPHS SEPARATED BY "***"',
    'RESPONSES SEPARATED BY "******"',
    'SECTIONS MARKED "SECTION"',
]


@st.composite
def chunked(draw, text):
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=8)))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if a < b]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_guard_never_stops_a_reply_check_accepts(data):
    reply = "".join(data.draw(st.lists(ALPHABET, max_size=30)))
    chosen = data.draw(st.lists(st.sampled_from(INSTRUCTIONS), max_size=3, unique=True))
    units = data.draw(st.lists(st.sampled_from(COUNTED), max_size=3, unique=True))
    loose = check(reply, "\n".join(f"EXPECT MAX 100000 {u}" for u in units))
    # each MAX at exactly what check() counts: the tightest limits the reply still passes
    exp = "\n".join([*chosen, *(f"EXPECT MAX {loose.counts[_key(u)]} {u}" for u in units)])
    try:
        accepted = check(reply, exp).ok
    except ExpectationError as err:  # contradictory instructions (CASE upper, STARTS WITH "Dear")
        assert "contradicts" in str(err)
        return
    chunks = data.draw(chunked(reply)) if reply else []
    guard = StreamGuard(exp)
    statuses = [guard.feed(c) for c in chunks]
    if accepted:
        assert all(statuses), (reply, exp, chunks, [s for s in statuses if not s])
    assert guard.finish().ok == accepted


def _key(unit: str) -> str:
    return parse_expectations(f"EXPECT MAX 1 {unit}").counts[0].key


# --- linear work ---------------------------------------------------------------------------

MIX = "\n".join(
    [
        'EXPECT MAX 100000000 "data"',
        'EXPECT MAX 100000000 ","',
        "EXPECT MAX 100000000 BULLETS",
        "EXPECT MAX 100000000 HIGHLIGHTS",
        "EXPECT MAX 100000000 PLACEHOLDERS",
        "EXPECT MAX 100000000 CAPITAL WORDS",
        'EXPECT MAX 100000000 PARAGRAPHS SEPARATED BY "***"',
        'EXPECT MAX 100000000 SECTIONS MARKED "SECTION"',
        'EXPECT NOT CONTAINS "zebra"',
        'EXPECT ENDS WITH "end"',
        'EXPECT STARTS WITH "dat"',
    ]
)
GROWTH = {
    "one long word": (MIX, "'data' + 'a' * n"),
    "one long line of words": (MIX, "'data ' * (n // 5)"),
    "overlapping separators": ('EXPECT MAX 100000000 PARAGRAPHS SEPARATED BY "***"', "'*' * n"),
    "self-overlapping literal": ('EXPECT MAX 100000000 "aa"', "'a' * n"),
    "lower case": ('EXPECT CASE lower\nEXPECT ONE OF "x" | "y"', "'x' + ' ' * n"),
}


@pytest.mark.parametrize("name", sorted(GROWTH))
def test_feeding_one_character_at_a_time_is_linear(name):
    exp, make = GROWTH[name]
    feeding_grows_linearly(name, exp, make, 8_000, finish=True)
