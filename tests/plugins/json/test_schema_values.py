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


@pytest.mark.parametrize("schema", [Person, PERSON], ids=["pydantic", "json-schema"])
def test_integer_written_as_float_becomes_the_integer_with_a_listed_repair(schema):
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
    h = FMT.heal('{"age": 1.0e17}', PERSON)
    assert h.text == '{"age": 100000000000000000}'
    # beyond 2**53 a float would give 123456789012345680; the text says ...678
    h = FMT.heal('{"age": 123456789012345678.0}', PERSON)
    assert json.loads(h.text) == {"age": 123456789012345678}


def test_number_schema_keeps_the_float():
    schema = {"properties": {"x": {"type": "number"}, "y": {"type": ["integer", "number"]}}}
    result = check('{"x": 36.0, "y": 2.0}', Expectations(format="json", schema=schema))
    assert result.ok and result.repairs == [] and result.value == {"x": 36.0, "y": 2.0}
    assert type(result.value["x"]) is float


def test_integer_or_null_union_still_gets_the_integer():
    schema = {"properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}
    result = check('{"n": 4.0}', Expectations(format="json", schema=schema))
    assert result.ok and result.value == {"n": 4} and type(result.value["n"]) is int


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


def test_valid_json_schema_value_that_needs_the_repair_is_reported_by_analyze():
    (v,) = FMT.analyze('{"age": 36.0}', PERSON).violations
    assert v.code == "schema.integer_as_float" and v.path == ("age",)
