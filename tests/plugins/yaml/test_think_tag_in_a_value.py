"""Issue 9's last sub-case: ``<think>`` inside a quoted YAML value is data. An opening think
tag opens a think block only at the start of the reply or of a line (after blanks); mid-line
it is text, so the value keeps it and the keys after it are kept (values checked by hand)."""

from __future__ import annotations

import pytest

from formatbook_core import check


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('a: "<think>"\nb: 2', {"a": "<think>", "b": 2}),
        ('- "<think>"\n- b', ["<think>", "b"]),
        ('a: "x <think> y"\nb: 2', {"a": "x <think> y", "b": 2}),
        ("a: '<Thinking>' # <reasoning>\nb: 2", {"a": "<Thinking>", "b": 2}),
    ],
)
def test_a_think_tag_inside_a_quoted_value_is_data(reply: str, value: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok, result.violations
    assert result.value == value


def test_a_think_block_at_the_start_of_a_line_is_still_set_aside() -> None:
    result = check("<think>maybe a: 1</think>\na: 2\n<think>done", "EXPECT YAML")
    assert result.ok and result.value == {"a": 2}
