"""The prompt instructions: the elements to use, short."""

from __future__ import annotations

from formatbook_core import Expectations, guidance


def test_guidance_names_elements_and_forbids_markdown():
    text = guidance("EXPECT HTML")
    assert "HTML" in text and "Markdown" in text
    for element in ("<p>", "<ul>", "<li>", "<h2>", "<table>"):
        assert element in text
    assert len(text) < 1200


def test_guidance_names_required_selectors():
    text = guidance(Expectations(format="html", schema={"required": ["h1", "ul > li"]}))
    assert "`h1`" in text and "`ul > li`" in text
