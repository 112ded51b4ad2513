"""The incremental JSON Schema checker (formatbook_core.data_schema.prefix): sound on
every prefix of every value the schema accepts, in every chunking, and quick to refuse
the doomed classes of issue 26."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core.data_schema import load_schema
from formatbook_core.data_schema.prefix import PrefixChecker
from tests.core.jsonschema_instances import from_schema


def drive(checker: PrefixChecker, value: Any, size: int) -> list[bool]:
    """Feed ``value`` as events, strings, keys and numbers in pieces of ``size``
    characters; the ``alive`` answer after every event."""
    seen: list[bool] = []

    def pieces(text: str) -> list[str]:
        return [text[i : i + size] for i in range(0, len(text), size)] or []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            seen.append(checker.start_object())
            for k, item in v.items():
                checker.start_key()
                for p in pieces(k):
                    seen.append(checker.key(p))
                seen.append(checker.end_key())
                walk(item)
            seen.append(checker.end_object())
        elif isinstance(v, list):
            seen.append(checker.start_array())
            for item in v:
                walk(item)
            seen.append(checker.end_array())
        elif isinstance(v, str):
            seen.append(checker.start_string())
            for p in pieces(v):
                seen.append(checker.string(p))
            seen.append(checker.end_string())
        elif v is None or isinstance(v, bool):
            seen.append(checker.literal(json.dumps(v)))
        else:
            for p in pieces(json.dumps(v)):
                seen.append(checker.number(p))
            seen.append(checker.end_number())

    walk(value)
    return seen


SCHEMAS: list[dict[str, Any]] = [
    {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 8},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "kind": {"enum": ["cat", "dog", "cattle"]},
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "maxItems": 3},
        },
        "required": ["name", "kind"],
        "additionalProperties": False,
    },
    {"type": ["string", "null", "integer"], "maxLength": 3, "multipleOf": 3},
    {"anyOf": [{"type": "string", "const": "auto"}, {"type": "integer", "exclusiveMinimum": 2}]},
    {"oneOf": [{"type": "object", "required": ["a"]}, {"type": "object", "required": ["b"]}]},
    {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                "required": ["v"],
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/node",
    },
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "items": [{"type": "boolean"}, {"type": "number"}],
        "additionalItems": False,
        "minItems": 1,
    },
    {
        "type": "object",
        "patternProperties": {"^x-": {"type": "integer"}},
        "additionalProperties": {"type": "string"},
        "propertyNames": {"maxLength": 4},
    },
    {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"required": ["a"], "maxProperties": 2}]},
    {
        "type": "object",
        "properties": {
            "n": {"type": "number", "minimum": -1.5, "exclusiveMaximum": 10},
            "e": {"enum": [1, "one", None, True, [1]]},
        },
    },
]


RECURSIVE = SCHEMAS[4]  # hypothesis-jsonschema cannot draw recursive schemas' instances
DRAWN = [s for s in SCHEMAS if s is not RECURSIVE]


def _checker_valid(schema: dict[str, Any]) -> Any:
    js = load_schema(schema)
    return lambda v: not js.violations(v)


@pytest.mark.parametrize("schema", DRAWN, ids=range(len(DRAWN)))
@settings(max_examples=60, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_never_refuses_a_valid_value(schema: dict[str, Any], data: Any) -> None:
    value = data.draw(from_schema(schema))
    for size in (1, 2, 3, 4, 64):
        for lenient in (False, True):
            checker = PrefixChecker(schema, lenient=lenient)
            assert all(drive(checker, value, size)), (value, size, checker.reason)
            assert checker.complete


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-200, 200) | st.floats(-1e3, 1e3, allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["name", "age", "kind", "tags", "a", "b", "v", "kids", "x-1", "n", "e", "zzzzz"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
@settings(max_examples=150, suppress_health_check=list(HealthCheck))
@given(value=_JSON)
def test_refuses_only_invalid_values(schema: dict[str, Any], value: Any) -> None:
    """Soundness on any value: a refusal anywhere means the validator refuses it too."""
    assert_refused_only_if_invalid(schema, value)


def assert_refused_only_if_invalid(schema: dict[str, Any], value: Any) -> None:
    """Driven in pieces of 1 and 3 characters, ``value`` is refused only if invalid."""
    valid = _checker_valid(schema)(value)
    for size in (1, 3):
        checker = PrefixChecker(schema)
        answers = drive(checker, value, size)
        if valid:
            assert all(answers), (value, checker.reason)


@st.composite
def _schemas(draw: Any) -> dict[str, Any]:
    """Small generated schemas: a typed leaf, an object over leaves, an array of them,
    or a union."""
    leaf = st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "number", "boolean", "null"])}),
        st.fixed_dictionaries(
            {"type": st.just("string"), "maxLength": st.integers(0, 5), "minLength": st.integers(0, 3)}
        ),
        st.fixed_dictionaries(
            {"enum": st.lists(st.text(max_size=4) | st.integers(-3, 3), min_size=1, max_size=4, unique=True)}
        ),
        st.fixed_dictionaries(
            {"type": st.just("integer"), "minimum": st.integers(-5, 5), "maximum": st.integers(5, 20)}
        ),
    )
    obj = st.fixed_dictionaries(
        {
            "type": st.just("object"),
            "properties": st.dictionaries(st.sampled_from(["a", "ab", "b", "c_d"]), leaf, max_size=3),
            "additionalProperties": st.booleans(),
        }
    )
    arr = st.fixed_dictionaries(
        {"type": st.just("array"), "items": leaf, "maxItems": st.integers(0, 4), "minItems": st.integers(0, 2)}
    )
    union = st.builds(lambda a, b: {"anyOf": [a, b]}, leaf | obj, leaf | arr)
    return draw(st.one_of(leaf, obj, arr, union))


@settings(max_examples=120, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_generated_schemas_never_refuse_their_instances(data: Any) -> None:
    schema = data.draw(_schemas())
    try:
        value = data.draw(from_schema(schema))
    except Exception:  # an unsatisfiable generated schema (minItems > maxItems ...)
        return
    for size in (1, 4):
        for lenient in (False, True):
            checker = PrefixChecker(schema, lenient=lenient)
            assert all(drive(checker, value, size)), (schema, value, checker.reason)


def test_copy_is_independent() -> None:
    schema = SCHEMAS[0]
    checker = PrefixChecker(schema)
    checker.start_object()
    checker.start_key()
    checker.key("name")
    checker.end_key()
    checker.start_string()
    clone = checker.copy()
    assert not clone.string("far too long")
    assert checker.string("Bob") and checker.end_string()
    assert checker.alive and not clone.alive


def test_branches_past_the_cap_are_left_to_the_end() -> None:
    """Nested unions multiply their alternatives: past the cap the value is not judged
    (still alive), and the state stays bounded."""
    branch = {"anyOf": [{"type": "string", "maxLength": i} for i in range(1, 9)]}
    schema = {"allOf": [branch, branch, branch]}  # 512 alternatives
    checker = PrefixChecker(schema)
    checker.start_string()
    assert checker.string("x" * 50) and checker.end_string()


def test_recursive_schema() -> None:
    tree = {"v": 1, "kids": [{"v": 2, "kids": []}, {"v": 3, "kids": [{"v": 4}]}]}
    for size in (1, 2, 5):
        assert all(drive(PrefixChecker(RECURSIVE), tree, size))
    checker = PrefixChecker(RECURSIVE)
    assert not all(drive(checker, {"v": 1, "kids": [{"v": 2, "kids": [{"w": 1}]}]}, 1))
    assert checker.pointer == "/kids/0/kids/0/w" and checker.keyword == "additionalProperties"


@pytest.mark.parametrize(
    ("schema", "value", "keyword", "pointer"),
    [
        (SCHEMAS[6], {"toolong": "s"}, "propertyNames", "/toolo"),  # maxLength 4: the fifth character
        (SCHEMAS[6], {"x-a": "s"}, "type", "/x-a"),
        (SCHEMAS[6], {"ab": 1}, "type", "/ab"),  # additionalProperties: a string
        (SCHEMAS[2], 2, "exclusiveMinimum", ""),
        (SCHEMAS[2], "autox", "const", ""),
        (SCHEMAS[1], 4, "multipleOf", ""),
        (SCHEMAS[1], "abcd", "maxLength", ""),
        (SCHEMAS[3], {"c": 1}, "required", ""),
        (SCHEMAS[7], {"a": "x", "b": 1, "c": 2}, "maxProperties", "/c"),
        (SCHEMAS[8], {"n": 10}, "exclusiveMaximum", "/n"),
        (SCHEMAS[8], {"e": [2]}, "false", "/e"),  # [1] is the only array member: judged at the end
        (SCHEMAS[5], [True, 1, 2], "additionalItems", "/2"),
        (SCHEMAS[5], [], "minItems", ""),
    ],
)
def test_each_keyword_refuses_where_it_decides(schema: dict, value: Any, keyword: str, pointer: str) -> None:
    checker = PrefixChecker(schema)
    answers = drive(checker, value, 1)
    if keyword == "false":  # left to the end: never refused on the way (sound), finish says no
        assert all(answers) and not _checker_valid(schema)(value)
        return
    assert not all(answers) and checker.keyword == keyword and checker.pointer == pointer, checker.reason
    assert not _checker_valid(schema)(value)
