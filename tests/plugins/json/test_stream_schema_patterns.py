"""Issue 26: StreamGuard stops a stream whose ``pattern``, ``patternProperties`` or
``propertyNames`` no continuation can satisfy within 8 characters of that point, never
before, relaxed and strict; documents that satisfy the patterns stream to the end."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from formatbook_core import Expectations, StreamGuard
from formatbook_core.data_schema import load_schema
from tests.core.jsonschema_instances import from_schema
from tests.plugins.json.test_stream_schema_prefix import assert_stopped_near

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]{3}-\\d{2,4}$"},
        "mail": {"type": "string", "pattern": "^[a-z]+@[a-z]+\\.(com|org)$"},
        "note": {"type": "string", "pattern": "ok"},  # searched: only the string's end decides
        "tags": {
            "type": "object",
            "propertyNames": {"pattern": "^[a-z]+$", "maxLength": 6},
            "additionalProperties": {"type": "integer"},
        },
    },
    "patternProperties": {"^x-[a-z]+$": {"type": "string"}, "^n\\d+$": {"type": "integer"}},
    "additionalProperties": False,
    "required": ["code"],
}

# (class, document, the offset of the first character after which every continuation
# fails, counted by hand)
DOOMED = [
    ("pattern, a digit for a letter", '{"code": "AB1-12"}', 12),
    ("pattern, a fifth digit", '{"code": "ABC-12345"}', 18),
    ("pattern, ended too soon", '{"code": "ABC-1", "n1": 2}', 15),  # the closing quote
    ("pattern, a wrong domain", '{"mail": "bo@ex.net", "code": "ABC-12"}', 16),  # "n" after "."
    ("patternProperties, a digit", '{"x-ab1": "s", "code": "ABC-12"}', 6),
    ("patternProperties, a second letter", '{"xy": 1}', 3),  # x may begin x-..., xy nothing
    ("no property and no pattern", '{"cod3": 1}', 5),
    ("patternProperties, a letter after digits", '{"n12a": 1}', 5),  # n begins note and n\d+
    ("propertyNames pattern", '{"code": "ABC-12", "tags": {"ab-": 1}}', 31),
    ("propertyNames maxLength", '{"tags": {"abcdefg": 1}, "code": "ABC-12"}', 17),
    ("searched pattern, at the end", '{"note": "nope", "code": "ABC-12"}', 14),  # the closing quote
]


def _violations(value: Any) -> Any:
    js = load_schema(SCHEMA)
    assert js is not None
    return js.violations(value)


def _stop(doc: str, strict: bool, size: int) -> tuple[int | None, int, str]:
    guard = StreamGuard(Expectations(format="json", schema=SCHEMA), strict=strict)
    for i in range(0, len(doc), size):
        status = guard.feed(doc[i : i + size])
        if not status:
            return status.position, min(i + size, len(doc)), status.reason or ""
    return None, len(doc), ""


def test_the_doomed_documents_are_invalid_and_their_points_counted_right() -> None:
    for name, doc, _point in DOOMED:
        assert _violations(json.loads(doc)), name
    assert '{"code": "ABC-12", "tags": {"ab-'[31] == "-"


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "relaxed"])
@pytest.mark.parametrize("size", [1, 3, 4, 7])
@pytest.mark.parametrize(("name", "doc", "point"), DOOMED, ids=[d[0] for d in DOOMED])
def test_a_doomed_stream_stops_within_8_characters_never_before(
    name: str, doc: str, point: int, strict: bool, size: int
) -> None:
    assert_stopped_near(_stop(doc, strict, size), name, point, size)


def test_the_reason_names_the_pattern_and_the_pointer() -> None:
    reason = _stop('{"code": "AB1-12"}', True, 1)[2]
    assert reason == "/code: pattern: no string beginning 'AB1' matches '^[A-Z]{3}-\\\\d{2,4}$'"
    reason = _stop('{"xy": 1}', True, 1)[2]
    assert reason.startswith("/xy: additionalProperties: no property the schema allows begins with 'xy'")


VALID = [
    '{"code": "ABC-12"}',
    '{"code": "XYZ-9876", "mail": "a@b.org", "note": "is ok here"}',
    '{"x-a": "s", "n7": 1, "code": "QQQ-00", "tags": {"abcdef": 1, "z": 2}}',
    '{"note": "looks ok", "code": "ABC-123"}',
    '{\n  "code": "ABC-1234",\n  "x-zz": "a"\n}',
]


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "relaxed"])
@pytest.mark.parametrize("doc", VALID)
def test_valid_documents_stream_to_the_end(doc: str, strict: bool) -> None:
    assert not _violations(json.loads(doc))
    for size in (1, 4, 9):
        assert _stop(doc, strict, size)[0] is None


@settings(max_examples=40, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_drawn_documents_stream_to_the_end(data: Any) -> None:
    value = data.draw(from_schema(SCHEMA))
    assume(not _violations(value))  # Python's \d takes digits the ECMA engine does not
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=2)):
        for strict in (True, False):
            for size in (1, 4):
                guard = StreamGuard(Expectations(format="json", schema=SCHEMA), strict=strict)
                for i in range(0, len(text), size):
                    status = guard.feed(text[i : i + size])
                    assert status, (text, strict, size, status.reason)
                assert guard.finish().ok
