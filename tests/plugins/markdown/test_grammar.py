"""Markdown's grammar export: a contract's section skeleton as GBNF and Lark, checked with
Lark, llguidance and xgrammar on the bundled replies and damaged ones, and the subset rule
over single-character edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from formatbook_core import Expectations, ExportError
from formatbook_core.exports import grammar
from formatbook_core.testing.grammars import accepts
from formatbook_markdown import MarkdownFormat
from tests.grammar_cases import assert_grammar, assert_subset

REPLIES = Path(__file__).parents[3] / "examples" / "replies"
CONTRACT = str(
    REPLIES / "contracts" / "answer.md"
)  # Short answer (text), Reasoning (ordered), Assumptions (list, optional)


def exp(level=1, contract=CONTRACT) -> Expectations:
    return Expectations(format="markdown", schema=contract, options={"level": level})


def reply(name: str) -> str:
    return (REPLIES / name).read_text()


def test_level_1_accepts_the_bundled_reply_and_refuses_the_damaged_ones():
    good = [
        reply("pass-answer-level1.md"),
        "## Short answer\nYes.\n\n## Reasoning\n1. Because.",
        "## Short answer\n\nYes, and\nmore.\n\nA second paragraph.\n\n## Reasoning\nNone\n\n## Assumptions\n- a\n- b\n",
    ]
    bad = [
        reply("healed-answer-glued.md"),
        reply("healed-answer-missing-section.md"),
        reply("pass-answer-level2.md"),  # the fence is no part of a level-1 reply
        "## Reasoning\n1. x\n\n## Short answer\nYes.",  # the contract's order
        "## Short answer\nYes.",  # a required section missing
        "## Short answer\nYes.\n\n## Reasoning\n- not numbered",  # the kind
        "## Short answer\n\n## Reasoning\n1. x",  # an empty section
        "Sure!\n\n## Short answer\nYes.\n\n## Reasoning\n1. x",  # a preamble
        "## Short answer\nYes. ## Reasoning\n\n## Reasoning\n1. x",  # a heading glued mid-line
        "## Short answer\n<think>hm</think>Yes.\n\n## Reasoning\n1. x",
        "## Short answer\nYes.  \n\n## Reasoning\n1. x",  # white space ending a line
        "## Short answer\n**Reasoning:** yes\n\n## Reasoning\n1. x",  # a bold label reads as a heading
        "## Short answer\nYes\n---\n\n## Reasoning\n1. x",  # a setext underline
    ]
    assert_grammar(exp(1), good, bad)


def test_level_2_is_one_fenced_markdown_block():
    good = [reply("pass-answer-level2.md"), "```markdown\n## Short answer\nYes.\n\n## Reasoning\n1. x\n```"]
    bad = [
        reply("pass-answer-level1.md"),
        reply("healed-answer-level2-outside.md"),
        reply("fail-answer-too-long.md")[:-5],
    ]
    assert_grammar(exp(2), good, bad)


def test_level_3_uses_the_same_skeleton_lists_with_dashes_and_numbers():
    assert_grammar(
        exp(3), [reply("pass-answer-level2.md")], ["```markdown\n## Short answer\nYes.\n\n## Reasoning\n* x\n```"]
    )


def test_a_contract_without_an_empty_value_and_only_optional_sections():
    contract = "## Output format\n- Summary — text (optional)\n- Steps — list (optional)\n"
    e = exp(1, contract)
    good = ["## Summary\nShort.", "## Steps\n- one", "## Summary\nShort.\n\n## Steps\n- one\n- two\n"]
    bad = ["", "## Summary\nNone\n\n## Steps\n", "Just text."]
    engines = assert_grammar(e, good, [])
    for text in bad:
        assert not any(accepts(engines, text).values()), text


def test_without_a_contract_plain_markdown_blocks_the_samples_of_the_format():
    good = [*MarkdownFormat.samples, "# A\n\n- x\n1. y\n\n| a | b |\n| :-- | --: |\n| 1 | 2 |"]
    bad = [
        "",
        "<think>x</think>y",  # set aside
        "| a | b |\n| - |\n| 1 | 2 |",  # a separator of another width: repaired
        "```markdown\n# A\n```",  # a container: unwrapped below level 2
        "\ufeff# A",  # an invisible character before a heading: removed
    ]
    assert_grammar(Expectations(format="markdown"), good, bad)
    fenced = "```markdown\n# Title\n\nText.\n```"
    assert_grammar(Expectations(format="markdown", options={"level": 2}), [fenced], [MarkdownFormat.samples[0]])


def test_a_contract_requiring_a_table_is_an_export_error():
    table = "## Output format\n- Answer — text\n\nTables (required):\n- (Name, Cost — table)\n"
    assert not exp(1, table).loaded_schema.tables_optional
    with pytest.raises(ExportError, match="asks for a table"):
        grammar(exp(1, table))


@pytest.mark.parametrize("level", [1, 2])
def test_a_text_the_grammar_matches_passes_check(level):
    sample = "## Short answer\nYes.\n\n## Reasoning\n1. A b.\n\n## Assumptions\n- c"
    if level == 2:
        sample = f"```markdown\n{sample}\n```"
    assert assert_subset(exp(level), [sample]) > 5


@pytest.mark.parametrize("sample", [MarkdownFormat.samples[0], MarkdownFormat.samples[2], "# A\n\n- x\n1. y"])
def test_without_a_contract_a_text_the_grammar_matches_passes_check(sample):
    assert assert_subset(Expectations(format="markdown"), [sample]) > 5
