"""Properties of the repair plan on generated replies: idempotence (enforcing the
repaired text makes no repair), nothing lost, and a valid reply is left unchanged."""

from __future__ import annotations

import json
import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_markdown import enforce_flex_md, extract_output
from formatbook_markdown.format import MarkdownFormat

from .helpers import SPEC, STRICT_SPEC, assert_nothing_lost

PIECES = [
    "## Short answer",
    "# Reasoning",
    "## **reasoning:**",
    "**Assumptions:**",
    "### Short answer",
    "Yes.",
    "I think... ## Short answer",
    "Because. ## Reasoning",
    "1. Logic",
    "1) step",
    "+ plus",
    "- bullet",
    "  - nested",
    "* star",
    "<think>hmm</think>",
    "```markdown",
    "```",
    "```python",
    "# not a heading",
    "| Option | Cost | Risk |",
    "|---|---|",
    "| A | 1 | low |",
    "| Step | Owner |",
    "|---|---|",
    "| Plan | Ann |",
    "Short answer",
    "======",
    "---",
    "",
    "",
    "None",
    "Some prose here.",
    "~~~",
    "<div>",
    "> quote",
    "    indented code",
    "\\| escaped",
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


def test_empty_value_does_not_join_a_setext_heading_below():
    # found by hypothesis: 'None' written right above a setext underline became part of the
    # heading, so the section stayed empty and a second enforce repaired it again
    reply = "## Short answer\n| Option | Cost | Risk |\n======"
    first = enforce_flex_md(reply, SPEC, level=1)
    assert first.extracted.sections_by_name["Short answer"].md.strip() == "None"
    again = enforce_flex_md(first.repaired_md, SPEC, level=1)
    assert again.repairs == [] and again.repaired_md == first.repaired_md


# --- regressions found by hypothesis and by the wider fuzzing, each its own root cause ---

#: (reply, level, contract) — enforcing the repaired text again changed it or repaired
#: more; each case in fixtures/regressions.json says why ("why")
REGRESSIONS = [
    (case["reply"], case["level"], {"SPEC": SPEC, "STRICT_SPEC": STRICT_SPEC}[case["contract"]])
    for case in json.loads((pathlib.Path(__file__).parent / "fixtures" / "regressions.json").read_text("utf-8"))
]


def test_a_label_before_a_line_it_would_change_stays_bold_text():
    for rest in ("<span>", "2. two", "    code", "[x]: /url"):
        ex = extract_output(f"## Short answer\nYes.\n\n**Reasoning:**\n{rest}\n", SPEC)
        assert "Reasoning" not in ex.sections_by_name, rest
    for rest in ("Because.", "**Yes**, because.", "`x` is set", "2024 was dry"):
        ex = extract_output(f"## Short answer\nYes.\n\n**Reasoning:**\n{rest}\n", SPEC)
        assert ex.sections_by_name["Reasoning"].md == rest, rest


def test_a_narrower_marker_keeps_the_content_column_when_a_line_below_would_join():
    body = "# Short answer\nx\n\n# Reasoning\n1. a\n\n# Assumptions\n1. a\n   more\n10. c\n\n  - x\n"
    r = enforce_flex_md("```markdown\n" + body + "```\n", SPEC, level=3)
    # '1. a' -> '- a' moves its line with it; '10. c' -> '-' would take '  - x' in: padded
    assert "# Assumptions\n- a\n  more\n-   c\n\n  - x\n" in r.repaired_md
    assert r.extracted.sections_by_name["Assumptions"].md.endswith("-   c\n\n  - x")


def test_numbers_are_the_models_and_bullets_follow_the_item_before():
    """Issue 25: the L3 list repair keeps the model's numbering ('1)' becomes '1.', '3. d'
    stays 3); a bullet in an ordered-list section is numbered after the item before it
    (lists differing only by their markers are one)."""
    body = "# Short answer\nx\n\n# Reasoning\n1) a\n\n1. b\n+ c\n\ntext\n\n3. d\n"
    r = enforce_flex_md("```markdown\n" + body + "```\n", SPEC, level=3)
    assert r.ok and [x.kind for x in r.repairs] == ["list_kind"]
    assert "# Reasoning\n1. a\n\n1. b\n2. c\n\ntext\n\n3. d\n" in r.repaired_md


#: issues about the reply as received (not about the repaired text)
# issues about the reply as written, which its repaired text no longer shows
_ABOUT_THE_REPLY = ("markdown.empty", "markdown.no_sections", "markdown.section_misplaced", "markdown.section_repeated")


@pytest.mark.parametrize("reply,level,spec", REGRESSIONS)
def test_regressions_are_idempotent(reply, level, spec):
    first = enforce_flex_md(reply, spec, level=level)
    second = enforce_flex_md(first.repaired_md, spec, level=level)
    assert second.repairs == [], [r.message for r in second.repairs]
    assert second.repaired_md == first.repaired_md
    codes = lambda r: [i.code for i in r.issues if i.code not in _ABOUT_THE_REPLY]  # noqa: E731
    assert codes(second) == codes(first)
    assert_nothing_lost(reply, first, syntax=frozenset({"md"}))


def test_a_label_after_a_label_is_a_heading_too_and_duplicates_merge():
    r = enforce_flex_md("**Assumptions:**\nFirst.\n\n**Assumptions:**\n**Assumptions:**\nSecond.", SPEC, level=1)
    # each label line is a heading; the three equal-depth 'Assumptions' merge in order
    assert r.repaired_md.startswith("## Assumptions\nFirst.\n\n## Assumptions\n## Assumptions\nSecond.\n")
    assert r.extracted.sections_by_name["Assumptions"].md == "First.\n\nSecond."
    assert [x.kind for x in r.repairs].count("heading_from_label") == 3


def test_the_reader_sees_the_labels_the_repair_writes():
    ex = extract_output("**Short answer:**\n**Reasoning:**\n1. Because.", SPEC)
    assert ex.sections_by_name["Short answer"].md == ""
    assert ex.sections_by_name["Reasoning"].md == "1. Because."


def test_deeper_duplicates_do_not_vote_for_the_level_and_stay_deeper():
    reply = "## Short answer\nYes.\n### Short answer\n### Short answer\n### Short answer\n## Reasoning\n1. a"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.repairs == []  # the sections are at level 2; the ### duplicates are sub-headings
    r = enforce_flex_md("### Short answer\nYes.\n## Reasoning\nx\n# Reasoning\n1. a", SPEC, level=1)
    # 'Short answer' (3) and '# Reasoning' (1) count, the tie goes to level 1; '## Reasoning'
    # (a deeper duplicate nested under nothing that moved) must stay below level 1
    assert r.repaired_md == "# Short answer\nYes.\n## Reasoning\nx\n# Reasoning\n1. a\n"
    assert r.extracted.sections_by_name["Reasoning"].md == "1. a"


def test_headings_in_quotes_and_list_items_are_not_unglued():
    for reply in ("> ## Reasoning", "- ## Short answer", "1. Yes. ## Reasoning", "| a ## Reasoning |\n|---|"):
        r = enforce_flex_md("## Short answer\nYes.\n\n## Reasoning\n1. a\n\n" + reply, SPEC, level=1)
        assert "heading_split" not in [x.kind for x in r.repairs], reply


def test_container_fence_is_longer_than_a_fence_behind_a_carriage_return():
    r = enforce_flex_md("## Short answer\rYes.\r```\rcode\r```\r\r## Reasoning\r1. a", SPEC, level=2)
    assert r.repaired_md.startswith("````markdown\n")
    assert r.extracted.sections_by_name["Short answer"].md.startswith("Yes.")


def test_a_broken_table_is_read_as_a_table_before_headings_are():
    reply = "## Short answer\nYes.\n\n## Reasoning\n1. a\n| Option | Cost | Risk |\n|---|---|\n| A | 1 | low |\n---\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    # markdown-it reads the broken table + '---' as a setext heading, which would have ended
    # 'Reasoning'; fixed first, it is a table inside 'Reasoning' and '---' a thematic break
    assert [x.kind for x in r.repairs] == ["table_separator"]
    assert r.extracted.sections_by_name["Reasoning"].table.rows == [["A", "1", "low"]]


def test_text_in_a_hash_column_is_an_issue_not_overwritten():
    body = "## Short answer\nYes.\n\n## Reasoning\n1. a\n\n| Step | # | Owner |\n| --- | --- | --- |\n| Plan | first | Ann |\n"
    r = enforce_flex_md("```markdown\n" + body + "```\n", SPEC, level=3)
    assert [i.code for i in r.issues] == ["markdown.table_order"]
    assert "first" in r.repaired_md
    body = body.replace("first", "7.")
    r = enforce_flex_md("```markdown\n" + body + "```\n", SPEC, level=3)
    assert r.ok and "| # | Step | Owner |\n| --- | --- | --- |\n| 1 | Plan | Ann |" in r.repaired_md


def test_an_open_html_block_at_the_end_is_closed_before_sections_are_added():
    r = enforce_flex_md("# Reasoning\n1. a\n<script>\nx\n\ny", SPEC, level=1)
    assert [x.kind for x in r.repairs] == ["html_closed", "filled"]
    assert r.repaired_md == "# Reasoning\n1. a\n<script>\nx\n\ny\n</script>\n\n# Short answer\n\nNone\n"
    assert r.extracted.sections_by_name["Short answer"].empty
    closed = enforce_flex_md("# Reasoning\n1. a\n<!-- ok -->", SPEC, level=1)
    assert [x.kind for x in closed.repairs] == ["filled"]
