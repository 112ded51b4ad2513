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
