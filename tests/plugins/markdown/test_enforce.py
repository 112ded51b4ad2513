"""enforce_flex_md on hand-written replies, at every level: what is repaired, what is
reported, and that nothing is lost."""

from __future__ import annotations

import pytest

from formatbook_markdown import SpecError, enforce_flex_md, extract_output, parse_issues_envelope
from formatbook_markdown.reply.blocks import scan

from .helpers import SPEC, STRICT_SPEC, assert_nothing_lost, kinds

FENCE = "```"


def test_the_spec_example_at_l1():
    reply = "I think... ## Short answer \n Yes. ## Reasoning \n 1. Logic"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok
    assert r.extracted.sections_by_name["Short answer"].md == "Yes."
    assert r.extracted.preamble == "I think..."
    assert kinds(r) == ["heading_split", "heading_split", "preamble_set_aside"]
    reasoning = r.extracted.sections_by_name["Reasoning"]
    assert reasoning.list is not None and reasoning.list.ordered
    assert [i.text for i in reasoning.list.items] == ["Logic"]
    assert [(s.kind, s.text, tuple(s.span)) for s in r.set_aside] == [("preamble", "I think...", (0, 10))]
    assert r.output_text == r.repaired_md == "## Short answer\n Yes.\n## Reasoning\n 1. Logic\n"
    assert_nothing_lost(reply, r)


def test_the_spec_example_at_l0_is_accepted_as_is():
    reply = "I think... ## Short answer \n Yes. ## Reasoning \n 1. Logic"
    r = enforce_flex_md(reply, SPEC, level=0)
    assert r.ok and r.repairs == [] and r.repaired_md == reply
    assert r.extracted.sections_by_name == {}  # no heading at all as written


def test_the_spec_example_at_l2_is_wrapped():
    reply = "I think... ## Short answer \n Yes. ## Reasoning \n 1. Logic"
    r = enforce_flex_md(reply, SPEC, level=2)
    assert r.ok
    assert kinds(r) == ["heading_split", "heading_split", "container_wrapped", "preamble_set_aside"]
    assert r.repaired_md == "```markdown\n## Short answer\n Yes.\n## Reasoning\n 1. Logic\n```\n"
    assert_nothing_lost(reply, r)


def test_hash_instead_of_double_hash():
    reply = "# Short answer\nYes.\n\n## Reasoning\n1. Because.\n\n## Assumptions\n- Sunny.\n"
    # as written, Reasoning and Assumptions are children of Short answer
    as_is = enforce_flex_md(reply, SPEC, level=0)
    assert as_is.ok and not as_is.repairs
    assert "Because" in as_is.extracted.sections_by_name["Short answer"].md
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and kinds(r) == ["heading_level"]
    assert r.repaired_md == "## Short answer\nYes.\n\n## Reasoning\n1. Because.\n\n## Assumptions\n- Sunny.\n"
    assert r.extracted.sections_by_name["Short answer"].md == "Yes."
    assert_nothing_lost(reply, r)


def test_sub_headings_move_with_their_section():
    reply = "# Short answer\nYes.\n## Details\nMore.\n\n### Reasoning\n1. a\n\n### Assumptions\n- b\n"
    # section levels: 1, 3, 3 -> level 3; Details (under Short answer) moves by +2 too
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok
    assert r.repaired_md.splitlines()[0] == "### Short answer"
    assert "#### Details" in r.repaired_md
    assert r.extracted.sections_by_name["Short answer"].md == "Yes.\n#### Details\nMore."


def test_bold_pseudo_headings():
    reply = "**Short answer:**\nYes.\n\n**Reasoning:**\n\n1. Because.\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and kinds(r) == ["heading_from_label", "heading_from_label"]
    assert r.repaired_md == "## Short answer\nYes.\n\n## Reasoning\n\n1. Because.\n"
    assert_nothing_lost(reply, r)


def test_bold_labels_are_read_as_headings_without_repair():
    reply = "**Short answer:**\nYes.\n\n**Reasoning**\n\n1. Because.\n\n**Not a section**\n\nText.\n"
    ex = extract_output(reply, SPEC)
    assert ex.sections_by_name["Short answer"].md == "Yes."
    assert ex.sections_by_name["Reasoning"].md == "1. Because.\n\n**Not a section**\n\nText."


def test_names_are_standardised():
    reply = "## 1. short answer:\nYes.\n\n## **Reasoning**\n1. Because.\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and kinds(r) == ["heading_renamed", "heading_renamed"]
    assert r.repaired_md == "## Short answer\nYes.\n\n## Reasoning\n1. Because.\n"


def test_setext_headings():
    reply = "Short answer\n============\nYes.\n\nReasoning\n---------\n1. a\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    # levels 1 and 2 tie: the shallower wins
    assert r.ok and kinds(r) == ["heading_level"]
    assert r.repaired_md == "Short answer\n============\nYes.\n\n# Reasoning\n1. a\n"


def fenced(body: str) -> str:
    return f"{FENCE}markdown\n{body}{FENCE}\n"


def test_plus_bullets_are_fine_at_l1_and_converted_at_l3():
    body = "## Short answer\nYes.\n\n## Reasoning\n1. Because.\n\n## Assumptions\n+ Sunny.\n+ Warm.\n"
    r1 = enforce_flex_md(body, SPEC, level=1)
    assert r1.ok and r1.repairs == []
    r3 = enforce_flex_md(fenced(body), SPEC, level=3)
    assert r3.ok and kinds(r3) == ["list_kind"]
    assert r3.repaired_md == fenced(body.replace("+ ", "- "))
    assert_nothing_lost(fenced(body), r3)


def test_paren_numbering_and_bullets_become_numbers_at_l3():
    body = "## Short answer\nYes.\n\n## Reasoning\n1) First.\n2) Second.\n\n## Assumptions\nNone\n"
    r = enforce_flex_md(fenced(body), SPEC, level=3)
    assert r.ok and kinds(r) == ["list_kind"]
    assert "1. First.\n2. Second." in r.repaired_md
    body2 = "## Short answer\nYes.\n\n## Reasoning\n- First.\n  - a detail\n- Second.\n"
    r2 = enforce_flex_md(fenced(body2), SPEC, level=3)
    assert r2.ok
    # the nested item moves one column with its wider parent marker, so it stays nested
    assert "1. First.\n   - a detail\n2. Second." in r2.repaired_md
    items = r2.extracted.sections_by_name["Reasoning"].list.items
    assert [i.text for i in items] == ["First.", "Second."]
    assert [c.text for c in items[0].children] == ["a detail"]


def test_prose_in_a_list_section_is_reported_at_l3():
    body = "## Short answer\nYes.\n\n## Reasoning\nIt is obvious.\n"
    r = enforce_flex_md(fenced(body), SPEC, level=3)
    assert not r.ok
    assert [(i.code, i.section) for i in r.issues] == [("markdown.section_kind", "Reasoning")]
    env = parse_issues_envelope(r.output_text)
    assert env is not None and env.level == 3
    assert [(i.code, i.section) for i in env.issues] == [("markdown.section_kind", "Reasoning")]


def test_think_blocks_are_set_aside_at_every_level():
    think = "<think>Should the Reasoning be long?</think>"
    body = "## Short answer\nYes.\n\n## Reasoning\n1. x\n"
    for level in (0, 1):
        r = enforce_flex_md(think + "\n" + body, SPEC, level=level)
        assert r.ok and kinds(r) == ["think_set_aside"]
        assert r.repaired_md == body
        assert r.extracted.think == [think]
        assert [(s.kind, tuple(s.span)) for s in r.set_aside] == [("think", (0, len(think)))]
        assert_nothing_lost(think + body, r)
    r2 = enforce_flex_md(think + "\n" + fenced(body), SPEC, level=2)
    assert r2.ok and kinds(r2) == ["think_set_aside"] and r2.repaired_md == fenced(body)


def test_miscounted_separator_is_repaired():
    reply = (
        "## Short answer\nSee the table.\n\n## Reasoning\n1. Cheap first.\n\n"
        "| Option | Cost | Risk |\n|---|---|\n| A | 1 | low |\n"
    )
    assert not any(t.type == "table_open" for t in scan(reply).tokens)  # markdown-it rejects it
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and kinds(r) == ["table_separator"]
    assert "| Option | Cost | Risk |\n| --- | --- | --- |\n| A | 1 | low |" in r.repaired_md
    assert any(t.type == "table_open" for t in scan(r.repaired_md).tokens)
    table = r.extracted.tables[0]
    assert table.columns == ["Option", "Cost", "Risk"] and table.rows == [["A", "1", "low"]]


def test_tables_without_outer_pipes_and_escaped_pipes():
    reply = "## Short answer\nYes.\n\n## Reasoning\n1. x\n\nOption | Cost | Risk\n--|--|--\nA \\| B | 2 | high\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and r.repairs == []
    assert r.extracted.tables[0].rows == [["A | B", "2", "high"]]


def test_ordered_table_gets_its_number_column_at_l3():
    body = (
        "## Short answer\nYes.\n\n## Reasoning\n1. x\n\n| Step | Owner |\n|---|---|\n| Plan | Ann |\n| Build | Bob |\n"
    )
    r = enforce_flex_md(fenced(body), SPEC, level=3)
    assert r.ok and kinds(r) == ["table_numbered"]
    assert "| # | Step | Owner |\n| --- | --- | --- |\n| 1 | Plan | Ann |\n| 2 | Build | Bob |" in r.repaired_md
    table = r.extracted.tables[0]
    assert table.kind == "ordered_table" and table.by == "Owner"
    assert [row[0] for row in table.rows] == ["1", "2"]


def test_table_with_undeclared_columns_is_reported_at_l3():
    body = "## Short answer\nYes.\n\n## Reasoning\n1. x\n\n| Colour | Size |\n|---|---|\n| red | 2 |\n"
    r = enforce_flex_md(fenced(body), SPEC, level=3)
    assert not r.ok and [i.code for i in r.issues] == ["markdown.table_columns"]
    assert enforce_flex_md(body, SPEC, level=1).ok  # columns are an L3 rule


def test_two_fences_at_l2_are_merged_and_prose_set_aside():
    reply = (
        "Here is the answer:\n\n```markdown\n## Short answer\nYes.\n```\n\n"
        "And the reasoning:\n\n```markdown\n## Reasoning\n1. Because.\n```\n"
    )
    r = enforce_flex_md(reply, SPEC, level=2)
    assert r.ok
    assert kinds(r) == ["outside_set_aside", "outside_set_aside", "containers_merged"]
    assert r.repaired_md == "```markdown\n## Short answer\nYes.\n\n## Reasoning\n1. Because.\n```\n"
    assert r.extracted.outside == ["Here is the answer:", "And the reasoning:"]
    assert [s.kind for s in r.set_aside] == ["outside", "outside"]
    assert reply[r.set_aside[1].span.start : r.set_aside[1].span.end] == "And the reasoning:"
    assert_nothing_lost(reply, r)
    # below L2 both fences are unwrapped in place; the prose before the first heading is the preamble
    r1 = enforce_flex_md(reply, SPEC, level=1)
    assert r1.ok
    assert kinds(r1) == ["container_unwrapped", "container_unwrapped", "preamble_set_aside"]
    assert r1.extracted.sections_by_name["Short answer"].md == "Yes.\n\nAnd the reasoning:"
    assert_nothing_lost(reply, r1, syntax=frozenset({"markdown"}))  # the fences' info string


def test_a_container_holding_code_gets_a_longer_fence():
    body = "## Short answer\nRun:\n\n```python\nprint(1)\n```\n\n## Reasoning\n1. x\n"
    r = enforce_flex_md(body, SPEC, level=2)
    assert r.ok and kinds(r) == ["container_wrapped"]
    assert r.repaired_md == "````markdown\n" + body + "````\n"
    again = enforce_flex_md(r.repaired_md, SPEC, level=2)
    assert again.ok and again.repairs == []


def test_lone_markdown_fence_is_unwrapped_below_l2():
    body = "## Short answer\nYes.\n\n## Reasoning\n1. x\n"
    r = enforce_flex_md(fenced(body), SPEC, level=1)
    assert r.ok and kinds(r) == ["container_unwrapped"] and r.repaired_md == body
    r2 = enforce_flex_md(fenced(body), SPEC, level=2)
    assert r2.ok and r2.repairs == [] and r2.repaired_md == fenced(body)


def test_unclosed_container_is_closed_at_l2():
    r = enforce_flex_md("```markdown\n## Short answer\nYes.\n\n## Reasoning\n1. x\n", SPEC, level=2)
    assert r.ok and kinds(r) == ["container_closed"]
    assert r.repaired_md.endswith("1. x\n```\n")


def test_missing_sections_are_filled():
    reply = "## Short answer\nYes.\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and kinds(r) == ["filled"]
    assert r.repaired_md == "## Short answer\nYes.\n\n## Reasoning\n\nNone\n"
    assert r.extracted.sections_by_name["Reasoning"].empty
    assert "Assumptions" not in r.extracted.sections_by_name  # optional: not added


def test_missing_section_without_empty_value_is_a_violation():
    reply = "## Short answer\nYes.\n"
    r = enforce_flex_md(reply, STRICT_SPEC, level=1)
    assert not r.ok
    assert [(i.code, i.section) for i in r.issues] == [("markdown.missing_section", "Reasoning")]
    env = parse_issues_envelope(r.output_text)
    assert env.status == "failed" and env.level == 1
    assert env.issues[0].section == "Reasoning" and "Reasoning" in env.issues[0].message


def test_a_reply_ignoring_the_contract_is_not_passed_off_as_filled():
    r = enforce_flex_md("Sure, the answer is yes.", SPEC, level=1)
    assert not r.ok
    assert [i.code for i in r.issues] == ["markdown.no_sections"]
    assert r.extracted.preamble == "Sure, the answer is yes."


def test_headings_inside_code_are_not_headings():
    reply = "## Short answer\nUse this:\n\n```python\n# Reasoning\nprint('hi')\n```\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and kinds(r) == ["filled"]
    assert "# Reasoning\nprint('hi')" in r.extracted.sections_by_name["Short answer"].md
    assert r.extracted.sections_by_name["Reasoning"].empty


def test_glued_heading_inside_code_is_left_alone():
    reply = "## Short answer\n```\nx = 1 ## Reasoning\n```\n\n## Reasoning\n1. a\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and r.repairs == []


def test_empty_section_gets_the_empty_value():
    reply = "## Short answer\n\n## Reasoning\n1. a\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and kinds(r) == ["empty_value"]
    assert r.repaired_md == "## Short answer\n\nNone\n\n## Reasoning\n1. a\n"


def test_duplicates_merge_at_equal_depth_and_the_shallowest_wins():
    reply = "## Reasoning\n1. a\n\n## Short answer\nYes.\n\n### Reasoning\nnested\n\n## Reasoning\n2. b\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and r.repairs == []
    assert r.extracted.sections_by_name["Reasoning"].md == "1. a\n\n2. b"
    assert r.extracted.sections_by_name["Short answer"].md == "Yes.\n\n### Reasoning\nnested"


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_empty_and_blank_replies_are_not_ok(level):
    for reply in ("", "  \n\t", "<think>only thinking</think>"):
        r = enforce_flex_md(reply, SPEC, level=level)
        assert not r.ok
        assert r.issues[0].code == "markdown.empty"
        assert parse_issues_envelope(r.output_text).issues[0].code == "markdown.empty"


def test_without_a_spec_only_the_level_rules_apply():
    r = enforce_flex_md("Just text.", None, level=1)
    assert r.ok and r.repairs == []
    r2 = enforce_flex_md("Just text.", None, level=2)
    assert r2.ok and r2.repaired_md == "```markdown\nJust text.\n```\n"


def test_bad_level_and_spec_raise_documented_errors():
    with pytest.raises(ValueError):
        enforce_flex_md("x", SPEC, level=4)
    with pytest.raises(SpecError):
        enforce_flex_md("x", "- Short answer — poem\n", level=1)
    assert enforce_flex_md("## Short answer\nx\n## Reasoning\n1. y\n", SPEC, level="L1").ok


def test_crlf_replies_keep_their_line_endings_when_valid():
    reply = "## Short answer\r\nYes.\r\n\r\n## Reasoning\r\n1. a\r\n"
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok and r.repairs == [] and r.repaired_md == reply
    assert r.extracted.sections_by_name["Short answer"].md == "Yes."
