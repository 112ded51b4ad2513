"""Healing the JSON an LLM really writes: each case is a reply written by hand, with the
exact value a reader intended and the repair kinds that must be listed."""

from __future__ import annotations

import json

import pytest

from formatbook_core import HealError
from formatbook_json import JsonFormat

FMT = JsonFormat()


def healed(text: str, schema=None):
    h = FMT.heal(text, schema)
    return json.loads(h.text), [r.kind for r in h.repairs], h


CASES = [
    (
        "trailing commas",
        '{\n  "city": "Lyon",\n  "sights": ["Fourvière", "Vieux Lyon",],\n}',
        {"city": "Lyon", "sights": ["Fourvière", "Vieux Lyon"]},
        ["trailing_comma", "trailing_comma"],
    ),
    (
        "single quotes with an apostrophe escaped",
        "{'answer': 'It\\'s 42', 'unit': 'none'}",
        {"answer": "It's 42", "unit": "none"},
        ["single_quotes"] * 4,
    ),
    (
        "single quotes with an apostrophe left bare",
        "{'note': 'Don't panic'}",
        {"note": "Don't panic"},
        ["single_quotes", "single_quotes"],
    ),
    (
        "smart quotes",
        "{\u201ctitle\u201d: \u201cThe Hobbit\u201d, \u201cyear\u201d: 1937}",
        {"title": "The Hobbit", "year": 1937},
        ["smart_quotes", "smart_quotes", "smart_quotes"],
    ),
    (
        "unquoted keys",
        '{name: "Ada Lovelace", born: 1815, field_of_work: "mathematics"}',
        {"name": "Ada Lovelace", "born": 1815, "field_of_work": "mathematics"},
        ["unquoted_key"] * 3,
    ),
    (
        "Python literals",
        '{"valid": True, "errors": None, "retry": False}',
        {"valid": True, "errors": None, "retry": False},
        ["python_literal"] * 3,
    ),
    (
        "line and block comments",
        '{\n  // the user asked for metric units\n  "temp": 21.5, /* celsius */\n  "wind": 12\n}',
        {"temp": 21.5, "wind": 12},
        ["comment", "comment"],
    ),
    (
        "raw newline and tab inside a string",
        '{"poem": "Roses are red,\nviolets are blue\tand so on"}',
        {"poem": "Roses are red,\nviolets are blue\tand so on"},
        ["control_character"],
    ),
    (
        "unescaped inner quotes",
        '{"quote": "He said "hi" to me", "speaker": "Tom"}',
        {"quote": 'He said "hi" to me', "speaker": "Tom"},
        ["inner_quote"],
    ),
    (
        "inner quotes closing the string",
        '{"title": "The word "hello""}',
        {"title": 'The word "hello"'},
        ["inner_quote"],
    ),
    (
        "missing closing brackets",
        '{"tasks": [{"id": 1, "done": false}, {"id": 2, "done": true}',
        {"tasks": [{"id": 1, "done": False}, {"id": 2, "done": True}]},
        ["missing_bracket"],
    ),
    (
        "a closer of the wrong kind in the middle",
        '{"a": [1, 2}, "b": 3}',
        {"a": [1, 2], "b": 3},
        ["wrong_bracket"],
    ),
    (
        "a closer missing in the middle",
        '{"a": {"b": [1, 2}, "c": 3}',
        {"a": {"b": [1, 2]}, "c": 3},
        ["missing_bracket"],
    ),
    (
        "surplus closing brackets",
        '{"status": "ok", "count": 3}}]',
        {"status": "ok", "count": 3},
        ["surplus_bracket", "surplus_bracket"],
    ),
    (
        "NaN and Infinity",
        '{"mean": NaN, "max": Infinity, "min": -Infinity, "n": 0}',
        {"mean": None, "max": None, "min": None, "n": 0},
        ["non_finite_number"] * 3,
    ),
    (
        "missing commas between members and elements",
        '{\n  "first": "Grace"\n  "last": "Hopper"\n  "langs": ["COBOL" "FLOW-MATIC"]\n}',
        {"first": "Grace", "last": "Hopper", "langs": ["COBOL", "FLOW-MATIC"]},
        ["missing_comma"] * 3,
    ),
    (
        "truncated inside a string keeps its trailing spaces",
        '{"summary": "The meeting covered budget and ',
        {"summary": "The meeting covered budget and "},
        ["truncated_string", "missing_bracket"],
    ),
    (
        "truncated after a key: the member is dropped",
        '{"name": "Widget", "price": 9.99, "description":',
        {"name": "Widget", "price": 9.99},
        ["dropped_member", "missing_bracket"],
    ),
    (
        "truncated after a key and a space",
        '{"items": [{"id": 1, "label": "one"}, {"id": 2, "label": ',
        {"items": [{"id": 1, "label": "one"}, {"id": 2}]},
        ["dropped_member", "missing_bracket"],
    ),
    (
        "truncated inside a key",
        '{"id": 7, "lab',
        {"id": 7},
        ["dropped_member", "missing_bracket"],
    ),
    (
        "truncated after a comma",
        '["alpha", "beta",',
        ["alpha", "beta"],
        ["trailing_comma", "missing_bracket"],
    ),
    (
        "truncated inside a literal",
        '{"ok": tr',
        {"ok": True},
        ["truncated_literal", "missing_bracket"],
    ),
    (
        "escaped surrogate pair survives a repair",
        '{"reaction": "\\ud83d\\ude80", "score": 5,}',
        {"reaction": "\U0001f680", "score": 5},
        ["trailing_comma"],
    ),
    (
        "numbers in JavaScript notation",
        '{"ratio": .5, "delta": +3, "whole": 2.}',
        {"ratio": 0.5, "delta": 3, "whole": 2.0},
        ["number_format"] * 3,
    ),
    (
        "several problems at once",
        "{\n  'user': 'sam', // who asked\n  tags: ['a', 'b',],\n  active: True,\n",
        {"user": "sam", "tags": ["a", "b"], "active": True},
        None,
    ),
]


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


@pytest.mark.parametrize(
    "text,where",
    [
        ("", 0),
        ("   \n", 0),
        ("Sorry, I cannot help with that.", 0),
        ('{"a": tru3}', 6),
        ('{"a": 1, "b": @}', 14),
        ('{"a": }', 6),
        ('{"a" "b", "c"}', None),
    ],
)
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
