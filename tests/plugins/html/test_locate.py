"""Where the HTML is found in a reply."""

from __future__ import annotations

import pytest

from formatbook_core import check, get_format

fmt = get_format("html")


def _texts(reply):
    return [reply[s.start : s.end] for s in fmt.locate(reply)]


@pytest.mark.parametrize(
    ("reply", "first"),
    [
        ("Here you go:\n```html\n<p>x</p>\n```\nThanks", "<p>x</p>"),
        ("```HTML\n<ul><li>a</li></ul>\n```", "<ul><li>a</li></ul>"),
        ("```\n<p>bare fence</p>\n```", "<p>bare fence</p>"),
        ("Sure!\n\n<p>Hello <b>there</b></p>\n\nHope this helps.", "<p>Hello <b>there</b></p>"),
        ("<think>I'll write <p>draft</p></think>\n\n<h2>T</h2><p>x</p>\n\nDone.", "<h2>T</h2><p>x</p>"),
        ("Intro text:\n\n<div><p>cut off", "<div><p>cut off"),
        ("Prose.\n\n<p>one</p>\n\nMore prose.\n\n<p>two</p>\n\nBye.", "<p>one</p>\n\nMore prose.\n\n<p>two</p>"),
        # text on the same or an adjacent line belongs to the HTML: an inline fragment
        ("Hello <b>world</b>!", "Hello <b>world</b>!"),
        (
            "Note: figures are estimates.\n<table><tr><td>1</td></tr></table>",
            "Note: figures are estimates.\n<table><tr><td>1</td></tr></table>",
        ),
        ("## Just markdown", "## Just markdown"),
    ],
)
def test_locate(reply, first):
    assert _texts(reply)[0] == first


def test_prose_is_set_aside_not_lost():
    result = check("Sure! Here it is:\n\n<p>Hi</p>\n\nLet me know.", "EXPECT HTML")
    assert result.ok and result.text == "<p>Hi</p>"
    assert "".join(s.text for s in result.set_aside).count("Sure!") == 1
    assert any("Let me know." in s.text for s in result.set_aside)
    assert "located" in [r.kind for r in result.repairs]


def test_a_fence_inside_think_is_a_draft():
    reply = "<think>```html\n<p>draft</p>\n```</think>\n```html\n<p>final</p>\n```"
    assert _texts(reply)[0] == "<p>final</p>"
