"""The violation listing of a JSON Schema within a bound decided before it runs (issue 30,
held out: nested ``anyOf``).

A recursive schema whose branches apply the same subschema to the same value (an
expression tree: ``anyOf`` of ``+`` and ``*`` nodes with ``args`` of expressions) doubled
the listing's work at each level of the value: 283 characters, 14 levels deep with a wrong
leaf, took 38 s to check (jsonschema-rs's own listing is as exponential, and a value too
deep for the Python listing was handed to it). ``[1.5, 1.5, ...]`` under a nested
``anyOf`` was quadratic (the schema-aware repairs compared each place with every refused
place) and held 5.9 KB a character (every error's context, freed only by the cyclic
collector, which a heal pauses). Work is counted (``count_steps``), never timed."""

from __future__ import annotations

import gc
import json
from typing import Any

import pytest
from jsonschema.exceptions import best_match, relevance

from formatbook_core import Expectations, check
from formatbook_core.data_schema import listing
from formatbook_core.data_schema.loading import JsonSchema, _violation
from formatbook_core.fuzzing.pathological import count_steps

#: an expression: a '+' or a '*' node with arguments, or an integer
TREE = {
    "$defs": {
        "e": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"args": {"type": "array", "items": {"$ref": "#/$defs/e"}}, "op": {"const": "+"}},
                },
                {
                    "type": "object",
                    "properties": {"args": {"type": "array", "items": {"$ref": "#/$defs/e"}}, "op": {"const": "*"}},
                },
                {"type": "integer"},
            ]
        }
    },
    "$ref": "#/$defs/e",
}
#: arrays of arrays, as one branch or the other (both apply to every array)
BOTH = {
    "oneOf": [
        {"type": "array", "items": {"$ref": "#"}},
        {"type": "array", "items": {"$ref": "#"}, "maxItems": 5},
        {"type": "integer"},
    ]
}


def _tree(depth: int, leaf: str = "1.5") -> str:
    return '{"op":"*","args":[' * depth + leaf + "]}" * depth


def _nested(depth: int) -> Any:
    if depth == 0:
        return {"type": "integer"}
    inner = _nested(depth - 1)
    return {"anyOf": [inner, {"type": "string", "maxLength": 2}, {"type": "object", "properties": {"k": inner}}]}


@pytest.mark.parametrize(
    ("schema", "reply"),
    [
        (TREE, _tree(14)),
        (TREE, '{"args":[' * 14 + "1.5" + '], "op":"*"}' * 14),  # the arguments before the operator
        (BOTH, "[" * 14 + "1.5" + "]" * 14),
        (
            {"$defs": TREE["$defs"], "type": "array", "items": {"$ref": "#/$defs/e"}},
            json.dumps([json.loads(_tree(9))] * 4),
        ),
    ],
)
def test_a_listing_that_doubles_at_each_level_is_bounded(schema: Any, reply: str) -> None:
    exp = Expectations(format="json", schema=schema)
    check(reply[:40], exp)  # lazy imports, the compiled schema
    steps = count_steps(check, reply, exp, budget=30_000_000)  # before: OverBudget (2**14 paths and more)
    assert steps < 30_000_000
    result = check(reply, exp)
    assert not result.ok  # the verdict is jsonschema-rs's: 1.5 is no integer, 6 items too many...
    assert result.violations


def test_a_cut_listing_says_so() -> None:
    result = check(_tree(14), Expectations(format="json", schema=TREE))
    assert not result.ok
    last = result.violations[-1]
    assert last.code == "schema.invalid" and "not all listed" in last.message


def test_a_value_too_deep_for_the_python_listing_is_not_handed_to_jsonschema_rs() -> None:
    # 400 levels: the Python listing reaches the recursion limit; jsonschema-rs's listing
    # of a schema whose branches fan out cannot be stopped: the verdict stands, told once
    exp = Expectations(format="json", schema=TREE)
    check(_tree(3), exp)
    steps = count_steps(check, _tree(400), exp, budget=60_000_000)
    assert steps < 60_000_000
    result = check(_tree(400), exp)
    assert not result.ok and [v.code for v in result.violations] == ["schema.invalid"]
    assert check(_tree(400, "1"), exp).ok


def test_a_deep_value_of_a_schema_that_does_not_fan_out_is_still_listed_by_jsonschema_rs() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "#"}, "n": {"type": "integer"}}}
    value: Any = {"n": "x"}
    for _ in range(300):
        value = {"a": value}
    result = check(json.dumps(value), Expectations(format="json", schema=schema))
    assert [v.code for v in result.violations] == ["schema.type"]
    assert listing.fans_out([schema]) is False
    assert listing.fans_out([TREE]) is True


def test_many_errors_under_a_nested_any_of_cost_linear_work() -> None:
    exp = Expectations(format="json", schema={"type": "array", "items": _nested(2)})
    check("[1.5]", exp)
    small = count_steps(check, json.dumps([1.5] * 200), exp)
    large = count_steps(check, json.dumps([1.5] * 1_600), exp, budget=20 * small)
    assert large < 12 * small, (small, large)


def test_a_listing_lets_the_contexts_go_without_the_cyclic_collector() -> None:
    schema = JsonSchema({"type": "array", "items": _nested(2)})
    schema.prepare()
    schema.violations([1.5])
    gc.collect()
    gc.disable()
    try:
        violations = schema.violations([1.5] * 200)
        left = gc.collect()
    finally:
        gc.enable()
    assert len(violations) == 201  # the best match, inside the first item's context, then each item
    assert left < 500, left  # before: 8,800 objects (1,400 errors) waited for the collector


def _best_match_order(errors: list[Any]) -> list[Any]:
    """What the listing ordered before: jsonschema's best_match, then the rest by relevance."""
    best = best_match(errors)
    return [best] + sorted((e for e in errors if e is not best), key=relevance, reverse=True)


ORDERS = [
    ({"type": "array", "items": _nested(2)}, [1.5, "long", {"k": 1.5}, 3, {"k": "x"}]),
    (
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"anyOf": [{"type": "string"}, {"minimum": 3}]}},
            "required": ["c", "d"],
        },
        {"a": "x", "b": 1},
    ),
    ({"type": "array", "items": {"type": "integer"}, "minItems": 9, "uniqueItems": True}, [1, "a", 1, 2.5, None]),
    (
        {"oneOf": [{"type": "object", "properties": {"k": {"const": i}}, "required": ["k", "v"]} for i in range(3)]},
        {"k": 7},
    ),
    ({"allOf": [{"type": "object"}, {"required": ["a"]}, {"properties": {"b": {"type": "string"}}}]}, {"b": 1}),
    (TREE, json.loads(_tree(4))),
]


@pytest.mark.parametrize(("schema", "value"), ORDERS)
def test_the_violations_come_in_the_order_best_match_gave(schema: Any, value: Any) -> None:
    loaded = JsonSchema(schema)
    loaded.prepare()
    errors = list(loaded._python().iter_errors(value))
    expected = [_violation(e) for e in _best_match_order(errors)]
    assert list(loaded.violations(value)) == expected
