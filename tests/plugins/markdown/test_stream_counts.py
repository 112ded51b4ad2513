"""MAX counts kept while a Markdown reply streams (``stream_values``): a reply whose
settled paragraphs already exceed a section's or the whole reply's MAX is stopped, and the
cases the rule must not stop (check() accepts them) are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from formatbook_core import StreamGuard, check, get_format

CONTRACT = Path(__file__).parents[2] / "core" / "fixtures" / "guard_contract.md"
LEVELS = (0, 1, 2, 3)


def expectations(level: int, *counts: str) -> str:
    return "\n".join([f"EXPECT MARKDOWN {CONTRACT} level={level}", *(f"EXPECT {c}" for c in counts)])


def contained(level: int, body: str) -> str:
    return f"```markdown\n{body}```\n" if level >= 2 else body


def stream(text: str, exp: str, strict: bool = False, size: int = 16):
    """Feed ``text`` in chunks; the first falsy status and how much was fed, or None."""
    guard = StreamGuard(exp, strict=strict)
    for start in range(0, len(text), size):
        status = guard.feed(text[start : start + size])
        if not status:
            return status, start + size
    return None


TEN_WORDS = "one two three four five six seven eight nine ten.\n\n"
LONG_ANSWER = "# Short answer\n" + TEN_WORDS * 50 + "# Reasoning\n1. Because.\n"


@pytest.mark.parametrize("strict", (False, True))
@pytest.mark.parametrize("level", LEVELS)
def test_a_long_level_1_section_is_stopped_within_a_paragraph_of_its_limit(level, strict):
    text = contained(level, LONG_ANSWER)
    exp = expectations(level, 'MAX 50 WORDS IN "Short answer"')
    assert not check(text, exp).ok
    stopped = stream(text, exp, strict=strict)
    assert stopped is not None
    status, fed = stopped
    assert status.reason == '60 words already exceed MAX 50 WORDS IN "Short answer"'
    # the sixth paragraph is settled by the blank line after it: 60 words, not 500
    sixth_end = text.index(TEN_WORDS * 6) + len(TEN_WORDS * 6)
    assert sixth_end - len(TEN_WORDS) < fed <= sixth_end + 16


@pytest.mark.parametrize("level", LEVELS)
def test_the_whole_reply_max_counts_every_section_heading_level(level):
    text = contained(level, "## Short answer\n" + TEN_WORDS * 5 + "## Reasoning\n1. Because.\n")
    exp = expectations(level, "MAX 25 WORDS")
    stopped = stream(text, exp)
    assert stopped is not None
    assert stopped[0].reason == "30 words already exceed MAX 25 WORDS"


@pytest.mark.parametrize("level", LEVELS)
def test_a_reply_within_its_limits_is_not_stopped(level):
    text = contained(level, LONG_ANSWER)
    exp = expectations(level, 'MAX 500 WORDS IN "Short answer"', "MAX 501 WORDS")
    assert check(text, exp).ok  # 500 words in the section, one more in Reasoning
    assert stream(text, exp) is None


def test_below_l1_a_deeper_section_heading_is_not_counted_for_its_section():
    # a later, shallower duplicate takes the section's place ("shallowest wins"), so the
    # words under '## Short answer' may count for no section: check() accepts this reply
    head = "## Short answer\n" + TEN_WORDS * 6
    exp = expectations(0, 'MAX 50 WORDS IN "Short answer"')
    assert check(head + "# Short answer\nYes.\n", exp).ok
    assert stream(head, exp) is None


@pytest.mark.parametrize("level", (1, 2, 3))
def test_a_deeper_section_heading_under_no_heading_counts_for_its_section(level):
    # a later, shallower duplicate would leave its 60 words in no section: check() fails
    # such a reply (markdown.section_repeated), so the words count and the guard stops
    head = "## Short answer\n" + TEN_WORDS * 6
    exp = expectations(level, 'MAX 50 WORDS IN "Short answer"')
    result = check(contained(level, head + "# Short answer\nYes.\n"), exp)
    assert not result.ok
    assert "markdown.section_repeated" in [v.code for v in result.violations]
    stopped = stream(contained(level, head), exp)
    assert stopped is not None
    assert stopped[0].reason == '60 words already exceed MAX 50 WORDS IN "Short answer"'


@pytest.mark.parametrize("level", LEVELS)
def test_a_section_heading_nested_under_another_is_not_counted_for_its_section(level):
    # nested under '# Intro', '## Short answer' stays Intro's child when a shallower
    # duplicate comes later: check() accepts the reply, its 60 words count for no section
    head = "# Intro\nHello.\n\n## Short answer\n" + TEN_WORDS * 6
    exp = expectations(level, 'MAX 50 WORDS IN "Short answer"')
    assert check(contained(level, head + "# Short answer\nYes.\n"), exp).ok
    assert stream(contained(level, head), exp) is None


@pytest.mark.parametrize("level", (1, 2, 3))
def test_the_issue_example_is_stopped_at_the_limit(level):
    # one 500-word line under '## Short answer': its words count as they are written
    text = contained(level, "## Short answer\n" + "word " * 500 + "\n\n## Reasoning\n1. x\n")
    exp = expectations(level, 'MAX 50 WORDS IN "Short answer"')
    assert not check(text, exp).ok
    stopped = stream(text, exp)
    assert stopped is not None
    status, fed = stopped
    assert status.reason.endswith('words already exceed MAX 50 WORDS IN "Short answer"')
    words_fed = text[:fed].count("word")
    assert 50 < words_fed <= 55


def test_below_l1_an_open_paragraph_is_not_counted():
    # a '---' line would make the paragraph a setext heading, which counts nothing:
    # check() accepts this reply, so the 60 words are not counted until a blank line
    head = "# Short answer\nYes.\n\n" + " ".join([TEN_WORDS.strip()] * 6)
    exp = expectations(0, 'MAX 50 WORDS IN "Short answer"')
    assert check(head + "\n---\n", exp).ok
    assert stream(head, exp) is None
    assert stream(head + "\n\n", exp) is not None


@pytest.mark.parametrize("level", (1, 2, 3))
def test_a_long_open_paragraph_counts_as_it_is_written(level):
    # at L1+ a '---' under a 60-word paragraph is a thematic break (underline_as_break),
    # so the paragraph stays in its section: check() fails the reply, and the guard stops
    # it before the paragraph ends
    head = "# Short answer\nYes.\n\n" + " ".join([TEN_WORDS.strip()] * 6)
    exp = expectations(level, 'MAX 50 WORDS IN "Short answer"')
    result = check(contained(level, head + "\n---\n"), exp)
    assert not result.ok
    assert "underline_as_break" in [r.kind for r in result.repairs]
    assert stream(contained(level, head), exp) is not None


@pytest.mark.parametrize("level", (1, 2, 3))
def test_a_short_underlined_line_stays_a_heading(level):
    # twelve words or fewer on one line above '---': a setext heading, as CommonMark says
    head = "# Short answer\nYes.\n\none two three four five six seven eight nine ten eleven twelve"
    exp = expectations(level, 'MAX 1 WORDS IN "Short answer"')
    result = check(contained(level, head + "\n---\n"), exp)
    assert result.ok and "underline_as_break" not in [r.kind for r in result.repairs]
    assert stream(contained(level, head + "\n---\n"), exp) is None


@pytest.mark.parametrize(
    "after",
    (
        "**Short answer:** moved",  # a bold label: sections may move
        "Yes. ## Reasoning",  # a glued heading
        "<!-- a comment -->",  # raw HTML
        "```\ncode\n```",  # a code block
    ),
)
def test_what_the_line_rules_cannot_follow_stops_the_counting(after):
    text = f"# Short answer\n{after}\n\n" + TEN_WORDS * 6
    assert stream(text, expectations(1, 'MAX 50 WORDS IN "Short answer"', "MAX 50 WORDS")) is None


def test_the_checker_keeps_only_level_1_contract_sections():
    fmt = get_format("markdown")
    spec = CONTRACT.read_text()
    checker = fmt.stream(spec, strict=False)
    assert checker.scope_key("Short answer") == "short answer"
    assert checker.scope_key("**short answer:**") == "short answer"
    assert checker.scope_key("Notes") is None
    assert fmt.stream(None, strict=False).scope_key("Short answer") is None
    status = checker.feed("# Short answer\nYes it is.\n\n# Notes\nNo.\n\n")
    assert status.values == ("Yes it is.", "No.")
    assert status.scoped == (("short answer", "Yes it is."),)


def test_a_copy_of_the_checker_settles_on_its_own():
    checker = get_format("markdown").stream(CONTRACT.read_text(), strict=False)
    checker.feed("# Short answer\nYes it")
    clone = checker.copy()
    assert clone.feed(" is.\n\n").scoped == (("short answer", "Yes it is."),)
    assert checker.feed("\n---\n").scoped == ()


L3_SPEC = "## Output format\n- Short answer — text (required)\n- Reasoning — ordered list (required)\n- Notes — list (optional)\n"


@pytest.mark.parametrize(
    ("body", "stops"),
    [
        ("# Reasoning\n- because\n- so\n", True),  # bullets in an ordered list
        ("# Reasoning\n1. because\n\n# Notes\n1. x\n", True),  # numbers in a list
        ("# Reasoning\n1. because\n\n# Notes\n* x\n", True),  # '*' where '-' is declared
        ("# Reasoning\n1. because\n2. so\n\n# Notes\n- x\n", False),  # the declared kinds
        ("# Reasoning\n1. because\n\n* * *\n", False),  # a thematic break is no item
        ("# Intro\n\n## Reasoning\n- nested under Intro: not judged\n", False),
    ],
)
def test_at_l3_the_strict_guard_stops_a_list_of_the_wrong_kind(tmp_path, body, stops):
    # healing converts the markers (list_kind), so only the strict guard stops
    spec = tmp_path / "spec.md"
    spec.write_text(L3_SPEC)
    text = "```markdown\n# Short answer\nYes.\n\n" + body + "```\n"
    exp = f"EXPECT MARKDOWN {spec} level=3"
    assert stream(text, exp, size=4) is None  # the tolerant guard
    strict = stream(text, exp, strict=True, size=4)
    assert (strict is not None) is stops
    if stops:  # and rightly so: the reply is not valid as written, healing converts it
        assert "level 3" in strict[0].reason
        assert "list_kind" in [r.kind for r in check(text, exp).repairs]
