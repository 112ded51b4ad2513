"""The instruction kinds: hand-checked cases in both definitions, messages with positions."""

from __future__ import annotations

import pytest

from formatbook_core import Expectations, check, guidance
from formatbook_core.expectations import parse_expectations
from formatbook_core.results import ExpectationError
from formatbook_instructions import (
    Case,
    Contains,
    EndsWith,
    NotContains,
    OneOf,
    ParagraphStartsWith,
    Postscript,
    Quoted,
    StartsWith,
    Title,
    ifeval_registry,
)


def ok(instruction, text):
    return instruction.check(text) == []


@pytest.mark.parametrize(
    ("word", "text", "formatbook", "ifeval"),
    [
        ("data", "Big DATA matters", True, True),
        ("data", "a database", False, True),
        ("data", "nothing", False, False),
    ],
)
def test_contains(word, text, formatbook, ifeval):
    assert ok(Contains(word), text) is formatbook
    assert ok(Contains(word, "ifeval"), text) is ifeval


@pytest.mark.parametrize(
    ("word", "text", "formatbook", "ifeval"),
    [
        ("delve", "Let us DELVE in", False, False),
        ("delve", "delves deeper", True, True),
        (",", "a, b", False, True),  # IFEval's \b,\b needs word characters around the comma
        (",", "a,b", False, False),
    ],
)
def test_not_contains(word, text, formatbook, ifeval):
    assert ok(NotContains(word), text) is formatbook
    assert ok(NotContains(word, "ifeval"), text) is ifeval


def test_not_contains_lists_positions():
    (v,) = NotContains("very").check("very good\nand very, VERY nice")
    assert v.code == "instructions.not_contains"
    assert v.message == 'contains "very" 3 times (NOT CONTAINS): line 1 col 1, line 2 col 5, line 2 col 11'
    assert v.span == (0, 4)


@pytest.mark.parametrize(
    ("prefix", "text", "formatbook", "ifeval"),
    [
        ("Dear", "  Dear Ada", True, True),
        ("Dear", "dear Ada", False, True),
        ("Dear", "Hi Dear", False, False),
        ("Dear", "", False, False),
    ],
)
def test_starts_with(prefix, text, formatbook, ifeval):
    assert ok(StartsWith(prefix), text) is formatbook
    assert ok(StartsWith(prefix, "ifeval"), text) is ifeval


def test_starts_with_message():
    (v,) = StartsWith("Dear").check("Hello there")
    assert v.message == "starts with 'Hell' instead of 'Dear'"


@pytest.mark.parametrize(
    ("suffix", "text", "formatbook", "ifeval"),
    [
        ("Any other questions?", "Done. Any other questions?\n", True, True),
        ("Any other questions?", "Done. any other questions?", False, True),
        ("Any other questions?", '"Done. Any other questions?"', False, True),  # IFEval strips outer quotes
        ("Any other questions?", "Any other questions? Bye", False, False),
    ],
)
def test_ends_with(suffix, text, formatbook, ifeval):
    assert ok(EndsWith(suffix), text) is formatbook
    assert ok(EndsWith(suffix, "ifeval"), text) is ifeval


def test_ends_with_message_quotes_the_end():
    (v,) = EndsWith("Any other questions?").check("Here is the plan.\nThanks!")
    assert v.message == "ends with 'Thanks!' instead of 'Any other questions?'"
    assert v.code == "instructions.ends_with"


@pytest.mark.parametrize(
    ("case", "text", "formatbook", "ifeval"),
    [
        ("lower", "all lower, 123!", True, True),
        ("lower", "one Capital", False, False),
        ("lower", "123 !!", True, False),  # IFEval's islower() needs a cased letter
        ("upper", "ALL UPPER 1", True, True),
        ("upper", "STRASSE straße", False, False),
        ("lower", "ǅ titlecase", False, False),
    ],
)
def test_case(case, text, formatbook, ifeval):
    assert ok(Case(case), text) is formatbook
    assert ok(Case(case, "ifeval"), text) is ifeval


def test_case_message_lists_letters_with_positions():
    (v,) = Case("lower").check("Hello\nworld Again")
    assert v.message == "2 capital letters (CASE lower): line 1 col 1 'H', line 2 col 7 'A'"
    assert v.span == (0, 1)


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("My answer is yes.", True, True),
        ("  My answer is no.\n", True, True),
        ("Well, My answer is yes. Because...", False, True),
        ("My answer is yes", False, False),
    ],
)
def test_one_of(text, formatbook, ifeval):
    options = ["My answer is yes.", "My answer is no.", "My answer is maybe."]
    assert ok(OneOf(options), text) is formatbook
    assert ok(OneOf(options, "ifeval"), text) is ifeval


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("<<Poem of Joy>>\nRoses...", True, True),
        ("Intro <<a title>> more", True, True),
        ("<< >>", False, False),
        ("<<a\nb>>", False, False),
        ("<<<x>>>", True, True),  # the inner <<x>> (formatbook); IFEval: '<<<x>>>' stripped is 'x'
        ("no title", False, False),
    ],
)
def test_title(text, formatbook, ifeval):
    assert ok(Title(), text) is formatbook
    assert ok(Title("ifeval"), text) is ifeval


@pytest.mark.parametrize(
    ("marker", "text", "formatbook", "ifeval"),
    [
        ("P.S.", "Hi.\n\nP.S. see you", True, True),
        ("P.S.", "Hi.\n\n**P. S.** see you", True, True),
        ("P.S.", "Hi.\np.s. lower", True, True),
        ("P.S.", "Hi, as in p.s. mid-line", False, True),
        ("P.S.", "Hi.\nPS no dots", False, False),
        ("P.P.S", "x\nP.P.S. more", True, True),
        ("Note:", "x\nnote: y", True, True),
    ],
)
def test_postscript(marker, text, formatbook, ifeval):
    assert ok(Postscript(marker), text) is formatbook
    assert ok(Postscript(marker, "ifeval"), text) is ifeval


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ('"All of it"', True, True),
        ('  "All of it"\n', True, True),
        ("“Curly”", True, False),
        ('"', False, False),
        ('"open only', False, False),
    ],
)
def test_quoted(text, formatbook, ifeval):
    assert ok(Quoted(), text) is formatbook
    assert ok(Quoted("ifeval"), text) is ifeval


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("First.\n\nHowever, second.", True, True),
        ("First.\n\n**However** second.", True, False),  # IFEval's word is '**however**'
        ("First.\n  \nHowever second.", True, False),  # a blank line with spaces separates (not for IFEval)
        ("First.\n\nHowevers second.", False, False),
        ("Only one paragraph", False, False),
        ('First.\n\n"However," she said.', True, True),
    ],
)
def test_paragraph_starts_with(text, formatbook, ifeval):
    assert ok(ParagraphStartsWith(2, "However"), text) is formatbook
    assert ok(ParagraphStartsWith(2, "However", "ifeval"), text) is ifeval


def test_paragraph_message():
    (v,) = ParagraphStartsWith(2, "However").check("a\n\nMoreover, b")
    assert v.message == "paragraph 2 starts with 'Moreover,' instead of 'However'"
    (v,) = ParagraphStartsWith(3, "However").check("a\n\nb")
    assert "there are 2 paragraph(s)" in v.message


# --- lines, Python equivalents, errors -----------------------------------------------------

LINES = {
    'EXPECT CONTAINS "data"': Contains("data"),
    'EXPECT NOT CONTAINS "delve"': NotContains("delve"),
    'EXPECT STARTS WITH "Dear"': StartsWith("Dear"),
    'EXPECT ENDS WITH "Any other questions?"': EndsWith("Any other questions?"),
    "EXPECT CASE lower": Case("lower"),
    "expect case UPPER": Case("upper"),
    'EXPECT ONE OF "My answer is yes." | "My answer is no."': OneOf(["My answer is yes.", "My answer is no."]),
    "EXPECT TITLE": Title(),
    'EXPECT POSTSCRIPT "P.S."': Postscript("P.S."),
    "EXPECT POSTSCRIPT": Postscript("P.S."),
    "EXPECT QUOTED": Quoted(),
    'EXPECT PARAGRAPH 2 STARTS WITH "However"': ParagraphStartsWith(2, "However"),
    "- EXPECT ends with 'Thanks!'": EndsWith("Thanks!"),
}


@pytest.mark.parametrize("line", sorted(LINES))
def test_each_line_parses_to_its_python_equivalent(line):
    (instruction,) = parse_expectations(line).instructions
    assert instruction == LINES[line]
    # and the instruction says itself as a line that parses back to it
    assert parse_expectations("EXPECT " + instruction.describe()).instructions == [instruction]
    assert Expectations(instructions=[instruction.describe()]).instructions == [instruction]


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ('EXPECT ENDS WIHT "x"', "did you mean ENDS WITH?"),
        ('EXPECT NOT CONTAIN "x"', "did you mean NOT CONTAINS?"),
        ("EXPECT CASE lowr", "did you mean CASE lower?"),
        ("EXPECT CASE", "expected one quoted text"),
        ('EXPECT ONE OF "a" "b"', "options are separated by |"),
        ('EXPECT ONE OF "a" |', "expected quoted options separated by |"),
        ('EXPECT TITLE "x"', "TITLE takes nothing after it"),
        ('EXPECT PARAGRAPH two STARTS WITH "x"', 'expected e.g. EXPECT PARAGRAPH 2 STARTS WITH "However"'),
        ('EXPECT PARAGRAPH 0 STARTS WITH "x"', "a number ≥ 1"),
        # "²".isdigit() holds: int() raised and the message named a ValueError
        ('EXPECT PARAGRAPH ² STARTS WITH "x"', 'expected e.g. EXPECT PARAGRAPH 2 STARTS WITH "However"'),
        ('EXPECT STARTS WITH "a" "b"', "expected one quoted text"),
        ('EXPECT STARTS WITH "  "', "STARTS WITH needs a text"),
        ("EXPECT MAX 0 ,", 'a literal is written in quotes: MAX 0 ","'),
        ('EXPECT MAX 0 ""', 'needs a quoted literal: e.g. EXPECT MAX 0 ","'),
        ("EXPECT EXACTLY 2 PARAGRAPHS SEPARATED BY", "needs a separator"),
        ("EXPECT MAX 3 BULETS", "did you mean BULLETS?"),
        ('EXPECT MAX 3 BULLETS "x"', 'only IN "scope" and per=value'),
        ('EXPECT ENDS WITH "x', "No closing quotation"),
    ],
)
def test_malformed_lines_name_the_nearest_valid_form(line, fragment):
    with pytest.raises(ExpectationError) as info:
        parse_expectations(line)
    assert fragment in str(info.value)
    assert "Error" not in str(info.value)  # no internal exception's name in the message


def test_an_instruction_that_is_no_instruction_is_rejected():
    with pytest.raises(ExpectationError, match="an instruction is EXPECT text or an object"):
        Expectations(instructions=[42])
    with pytest.raises(ExpectationError, match="names no registered expectation kind"):
        Expectations(instructions=["ENDZ WITH 'x'"])


def test_check_reports_each_failed_instruction():
    exp = 'EXPECT CASE lower\nEXPECT ENDS WITH "bye"\nEXPECT MAX 0 ","\nEXPECT TITLE'
    result = check("<<t>>\nhello, world\nbye", exp)
    assert not result.ok
    assert [v.code for v in result.violations] == ["count.max"]
    assert result.violations[0].message == '1 "," exceeds the maximum of 0: line 2 col 6'
    assert result.violations[0].span == (11, 12)
    assert check("<<t>>\nhello world\nbye", exp).ok


def test_spans_are_offsets_into_the_reply_after_a_think_block():
    reply = "<think>Plan, plan</think>\nhello World"
    result = check(reply, 'EXPECT CASE lower\nEXPECT MAX 0 ","')
    (v,) = result.violations  # the think block's comma and capital are set aside
    assert v.code == "instructions.case"
    assert reply[v.span.start : v.span.end] == "W"


def test_kinds_judge_the_located_payload_with_a_format():
    reply = 'Here it is:\n```json\n{"a": 1}\n```\nAny other questions?'
    assert check(reply, 'EXPECT JSON\nEXPECT STARTS WITH "{"').ok
    result = check(reply, 'EXPECT JSON\nEXPECT ENDS WITH "Any other questions?"')
    assert [v.code for v in result.violations] == ["instructions.ends_with"]


@pytest.mark.parametrize(
    ("reply", "line", "ok", "code"),
    [
        # a regression: escapes hid what the value holds ('A', 'delve'), ok=True with wrong data
        ('{"a": "\\u0041 b"}', "EXPECT CASE lower", False, "instructions.case"),
        ('{"a": "d\\u0065lve"}', 'EXPECT NOT CONTAINS "delve"', False, "instructions.not_contains"),
        ("<p>d&#101;lve</p>", 'EXPECT NOT CONTAINS "delve"', False, "instructions.not_contains"),
        ('{"a": "d\\u0065lve"}', 'EXPECT CONTAINS "delve"', True, None),
        ('{"\\u0041": "b"}', "EXPECT CASE lower", False, "instructions.case"),  # a key too
        # what the text already shows is judged as before
        ('{"a": "hello"}', "EXPECT CASE lower", True, None),
        ('{"A": "hello"}', "EXPECT CASE lower", False, "instructions.case"),
        ('{"a": "hello"}', 'EXPECT NOT CONTAINS "delve"', True, None),
    ],
)
def test_escaped_values_are_judged_as_decoded(reply, line, ok, code):
    fmt = "HTML" if reply.startswith("<") else "JSON"
    result = check(reply, f"EXPECT {fmt}\n{line}")
    assert result.ok is ok, result.violations
    assert [v.code for v in result.violations] == ([code] if code else [])
    if code and "\\u" in reply:
        assert "decoded values" in result.violations[0].message


def test_ifeval_registry_selects_ifeval_definitions():
    registry = ifeval_registry()
    exp = parse_expectations('EXPECT MIN 2 "data"\nEXPECT ONE OF "yes" | "no"', registry=registry)
    reply = "databases and data: yes"
    assert check(reply, exp).ok
    assert not check(reply, 'EXPECT MIN 2 "data"\nEXPECT ONE OF "yes" | "no"').ok


def test_guidance_says_each_instruction():
    text = guidance('EXPECT CASE lower\nEXPECT MAX 0 ","\nEXPECT EXACTLY 3 BULLETS\nEXPECT QUOTED')
    assert "lowercase letters" in text
    assert 'Do not use ","' in text
    assert "exactly 3 bullets (Markdown bullet points: lines starting with '* ')" in text
    assert "double quotation marks" in text
