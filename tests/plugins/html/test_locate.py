"""Where the HTML is found in a reply."""

from __future__ import annotations

import pytest

from formatbook_core import check, get_format, heal

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


@pytest.mark.parametrize(
    "reply",
    [
        "<div>\n<think>x</think>\n<p>a</p>\n</div>",  # was '<div></div>': <p>a</p> dropped
        "<answer>\n<reasoning>hm</reasoning>\n<p>Final</p></answer>",
        "~~~\n<answer>\n<reasoning></reasoning><final></final></answer>",  # fuzz seed 9090, 6c5a6b3f66
    ],
)
def test_html_that_goes_on_after_a_think_block_inside_it_is_read_whole(reply: str) -> None:
    """Found by hand (was test_think_mid_line.py): a think tag mid-line in HTML is an element like any other."""
    # the think block sat between the HTML's first part (closed at the block, as if cut
    # off) and the rest, which was dropped with ok=True
    result = check(reply, "EXPECT HTML")
    body = reply.removeprefix("~~~\n")
    assert result.ok and result.text == body
    assert heal(result.text, "EXPECT HTML").text == body


def test_a_think_block_after_html_with_nothing_after_it_is_set_aside() -> None:
    """Found by hand (was test_think_mid_line.py): a think tag mid-line in HTML is an element like any other."""
    result = check("<p>a</p>\n<think>x</think>\n", "EXPECT HTML")
    assert result.ok and result.text == "<p>a</p>"
