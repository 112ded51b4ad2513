"""Prompt guidance from a schema."""

from __future__ import annotations

from formatbook_json import JsonFormat

FMT = JsonFormat()


def test_without_schema():
    assert FMT.guidance() == "Reply with a single JSON value only."


def test_fields_types_required_enums():
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "age": {"type": "integer", "minimum": 0},
            "status": {"enum": ["active", "retired"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["name", "status"],
    }
    text = FMT.guidance(schema)
    assert '{"name": string, "age"?: integer (≥0), "status": "active"|"retired", "tags"?: string[]}' in text
    assert "optional" in text
    assert len(text) < 200  # frugal


def test_refs_and_nullable_from_pydantic():
    import pydantic  # noqa: PLC0415 - optional dependency, needed by this test only

    class Item(pydantic.BaseModel):
        sku: str
        qty: int

    class Order(pydantic.BaseModel):
        items: list[Item]
        note: str | None = None

    text = FMT.guidance(Order)
    assert (
        '"items": {"sku": string, "qty": integer}[]' in text or '"items": ({"sku": string, "qty": integer})[]' in text
    )
    assert '"note"?: string | null' in text


def test_recursive_schema_terminates():
    schema = {
        "$defs": {
            "node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}
        },
        "$ref": "#/$defs/node",
    }
    text = FMT.guidance(schema)
    assert "node" in text and len(text) < 300


# --- guidance a model acts on (issue 13) -----------------------------------------------------


def test_descriptions_and_constraints_become_field_lines():
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Full name, as on the card.", "maxLength": 40},
            "code": {"type": "string", "minLength": 3, "maxLength": 3},
            "born": {"type": "string", "format": "date"},
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "uniqueItems": True},
            "plain": {"type": "string"},
        },
        "required": ["name"],
    }
    lines = FMT.guidance(schema).splitlines()
    fields = lines[lines.index("Fields:") + 1 :]
    assert fields == [
        "- name: Full name, as on the card; at most 40 characters",
        "- code: exactly 3 characters",
        "- born: a date as YYYY-MM-DD",
        "- tags: no item twice",
        "- tags[]: matching the regular expression ^[a-z]+$",
    ]


def test_a_schema_without_descriptions_or_constraints_adds_no_field_lines():
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    assert "Fields:" not in FMT.guidance(schema)


def test_exclusive_bounds_are_not_shown_as_inclusive():
    schema = {"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}}}
    assert '"n"?: number (>0, ≤1)' in FMT.guidance(schema)


def test_pydantic_descriptions_nested_and_optional_models():
    import datetime  # noqa: PLC0415 - with pydantic, for this test only

    import pydantic  # noqa: PLC0415 - optional dependency, needed by this test only

    class Address(pydantic.BaseModel):
        city: str = pydantic.Field(description="The city, in English")

    class Contact(pydantic.BaseModel):
        name: str = pydantic.Field(description="Full name", max_length=60)
        born: datetime.date | None = pydantic.Field(None, description="Birthday")
        home: Address | None = None
        offices: list[Address] = []

    text = FMT.guidance(Contact)
    assert "- name: Full name; at most 60 characters" in text
    assert "- born: Birthday; a date as YYYY-MM-DD" in text
    assert "- home.city: The city, in English" in text
    assert "- offices[].city: The city, in English" in text
    assert len(text) < 600


def test_a_large_schema_keeps_the_field_lines_bounded():
    props = {f"f{i}": {"type": "string", "description": f"field number {i}"} for i in range(100)}
    text = FMT.guidance({"type": "object", "properties": props})
    assert text.count("\n- f") == 24 and "- (more fields: follow the shape above)" in text


def test_non_empty_strings_and_closed_objects_in_words():
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "minLength": 1}, "b": {"type": "string", "maxLength": 1}},
        "additionalProperties": False,
    }
    text = FMT.guidance(schema)
    assert "- a: not empty" in text and "- b: at most 1 character" in text
    assert "No fields other than these." in text
