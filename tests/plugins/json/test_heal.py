"""Healing the JSON an LLM really writes: each case of ``fixtures/heal.jsonl`` is a reply
written by hand, with the exact value a reader intended and the repair kinds that must be
listed; ``fixtures/heal_errors.jsonl`` holds replies that cannot be healed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formatbook_core import HealError
from formatbook_json import JsonFormat

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
