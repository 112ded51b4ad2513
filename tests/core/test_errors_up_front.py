"""Errors up front (issue 25): a bad expectation is an ExpectationError when it is built,
never a failure of every reply; a guard that has finished takes no more text."""

from __future__ import annotations

import pytest

from formatbook_core import ExpectationError, Expectations, StreamGuard, check, parse_expectations


@pytest.mark.parametrize("value", ["yesterday", "2024-13-45", "now", "2024-02-30"])
def test_an_ill_formed_option_value_is_refused_when_built(value: str) -> None:
    with pytest.raises(ExpectationError, match="ISO 8601"):
        parse_expectations(f"EXPECT ICALENDAR now={value}")
    with pytest.raises(ExpectationError):
        Expectations(format="icalendar", options={"now": value})


@pytest.mark.parametrize("value", ["2024-05-01T09:00:00Z", "2024-05-01", "2024-05-01T09:00:00+02:00"])
def test_a_well_formed_time_is_taken(value: str) -> None:
    assert Expectations(format="icalendar", options={"now": value}).options["now"] == value


CONTRADICTORY = [
    ["CASE lower", 'ENDS WITH "Bye."'],
    ["CASE lower", 'STARTS WITH "Dear Ada,"'],
    ["CASE upper", 'ENDS WITH "thanks"'],
    ['CONTAINS "x"', 'NOT CONTAINS "x"'],
    ['CONTAINS "Paris"', 'NOT CONTAINS "paris"'],  # literals are found in any case
    ['CONTAINS "hello world"', 'NOT CONTAINS "world"'],
    ['STARTS WITH "Dear Sir"', 'NOT CONTAINS "Dear"'],
    ['NOT CONTAINS "e"', 'ENDS WITH "Bye."'],  # one character is found everywhere
]


@pytest.mark.parametrize("pair", CONTRADICTORY)
def test_contradictory_instructions_are_refused(pair: list[str]) -> None:
    with pytest.raises(ExpectationError, match="contradicts"):
        Expectations(instructions=pair)
    with pytest.raises(ExpectationError, match="contradicts"):
        parse_expectations("\n".join(f"EXPECT {line}" for line in reversed(pair)))


COMPATIBLE = [
    ["CASE lower", 'ENDS WITH "bye."'],
    ["CASE upper", 'CONTAINS "hi"'],  # found in any case: "HI" follows both
    ['ENDS WITH "Bye."', 'NOT CONTAINS "Bye"'],  # "GoodBye." follows both
    ['CONTAINS "data"', 'NOT CONTAINS "database"'],
    ['STARTS WITH "Hi"', 'NOT CONTAINS "Hiking"'],
]


@pytest.mark.parametrize("pair", COMPATIBLE)
def test_compatible_instructions_are_taken(pair: list[str]) -> None:
    exp = Expectations(instructions=pair)
    assert len(exp.instructions) == 2


def test_a_witness_passes_the_compatible_pairs() -> None:
    """The pairs above are satisfiable: a reply that follows both exists (checked by hand)."""
    witnesses = ["ok, bye.", "HI THERE", "GoodBye.", "the data is here", "Hi all"]
    for pair, reply in zip(COMPATIBLE, witnesses, strict=True):
        assert check(reply, "\n".join(f"EXPECT {line}" for line in pair)).ok, (pair, reply)


def test_feed_after_finish_raises() -> None:
    guard = StreamGuard("EXPECT MAX 5 WORDS")
    guard.feed("one two")
    first = guard.finish()
    with pytest.raises(RuntimeError, match="after finish"):
        guard.feed(" three")
    assert guard.finish().ok == first.ok and guard.text == "one two"


def test_feed_after_finish_raises_in_lag_mode_and_a_copy_goes_on() -> None:
    guard = StreamGuard("EXPECT JSON", lag=64)
    guard.feed('{"a": ')
    probe = guard.copy()
    guard.finish()
    with pytest.raises(RuntimeError):
        guard.feed("1}")
    probe.feed("1}")
    assert probe.finish().ok
