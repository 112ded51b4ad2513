"""Properties of the repair plan on generated replies: idempotence (enforcing the
repaired text makes no repair), nothing lost, and a valid reply is left unchanged."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_markdown import enforce_flex_md
from formatbook_markdown.format import MarkdownFormat

from .helpers import SPEC, assert_nothing_lost

PIECES = [
    "## Short answer", "# Reasoning", "## **reasoning:**", "**Assumptions:**", "### Short answer",
    "Yes.", "I think... ## Short answer", "Because. ## Reasoning", "1. Logic", "1) step", "+ plus",
    "- bullet", "  - nested", "* star", "<think>hmm</think>", "```markdown", "```", "```python",
    "# not a heading", "| Option | Cost | Risk |", "|---|---|", "| A | 1 | low |", "| Step | Owner |",
    "|---|---|", "| Plan | Ann |", "Short answer", "======", "---", "", "", "None", "Some prose here.",
    "~~~", "<div>", "> quote", "    indented code", "\\| escaped",
]

replies = st.lists(st.sampled_from(PIECES), min_size=0, max_size=14).map("\n".join)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(replies, st.sampled_from([0, 1, 2, 3]))
def test_enforce_is_idempotent(reply, level):
    first = enforce_flex_md(reply, SPEC, level=level)
    second = enforce_flex_md(first.repaired_md, SPEC, level=level)
    if first.ok:
        assert second.repairs == [], (reply, first.repaired_md, second.repairs)
        assert second.repaired_md == first.repaired_md


@SETTINGS
@given(replies, st.sampled_from([0, 1, 2, 3]))
def test_nothing_is_lost(reply, level):
    result = enforce_flex_md(reply, SPEC, level=level)
    # fence info strings are syntax; container unwrapping drops them on purpose
    assert_nothing_lost(reply, result, syntax=frozenset({"markdown", "python"}))


@SETTINGS
@given(replies, st.sampled_from([0, 1, 2, 3]))
def test_valid_replies_are_left_unchanged_and_every_prefix_streams(reply, level):
    fmt = MarkdownFormat()
    if not fmt.is_valid(reply, SPEC, level=level):
        return
    healed = fmt.heal(reply, SPEC, level=level)
    assert healed.text == reply and healed.repairs == ()
    checker = fmt.stream(SPEC, strict=True, level=level)
    for i, ch in enumerate(reply):
        assert checker.feed(ch), (reply, i)
    assert checker.finish().ok


@SETTINGS
@given(replies, st.sampled_from([0, 1, 2, 3]))
def test_analyze_agrees_with_enforce(reply, level):
    result = enforce_flex_md(reply, SPEC, level=level)
    valid = MarkdownFormat().is_valid(reply, SPEC, level=level)
    assert valid == (result.ok and not result.repairs)
