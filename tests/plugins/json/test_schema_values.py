"""What a schema does to the value: 36.0 for an integer becomes 36 (listed), a lone value
goes into the array asked for (listed), and a failing reply still shows its value."""

from __future__ import annotations

import json

import pytest

from formatbook_core import Expectations, check
from formatbook_json import JsonFormat

FMT = JsonFormat()
pydantic = pytest.importorskip("pydantic")


class Person(pydantic.BaseModel):
    age: int
    tags: list[str] = []


PERSON = {
    "type": "object",
    "properties": {"age": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}},
}


#: Draft 4 is the dialect where ``36.0`` is not an integer: its validator refuses it.
PERSON_DRAFT4 = {"$schema": "http://json-schema.org/draft-04/schema#", **PERSON}


def test_integer_written_as_float_is_valid_and_passes_as_written():
    # JSON Schema (draft 6 on) counts 36.0 as an integer: the validator accepts it, so
    # nothing is re-typed (issue 31)
    result = check('{"age": 36.0}', Expectations(format="json", schema=PERSON))
    assert result.ok and result.verdict == "pass" and result.repairs == []
    assert result.value == {"age": 36.0} and type(result.value["age"]) is float


@pytest.mark.parametrize("schema", [Person, PERSON_DRAFT4], ids=["pydantic", "draft-04"])
def test_integer_written_as_float_becomes_the_integer_where_the_validator_refuses_it(schema):
    # pydantic's strict mode and draft 4 refuse 36.0 for an integer: then it is repaired
    result = check('{"age": 36.0}', Expectations(format="json", schema=schema))
    assert result.ok and result.verdict == "healed"
    age = result.value.age if isinstance(result.value, Person) else result.value["age"]
    assert age == 36 and type(age) is int
    (repair,) = result.repairs
    assert repair.kind == "float_to_integer" and result.reply[repair.span.start : repair.span.end] == "36.0"


@pytest.mark.parametrize("schema", [Person, PERSON], ids=["pydantic", "json-schema"])
def test_lone_string_is_wrapped_in_the_array_of_strings(schema):
    result = check('{"age": 3, "tags": "x"}', Expectations(format="json", schema=schema))
    assert result.ok
    tags = result.value.tags if isinstance(result.value, Person) else result.value["tags"]
    assert tags == ["x"]
    assert [r.kind for r in result.repairs] == ["wrapped_in_array"]


def test_integer_is_read_from_the_text_not_through_a_float():
    h = FMT.heal('{"age": 1.0e17}', PERSON_DRAFT4)
    assert h.text == '{"age": 100000000000000000}'
    # beyond 2**53 a float would give 123456789012345680; the text says ...678
    h = FMT.heal('{"age": 123456789012345678.0}', PERSON_DRAFT4)
    assert json.loads(h.text) == {"age": 123456789012345678}


def test_number_schema_keeps_the_float():
    schema = {"properties": {"x": {"type": "number"}, "y": {"type": ["integer", "number"]}}}
    result = check('{"x": 36.0, "y": 2.0}', Expectations(format="json", schema=schema))
    assert result.ok and result.repairs == [] and result.value == {"x": 36.0, "y": 2.0}
    assert type(result.value["x"]) is float


@pytest.mark.parametrize("union", ["anyOf", "oneOf"])
@pytest.mark.parametrize(
    "branches",
    [
        [{"type": "integer"}, {"type": "null"}],
        [{"type": "integer"}, {"type": "number"}],
        [{"type": "number"}, {"type": "integer"}],
        [{"type": "integer"}, {"type": "string"}],
    ],
)
def test_a_valid_value_under_a_union_passes_as_written(union, branches):
    # issue 31: [{"score": 877.0}] against anyOf integer/number was "healed" to 877
    schema = {"type": "array", "items": {"properties": {"n": {union: branches}}}}
    if union == "oneOf" and {"type": "number"} in branches:
        return  # 4.0 is both an integer and a number: oneOf refuses it (checked below)
    for text in ('[{"n": 4.0}]', '[{"n": 4.0}, {"n": 877.0}]', '\n[\n  {"n": 4.0}\r\n]\n'):
        result = check(text, Expectations(format="json", schema=schema))
        assert result.ok and result.verdict == "pass" and result.repairs == [], text
        assert result.value[0] == {"n": 4.0} and type(result.value[0]["n"]) is float
    # fenced, after a think block: the fence is listed, the value is not touched
    result = check('<think>4.0?</think>\n```json\n[{"n": 4.0}]\n```', Expectations(format="json", schema=schema))
    assert result.ok and result.value == [{"n": 4.0}] and type(result.value[0]["n"]) is float
    assert not {r.kind for r in result.repairs} & {"float_to_integer", "string_to_number"}


def test_one_of_integer_and_number_refuses_an_integral_float():
    schema = {"properties": {"n": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}}
    result = check('{"n": 4.0}', Expectations(format="json", schema=schema))
    assert not result.ok and [v.keyword for v in result.violations] == ["oneOf"]


def test_a_valid_value_in_a_healed_reply_is_not_converted():
    # the syntax is repaired; the value then satisfies the schema: no schema repair
    schema = {"type": "array", "items": {"properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "number"}]}}}}
    result = check("[{'n': 4.0}, {'n': 5.0},]", Expectations(format="json", schema=schema))
    assert result.ok and result.value == [{"n": 4.0}, {"n": 5.0}]
    assert sorted({r.kind for r in result.repairs}) == ["single_quotes", "trailing_comma"]


def test_fraction_is_not_an_integer():
    result = check('{"age": 36.5}', Expectations(format="json", schema=PERSON))
    assert not result.ok and [v.code for v in result.violations] == ["schema.type"]


def test_not_wrapped_when_the_items_do_not_take_the_value():
    schema = {"properties": {"tags": {"type": "array", "items": {"type": "object"}}}}
    result = check('{"tags": "x"}', Expectations(format="json", schema=schema))
    assert not result.ok and result.repairs == []
    result = check('{"tags": null}', Expectations(format="json", schema=PERSON))
    assert not result.ok and result.repairs == []


def test_failing_reply_still_carries_its_value():
    result = check('{"age": "old"}', Expectations(format="json", schema=PERSON))
    assert not result.ok and result.value == {"age": "old"}
    result = check('{"age": "old"}', Expectations(format="json", schema=Person))
    assert not result.ok and result.value == {"age": "old"}


def test_a_value_the_validator_accepts_has_no_violation():
    assert FMT.analyze('{"age": 36.0}', PERSON).violations == ()
    (v,) = FMT.analyze('{"age": 36.0}', PERSON_DRAFT4).violations
    assert v.path == ("age",)
