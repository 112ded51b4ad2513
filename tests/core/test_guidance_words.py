"""Guidance a model acts on (issue 13): scopes named as fields and sections, pages and
lines said in characters."""

from __future__ import annotations

from pathlib import Path

import pytest

from formatbook_core import guidance
from formatbook_core.prompting import field_name

CONTRACT = Path(__file__).resolve().parents[2] / "examples" / "replies" / "contracts" / "answer.md"


@pytest.mark.parametrize(
    ("pointer", "words"),
    [
        ("/note", 'the field "note"'),
        ("/address/city", 'the field "address.city"'),
        ("/items/0/title", 'the field "items[0].title"'),
        ("/a~1b/c~0d", 'the field "a/b.c~d"'),
        ("/items/01", 'the field "items.01"'),  # not an index: a key that looks like one
        ("#/note", 'the field "note"'),
        ("", "the whole value"),
    ],
)
def test_a_json_pointer_scope_is_named_as_a_field(pointer, words):
    text = guidance(f'EXPECT JSON\nEXPECT MAX 50 WORDS IN "{pointer}"')
    assert f"Write at most 50 words in {words}." in text
    assert f'in "{pointer}"' not in text or pointer == ""


def test_a_markdown_scope_is_named_as_a_section():
    text = guidance(f'EXPECT MARKDOWN {CONTRACT}\nEXPECT MAX 40 WORDS IN "Short answer"')
    assert 'Write at most 40 words in the section "Short answer".' in text


def test_pages_are_said_in_lines_and_characters():
    text = guidance("EXPECT TEXT\nEXPECT MAX 2 PAGES")
    # 2 pages = 2 x 44 lines of 63 characters (docs/counting.md: lines of 63, pages of 44 lines)
    assert "Write at most 2 pages." in text
    assert "88 lines" in text and "5,544 characters" in text
    assert "page" in text and "1 page" not in text


def test_lines_say_how_long_a_line_is():
    assert "63 characters" in guidance("EXPECT TEXT\nEXPECT MAX 5 LINES")


def test_field_names():
    assert field_name(("address", "zip")) == "address.zip"
    assert field_name(("items", 2, "sku")) == "items[2].sku"
    assert field_name(()) == "(the whole value)"
