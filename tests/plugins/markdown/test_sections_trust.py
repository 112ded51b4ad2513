"""Never a section filled with the empty value while its text is there (issue 25, issue 30).

A variant of a section's name as its heading (``## Short answer (TL;DR)``, a glued
``## Short answer Yes. ## Reasoning``), or a heading naming no section while one is
missing (``## Answer``), fails rather than filling the section with ``None``; emoji around
a name are decoration; invisible characters before a heading are removed (issue 30); a
contract that says "in this order" is checked in that order; L3 keeps the model's
numbering; a stricter level never passes what a looser one fails."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import Expectations, StreamGuard, check
from formatbook_markdown import enforce_flex_md, parse_output_format_spec

from .helpers import SPEC
from .test_properties import PIECES


def _check(reply: str, level: int = 1, spec: object = SPEC):
    return check(reply, Expectations(format="markdown", schema=spec, options={"level": level}))


def _sections(result) -> dict[str, str]:
    return {name: s.md for name, s in result.value.sections_by_name.items()}


MISPLACED = [
    "## Short answer (TL;DR)\nYes.\n\n## Reasoning\n1. Because.",
    "## Short answer — in brief\nYes.\n\n## Reasoning\n1. Because.",
    "## Short answer Yes. ## Reasoning\n1. Because.",
    "## Short answer Yes.\r\n## Reasoning\r\n1. Because.\r\n",
    "## Answer\nYes.\n\n## Reasoning\n1. Because.",
    "## Antwort\nJa.\n\n## Reasoning\n1. Weil.",
    "## Short answer\nYes.\n\n## Why\n1. Because.",
    "```markdown\n## Answer\nYes.\n\n## Reasoning\n1. Because.\n```",
    "<think>hm</think>\n## TL;DR\nYes.\n\n## Reasoning\n1. Because.",
]


@pytest.mark.parametrize("reply", MISPLACED)
@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_section_is_not_filled_while_its_text_is_under_another_heading(reply: str, level: int) -> None:
    result = _check(reply, level)
    assert not result.ok, _sections(result)
    assert "markdown.section_misplaced" in [v.code for v in result.violations]


@pytest.mark.parametrize("reply", MISPLACED)
def test_streaming_agrees(reply: str) -> None:
    guard = StreamGuard(Expectations(format="markdown", schema=SPEC))
    for i in range(0, len(reply), 5):
        guard.feed(reply[i : i + 5])
    assert not guard.finish().ok


def test_a_missing_section_with_no_text_elsewhere_is_still_filled() -> None:
    result = _check("## Short answer\nYes.\n")
    assert result.ok and _sections(result) == {"Short answer": "Yes.", "Reasoning": "None"}
    # a sub-heading inside a section is the section's text, not a stray heading
    result = _check("## Short answer\nYes.\n\n### Detail\nMore.\n")
    assert result.ok and _sections(result)["Reasoning"] == "None"


@pytest.mark.parametrize(
    "reply",
    [
        "## 📝 Short answer\nYes.\n\n## 🧠 Reasoning\n1. Because.",
        "## Short answer ✅\nYes.\n\n## 🧠️ Reasoning\n1. Because.",
        "**📝 Short answer:** Yes.\n\n**🧠 Reasoning:**\n1. Because.",
        "# 👉 Short answer\r\nYes.\r\n\r\n# 🤔 Reasoning\r\n1. Because.\r\n",
    ],
)
@pytest.mark.parametrize("level", [1, 3])
def test_emoji_around_a_name_are_decoration(reply: str, level: int) -> None:
    result = _check(reply, level)
    assert result.ok, result.violations
    assert _sections(result) == {"Short answer": "Yes.", "Reasoning": "1. Because."}


@pytest.mark.parametrize("mark", ["\ufeff", "\u200b", "\u2060", "\x00", "\x7f", "\u200e", "\ufeff\u200b"])
@pytest.mark.parametrize(
    "reply",
    [
        "{m}## Short answer\nYes.\n\n## Reasoning\n1. Because.",
        "{m}## Short answer\r\nYes.\r\n\r\n{m}## Reasoning\r\n1. Because.\r\n",
        "<think>x</think>\n{m}## Short answer\nYes.\n\n## Reasoning\n1. Because.",
        "```markdown\n{m}## Short answer\nYes.\n\n## Reasoning\n1. Because.\n```",
        "{m}**Short answer:** Yes.\n\n**Reasoning:**\n1. Because.",
    ],
)
def test_an_invisible_character_before_a_heading_does_not_hide_it(mark: str, reply: str) -> None:
    """Issue 30: the section was filled with None, ok=True."""
    result = _check(reply.format(m=mark))
    assert result.ok, result.violations
    assert _sections(result) == {"Short answer": "Yes.", "Reasoning": "1. Because."}
    assert "invisible_removed" in [r.kind for r in result.repairs]


@pytest.mark.parametrize(
    "mark",
    [
        "\u034f",  # combining grapheme joiner (Mn, default-ignorable)
        "\ufe0f",  # variation selector 16 (Mn)
        "\u3164",  # Hangul filler (Lo, default-ignorable)
        "\u00a0",  # no-break space (Zs)
        "\u3000",  # ideographic space (Zs)
        "\x0b",  # vertical tab: str.splitlines broke the line there, markdown-it does not
        "\x0c",  # form feed
        "\x85",  # next line (C1)
        "\u202e",  # right-to-left override, after indenting spaces below
    ],
)
@pytest.mark.parametrize(
    "reply",
    [
        "{m}## Short answer\nYes.\n\n## Reasoning\n1. Because.",
        "## Short answer\nYes.\n\n{m}## Reasoning\n1. Because.",
        "  {m}## Short answer\r\nYes.\r\n\r\n {m} ## Reasoning\r\n1. Because.\r\n",
        "\t{m}**Short answer:** Yes.\n\n{m}{m}**Reasoning:**\n1. Because.",
    ],
)
def test_what_shows_nothing_before_a_heading_does_not_hide_it(mark: str, reply: str) -> None:
    """Issue 30, held out: marks and spaces outside Cf/Cc, a mark after indenting spaces,
    and a break str.splitlines sees where markdown-it sees none each filled a section
    with None (ok=True) while its heading was there."""
    result = _check(reply.format(m=mark))
    assert result.ok, result.violations
    assert _sections(result) == {"Short answer": "Yes.", "Reasoning": "1. Because."}
    assert "invisible_removed" in [r.kind for r in result.repairs]


@pytest.mark.parametrize(
    "mark", ["\u200b", "\ufeff", "\u2060", "\x00", "\x7f", "\u00ad", "\u061c", "\U000e0001", "\u202e"]
)
@pytest.mark.parametrize(
    "reply",
    [
        "#{m}# Short answer\nYes.\n\n## Reasoning\n1. Because.",
        "##{m} Short answer\nYes.\n\n## Reasoning\n1. Because.",
        "#{m}#{m} Short answer\r\nYes.\r\n\r\n#{m}{m}# Reasoning\r\n1. Because.\r\n",
        "## Short answer\nYes.\n\n{m}#{m}# Reasoning\n1. Because.",
        "  #{m}# Short answer\nYes.\n\n## Reasoning\n1. Because.",
        "*{m}*Short answer:** Yes.\n\n_{m}_Reasoning:__\n1. Because.",
        "```markdown\n##{m} Short answer\nYes.\n\n## Reasoning\n1. Because.\n```",
    ],
)
@pytest.mark.parametrize("level", [1, 3])
def test_an_invisible_character_inside_a_heading_marker_does_not_hide_it(mark: str, reply: str, level: int) -> None:
    """Issue 30, held out: an invisible character between the '#' of a heading's marker,
    or between the marker and its blank, made the line a paragraph: the section was
    filled with None (ok=True) while its heading and text were there."""
    text = reply.format(m=mark)
    result = _check(text, level)
    assert result.ok, result.violations
    assert _sections(result) == {"Short answer": "Yes.", "Reasoning": "1. Because."}
    assert "invisible_removed" in [r.kind for r in result.repairs]
    guard = StreamGuard(Expectations(format="markdown", schema=SPEC, options={"level": level}))
    for i in range(0, len(text), 3):
        assert guard.feed(text[i : i + 3])
    assert guard.finish().ok


@pytest.mark.parametrize(
    "reply",
    [
        "#\u200b#hashtag and more\n\n## Reasoning\n1. Because.",  # no blank after the marks: no heading
        "#\u200b####### Short answer\nYes.\n\n## Reasoning\n1. Because.",  # seven marks: no heading
        "x#\u200b# Short answer\nYes.\n\n## Reasoning\n1. Because.",  # a visible character first
    ],
)
def test_invisible_characters_in_what_is_no_heading_stay(reply: str) -> None:
    result = _check(reply)
    assert "invisible_removed" not in [r.kind for r in result.repairs]
    assert not result.ok or _sections(result)["Short answer"] != "Yes."


def test_an_invisible_character_at_the_start_of_a_heading_text_stays() -> None:
    # the line is a heading already: its text is left as it is (the name still matches)
    result = _check("## \u200bShort answer\nYes.\n\n## Reasoning\n1. Because.")
    assert result.ok and _sections(result) == {"Short answer": "Yes.", "Reasoning": "1. Because."}
    assert "invisible_removed" not in [r.kind for r in result.repairs]


def test_a_visible_character_before_a_heading_is_kept() -> None:
    # what a reader sees stays text: the heading is not one, so the section is not filled
    result = _check("x## Short answer\nYes.\n\n## Reasoning\n1. Because.")
    assert "invisible_removed" not in [r.kind for r in result.repairs]
    assert not result.ok or _sections(result)["Short answer"] != "Yes."


def test_an_invisible_character_inside_text_stays() -> None:
    result = _check("## Short answer\n\u200bYes.\n\n## Reasoning\n1. Because.")
    assert result.ok and _sections(result)["Short answer"] == "\u200bYes."


ORDERED = parse_output_format_spec(
    """## Output format
Include these sections in this order:
- Short answer — text (required)
- Reasoning — ordered list (required)
- Assumptions — list (optional)

Empty sections:
- If a section is empty, write `None`.
"""
)


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("## Short answer\nYes.\n\n## Reasoning\n1. a", True),
        ("## Short answer\nYes.\n\n## Reasoning\n1. a\n\n## Assumptions\n- x", True),
        ("## Short answer\nYes.", True),  # Reasoning added at the end: in order
        ("## Reasoning\n1. a\n\n## Short answer\nYes.", False),
        ("## Short answer\nYes.\n\n## Assumptions\n- x\n\n## Reasoning\n1. a", False),
        ("## Reasoning\n1. a", False),  # Short answer would be added after it
    ],
)
@pytest.mark.parametrize("level", [1, 3])
def test_a_contract_in_order_is_checked_in_order(reply: str, ok: bool, level: int) -> None:
    result = _check(reply, level, ORDERED)
    assert result.ok is ok, result.violations
    if not ok:
        assert "markdown.section_order" in [v.code for v in result.violations]
    assert _check("## Reasoning\n1. a\n\n## Short answer\nYes.", level).ok  # SPEC: any order


@pytest.mark.parametrize(
    ("body", "reasoning"),
    [
        ("3. Because.\n4. Then.", "3. Because.\n4. Then."),
        ("1) a\n2) b", "1. a\n2. b"),
        ("- a\n- b", "1. a\n2. b"),
        ("3. a\n- b", "3. a\n4. b"),
        ("1. a\n1. b\n1. c", "1. a\n1. b\n1. c"),
    ],
)
def test_l3_keeps_the_models_numbering(body: str, reasoning: str) -> None:
    result = _check("## Short answer\nYes.\n\n## Reasoning\n" + body, 3)
    assert result.ok, result.violations
    assert _sections(result)["Reasoning"] == reasoning


def test_the_known_l3_idempotence_draw() -> None:
    reply = "\n".join(["## Reasoning", "10.", "   1.", "x", "1."])
    first = enforce_flex_md(reply, SPEC, level=3)
    again = enforce_flex_md(first.repaired_md, SPEC, level=3)
    assert again.repairs == [] and again.repaired_md == first.repaired_md


MORE = [
    *PIECES,
    "## Answer",
    "## Short answer (TL;DR)",
    "\ufeff## Reasoning",
    "## 📝 Short answer",
    "3. x",
    "10.",
    "   1.",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(MORE), max_size=12).map("\n".join))
def test_a_stricter_level_never_passes_what_a_looser_one_fails(reply: str) -> None:
    oks = [enforce_flex_md(reply, SPEC, level=level).ok for level in (1, 2, 3)]
    assert oks == sorted(oks, reverse=True), oks  # once False, False at every stricter level
