"""A pydantic model as the value: one mapping of its errors to violations for every data format."""

from __future__ import annotations

import pytest

from formatbook_core.data_schema import build_model, model_violations

pydantic = pytest.importorskip("pydantic")


class Person(pydantic.BaseModel):
    name: str
    age: int


def test_a_valid_object_is_the_instance() -> None:
    instance, violations = build_model(Person, '{"name": "Ada", "age": 36}')
    assert violations == ()
    assert instance == Person(name="Ada", age=36)


def test_strict_mode_does_not_coerce() -> None:
    """``"36"`` for an int must have been healed (and listed) before: strict JSON mode."""
    instance, violations = build_model(Person, '{"name": "Ada", "age": "36"}')
    assert instance is None
    assert [(v.code, v.path, v.keyword) for v in violations] == [("schema.model.int_type", ("age",), "int_type")]
    assert violations[0].message.startswith("Person: ")


def test_a_row_is_named_in_the_message_and_the_path() -> None:
    _, violations = build_model(Person, '{"name": "Ada"}', row=2)
    assert [(v.code, v.path) for v in violations] == [("schema.model.missing", (2, "age"))]
    assert violations[0].message.startswith('row 3, column "age": Person: ')


def test_an_error_listing_nothing_is_one_violation() -> None:
    (only,) = model_violations(Person, ValueError("no"), row=0)
    assert (only.code, only.path, only.message) == ("schema.model", (0,), "row 1: Person: no")
