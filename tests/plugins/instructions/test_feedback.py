"""The re-ask message after a reply that broke instructions: what, where, what to do."""

from __future__ import annotations

from formatbook_core import check
from formatbook_core.expectations import parse_expectations
from formatbook_core.llm_feedback import correction
from formatbook_core.results import Attempt

# lower case: "Any other questions?" with CASE lower would be refused as contradictory
EXP = 'EXPECT MAX 0 ","\nEXPECT ENDS WITH "any other questions?"\nEXPECT CASE lower\nEXPECT NOT CONTAINS "delve"'


def test_the_correction_lists_each_instruction_with_its_fix():
    exp = parse_expectations(EXP)
    reply = "let us delve in, shall we\nThanks!"
    message = correction(Attempt("p", reply, check(reply, exp)), exp)
    lines = message.splitlines()
    assert lines[0] == "Your reply was not accepted:"
    assert lines[1] == ('- 1 "," exceeds the maximum of 0: line 1 col 16. Shorten it: do not use "," at all.')
    assert "ends with 'Thanks!' instead of 'any other questions?'" in lines[2]
    assert lines[2].endswith('End your reply with exactly "any other questions?", with nothing after it.')
    assert "1 capital letter (CASE lower): line 2 col 1 'T'" in message
    assert "Write your entire reply in lowercase letters" in message
    assert 'contains "delve" once (NOT CONTAINS): line 1 col 8' in message
    assert 'Do not use "delve" anywhere.' in message


def test_a_stopped_reply_is_reminded_of_the_streamed_instructions():
    exp = parse_expectations(EXP)
    message = correction(
        Attempt(
            "p",
            "all good until Now",
            check("x", exp),
            stopped=True,
            stop_reason="a capital letter 'N'",
            stop_position=15,
        ),
        exp,
    )
    assert "stopped after 18 characters" in message
    assert "Write your entire reply in lowercase letters" in message  # CASE streams
    assert "End your reply with exactly" not in message  # ENDS WITH is judged at the end only
