"""JSON Schema in OpenAI's strict subset (formatbook_core.data_schema.strict): what is
kept, what is rewritten, what is moved into descriptions, and the refusals."""

from __future__ import annotations

import jsonschema
import pytest
from pydantic import BaseModel

from formatbook_core import ExportError
from formatbook_core.data_schema.strict import response_format, strict_schema


def converted(schema):
    found = strict_schema(schema)
    jsonschema.Draft202012Validator.check_schema(found.schema)
    return found


def objects(node):
    """Every object schema in ``node``."""
    if isinstance(node, dict):
        if node.get("type") == "object" or (isinstance(node.get("type"), list) and "object" in node["type"]):
            yield node
        for value in node.values():
            yield from objects(value)
    elif isinstance(node, list):
        for value in node:
            yield from objects(value)


def test_every_object_closed_with_every_property_required():
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string"}}},
            "list": {
                "type": "array",
                "items": {"type": "object", "properties": {"c": {"type": "integer"}}, "required": ["c"]},
            },
        },
        "required": ["list"],
    }
    out = converted(schema).schema
    found = list(objects(out))
    assert len(found) == 3
    for obj in found:
        assert obj["additionalProperties"] is False and obj["required"] == list(obj["properties"])


def test_optional_properties_become_nullable_in_the_form_strict_mode_takes():
    schema = {
        "$defs": {"pt": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
        "type": "object",
        "properties": {
            "s": {"type": "string"},
            "t": {"type": ["string", "integer"]},
            "e": {"enum": ["a", "b"]},
            "r": {"$ref": "#/$defs/pt"},
            "u": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "n": {"type": ["string", "null"]},  # already takes null: unchanged, nothing lost
        },
    }
    found = converted(schema)
    props = found.schema["properties"]
    assert props["s"] == {"type": ["string", "null"]}
    assert props["t"] == {"type": ["string", "integer", "null"]}
    assert props["e"] == {"anyOf": [{"enum": ["a", "b"]}, {"type": "null"}]}
    assert props["r"] == {"anyOf": [{"$ref": "#/$defs/pt"}, {"type": "null"}]}
    assert props["u"]["anyOf"][-1] == {"type": "null"}
    assert props["n"] == {"type": ["string", "null"]}
    nullable = [line for line in found.lost if "optional" in line]
    assert len(nullable) == 5 and not any(line.startswith("/properties/n:") for line in nullable)
    assert found.schema["$defs"]["pt"]["additionalProperties"] is False


def test_keywords_strict_mode_refuses_move_into_the_description():
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 9, "description": "Given name."},
            "email": {"type": "string", "format": "email", "pattern": "@"},
            "site": {"type": "string", "format": "uri"},
            "n": {"type": "integer", "minimum": 0, "multipleOf": 2, "default": 4},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
        },
        "required": ["name", "email", "site", "n", "tags"],
        "minProperties": 1,
    }
    found = converted(schema)
    props = found.schema["properties"]
    assert props["name"] == {"type": "string", "description": "Given name. (minLength: 1; maxLength: 9)"}
    assert props["email"] == {"type": "string", "format": "email", "pattern": "@"}
    assert props["site"] == {"type": "string", "description": 'format: "uri"'}
    assert props["n"] == {"type": "integer", "minimum": 0, "multipleOf": 2, "description": "default: 4"}
    assert props["tags"] == {
        "type": "array",
        "items": {"type": "string"},
        "minItems": 1,
        "description": "uniqueItems: true",
    }
    assert found.schema["description"] == "minProperties: 1"
    assert "/properties/name: minLength: 1 moved to the description" in found.lost
    assert len(found.lost) == 6


def test_one_of_all_of_and_tuples_are_rewritten_and_said_so():
    schema = {
        "type": "object",
        "properties": {
            "one": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "both": {
                "allOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "integer"}}},
                ]
            },
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False},
        },
        "required": ["one", "both", "pair"],
    }
    found = converted(schema)
    props = found.schema["properties"]
    assert props["one"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert set(props["both"]["properties"]) == {"a", "b"} and props["both"]["required"] == ["a", "b"]
    assert props["pair"]["items"] == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    text = "\n".join(found.lost)
    assert "oneOf sent as anyOf" in text and "allOf merged" in text and "prefixItems" in text


def test_free_form_values_are_narrowed_and_said_so():
    found = converted(
        {"type": "object", "properties": {"meta": {"type": "object"}, "x": {}}, "required": ["meta", "x"]}
    )
    props = found.schema["properties"]
    assert props["meta"] == {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
    assert props["x"] == {"type": ["string", "number", "boolean", "null"]}
    assert len(found.lost) == 2


class Node(BaseModel):
    name: str
    children: list[Node] = []


class Tree(BaseModel):
    root: Node
    size: int | None = None


def test_a_recursive_pydantic_model_keeps_its_references():
    found = converted(Tree.model_json_schema())
    assert found.schema["properties"]["root"] == {"$ref": "#/$defs/Node"}
    node = found.schema["$defs"]["Node"]
    assert node["required"] == ["name", "children"]
    assert node["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}


def test_response_format_and_refusals():
    body, lost = response_format(
        {"title": "My Contact!", "type": "object", "properties": {}, "additionalProperties": False}
    )
    assert body["type"] == "json_schema" and body["json_schema"]["name"] == "My_Contact" and lost == []
    assert response_format(None) == ({"type": "json_object"}, [])
    with pytest.raises(ExportError, match="object at the root"):
        strict_schema({"type": "array", "items": {"type": "string"}})
    with pytest.raises(ExportError, match="object at the root"):
        strict_schema({"anyOf": [{"type": "object"}, {"type": "string"}]})
    with pytest.raises(ExportError, match="another document"):
        strict_schema({"type": "object", "properties": {"a": {"$ref": "other.json#/x"}}})
