"""Markdown streaming: line endings split across chunks, and the strict stream agreeing
with ``is_valid`` on list items."""

from __future__ import annotations

import pytest

from formatbook_core import get_format

from .helpers import SPEC

FMT = get_format("markdown")


def test_line_endings_split_across_chunks_are_one_line_ending():
    """Issue 9, hardening (was test_hardening.py): 7. streaming work follows the chunk."""
    text = "## Short answer\r\nYes.\r\n\r\n## Reasoning\r\n1. a\r\n"
    for size in (1, 2, 3, 5):
        checker = FMT.stream(SPEC, strict=True)
        assert all(checker.feed(text[i : i + size]) for i in range(0, len(text), size)), size
        assert checker.finish()
    bad = "Preamble.\r\n\r\n## Short answer\r\n"
    for size in (1, 2, 3):
        checker = FMT.stream(SPEC, strict=True)
        statuses = [checker.feed(bad[i : i + size]) for i in range(0, len(bad), size)]
        assert not statuses[-1] and statuses[-1].position == 11, size  # the blank line closing the preamble


@pytest.mark.parametrize(
    "tail",
    [
        "1. Step ## Assumptions\n",
        "1. a\n- ## Reasoning\n",
        "1. a\n2. b\nlazy line ## Assumptions\n",
        "1. a\n\n> quoted ## Assumptions\n",
        "1. a\n* star ## Short answer\n",
    ],
)
def test_the_strict_stream_accepts_what_is_valid(tail):
    """Issue 9, hardening (was test_hardening.py): 9. a section heading inside a list item."""
    reply = "## Short answer\nYes.\n\n## Reasoning\n" + tail
    assert FMT.is_valid(reply, SPEC, level=1)
    checker = FMT.stream(SPEC, strict=True)
    assert all(checker.feed(reply[i : i + 3]) for i in range(0, len(reply), 3))
    assert FMT.can_be_valid(reply, SPEC, level=1)


def test_a_glued_heading_after_the_list_still_fails_the_stream():
    """Issue 9, hardening (was test_hardening.py): 9. a section heading inside a list item."""
    reply = "## Short answer\nYes.\n\n## Reasoning\n1. a\n\nText ## Assumptions\n"
    assert not FMT.is_valid(reply, SPEC, level=1)
    assert not FMT.can_be_valid(reply, SPEC, level=1)


@pytest.mark.parametrize("blank", ["", " ", " \t"])
def test_a_blank_line_of_any_white_space_closes_the_preamble_and_a_list(blank):
    bad = f"Preamble.\n{blank}\n## Short answer\n"
    checker = FMT.stream(SPEC, strict=True)
    statuses = [checker.feed(ch) for ch in bad]
    # falsy once the blank line has ended, at the blank line
    assert [bool(s) for s in statuses].index(False) == len(f"Preamble.\n{blank}") and statuses[-1].position == 10
    # after a blank line a column-0 line ends the list: its glued heading is judged again
    reply = f"## Short answer\nYes.\n\n## Reasoning\n1. a\n{blank}\nText ## Assumptions\n"
    checker = FMT.stream(SPEC, strict=True)
    assert not all(checker.feed(reply[i : i + 3]) for i in range(0, len(reply), 3))
    assert not FMT.is_valid(reply, SPEC, level=1)


@pytest.mark.parametrize("space", ["\u3000", "\u00a0", "\f", " \u3000 "])
def test_a_line_of_other_white_space_is_text_not_a_blank_line(space):
    # markdown-it reads a line of spaces and tabs only as blank: this one continues the list
    # item, so the glued '## Assumptions' is its text, and the reply is valid as written
    reply = f"## Short answer\nYes.\n\n## Reasoning\n1. a\n{space}\nText ## Assumptions\n"
    assert FMT.is_valid(reply, SPEC, level=1)
    for size in (1, 3):
        checker = FMT.stream(SPEC, strict=True)
        assert all(checker.feed(reply[i : i + size]) for i in range(0, len(reply), size))
