"""Prompt guidance for a Markdown contract: the enricher and levels L0–L3."""

from __future__ import annotations

import itertools

import pytest

from formatbook_markdown.contract.guidance import build_markdown_guidance, enrich_instructions
from formatbook_markdown.contract.level import parse_level
from formatbook_markdown.contract.model import OfsSection, OfsTable, OutputFormatSpec, SpecError

from .helpers import CONTRACT as ISSUE_CONTRACT


def test_enrich_full_spec_matches_the_flexmd_template() -> None:
    assert enrich_instructions(ISSUE_CONTRACT) == (
        "Rules:\n"
        "- If a section is empty, write `None`.\n"
        "- List sections must use '-' bullets (nested allowed).\n"
        "- Ordered-list sections must use numbered items (nested allowed).\n"
        "- Tables must be Markdown pipe tables with the specified columns.\n"
        "- Ordered tables must add a first column named '#' with rows numbered 1..N.\n"
    )


def test_enrich_only_relevant_lines() -> None:
    spec = OutputFormatSpec([OfsSection("A", "list")], [OfsTable(["X", "Y"])], empty_section_value="N/A")
    assert enrich_instructions(spec) == (
        "Rules:\n"
        "- If a section is empty, write `N/A`.\n"
        "- List sections must use '-' bullets (nested allowed).\n"
        "- Tables must be Markdown pipe tables with the specified columns.\n"
    )


def test_enrich_nothing_to_say_is_empty() -> None:
    assert enrich_instructions(OutputFormatSpec([OfsSection("A")], empty_section_value=None)) == ""


def test_enrich_accepts_plain_structures() -> None:
    assert enrich_instructions(
        {"sections": [{"name": "Steps", "kind": "ordered_list"}], "empty_section_value": None}
    ) == ("Rules:\n- Ordered-list sections must use numbered items (nested allowed).\n")


def test_level_0() -> None:
    assert build_markdown_guidance(ISSUE_CONTRACT, 0) == "Reply in Markdown."
    assert build_markdown_guidance(None, 0) == "Reply in Markdown."


def test_level_1_lists_headings_and_empty_value() -> None:
    assert build_markdown_guidance(ISSUE_CONTRACT, 1) == (
        "Reply in Markdown.\n"
        "Include these headings (in any order, any heading level):\n"
        "- Short answer\n"
        "- Reasoning\n"
        "- Assumptions (optional)\n"
        "If a section is empty, write `None` under its heading."
    )


def test_level_1_is_the_default_and_mentions_hints_and_order() -> None:
    spec = OutputFormatSpec(
        [OfsSection("Verdict", hint="one word")], empty_section_value=None, section_order_matters=True
    )
    assert build_markdown_guidance(spec) == (
        "Reply in Markdown.\n"
        "Include these headings (in this order, any heading level):\n"
        "- Verdict — one word\n"
        "Do not leave a section empty."
    )


def test_level_2_adds_one_fence() -> None:
    text = build_markdown_guidance(ISSUE_CONTRACT, 2)
    assert text.startswith(build_markdown_guidance(ISSUE_CONTRACT, 1) + "\n")
    assert text.endswith(
        "Put the whole reply inside one fenced Markdown block (```markdown ... ```), with nothing outside it."
    )
    assert "bullet" not in text and "#" not in text.replace("```", "")


def test_level_3_adds_kind_rules() -> None:
    text = build_markdown_guidance(ISSUE_CONTRACT, 3)
    assert text == build_markdown_guidance(ISSUE_CONTRACT, 2) + (
        "\nRules:\n"
        "- \"Assumptions\": '-' bullet items (nesting allowed).\n"
        '- "Reasoning": numbered items 1. 2. 3. (nesting allowed).\n'
        "- Table: a pipe table with columns Option | Cost | Risk.\n"
        "- Ordered table (by Owner): a pipe table with columns # | Step | Owner; the # column numbers rows 1..N.\n"
        "- Add tables only if needed."
    )


def test_level_3_only_needed_rules() -> None:
    prose_only = build_markdown_guidance(OutputFormatSpec([OfsSection("A"), OfsSection("B")]), 3)
    assert "Rules:" not in prose_only
    assert "bullet" not in prose_only and "numbered" not in prose_only and "table" not in prose_only
    lists = build_markdown_guidance(OutputFormatSpec([OfsSection("A", "list"), OfsSection("B", "list")]), 3)
    assert '"A", "B": \'-\' bullet items' in lists
    assert "numbered" not in lists and "table" not in lists
    required_table = build_markdown_guidance(
        OutputFormatSpec([OfsSection("A")], [OfsTable(["X"])], tables_optional=False), 3
    )
    assert required_table.endswith("- Table: a pipe table with columns X.\n- Include every table.")


def test_guidance_grows_with_level() -> None:
    texts = [build_markdown_guidance(ISSUE_CONTRACT, level) for level in range(4)]
    for shorter, longer in itertools.pairwise(texts):
        assert longer.startswith(shorter)
        assert len(longer) > len(shorter)


@pytest.mark.parametrize("level, expected", [("2", 2), ("L3", 3), ("l0", 0), (" 1 ", 1), (3, 3)])
def test_level_spellings(level, expected: int) -> None:
    assert parse_level(level) == expected


@pytest.mark.parametrize("level", [4, -1, True, "4", "two", None, 1.0, ""])
def test_invalid_level_is_value_error(level) -> None:
    with pytest.raises(ValueError, match="level"):
        build_markdown_guidance(ISSUE_CONTRACT, level)


def test_unreadable_spec_is_spec_error() -> None:
    with pytest.raises(SpecError):
        build_markdown_guidance("- A — paragraph", 1)
    with pytest.raises(SpecError):
        enrich_instructions(42)


def test_empty_and_huge_specs() -> None:
    with pytest.raises(SpecError):
        build_markdown_guidance("", 1)
    spec = OutputFormatSpec([OfsSection(f"S{i}", "list") for i in range(20000)])
    text = build_markdown_guidance(spec, 3)
    assert text.count("\n- S") == 20000
    assert text.endswith("(nesting allowed).")
