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


@pytest.mark.xfail(
    strict=True,
    reason="open: a think tag at the start of a line inside a block scalar or a multi-line quoted "
    "value still opens a think block (the rule is per line, YAML's scalars are not known to the "
    "core), so the payload is cut there and passes with the value cut and later keys dropped; "
    "failing it needs a yaml.think_inside violation (as json.think_inside), not done yet",
)
@pytest.mark.parametrize(
    "reply",
    [
        "a: |\n  x\n  <think>\nb: 2",  # ok, {'a': 'x'}
        "a: |\n  x\n  <think>y</think>\n  z\nb: 2",  # ok, {'a': 'x'}
        'a: "x\n  <think> y"\nb: 2',  # ok, {'a': 'x'}
    ],
)
def test_a_line_start_think_tag_inside_a_value_never_passes_cut(reply: str) -> None:
    result = check(reply, "EXPECT YAML")
    assert not result.ok or "<think>" in str(result.value)
