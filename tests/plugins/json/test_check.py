"""JSON check(): the verdict on whole replies.

A think block inside a JSON payload that follows prose (or sits in a fence's body) fails
the reply with ``json.think_inside``, as it does for a payload opening the reply: the block
may be a note or part of a value, so neither the part before it nor a join across it is the
one reading. Before the fix, ``Sure: {"a": "x", <think>…</think> "b": 2}`` passed with
``{"a": "x"}`` (the part before the block)."""

from __future__ import annotations

import pytest

from formatbook_core import check
from formatbook_json.syntax import JsonSyntaxError, parse_strict


def test_an_error_after_leading_unicode_white_space_points_into_the_text():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): white space around the payload
    (json-guard_agrees-2caa165e29).
    """
    with pytest.raises(JsonSyntaxError) as err:
        parse_strict("\xa0[1,]")
    assert err.value.offset == 4  # the "]" a value should stand before
    assert parse_strict("\xa0[1]\xa0") == [1]


def codes(reply: str) -> tuple[bool, list[str]]:
    result = check(reply, "EXPECT JSON")
    return result.ok, [v.code for v in result.violations]


@pytest.mark.parametrize(
    "reply",
    [
        'Sure: {"a": "x", <think>hmm</think> "b": 2}',
        "Sure: [1, 2, <think>hmm</think> 3]",
        'Sure: {"a": "x", <think>hmm</think> "b": 2}}',  # a surplus bracket after it
        'Sure: {"a": "x", <think>cut off mid-thought',  # an unclosed block runs to the end
        'Sure: {"a": "x <think>hmm</think> y", }',  # inside a string of a broken payload
        'Sure:\n```json\n{"a": "x", <think>hmm</think> "b": 2}',  # unclosed fence body
        'Sure:\n```\n{"a": "x", <think>hmm</think> "b": 2}',  # unclosed untagged fence
        'Sure:\n```json\n{"a": "x", <think>hmm</think> "b": 2}\n```',  # closed fence
        'Sure:\n```js\n{"a": "x", <think>hmm</think> "b": 2}',  # other tag, unclosed
    ],
)
def test_a_think_block_inside_a_later_payload_fails_the_reply(reply):
    """Think block inside a payload after prose (was test_think_inside_prose.py)."""
    assert codes(reply) == (False, ["json.think_inside"])


def test_the_same_payload_opening_the_reply_fails_the_same_way():
    """Think block inside a payload after prose (was test_think_inside_prose.py)."""
    assert codes('{"a": "x", <think>hmm</think> "b": 2}') == (False, ["json.think_inside"])


@pytest.mark.parametrize(
    "reply,expected",
    [
        # a think block outside the payload is still set aside, brackets in it ignored
        ('Sure <think>use [1] or {"a": 0}</think> {"a": 1}', {"a": 1}),
        ('<think>x</think>Here: {"a": 1} <think>{"b": 2}</think>', {"a": 1}),
        ('Here: [1] <think>hmm</think> {"a": 1}', {"a": 1}),
    ],
)
def test_a_think_block_outside_the_payload_is_set_aside(reply, expected):
    """Think block inside a payload after prose (was test_think_inside_prose.py)."""
    result = check(reply, "EXPECT JSON")
    assert result.ok, result.violations
    assert result.value == expected
