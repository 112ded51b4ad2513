"""YAML locate: where think blocks end the payload and where a think tag is data.

``<think>`` inside a quoted YAML value is data. An opening think tag opens a think block
only at the start of the reply or of a line (after blanks); mid-line it is text, so the
value keeps it and the keys after it are kept. A tag at a line start, indented inside a
block or quoted value, is that value's text too (values checked by hand against YAML 1.2: a
literal block keeps its line breaks, a quoted one folds them)."""

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
    """Issue 9's last sub-case (was test_think_tag_in_a_value.py)."""
    result = check(reply, "EXPECT YAML")
    assert result.ok, result.violations
    assert result.value == value


def test_a_think_block_at_the_start_of_a_line_is_still_set_aside() -> None:
    """Issue 9's last sub-case (was test_think_tag_in_a_value.py)."""
    result = check("<think>maybe a: 1</think>\na: 2\n<think>done", "EXPECT YAML")
    assert result.ok and result.value == {"a": 2}


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        # the tag sits inside a literal block, indented under its key: the block's text
        ("a: |\n  x\n  <think>\nb: 2", {"a": "x\n<think>\n", "b": 2}),
        ("a: |\n  x\n  <think>y</think>\n  z\nb: 2", {"a": "x\n<think>y</think>\nz\n", "b": 2}),
        ("- |\n  x\n  <think>\n- y", ["x\n<think>\n", "y"]),
        # inside a quoted value over two lines: the line break folds into one space
        ('a: "x\n  <think> y"\nb: 2', {"a": "x <think> y", "b": 2}),
        ("a: 'x\n  <think> y'\nb: 2", {"a": "x <think> y", "b": 2}),
    ],
)
def test_a_line_start_think_tag_inside_a_block_or_quoted_value_is_data(reply: str, value: object) -> None:
    """Issue 9's last sub-case (was test_think_tag_in_a_value.py)."""
    # they passed cut at the tag: {'a': 'x'}, the keys after it dropped
    result = check(reply, "EXPECT YAML")
    assert result.ok, result.violations
    assert result.value == value
    assert result.text == reply


@pytest.mark.parametrize("reply", ["a: 1\n  <think>hmm</think>", "a: 1\n  <think>hmm", "a: 1\n<think>\nhmm"])
def test_a_think_block_after_a_plain_value_is_still_set_aside(reply: str) -> None:
    """Issue 9's last sub-case (was test_think_tag_in_a_value.py)."""
    # a plain value may end before the tag as well as run on through it: the think
    # block after the data is the usual reading
    result = check(reply, "EXPECT YAML")
    assert result.ok and result.value == {"a": 1} and result.text == "a: 1"


def test_data_going_on_indented_after_a_think_block_fails() -> None:
    """Issue 9's last sub-case (was test_think_tag_in_a_value.py)."""
    # the other side, read with its indentation, continues the literal block: cut
    # either way, so neither side is taken
    reply = "a: |\n  x\n<think>y</think>\n  z\nb: 2"
    result = check(reply, "EXPECT YAML")
    assert not result.ok
    assert [v.code for v in result.violations] == ["yaml.think_inside"]


def test_a_think_block_before_data_that_keeps_a_tag_inside_still_splits_it() -> None:
    """Issue 9's last sub-case (was test_think_tag_in_a_value.py)."""
    # 'a: 1' and the data after the think block read together are valid: the block sits
    # inside the payload. The payload after it holds a think tag of its own (kept as the
    # literal block's text), which the search for the block touching the payload skipped to
    reply = "a: 1\n<think>y</think>\nb: |\n  x\n  <think>\n  z\nc: 3"
    result = check(reply, "EXPECT YAML")
    assert [v.code for v in result.violations] == ["yaml.think_inside"]
