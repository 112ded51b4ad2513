"""Markdown healing: glued headings, empty fences and containers, list items with only a
marker and underlined paragraphs heal once (idempotent) into what the reply meant."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import HealError, check, get_format
from formatbook_core.expectations import as_expectations
from formatbook_markdown import enforce_flex_md
from formatbook_markdown.heal.glued import split_glued
from formatbook_markdown.reply.sections import is_empty_value
from formatbook_markdown.values import strip_inline

from .helpers import SPEC

FMT = get_format("markdown")


_ITEM_PIECES = st.sampled_from(
    ["## Short answer", "## Reasoning", "## Assumptions", "x", "", "1.", "-", "2.", "- ", "  -", "1. ", "*", "+"]
    + ["10.", "   1.", "  2.", "1)", "- a", "1. a", "   - b", "    -", "```", "* * *", "-\tx", "\t-", "1.\t", "> -"]
)


def test_glued_headings_split_as_before():
    """Issue 9, hardening (was test_hardening.py): 6. regular expressions."""
    names = {"reasoning": "Reasoning", "short answer": "Short answer"}
    assert split_glued("Yes. ## Reasoning ##", names) == ["Yes.", "## Reasoning"]
    assert split_glued("x ## Short answer ## Reasoning", names) == ["x", "## Short answer", "## Reasoning"]
    assert split_glued("I think ## Short answer Yes. ## Reasoning", names) == [
        "I think ## Short answer Yes.",
        "## Reasoning",
    ]
    assert split_glued("a `## Reasoning`", names) is None
    assert split_glued("a ## Reasoning" + " x" * 100, names) is None


def test_unwrapping_keeps_what_the_pattern_kept():
    """Issue 9, hardening (was test_hardening.py): 6. regular expressions."""
    assert is_empty_value("`None`", "None") and is_empty_value("***None.***", "none")
    assert is_empty_value("``None``", "None") and not is_empty_value("``None`", "None")
    assert not is_empty_value("`" * 4000, "None")
    assert strip_inline("a  \nb\\\nc \nd\n   e") == "a b c  d e"
    assert strip_inline("a  \r\nb") == "a b"


@pytest.mark.parametrize("reply", ["```markdown\n```", "```md\n\n```\n", "~~~markdown\n~~~\n"])
@pytest.mark.parametrize("level", [0, 1, 2, 3])
@pytest.mark.parametrize("spec", [None, SPEC])
def test_an_empty_fence_is_empty_not_healed_to_nothing(reply, level, spec):
    """Issue 9, hardening (was test_hardening.py): 10. small cases."""
    r = enforce_flex_md(reply, spec, level=level)
    assert not r.ok and r.issues[0].code == "markdown.empty"
    assert not FMT.is_valid(reply, spec, level=level)
    with pytest.raises(ValueError):
        FMT.heal(reply, spec, level=level)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ITEM_PIECES, max_size=9), st.sampled_from(["\n", "\r\n"]), st.sampled_from([None, SPEC]))
def test_l3_heal_is_idempotent_on_items_with_only_a_marker(pieces, newline, spec):
    """Issue 9, hardening (was test_hardening.py): 8. many containers and tables: linear."""
    reply = newline.join(pieces)
    try:
        healed = FMT.heal(reply, spec, level=3).text
    except ValueError:
        return
    assert FMT.heal(healed, spec, level=3).text == healed
    assert FMT.is_valid(healed, spec, level=3)


def test_an_empty_container_with_text_around_it_is_no_payload():
    """Issue 9, hardening (was test_hardening.py): 8. many containers and tables: linear."""
    # found by the fuzzer: at L2 the text before an empty ```markdown fence was set aside and
    # heal returned the empty container, which is not valid
    fmt = get_format("markdown")
    with pytest.raises(HealError, match="holds no Markdown"):
        fmt.heal("a\n```markdown", None, level=2)
    assert not check("a\n```markdown", "EXPECT MARKDOWN level=2").ok


@pytest.mark.parametrize("ending", ["\r", "\n", "\r\n"])
def test_a_long_underlined_paragraph_heals_once_whatever_its_line_endings(ending: str) -> None:
    """Issue 9, hardening (was test_hardening.py): 8. many containers and tables: linear."""
    # the blank line put before the underline joined a lone CR into one CRLF ending and was
    # lost, so a second heal added it again (fuzz seed 31337, markdown-contract-9247cc1d8b)
    contract = Path(__file__).parents[3] / "examples" / "replies" / "contracts" / "answer.md"
    exp = as_expectations(f"EXPECT MARKDOWN {contract} level=3")
    reply = f"Short answer{ending}-{ending}a{ending}a{ending}-"
    healed = FMT.heal(reply, exp.loaded_schema, **exp.options).text
    assert FMT.heal(healed, exp.loaded_schema, **exp.options).text == healed
    lines = healed.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    at = lines.index("---")
    assert lines[at - 2 : at] == ["a", ""]  # a blank line between the paragraph and the break
