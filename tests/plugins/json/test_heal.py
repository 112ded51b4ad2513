"""Healing the JSON an LLM really writes: each case of ``fixtures/heal.jsonl`` is a reply
written by hand, with the exact value a reader intended and the repair kinds that must be
listed; ``fixtures/heal_errors.jsonl`` holds replies that cannot be healed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formatbook_core import HealError, heal
from formatbook_json import JsonFormat
from formatbook_json.heal import heal as heal_payload
from formatbook_json.syntax import is_valid_json

FMT = JsonFormat()


def healed(text: str, schema=None):
    h = FMT.heal(text, schema)
    return json.loads(h.text), [r.kind for r in h.repairs], h


FIXTURES = Path(__file__).parent / "fixtures"


def fixture_rows(name: str) -> list[dict]:
    """One case per line of ``fixtures/<name>`` (JSON Lines, so that every reply is kept
    exactly: trailing spaces, tabs, raw newlines, escapes)."""
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


# reply -> the value a reader intended and the repair kinds listed (null: not compared)
CASES = [(c["name"], c["reply"], c["value"], c["repairs"]) for c in fixture_rows("heal.jsonl")]
# reply -> where the first violation of the HealError points (null: not compared)
UNREPAIRABLE = [(c["reply"], c["at"]) for c in fixture_rows("heal_errors.jsonl")]


@pytest.mark.parametrize("name,text,value,kinds", CASES, ids=[c[0] for c in CASES])
def test_heal_cases(name, text, value, kinds):
    got, got_kinds, h = healed(text)
    assert got == value
    if kinds is not None:
        assert sorted(got_kinds) == sorted(kinds)
    for r in h.repairs:  # every repair says where, inside the payload
        assert r.span is not None and 0 <= r.span.start <= r.span.end <= len(text)
    again = FMT.heal(h.text)
    assert again.repairs == () and again.text == h.text


def test_surrogate_pair_is_one_character():
    got, _, _ = healed("['\\ud83d\\ude80']")
    assert got == ["\U0001f680"] and len(got[0]) == 1


def test_json_repair_breaks_the_surrogate_pair_we_keep():
    # the reason for the test above: json_repair returns two lone surrogates here
    json_repair = pytest.importorskip("json_repair")
    theirs = json_repair.loads("['\\ud83d\\ude80']")
    assert theirs != ["\U0001f680"]


def test_lone_surrogate_is_replaced_and_listed():
    got, kinds, _ = healed('{"x": "\\ud800 alone",}')
    assert got == {"x": "\ufffd alone"}
    assert "lone_surrogate" in kinds


def test_layout_is_kept():
    text = '{\n  "a": 1,\n  "b": [1, 2,],\n}'
    assert FMT.heal(text).text == '{\n  "a": 1,\n  "b": [1, 2]\n}'


def test_repair_spans_point_at_the_problem():
    text = '{"a": 1, "b": True}'
    (r,) = FMT.heal(text).repairs
    assert r.kind == "python_literal" and text[r.span.start : r.span.end] == "True"
    text = '{"a": [1, 2,]}'
    (r,) = FMT.heal(text).repairs
    assert text[r.span.start : r.span.end] == ","


def test_valid_input_unchanged():
    text = '{"a": [1, 2.50, "x"], "b": {"c": null}}'
    h = FMT.heal(text)
    assert h.text == text and h.repairs == ()


def test_trailing_prose_is_set_aside():
    h = FMT.heal('{"a": 1} Let me know if you need more!')
    assert json.loads(h.text) == {"a": 1}
    assert [s.kind for s in h.set_aside] == ["trailing_data"]
    assert h.set_aside[0].text == "Let me know if you need more!"


@pytest.mark.parametrize("text,where", UNREPAIRABLE)
def test_unrepairable(text, where):
    with pytest.raises(HealError) as info:
        FMT.heal(text)
    err = info.value
    assert err.violations, "a HealError says why"
    if where is not None:
        assert err.violations[0].span is not None and err.violations[0].span.start == where


def test_never_turns_a_cut_member_into_empty_string():
    got, _, _ = healed('{"title": "Report", "body":')
    assert "body" not in got


def test_the_flag_spans_the_number_in_the_payload():
    """User finding (was test_user_findings.py): a number the reply was cut off after."""
    healed = heal('{"age": 36', "EXPECT JSON")
    flagged = [r for r in healed.repairs if r.kind == "truncated_number"]
    assert [(r.span.start, r.span.end) for r in flagged] == [(8, 10)]


def test_a_healed_cut_number_heals_to_itself():
    """User finding (was test_user_findings.py): a number the reply was cut off after."""
    once = heal('{"name": "Ada", "age": 3', "EXPECT JSON")
    twice = heal(once.text, "EXPECT JSON")
    assert twice.text == once.text
    assert list(twice.repairs) == []


@pytest.mark.parametrize(
    ("payload", "healed"),
    [('{a"" ]', '{"a":""}'), ('{"a": 1} ]', '{"a": 1}'), ('{"a": 1 // note', '{"a": 1}'), ("[1, 2 ]]\n", "[1, 2 ]")],
)
def test_a_repaired_text_ends_with_its_value(payload, healed):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): heal is idempotent, white space
    included (json-heal_idempotent-a823484d91).
    """
    assert heal_payload(payload).text == healed


@pytest.mark.parametrize(
    ("payload", "healed"),
    [('] {"a": 1}', '{"a": 1}'), ("// note\n{a: 1}", '{"a": 1}'), ("  ] // x\n {a:1}", '{"a":1}')],
)
def test_a_repaired_text_starts_with_its_value(payload, healed):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): heal is idempotent, white space
    included (json-heal_idempotent-a823484d91).
    """
    assert heal_payload(payload).text == healed


def test_heal_reads_the_payload_without_the_unicode_white_space_around_it():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): found by the 5-minute run."""
    # json-contract-92a05fd9c1: valid JSON orjson cannot represent, after a no-break space
    assert heal_payload("\xa0[1e999]").text == "\xa0[1e999]"
    assert heal_payload("\xa0[1e999]").repairs == ()
    healed = heal_payload("\xa0{a:1,}\u3000")
    assert healed.text == '{"a":1}'
    # spans index the text given, white space included: "a" at 2, the comma at 5
    assert [(r.kind, r.span) for r in healed.repairs] == [("unquoted_key", (2, 3)), ("trailing_comma", (5, 6))]


def test_heal_leaves_valid_json_orjson_cannot_read_unchanged():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): found by the 5-minute run."""
    # json-contract-9fbd9bc56b: a raw lone surrogate (orjson refuses it, the exact path
    # takes it) followed by white space around the document (a vertical tab then; it is
    # a control character, no longer white space: U+3000 instead)
    text = '"\ud800"\u3000'
    assert is_valid_json(text)
    assert not is_valid_json('"\ud800"\x0b')
    healed = heal_payload(text)
    assert (healed.text, healed.repairs) == (text, ())


@pytest.mark.parametrize(
    ("reply", "healed"),
    [
        # the tag opens a think block to the end of the reply, so the container read with
        # think blocks blanked out never closes: the trailing line break was kept once
        ('a{"x": "<think>"}\n', '{"x": "<think>"}'),
        ('a{"": {"<reasoning>": ""}, "b": 2}\n  ', '{"": {"<reasoning>": ""}, "b": 2}'),
        # inside a fence, the fence line cuts it instead of the reply's end (fuzz seed
        # 314159, json-heal_idempotent-97c3e8c45a)
        ('~~~\na{"":"<think>"}\n\n~~~', '{"":"<think>"}'),
    ],
)
def test_an_open_container_holding_strict_json_keeps_no_trailing_blanks(reply, healed):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a think tag inside a string
    leaves no blanks in the payload (json-heal_idempotent-6e49115749).
    """
    first = heal(reply, "EXPECT JSON")
    assert first.text == healed
    again = heal(first.text, "EXPECT JSON")
    assert (again.text, again.repairs) == (healed, ())


def test_a_cut_string_still_keeps_its_trailing_blanks():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a think tag inside a string
    leaves no blanks in the payload (json-heal_idempotent-6e49115749).
    """
    # not strict JSON without them: the reply was cut inside the string
    assert heal('a{"x": "y \n', "EXPECT JSON").text == '{"x": "y \\n"}'
