"""JSON Schema: dicts, files, drafts, pydantic models, schema-aware healing."""

from __future__ import annotations

import json

import pytest

from formatbook_core import ExpectationError, Expectations, check, parse_expectations
from formatbook_json import JsonFormat

FMT = JsonFormat()

PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer", "minimum": 0},
        "role": {"enum": ["admin", "editor", "viewer"]},
    },
    "required": ["name", "age"],
    "additionalProperties": False,
}


def test_valid_against_dict_schema():
    a = FMT.analyze('{"name": "Ann", "age": 31, "role": "admin"}', PERSON)
    assert a.ok and a.value == {"name": "Ann", "age": 31, "role": "admin"}


def test_violations_carry_path_keyword_expected():
    a = FMT.analyze('{"name": "Ann", "age": -2}', PERSON)
    (v,) = a.violations
    assert v.code == "schema.minimum" and v.path == ("age",) and v.keyword == "minimum" and v.expected == 0


def test_most_relevant_violation_first():
    a = FMT.analyze('{"name": 5}', PERSON)
    codes = [v.code for v in a.violations]
    assert set(codes) == {"schema.required", "schema.type"}
    # best_match prefers the shallower error: the missing "age" at the root
    assert a.violations[0].code == "schema.required"


def test_schema_2020_12_is_the_default():
    schema = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}
    assert FMT.is_valid('["a", 1]', schema)
    assert not FMT.is_valid('["a", "b"]', schema)


def test_dollar_schema_draft_07_honoured():
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "items": [{"type": "string"}, {"type": "integer"}],
    }
    assert FMT.is_valid('["a", 1]', schema)
    a = FMT.analyze('["a", "b"]', schema)
    assert [(v.path, v.keyword) for v in a.violations] == [((1,), "type")]
    # prefixItems means nothing in draft-07
    old = {"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{"type": "integer"}]}
    assert FMT.is_valid('["not an integer"]', old)


def test_schema_from_file_path(tmp_path):
    path = tmp_path / "person.json"
    path.write_text(json.dumps(PERSON), encoding="utf-8")
    for given in (path, str(path)):
        loaded = FMT.load_schema(given)
        assert FMT.is_valid('{"name": "Bo", "age": 4}', loaded)
        assert not FMT.is_valid('{"name": "Bo"}', loaded)


def test_missing_schema_file_is_an_expectation_error(tmp_path):
    with pytest.raises(ExpectationError):
        FMT.load_schema(str(tmp_path / "nope.json"))


def test_url_needs_allow_fetch():
    with pytest.raises(ExpectationError, match="allow_fetch"):
        FMT.load_schema("https://example.com/schema.json")


def test_invalid_schema_is_an_expectation_error():
    with pytest.raises(ExpectationError):
        FMT.load_schema({"type": "no-such-type"})


def test_compiled_once_and_cached():
    assert FMT.load_schema(PERSON) is FMT.load_schema(PERSON)


# --- schema-aware healing ---------------------------------------------------------

ORDER = {
    "type": "object",
    "properties": {
        "orderId": {"type": "integer"},
        "total": {"type": "number"},
        "paid": {"type": "boolean"},
        "status": {"enum": ["pending", "shipped"]},
        "items": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}}},
        "shipping_address": {"type": "string"},
    },
}


def test_schema_aware_repairs_are_listed():
    reply = '{"order_id": "42", "total": "19.90", "paid": "true", "status": "Shipped", "items": {"sku": "X1"}, "shippingAddress": "1 Main St"}'
    # the validator refuses the object for its missing members: the keys are renamed there
    h = FMT.heal(reply, {**ORDER, "required": ["orderId", "shipping_address"]})
    assert json.loads(h.text) == {
        "orderId": 42,
        "total": 19.90,
        "paid": True,
        "status": "shipped",
        "items": [{"sku": "X1"}],
        "shipping_address": "1 Main St",
    }
    assert sorted(r.kind for r in h.repairs) == sorted(
        [
            "renamed_key",
            "string_to_number",
            "string_to_number",
            "string_to_boolean",
            "enum_case",
            "wrapped_in_array",
            "renamed_key",
        ]
    )
    for r in h.repairs:
        assert 0 <= r.span.start < r.span.end <= len(reply)
    assert FMT.heal(h.text, ORDER).repairs == ()


def test_keys_the_validator_accepts_are_not_renamed():
    # without required/additionalProperties, order_id is an allowed extra member: only the
    # values the validator refused are repaired (issue 31)
    reply = '{"order_id": "42", "total": "19.90", "shippingAddress": "1 Main St"}'
    h = FMT.heal(reply, ORDER)
    assert json.loads(h.text) == {"order_id": "42", "total": 19.90, "shippingAddress": "1 Main St"}
    assert [r.kind for r in h.repairs] == ["string_to_number"]


PERSON_CAMEL = {"type": "object", "properties": {"firstName": {"type": "string"}, "age": {"type": "integer"}}}


@pytest.mark.parametrize(
    "reply",
    [
        '{"first_name": "Ada", "age": 36,}',  # a syntax repair, then a valid value
        "{'first_name': 'Ada', 'age': 36}",
        '```json\n{"first_name": "Ada", "age": 36}\n```',
        '{first_name: "Ada",\r\n age: 36}',
    ],
)
def test_a_valid_value_after_a_syntax_repair_is_not_renamed(reply):
    result = check(reply, Expectations(format="json", schema=PERSON_CAMEL))
    assert result.ok and result.value == {"first_name": "Ada", "age": 36}
    assert "renamed_key" not in {r.kind for r in result.repairs}


def test_a_required_key_is_never_renamed_away():
    schema = {"type": "object", "properties": {"_id": {"type": "string"}}, "required": ["id"]}
    for reply in ('{"id": "a1",}', '{"id": "a1", "n": "x"}', '{"id": 7}'):
        h = FMT.heal(reply, schema)
        assert "renamed_key" not in {r.kind for r in h.repairs}, reply
        assert "id" in json.loads(h.text)
    assert check('{"id": "a1",}', Expectations(format="json", schema=schema)).ok
    # the object is refused (a required member is missing): id is still not renamed
    schema = {"type": "object", "properties": {"_id": {"type": "string"}}, "required": ["id", "name"]}
    h = FMT.heal('{"id": "a1"}', schema)
    assert h.repairs == () and h.text == '{"id": "a1"}'


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "array", "items": {"type": "array", "items": {"type": "object"}}},
        {"type": "array", "items": {"type": "array"}},
        {"properties": {"rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}}},
    ],
)
def test_a_value_is_not_re_nested_to_reach_the_schemas_depth(schema):
    for reply in ('{"a": 1}', '"x"', '{"rows": "x"}', '{"rows": {"a": "b"}}'):
        result = check(reply, Expectations(format="json", schema=schema))
        assert "wrapped_in_array" not in {r.kind for r in result.repairs}, reply


def test_one_wrap_where_the_items_take_the_value():
    schema = {"properties": {"rows": {"type": "array", "items": {"type": "object"}}}}
    result = check('{"rows": {"a": 1}}', Expectations(format="json", schema=schema))
    assert result.ok and result.value == {"rows": [{"a": 1}]}
    assert [r.kind for r in result.repairs] == ["wrapped_in_array"]


def test_numbers_keep_their_spelling_through_schema_heal():
    h = FMT.heal('{"total": "19.90"}', ORDER)
    assert h.text == '{"total": 19.90}'


def test_nothing_coerced_without_a_schema():
    text = '{"orderId": "42", "paid": "true"}'
    h = FMT.heal(text)
    assert h.text == text and h.repairs == ()


def test_string_not_a_number_is_left_for_the_violation():
    h = FMT.heal('{"orderId": "forty-two"}', ORDER)
    assert h.repairs == ()
    assert [v.code for v in FMT.analyze(h.text, ORDER).violations] == ["schema.type"]


def test_schema_repair_after_syntax_repair_spans_index_the_payload():
    reply = "{'orderId': '7', // note\n 'paid': True}"
    h = FMT.heal(reply, ORDER)
    assert json.loads(h.text) == {"orderId": 7, "paid": True}
    (num,) = [r for r in h.repairs if r.kind == "string_to_number"]
    assert reply[num.span.start : num.span.end] == "'7'"


# --- pydantic ------------------------------------------------------------------------

pydantic = pytest.importorskip("pydantic")


class Product(pydantic.BaseModel):
    name: str
    quantity: int
    tags: list[str] = []


def test_model_instance_from_analyze():
    a = FMT.analyze('{"name": "pen", "quantity": 3}', Product)
    assert a.ok and isinstance(a.value, Product) and a.value.quantity == 3


def test_model_string_for_int_is_a_violation_not_a_silent_coercion():
    a = FMT.analyze('{"name": "pen", "quantity": "3"}', Product)
    assert not a.ok and a.violations[0].path == ("quantity",)


def test_model_heal_lists_the_coercion():
    h = FMT.heal('{"name": "pen", "quantity": "42"}', Product)
    assert [r.kind for r in h.repairs] == ["string_to_number"]
    a = FMT.analyze(h.text, Product)
    assert a.ok and a.value == Product(name="pen", quantity=42)


def test_check_returns_the_instance_with_the_repair():
    reply = 'Here you go:\n```json\n{"name": "pen", "quantity": "42"}\n```'
    result = check(reply, Expectations(format="json", schema=Product))
    assert result.ok
    assert isinstance(result.value, Product) and result.value.quantity == 42
    assert "string_to_number" in [r.kind for r in result.repairs]


def test_check_with_expect_line_and_file_schema(tmp_path):
    (tmp_path / "person.json").write_text(json.dumps(PERSON), encoding="utf-8")
    exp = parse_expectations("EXPECT JSON person.json", base_dir=tmp_path)
    assert check('{"name": "Al", "age": 3}', exp).ok
    bad = check('{"name": "Al"}', exp)
    assert not bad.ok and bad.violations[0].code == "schema.required"
