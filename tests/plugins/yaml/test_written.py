"""Valid replies pass with the value as written (issue 25, "a valid reply passes").

A plain number where the schema asks for a string is
the text as written (``version: 3.10`` is ``"3.10"``, ``02134`` is ``"02134"``), and a
violation shows a number as written. Values checked by hand."""

from __future__ import annotations

import pytest

from formatbook_core import Expectations, StreamGuard, check

STRINGS = {
    "type": "object",
    "properties": {
        "version": {"type": "string"},
        "zip": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
}


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("version: 3.10\nzip: 02134", {"version": "3.10", "zip": "02134"}),
        ("version: 1.0\nzip: 2134", {"version": "1.0", "zip": "2134"}),
        ("version: 1e3 # sci", {"version": "1e3"}),
        ("version: 0x1F", {"version": "0x1F"}),
        ("tags: [3.10, 2.50, x]", {"tags": ["3.10", "2.50", "x"]}),
        ("tags:\n  - 3.10\n  - -0.0\r\n", {"tags": ["3.10", "-0.0"]}),
        ("```yaml\nversion: 3.10\n```", {"version": "3.10"}),
    ],
)
def test_a_plain_number_where_a_string_is_asked_is_its_text(reply: str, value: object) -> None:
    result = check(reply, Expectations(format="yaml", schema=STRINGS))
    assert result.ok, result.violations
    assert result.value == value


def test_streaming_agrees_on_the_text() -> None:
    guard = StreamGuard(Expectations(format="yaml", schema=STRINGS))
    for ch in "version: 3.10\n":
        guard.feed(ch)
    result = guard.finish()
    assert result.ok and result.value == {"version": "3.10"}


@pytest.mark.parametrize(
    "reply",
    [
        "version: !!float 3.10",  # the tag chose the type: still a number
        'version: "3.10"\nzip: !!int 2134',
        "version: true",  # a boolean is not a number written as text
    ],
)
def test_a_typed_value_is_not_turned_into_text(reply: str) -> None:
    result = check(reply, Expectations(format="yaml", schema=STRINGS))
    assert not result.ok
    assert result.violations[0].code == "schema.type"


def test_a_violation_shows_the_number_as_written() -> None:
    schema = {"type": "object", "properties": {"version": {"type": "integer"}}}
    result = check("version: 3.10", Expectations(format="yaml", schema=schema))
    assert not result.ok
    assert result.violations[0].message.startswith("3.10 ")
