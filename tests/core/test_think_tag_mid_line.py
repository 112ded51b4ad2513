"""An opening think tag opens a think block only where a model writes one: at the start of
the reply, of a line (after spaces or tabs) or right after a block. Mid-line it is text, so a
value, an HTML paragraph or a sentence that holds ``<think>`` is data and is never cut there;
check() and a strict StreamGuard agree (values checked by hand). JSON keeps its own rule."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check

CASES = [
    ('a: "<think>"\nb: 2', "YAML", {"a": "<think>", "b": 2}),
    ('- "<think>"\n- b', "YAML", ["<think>", "b"]),
    ('a: "x <think> y"\nb: 2', "YAML", {"a": "x <think> y", "b": 2}),
    ('a,b\n"<think>",2', "CSV", [{"a": "<think>", "b": "2"}]),
    ("<p>Hello <think>world</think> there</p>", "HTML", "<p>Hello <think>world</think> there</p>"),
    ("hi <think> there", "TEXT", "hi <think> there"),
    ('{"a": "<think>", "b": 2}', "JSON", {"a": "<think>", "b": 2}),
]


@pytest.mark.parametrize(("reply", "fmt", "value"), CASES)
def test_a_mid_line_think_tag_is_data(reply: str, fmt: str, value: object) -> None:
    result = check(reply, f"EXPECT {fmt}")
    assert result.ok, result.violations
    assert result.value == value
    assert not result.repairs  # valid as it stands: nothing set aside
    guard = StreamGuard(f"EXPECT {fmt}", strict=True)
    for ch in reply:  # one character a chunk: a tag split across every chunk boundary
        assert guard.feed(ch).ok
    assert guard.finish().ok


def test_markdown_keeps_a_sentence_about_think_tags() -> None:
    result = check("use <think> tags", "EXPECT MARKDOWN")
    assert result.ok and result.value.outline.preamble == "use <think> tags"
    guard = StreamGuard("EXPECT MARKDOWN", strict=True)
    assert all(guard.feed(ch).ok for ch in "use <think> tags")


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("<think>a: 1</think>\nb: 2", {"b": 2}),  # at the start of the reply
        ("  <Thinking>a: 1</thinking>\nb: 2", {"b": 2}),  # after blanks, any case
        ("b: 2\n\t<reasoning>cut off", {"b": 2}),  # at the start of a line, unclosed
        ("<think>x</think> <think>y</think>\nb: 2", {"b": 2}),  # right after a block
    ],
)
def test_a_think_block_where_a_model_writes_one_is_set_aside(reply: str, value: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok and result.value == value
