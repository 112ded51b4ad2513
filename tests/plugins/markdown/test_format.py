"""The markdown format through formatbook: check(), heal(), values, scopes, streaming."""

from __future__ import annotations

import pytest

from formatbook_core import (
    Count,
    ExpectationError,
    Expectations,
    HealError,
    ScopeNotFound,
    check,
    get_format,
    heal,
    parse_expectations,
)

from .helpers import CONTRACT, SPEC, STRICT_SPEC

FMT = get_format("md")


def test_registered_under_name_alias_and_mime():
    assert get_format("markdown") is FMT and get_format("text/markdown") is FMT
    assert FMT.scope_kind == "section name"


def test_check_with_contract_file_and_scoped_count(tmp_path):
    path = tmp_path / "spec.md"
    path.write_text(CONTRACT, encoding="utf-8")
    exp = Expectations(format="markdown", schema=path, counts=[Count("words", max=3, scope="Short answer")])
    r = check("<think>hmm</think>I think... ## Short answer \n Yes it is. ## Reasoning \n 1. Logic", exp)
    assert r.ok and r.verdict == "healed"
    assert r.counts == {'words IN "Short answer"': 3}
    assert [s.kind for s in r.set_aside] == ["think", "preamble"]
    assert r.text == "## Short answer\n Yes it is.\n## Reasoning\n 1. Logic\n"


def test_check_reports_missing_section_without_empty_value():
    r = check("## Short answer\nYes.\n", Expectations(format="markdown", schema=STRICT_SPEC))
    assert not r.ok
    assert [(v.code, v.path) for v in r.violations] == [("markdown.missing_section", ("Reasoning",))]


def test_check_expect_line_with_level(tmp_path):
    (tmp_path / "spec.md").write_text(CONTRACT, encoding="utf-8")
    exp = parse_expectations("EXPECT MARKDOWN spec.md level=2\nEXPECT MAX 5 WORDS", base_dir=tmp_path)
    reply = "## Short answer\nYes.\n\n## Reasoning\n1. Because it is.\n"
    r = check(reply, exp)
    assert r.ok and [x.kind for x in r.repairs] == ["container_wrapped"]
    assert r.text == "```markdown\n" + reply + "```\n"
    assert r.counts == {"words": 4}  # Yes, Because, it, is — headings and markers excluded


def test_filled_sections_count_nothing():
    exp = Expectations(format="markdown", schema=SPEC, counts=[Count("words", max=1)])
    r = check("## Short answer\nYes.\n", exp)
    assert r.ok and r.counts == {"words": 1}
    assert [x.kind for x in r.repairs] == ["filled"]


def test_analyze_violation_codes_and_paths():
    a = FMT.analyze("## Short answer\nYes.\n", SPEC)
    assert [(v.code, v.path) for v in a.violations] == [("markdown.missing_section", ("Reasoning",))]
    assert FMT.analyze("## Short answer\nYes.\n\n## Reasoning\n1. a\n", SPEC).ok


def test_heal_raises_only_when_enforce_cannot_repair():
    with pytest.raises(HealError) as err:
        FMT.heal("## Short answer\nYes.\n", STRICT_SPEC)
    assert err.value.violations[0].code == "markdown.missing_section"
    healed = FMT.heal("**Short answer:**\nYes.\n", SPEC)
    assert [r.kind for r in healed.repairs] == ["heading_from_label", "filled"]


def test_extract_values_without_syntax():
    text = "## Short answer\nYes, **really**.\n\n## Reasoning\n1. See [docs](http://x.org/a).\n2. `code` here\n\n| Option | Cost |\n|---|---|\n| A | 3 |\n\n## Assumptions\nNone\n"
    assert FMT.extract_values(text, SPEC) == ["Yes, really.", "See docs.", "code here", "Option", "Cost", "A", "3"]
    # without a spec, every block counts, headings included
    assert FMT.extract_values("# Title\n\nText *here*.\n") == ["Title", "Text here."]
    assert FMT.extract_values("") == []


def test_extract_scope():
    text = "## Short answer\nYes.\n\n## Reasoning\n1. One.\n2. Two.\n\n## Assumptions\nNone\n\n## Notes\nExtra words.\n"
    assert FMT.extract_scope(text, "Short answer", SPEC) == ["Yes."]
    assert FMT.extract_scope(text, "reasoning:", SPEC) == ["One.", "Two."]
    assert FMT.extract_scope(text, "Assumptions", SPEC) == []
    assert FMT.extract_scope(text, "Notes", SPEC) == ["Extra words."]  # any heading is a scope
    with pytest.raises(ScopeNotFound):
        FMT.extract_scope(text, "Conclusion", SPEC)


def test_can_be_valid_is_false_only_when_certain():
    assert FMT.can_be_valid("", SPEC)
    assert FMT.can_be_valid("## Short answer\nYe", SPEC)
    assert not FMT.can_be_valid("<think>", SPEC)
    assert not FMT.can_be_valid("Intro text.\n\n", SPEC)  # a settled preamble
    assert FMT.can_be_valid("Intro text.\n", SPEC)  # may still become a setext heading
    assert FMT.can_be_valid("Short answer\n===\n", SPEC)
    assert not FMT.can_be_valid("## short answer:\n", SPEC)  # renamed by the plan
    assert not FMT.can_be_valid("Yes. ## Reasoning\n", SPEC)  # glued heading
    assert FMT.can_be_valid("```python\n## short answer:\n", SPEC)  # inside code
    assert FMT.can_be_valid("Intro text.\n\n", None)  # no contract: no preamble rule
    # level 2
    assert FMT.can_be_valid("``", SPEC, level=2)
    assert not FMT.can_be_valid("Here:\n", SPEC, level=2)
    assert not FMT.can_be_valid("```python\n", SPEC, level=2)
    assert FMT.can_be_valid("```markdown\n## Short answer\n", SPEC, level=2)
    assert not FMT.can_be_valid("```markdown\n## Short answer\nx\n```\nThanks!\n", SPEC, level=2)


def test_every_prefix_of_valid_replies_streams():
    replies = [
        ("## Short answer\nYes.\n\n## Reasoning\n1. a\n2. b\n", {}),
        ("```markdown\n## Short answer\nYes.\n\n~~~python\nx = 1\n~~~\n\n## Reasoning\n1. a\n```\n", {"level": 2}),
        ("````markdown\n## Short answer\nSee:\n```\ncode\n```\n## Reasoning\n1. a\n````", {"level": 3}),
    ]
    for reply, opts in replies:
        assert FMT.is_valid(reply, SPEC, **opts), reply
        checker = FMT.stream(SPEC, strict=True, **opts)
        for i, ch in enumerate(reply):
            assert checker.feed(ch), (reply, i)
        final = checker.finish()
        assert final.ok and final.complete
        assert "a" in final.values


def test_a_container_closed_early_by_an_inner_fence_is_invalid():
    # CommonMark: the bare ``` after the python code closes the ```markdown container
    reply = "```markdown\n## Short answer\nYes.\n\n```python\nx = 1\n```\n\n## Reasoning\n1. a\n```\n"
    assert not FMT.is_valid(reply, SPEC, level=2)


def test_relaxed_stream_heals_at_finish():
    checker = FMT.stream(SPEC, strict=False)
    for chunk in ["I think... ## Short", " answer \n Yes. ## Reasoning \n 1. Logic"]:
        assert checker.feed(chunk)
    final = checker.finish()
    assert final.ok and final.values == ("Yes.", "Logic")


def test_guidance_and_bad_level_option():
    assert "Short answer" in FMT.guidance(SPEC, level=1)
    with pytest.raises(ExpectationError):
        _ = Expectations(format="markdown", schema=SPEC, options={"level": "9"}).loaded_schema
    a = FMT.analyze("x", None, level="nine")
    assert [v.code for v in a.violations] == ["markdown.level"]


def test_locate_puts_the_whole_reply_first():
    reply = "Here:\n```markdown\n# T\n```\n"
    spans = FMT.locate(reply)
    assert spans[0] == (0, len(reply))


def test_heal_through_core_keeps_set_aside():
    healed = heal(
        "<think>x</think>\nHello ## Short answer\nYes.\n## Reasoning\n1. a\n", Expectations(format="md", schema=SPEC)
    )
    assert healed.text == "## Short answer\nYes.\n## Reasoning\n1. a\n"
    assert [s.kind for s in healed.set_aside] == ["think", "preamble"]
