"""Issue 26: the strict YAML stream judges the values its lines settle against the schema
(settle.py driving the core's PrefixChecker).

A doomed stream stops within 8 characters of the point where no continuation can satisfy
the schema, never before (points counted by hand below); documents the schema accepts
stream to the end, in any chunks; what the stream cannot read reliably is left to
``finish()``."""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import Expectations, StreamGuard
from formatbook_core.data_schema.prefix import PrefixChecker
from tests.core.jsonschema_instances import from_schema

PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 5},
        "age": {"type": "integer", "minimum": 0},
        "color": {"enum": ["red", "green", "blue"]},
        "tags": {"type": "array", "maxItems": 2, "items": {"type": "string"}},
        "address": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "zip": {"type": ["string", "null"]}},
            "required": ["city"],
        },
    },
    "additionalProperties": False,
}
NUMBERS = {"type": "array", "maxItems": 2, "items": {"type": "integer"}}
ITEMS = {"type": "array", "items": {"type": "object", "required": ["id"]}}


def _stream(doc: str, schema: Any, size: int) -> tuple[int | None, int | None, str, bool]:
    """(characters fed when the guard stopped, the position it gave, its reason, ok at the
    end): the first two are None when it streamed to the end."""
    guard = StreamGuard(Expectations(format="yaml", schema=schema), strict=True)
    for i in range(0, len(doc), size):
        status = guard.feed(doc[i : i + size])
        if not status:
            return min(i + size, len(doc)), status.position, status.reason or "", False
    return None, None, "", guard.finish().ok


# (document, schema, the point of no return: the offset of the character after which no
# continuation can satisfy the schema, the keyword that breaks)
DOOMED = [
    # 'n' may begin "name"; "ni" begins no property
    ("age: 3\nnickname: x\n", PERSON, 8, "additionalProperties"),
    # a plain scalar opening with 't' is true or a string: never an integer
    ("age: thirty\n", PERSON, 5, "type"),
    ("age: '36'\n", PERSON, 5, "type"),  # quoted: a string at its quote
    ("color: purple\n", PERSON, 7, "enum"),  # no member begins with 'p'
    ("tags:\n  - a\n  - b\n  - c\n", PERSON, 21, "maxItems"),  # the blank after the third '-'
    ("name: abcdefgh\n", PERSON, 11, "maxLength"),  # the sixth character
    ("name: 'abcdefgh'\n", PERSON, 12, "maxLength"),
    # '-5' and anything it may go on as ('-5.5', '-5e3', '-5 x') is below 0 or no integer
    ("age: -5\nname: x\n", PERSON, 6, "minimum"),
    ("age: 5\n  6\n", PERSON, 9, "type"),  # the next line goes on with it: '5 6' is text
    ("address:\n  - x\n", PERSON, 12, "type"),  # a list where a mapping is asked
    ("tags:\n  x: 1\n", PERSON, 9, "type"),  # a mapping where a list is asked (': ' shows it)
    # the mapping closes when a line returns to its parent's column: no 'city'
    ("address:\n  zip: '1'\nname: x\n", PERSON, 20, "required"),
    ("address:\n    zip: '1'\n\n# note\nage: 3\n", PERSON, 30, "required"),
    ("- 1\n- 2\n- 3\n", NUMBERS, 9, "maxItems"),
    ("- 1\n- x\n", NUMBERS, 6, "type"),
    ("- 1\n-\n- 3\n", NUMBERS, 6, "type"),  # an empty item is null: a line at its column ends it
    ("- name: b\n- id: 2\n", ITEMS, 10, "required"),
    ("- id: 1\n  name: a\n- name: b\n  size: 2\n- id: 3\n", ITEMS, 37, "required"),
]


@pytest.mark.parametrize("size", [1, 3, 64])
@pytest.mark.parametrize(("doc", "schema", "point", "keyword"), DOOMED)
def test_a_doomed_stream_stops_near_its_point_of_no_return(
    doc: str, schema: dict, point: int, keyword: str, size: int
) -> None:
    fed, position, reason, _ok = _stream(doc, schema, size)
    assert fed is not None and position is not None, f"streamed to the end: {doc!r}"
    assert point <= position <= point + 8, (position, reason)
    assert keyword in reason, reason
    if size == 1:  # stopped once the point was written, and at most 8 characters later
        assert point + 1 <= fed <= point + 1 + 8, (fed, reason)


VALID = [
    ("name: Ada\nage: 36\ncolor: red\ntags:\n  - a\n  - b\naddress:\n  city: Paris\n", PERSON),
    ("# a person\n\nname: Ada   # the name\n\nage: 36\ntags:\n- a\n- b\n", PERSON),  # a list at its key's column
    ("name: 'Ada'\nage: 0\naddress:\n    city: \"Paris\"\n    zip: 02134\n", PERSON),
    ("address:\n  city: Paris\n  zip:\ncolor: blue\n", PERSON),  # an empty value is null
    ("address:\n  city: Paris\n  zip: 2134\n", PERSON),  # a plain number where text is asked: its text
    ("name: Ad\n  a\nage: 3\n", PERSON),  # 'Ad a' over two lines
    ("name: |\n  Ada\nage: 3\n", PERSON),
    ("name: >-\n  Ad\n  a\n", PERSON),
    ('name: "Ad\n  a"\n', PERSON),
    ("tags: [a, b]\naddress: {city: Paris}\n", PERSON),  # flow collections: left to the end
    ("address: &home\n  city: Paris\nname: Ada\n", PERSON),
    ("---\nname: Ada\nage: 36\n...\n", PERSON),
    ("name: Ada\r\nage: 36\r\naddress:\r\n  city: Paris\r\n", PERSON),
    ("name: Ada\nage: 36", PERSON),  # no final line break
    ("name: Ada\u00a0\u3000", PERSON),  # white space check() strips at the end: not the name's
    ("- 1\n- 2\n", NUMBERS),
    ("- - 1\n  - 2\n- - 3\n", {"type": "array", "items": NUMBERS}),  # lists in lists, compact
    ("- id: 1\n  name: a\n- id: 2\n", ITEMS),
    ("- id: 1\n  tags:\n  - x\n  - y\n- id: 2\n", ITEMS),
    ("version: 3.10\n", {"properties": {"version": {"type": "string", "enum": ["3.10"]}}}),
    (
        "v: 12\nw: yes\nx: ~\ny: 1e3\nz: 0x1F\n",
        {"additionalProperties": {"type": ["integer", "string", "number", "null"]}},
    ),
    ("a:\n  b:\n    c: 1\n  d: 2\ne: 3\n", {"properties": {"a": {"required": ["b", "d"]}}, "required": ["a", "e"]}),
]


@pytest.mark.parametrize("size", [1, 2, 5, 64])
@pytest.mark.parametrize(("doc", "schema"), VALID)
def test_a_document_the_schema_accepts_streams_to_the_end(doc: str, schema: dict, size: int) -> None:
    assert _stream(doc, schema, size) == (None, None, "", True)


LEFT_TO_FINISH = [
    ("tags: [a, b, c]\n", PERSON),  # a flow collection is not read while streaming
    ("name: &n abcdefgh\n", PERSON),  # an anchor: the value is skipped
    ("name: !!str abcdefgh\n", PERSON),  # a tag
    ("name: |\n  abcdefgh\n", PERSON),  # a block scalar: a string, its text not judged
    ("name: abc\n  defgh\n", PERSON),  # over lines: only its first line is judged
    ("? name\n: abcdefgh\n", PERSON),  # a complex key: nothing more is judged
    ('name: "ab\\tcdefgh"\n', PERSON),  # escapes are not read
    ("address:\n  zip: '1'\n", PERSON),  # the mapping closes with the stream: finish() tells
]


@pytest.mark.parametrize(("doc", "schema"), LEFT_TO_FINISH)
def test_what_is_not_read_reliably_is_left_to_finish(doc: str, schema: dict) -> None:
    assert _stream(doc, schema, 1) == (None, None, "", False)


def test_a_relaxed_stream_judges_at_the_end() -> None:
    guard = StreamGuard(Expectations(format="yaml", schema=PERSON), strict=False)
    assert guard.feed("color: purple\n")
    assert not guard.finish().ok


# --- skip(), the core's event for a value not read ------------------------------------------
def test_skip_counts_an_item_and_judges_nothing_else() -> None:
    check = PrefixChecker({"type": "array", "maxItems": 1, "items": {"type": "integer"}})
    check.start_array()
    assert check.skip()  # a value not read: its type is not judged
    assert not check.skip()  # a second item all the same
    assert check.keyword == "maxItems" and check.pointer == "/1"


def test_skip_keeps_the_mapping_judged() -> None:
    check = PrefixChecker({"properties": {"a": {"type": "integer"}}, "required": ["a", "b"]})
    check.start_object()
    check.start_key()
    check.key("a", True)
    check.end_key()
    assert check.skip()
    check.start_key()
    check.key("c", True)
    check.end_key()
    check.number("1")
    check.end_number()
    assert not check.end_object() and check.keyword == "required" and "'b'" in (check.reason or "")


def test_skip_of_the_whole_value_judges_nothing() -> None:
    check = PrefixChecker({"type": "object"})
    assert check.skip() and check.start_array() and check.end_array()


# --- property: schema-valid values, dumped in block style, stream to the end ----------------
SCHEMAS = [
    PERSON,
    ITEMS,
    {
        "type": "object",
        "properties": {
            "id": {"type": "integer", "minimum": 1, "maximum": 10**6},
            "title": {"type": "string", "minLength": 1, "maxLength": 30},
            "status": {"enum": ["open", "closed", "on hold"]},
            "score": {"type": "number", "minimum": 0, "maximum": 1},
            "done": {"type": "boolean"},
            "notes": {"type": ["string", "null"]},
            "tags": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 8}},
            "owner": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
                "required": ["name"],
                "additionalProperties": False,
            },
        },
        "required": ["id", "title", "status"],
        "additionalProperties": False,
    },
]


def _dump(value: Any, indent: int, offset: int, width: int) -> str:
    from ruamel.yaml import YAML  # noqa: PLC0415 - kept beside the property it serves

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.indent(mapping=indent, sequence=indent + offset, offset=offset)
    yaml.width = width
    out = io.StringIO()
    yaml.dump(value, out)
    return out.getvalue()


@st.composite
def _documents(draw: Any) -> tuple[str, dict, list[int]]:
    schema = draw(st.sampled_from(SCHEMAS))
    value = draw(from_schema(schema))
    indent, offset = draw(st.sampled_from([2, 4])), draw(st.sampled_from([0, 2]))
    text = _dump(value, indent, min(offset, indent), draw(st.sampled_from([20, 80, 4096])))
    sizes = draw(st.lists(st.integers(1, 12), min_size=1, max_size=8))
    return text, schema, sizes


@settings(max_examples=150, suppress_health_check=list(HealthCheck), deadline=None)
@given(_documents())
def test_schema_valid_values_dumped_in_block_style_stream_to_the_end(case: tuple[str, dict, list[int]]) -> None:
    from formatbook_core import check  # noqa: PLC0415

    text, schema, sizes = case
    if not check(text, Expectations(format="yaml", schema=schema)).ok:
        return  # (a dump the reader refuses, e.g. a bare scalar root: nothing to stream)
    plain = StreamGuard(Expectations(format="yaml"), strict=True)
    guard = StreamGuard(Expectations(format="yaml", schema=schema), strict=True)
    pos = k = 0
    while pos < len(text):
        size = sizes[k % len(sizes)]
        piece = text[pos : pos + size]
        if not plain.feed(piece):
            return  # the strict grammar stops it without a schema (an indented root list)
        status = guard.feed(piece)
        assert status, (text, status.reason, status.position)
        pos, k = pos + size, k + 1
    assert guard.finish().ok


@pytest.mark.parametrize("size", [1, 64])
@pytest.mark.parametrize(
    "doc",
    [
        "name: Ada\n\nNote: you can change it later.\n",  # a closing note check() sets aside
        "Here is the YAML data:\nname: Ada\nage: 3\n",  # an introduction ending with a colon
    ],
)
def test_prose_at_the_margin_is_not_judged_as_keys(doc: str, size: int) -> None:
    closed = {"type": "object", "properties": {"name": {"type": "string"}, "age": {}}, "additionalProperties": False}
    assert _stream(doc, closed, size) == (None, None, "", True)
