"""JSON's grammar export: a JSON Schema as GBNF and Lark, checked with Lark, llguidance and
xgrammar on held samples (the format's own, examples/replies) and damaged ones, and the
subset rule over single-character edits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from formatbook_core import ExpectationError, Expectations, ExportError
from formatbook_core.exports import grammar
from formatbook_json import JsonFormat
from formatbook_json.grammar import json_grammar
from tests.grammar_cases import assert_grammar, assert_subset

SCHEMAS = Path(__file__).parents[3] / "examples" / "replies" / "schemas"
CONTACT = json.loads((SCHEMAS / "contact.json").read_text())


def exp(schema=None) -> Expectations:
    return Expectations(format="json", schema=schema)


def test_without_a_schema_every_sample_of_the_format_is_accepted():
    assert_grammar(exp(), list(JsonFormat.samples), ['{"a": 1,}', "[1 2]", '{"a" 1}', "'x'", "01", "[1,2", "{a: 1}"])


def test_unicode_escapes_surrogates_only_in_pairs():
    good = ['"\\u00e9\\uD7FF\\ue000\\uFFFF"', '"\\ud83d\\ude80 launch"', '"\\u0000"']
    bad = ['"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d x"', '"\\ude80"', '"\\u12"', '"\\x41"']
    assert_grammar(exp(), good, bad)
    # a pair is one character, as the checker counts it
    two = {"type": "string", "minLength": 2, "maxLength": 2}
    assert_grammar(exp(two), ['"\\ud83d\\ude80x"', '"\\n\\u00e9"', '"🚀x"'], ['"\\ud83d\\ude80"', '"abc"', '"a"'])


def test_the_contact_schema():
    good = [
        '{"firstName": "John", "lastName": "Smith"}',
        '{"firstName":"J","lastName":"S","email":"a@b"}',
        '\n{ "firstName": "Jo" ,\n "lastName": "S\\u00e9" }\n',
    ]
    bad = [
        '{"firstName": "Alan"}',  # a required property missing
        '{"firstName": "", "lastName": "S"}',  # minLength
        '{"firstName": "J", "lastName": "S", "phone": "1"}',  # additionalProperties: false
        '{"firstName": "J", "lastName": 3}',  # a type
        '{"firstName": "J", "lastName": "S",}',
        '{"firstName": "J", "lastName": "S", "email": null}',
    ]
    assert_grammar(exp(CONTACT), good, bad)
    assert grammar(exp(CONTACT)).left == ()


def test_properties_in_the_declared_order_a_reordered_object_is_refused():
    # a grammar writes one order; the checker would take any
    assert_grammar(exp(CONTACT), [], ['{"lastName": "S", "firstName": "J"}'])


def test_optional_properties_anywhere_commas_only_between_those_written():
    schema = {
        "type": "object",
        "properties": {k: {"type": "integer"} for k in "abcd"},
        "required": ["c"],
        "additionalProperties": False,
    }
    good = ['{"c": 1}', '{"a": 1, "c": 2}', '{"b": 1, "c": 2, "d": 3}', '{"a":1,"b":2,"c":3,"d":4}']
    bad = ['{"a": 1}', '{"c": 1,}', '{, "c": 1}', '{"a": 1 "c": 2}', '{"c": 1, "c": 2}', "{}"]
    assert_grammar(exp(schema), good, bad)


def test_enum_const_type_lists_numbers_and_booleans():
    schema = {
        "type": "object",
        "properties": {
            "status": {"enum": ["open", "shipped", 3, None]},
            "kind": {"const": {"a": [1, "x"]}},
            "n": {"type": ["integer", "null"]},
            "x": {"type": "number", "minimum": 0},
            "ok": {"type": "boolean"},
        },
        "required": ["status", "kind", "n", "x", "ok"],
    }
    good = [
        '{"status": "open", "kind": {"a": [1, "x"]}, "n": -3, "x": 1.5e3, "ok": true}',
        '{"status": null, "kind": {"a": [1, "x"]}, "n": null, "x": 0, "ok": false}',
        '{"status": 3, "kind": {"a": [1, "x"]}, "n": 0, "x": 0.25, "ok": true}',
    ]
    bad = [
        '{"status": "closed", "kind": {"a": [1, "x"]}, "n": 1, "x": 1, "ok": true}',
        '{"status": "open", "kind": {"a": [2, "x"]}, "n": 1, "x": 1, "ok": true}',
        '{"status": "open", "kind": {"a": [1, "x"]}, "n": 1.5, "x": 1, "ok": true}',
        '{"status": "open", "kind": {"a": [1, "x"]}, "n": 1, "x": -1, "ok": true}',  # no sign under minimum 0
        '{"status": "open", "kind": {"a": [1, "x"]}, "n": 1, "x": 1, "ok": "true"}',
        '{"status": "open", "kind": {"a": [1, "x"]}, "n": 01, "x": 1, "ok": true}',
    ]
    assert_grammar(exp(schema), good, bad)
    assert grammar(exp(schema)).left == ("minimum",)


def test_arrays_items_bounds_and_tuples():
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False},
            "any": {"type": "array"},
        },
        "required": ["tags", "pair", "any"],
    }
    good = [
        '{"tags": ["a"], "pair": [1, "x"], "any": []}',
        '{"tags": ["a", "b", "c"], "pair": [1,"x"], "any": [1, {"k": [null]}, "s"]}',
    ]
    bad = [
        '{"tags": [], "pair": [1, "x"], "any": []}',
        '{"tags": ["a", "b", "c", "d"], "pair": [1, "x"], "any": []}',
        '{"tags": ["a"], "pair": [1, "x", 2], "any": []}',
        '{"tags": ["a"], "pair": ["x", 1], "any": []}',
        '{"tags": [1], "pair": [1, "x"], "any": []}',
    ]
    assert_grammar(exp(schema), good, bad)


def test_any_of_one_of_all_of_and_references_with_recursion():
    schema = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                "required": ["v"],
            },
            "named": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        },
        "type": "object",
        "properties": {
            "tree": {"$ref": "#/$defs/node"},
            "id": {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 2}]},
            "who": {"allOf": [{"$ref": "#/$defs/named"}, {"properties": {"age": {"type": "integer"}}}]},
            "one": {"oneOf": [{"const": 1}, {"const": 2}]},
        },
        "required": ["tree", "id", "who", "one"],
    }
    good = [
        '{"tree": {"v": 1, "kids": [{"v": 2}, {"v": 3, "kids": []}]}, "id": 7, "who": {"name": "A", "age": 3}, "one": 1}',
        '{"tree": {"v": 1}, "id": "ab", "who": {"name": "A"}, "one": 2}',
    ]
    bad = [
        '{"tree": {"kids": []}, "id": 7, "who": {"name": "A"}, "one": 1}',
        '{"tree": {"v": 1}, "id": "abc", "who": {"name": "A"}, "one": 1}',
        '{"tree": {"v": 1}, "id": 7, "who": {"age": 3}, "one": 1}',
        '{"tree": {"v": 1}, "id": 7, "who": {"name": "A"}, "one": 3}',
    ]
    assert_grammar(exp(schema), good, bad)
    assert "oneOf (only one branch matches)" in grammar(exp(schema)).left


class Node(BaseModel):
    name: str
    children: list[Node] = []
    weight: float | None = None


class Tree(BaseModel):
    root: Node
    count: int


def test_a_recursive_pydantic_model():
    good = [
        '{"root": {"name": "x", "children": [{"name": "y", "weight": null}]}, "count": 2}',
        '{"root": {"name": "x"}, "count": -3}',
    ]
    bad = ['{"root": {"name": "x"}, "count": 2.5}', '{"count": 2, "root": {"name": "x"}}', '{"root": {}, "count": 1}']
    assert_grammar(exp(Tree), good, bad)


def test_keywords_a_grammar_cannot_say_are_left_to_the_checker():
    schema = {
        "type": "object",
        "properties": {
            "email": {"type": "string", "format": "email", "pattern": "@"},
            "n": {"type": "integer", "multipleOf": 3, "maximum": 9},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        },
        "required": ["email"],
        "minProperties": 2,
    }
    left = grammar(exp(schema)).left
    assert set(left) == {"format", "pattern", "multipleOf", "maximum", "uniqueItems", "minProperties"}


def test_what_no_grammar_can_hold_is_an_export_error():
    with pytest.raises(ExpectationError, match="not read"):  # loading the schema refuses it first
        JsonFormat().grammar({"$ref": "https://example.com/s.json"})
    with pytest.raises(ExportError, match="another document"):  # and so does the grammar
        json_grammar({"$ref": "https://example.com/s.json"})
    with pytest.raises(ExportError, match="accepts no value"):
        JsonFormat().grammar({"type": "object", "properties": {"a": False}, "required": ["a"]})
    with pytest.raises(ExportError, match="exclude each other"):
        JsonFormat().grammar({"allOf": [{"type": "string"}, {"type": "integer"}]})


@pytest.mark.parametrize(
    ("schema", "sample"),
    [
        (CONTACT, '{"firstName": "J", "lastName": "S", "email": "e"}'),
        (None, '{"a": [1, -2.5e3, true, null], "b": {"c": "d"}}'),
        ({"type": "array", "items": {"enum": ["x", 1]}, "maxItems": 2}, '["x", 1]'),
    ],
)
def test_a_text_the_grammar_matches_passes_check(schema, sample):
    assert assert_subset(exp(schema), [sample]) > 5  # some edits are accepted, and each passes
