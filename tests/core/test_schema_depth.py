"""A deep value validates the same whatever the caller's stack depth.

jsonschema-rs and jsonschema both stop at Python's recursion limit, which counts the
caller's frames: check() called from a deep stack listed ``schema.invalid: Recursion limit
reached`` where a StreamGuard's finish() listed ``schema.type`` for the same reply (fuzz
seed 507, tests/fuzz/repros/json-guard_agrees-b2515e4daa.json)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from formatbook_core import Expectations, check
from formatbook_core.data_schema.loading import JsonSchema

SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}}
#: a list where an object is asked for, 300 levels deep (the repro's shape: the message
#: quotes the value, and writing it recurses too)
DEEP = '[{"":' * 150 + "1" + "}]" * 150


def _from_depth(frames: int, fn: Any, *args: Any) -> Any:
    return _from_depth(frames - 1, fn, *args) if frames else fn(*args)


@pytest.mark.parametrize("frames", [0, 300, 700])
def test_check_lists_the_same_violation_from_any_stack_depth(frames: int) -> None:
    result = _from_depth(frames, check, DEEP, Expectations(format="json", schema=SCHEMA))
    assert not result.ok
    assert result.violations[0].code == "schema.type"
    assert result.violations[0].expected == "object"


@pytest.mark.parametrize("frames", [0, 700])
def test_a_deep_valid_value_is_valid_from_any_stack_depth(frames: int) -> None:
    value: Any = "x"
    for _ in range(150):
        value = [value]
    schema = JsonSchema({"type": "array"})
    assert _from_depth(frames, schema.is_valid, value) is True
    assert _from_depth(frames, schema.violations, value) == ()


def test_a_deep_invalid_value_is_never_valid_from_a_deep_stack() -> None:
    value: Any = 1
    for _ in range(150):
        value = {"a": value}
    schema = JsonSchema(
        {"$defs": {"n": {"type": "object", "additionalProperties": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}
    )
    assert _from_depth(700, schema.is_valid, value) is False
    assert _from_depth(0, schema.is_valid, value) is False


class _Counting:
    """A validator that counts the times it is asked whether a value is valid."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.asked = 0

    def is_valid(self, value: Any) -> bool:
        self.asked += 1
        return bool(self.inner.is_valid(value))

    def iter_errors(self, value: Any) -> Any:
        return self.inner.iter_errors(value)


@pytest.mark.parametrize("frames", [0, 700])
def test_an_invalid_value_is_asked_about_once(frames: int) -> None:
    # jsonschema-rs says "invalid" once; the listing then runs (on a fresh thread: the
    # Python listing of DEEP reaches the recursion limit) without asking it again. It was
    # asked three times: before listing, and again on the fresh thread.
    schema = JsonSchema(SCHEMA)
    schema.prepare()
    counting = schema._fast = _Counting(schema._fast)
    violations = _from_depth(frames, schema.violations, json.loads(DEEP))
    assert violations[0].code == "schema.type"
    assert violations[0].expected == "object"
    assert counting.asked == 1
