"""Where a piece of markup stands: inside a sentence, or as inline code (the judgement XML
and HTML share, formatbook_core/mentions.py)."""

from __future__ import annotations

import pytest

from formatbook_core.mentions import LOOK, in_code_span, in_sentence


def _at(text: str, piece: str) -> tuple[int, int]:
    start = text.index(piece)
    return start, start + len(piece)


@pytest.mark.parametrize(
    ("text", "inside"),
    [
        ("Wrap it in <b> tags.", True),
        ("Here: <b>x", False),  # an introduction ending with ':'
        ("<b> tags", False),  # nothing before it on its line
        ("Wrap it in <b>", False),  # nothing after it
        ("First line\nWrap it in <b> tags.\nlast", True),
        ("Wrap it in <b>\ntags", False),  # nothing after it on its own line
        ("<i>x</i> <b> y", False),  # the text before ends with a tag
    ],
)
def test_in_sentence(text: str, inside: bool) -> None:
    assert in_sentence(text, *_at(text, "<b>")) is inside


def test_in_sentence_reads_a_bounded_window() -> None:
    text = "x" + " " * (3 * LOOK) + "<b>" + " " * (3 * LOOK) + "y"
    assert not in_sentence(text, *_at(text, "<b>"))


def test_in_code_span() -> None:
    assert in_code_span("Use `<b>` here", *_at("Use `<b>` here", "<b>"))
    assert not in_code_span("Use <b> here", *_at("Use <b> here", "<b>"))
    assert not in_code_span("<b>", 0, 3)
