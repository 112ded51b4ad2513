"""A violation about a number shows the number as the reply wrote it (issue 25).

Finding: ``{"version": 3.10}`` under ``{"type": "integer"}`` said ``3.1 is not of type
'integer'``: the message named the parsed value, a number the reply never wrote (and the
model asked to fix it would look for ``3.1``). YAML already showed ``3.10``. Only a
message opening with the number's ``repr`` is rewritten, and only its opening.
"""

from __future__ import annotations

import pytest

from formatbook_core import Expectations, StreamGuard, check

INTEGER = {"type": "object", "properties": {"v": {"type": "integer"}}}
BOOLEAN = {"type": "object", "properties": {"v": {"type": "boolean"}}}


def messages(reply: str, schema: dict) -> list[str]:
    result = check(reply, Expectations(format="json", schema=schema))
    assert not result.ok
    return [v.message for v in result.violations]


@pytest.mark.parametrize(
    ("reply", "schema", "message"),
    [
        ('{"v": 3.10}', INTEGER, "3.10 is not of type 'integer'"),
        ('{"v": 2.500}', INTEGER, "2.500 is not of type 'integer'"),
        ('{"v": 1.0e5}', BOOLEAN, "1.0e5 is not of type 'boolean'"),
        ('{"v": 1E2}', BOOLEAN, "1E2 is not of type 'boolean'"),
        ('{"v": 1e400}', BOOLEAN, "1e400 is not of type 'boolean'"),  # a Decimal('1E+400')
        ('{"v": -2.5E+400}', BOOLEAN, "-2.5E+400 is not of type 'boolean'"),
        ('{"v": 1.5e-400}', BOOLEAN, "1.5e-400 is not of type 'boolean'"),  # read as 0.0
        ('{"v": 0.10}', {"properties": {"v": {"enum": [1, 2]}}}, "0.10 is not one of [1, 2]"),
        ('{"v": 10.50}', {"properties": {"v": {"maximum": 5}}}, "10.50 is greater than the maximum of 5"),
    ],
)
def test_the_message_opens_with_the_number_as_written(reply: str, schema: dict, message: str) -> None:
    assert messages(reply, schema) == [message]


def test_nested_paths_arrays_and_the_root() -> None:
    schema = {"properties": {"a": {"items": {"properties": {"b": {"type": "integer"}}}}}}
    assert messages('{"a": [{"b": 1}, {"b": 2.50}]}', schema) == ["2.50 is not of type 'integer'"]
    assert sorted(messages("[1, 1.10, 2.0, 3.250]", {"items": {"type": "integer"}})) == [
        "1.10 is not of type 'integer'",
        "3.250 is not of type 'integer'",
    ]
    assert messages("1.10", {"type": "integer"}) == ["1.10 is not of type 'integer'"]
    keyed = {"properties": {"a/b": {"properties": {"~k": {"type": "integer"}}}}}
    assert messages('{"a/b": {"~k": 7.70}}', keyed) == ["7.70 is not of type 'integer'"]


def test_paths_and_other_messages_are_unchanged() -> None:
    result = check(
        '{"v": 2.50, "w": [3.10]}',
        Expectations(format="json", schema={"properties": {"v": {"const": 1}, "w": {"type": "object"}}}),
    )
    found = {v.path: v.message for v in result.violations}
    assert found[("v",)] == "1 was expected"  # opens with no value: as jsonschema says it
    assert found[("w",)] == "[3.1] is not of type 'object'"  # a container: not a number's text


def test_a_duplicate_key_never_shows_the_other_number() -> None:
    # the last member is the value (2.5); the first one's text (1.0) must not be shown
    assert messages('{"v": 1.0, "v": 2.50}', BOOLEAN) == ["2.5 is not of type 'boolean'"]


def test_a_healed_payload_shows_the_healed_text() -> None:
    # leading zeros healed: the payload says 7, so does the message
    result = check('{"v": 007}', Expectations(format="json", schema=BOOLEAN))
    assert result.text == '{"v": 7}' and [v.message for v in result.violations] == ["7 is not of type 'boolean'"]
    # a syntax repair around the number keeps its text
    result = check("Here:\n```json\n{'v': 3.10,}\n```", Expectations(format="json", schema=INTEGER))
    assert [v.message for v in result.violations] == ["3.10 is not of type 'integer'"]


def test_the_stream_guard_says_the_same() -> None:
    guard = StreamGuard(Expectations(format="json", schema=INTEGER), strict=True)
    guard.feed('{"v": 3.10}')
    result = guard.finish()
    assert not result.ok and result.violations[0].message == "3.10 is not of type 'integer'"
