"""PrefixChecker with ``pattern``, ``patternProperties`` and ``propertyNames`` decided on
prefixes (:mod:`formatbook_core.data_schema.prefix_patterns`): sound on every prefix of
every value the schema accepts, and refusing where the prefix decides."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from formatbook_core.data_schema.prefix import PrefixChecker
from tests.core.jsonschema_instances import from_schema
from tests.core.test_prefix_schema import _checker_valid, assert_refused_only_if_invalid, drive

SCHEMAS: list[dict[str, Any]] = [
    {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}-\\d{2,4}$"},
            "mail": {"type": "string", "pattern": "^[a-z]+@[a-z]+\\.(com|org)$"},
            "note": {"type": "string", "pattern": "ok"},  # searched: decided at the end only
        },
        "patternProperties": {"^x-[a-z]+$": {"type": "string"}, "^n\\d+$": {"type": "integer"}},
        "additionalProperties": False,
        "required": ["code"],
    },
    {
        "type": "object",
        "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$", "maxLength": 6},
        "additionalProperties": {"type": "integer"},
    },
    {
        "type": "object",
        "propertyNames": {"enum": ["alpha", "beta", "al"]},
        "patternProperties": {"^(?:a|b)": {"type": "string"}},
    },
    {
        "type": "array",
        "items": {"anyOf": [{"type": "string", "pattern": "^a+$"}, {"type": "string", "pattern": "^b(c|d)?$"}]},
    },
    {  # a pattern the NFA does not read (\b): the key is judged at its end
        "type": "object",
        "patternProperties": {"^x[a-z]\\b": {}},
        "properties": {"y": {}},
        "additionalProperties": False,
    },
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
@settings(max_examples=40, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_never_refuses_a_valid_value(schema: dict[str, Any], data: Any) -> None:
    value = data.draw(from_schema(schema))
    assume(_checker_valid(schema)(value))  # Python's \d takes "\u0660", the ECMA engine does not
    for size in (1, 2, 3, 64):
        for lenient in (False, True):
            checker = PrefixChecker(schema, lenient=lenient)
            assert all(drive(checker, value, size)), (value, size, checker.reason)
            assert checker.complete


_KEYS = st.sampled_from(["code", "mail", "note", "x-ab", "x-a1", "n12", "n", "alpha", "al", "beta", "bz", "ab_1", "Ab"])
_TEXT = st.text("abcdABC-12@.x", max_size=8)
_JSON = st.recursive(
    st.none() | st.integers(-5, 50) | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS | _TEXT, inner, max_size=4),
    max_leaves=10,
)


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
@settings(max_examples=150, suppress_health_check=list(HealthCheck))
@given(value=_JSON)
def test_refuses_only_invalid_values(schema: dict[str, Any], value: Any) -> None:
    """Soundness on any value: a refusal anywhere means the validator refuses it too."""
    assert_refused_only_if_invalid(schema, value)


_ANCHORED = ["^[a-c]+$", "^a\\d?$", "^(ab|b)c*", "^x-[a-z]{1,3}$", "^\\w+@\\w+$", "^[^a]b"]
_FLOATING = ["a", "b$", "^a|c", "^a\\b"]  # searched, or not read here


@st.composite
def _schemas(draw: Any) -> dict[str, Any]:
    """Generated schemas whose strings and keys meet patterns (anchored ones a prefix
    decides, searched ones and unread syntax it leaves to the end)."""
    pattern = st.sampled_from(_ANCHORED + _FLOATING)
    leaf = st.one_of(
        st.fixed_dictionaries({"type": st.just("string"), "pattern": pattern}),
        st.fixed_dictionaries({"type": st.just("string"), "pattern": pattern, "maxLength": st.integers(2, 6)}),
        st.fixed_dictionaries({"type": st.sampled_from(["integer", "null"])}),
    )
    obj = st.fixed_dictionaries(
        {
            "type": st.just("object"),
            "properties": st.dictionaries(st.sampled_from(["a", "ab", "x-q"]), leaf, max_size=2),
            "patternProperties": st.dictionaries(pattern, leaf, max_size=2),
            "additionalProperties": st.booleans(),
        },
        optional={"propertyNames": st.fixed_dictionaries({"pattern": pattern})},
    )
    arr = st.fixed_dictionaries({"type": st.just("array"), "items": leaf | obj})
    return draw(st.one_of(leaf, obj, arr))


@settings(max_examples=150, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_generated_schemas_never_refuse_their_instances(data: Any) -> None:
    schema = data.draw(_schemas())
    try:
        value = data.draw(from_schema(schema))
    except Exception:  # an unsatisfiable generated schema, or one it cannot draw
        return
    assume(_checker_valid(schema)(value))  # Python's \d takes "\u0660", the ECMA engine does not
    for size in (1, 4):
        for lenient in (False, True):
            checker = PrefixChecker(schema, lenient=lenient)
            assert all(drive(checker, value, size)), (schema, value, checker.reason)


@pytest.mark.parametrize(
    ("schema", "value", "keyword", "pointer", "events"),
    [
        # events: how many answers were alive before the refusal, counted by hand
        # (start_object, then one per key piece of 1 character)
        (SCHEMAS[0], {"code": "AB1"}, "pattern", "/code", 1 + 4 + 1 + 1 + 2),  # at "1"
        (SCHEMAS[0], {"x-a1": ""}, "additionalProperties", "/x-a1", 1 + 3),  # at "1"
        (SCHEMAS[0], {"nx": 1}, "additionalProperties", "/nx", 1 + 1),  # "n" begins note and n\d+
        (SCHEMAS[1], {"a-": 1}, "propertyNames", "/a-", 1 + 1),
        (SCHEMAS[1], {"abcdefg": 1}, "propertyNames", "/abcdefg", 1 + 6),  # maxLength 6
        (SCHEMAS[1], {"1a": 1}, "propertyNames", "/1", 1),
        (SCHEMAS[2], {"al": 1}, "type", "/al", 1 + 2 + 1),  # a string under ^(?:a|b): the number's start
        (SCHEMAS[2], {"alz": ""}, "propertyNames", "/alz", 1 + 2),
        (SCHEMAS[3], ["aab"], "pattern", "/0", 1 + 1 + 2),  # neither ^a+$ nor ^b(c|d)?$
        (SCHEMAS[4], {"xb1": 1}, "additionalProperties", "/xb1", 1 + 3),  # unread: at the key's end
    ],
)
def test_each_keyword_refuses_where_the_prefix_decides(
    schema: dict[str, Any], value: Any, keyword: str, pointer: str, events: int
) -> None:
    checker = PrefixChecker(schema)
    answers = drive(checker, value, 1)
    assert checker.keyword == keyword and checker.pointer == pointer, checker.reason
    assert answers.index(False) == events, (answers, checker.reason)
    assert not _checker_valid(schema)(value)


def test_a_long_key_under_a_pattern_costs_its_length() -> None:
    """A key a pattern keeps alive is not re-joined at every piece (its text is kept
    only while a property's name may begin with it)."""
    schema = {"type": "object", "patternProperties": {"^k[a-z]*$": {}}, "additionalProperties": False}
    checker = PrefixChecker(schema)
    checker.start_object()
    checker.start_key()
    for _ in range(200_000):
        assert checker.key("kabc")
    assert not checker.key("kab1")
    assert checker.reason is not None and checker.reason.startswith("/kabckabc")
