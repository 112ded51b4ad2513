"""A tag prose names is not HTML (issue 25: a mention is not a payload).

"Wrap it in <b> tags." passed as HTML, healed by closing the ``<b>`` around the rest of
the sentence. A start tag inside a sentence that nothing closes, or one written as inline
code, is a mention: left out of the payload, as XML leaves it out (the judgement of where
a tag stands is the core's, :mod:`formatbook_core.mentions`)."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check

MENTIONS = [
    "Wrap it in <b> tags.",
    "Wrap it in <b> tags.\r\n",
    "Use `<div>` here.",
    "Setze den Text in <strong>-Tags.",
    "Mettez-le dans des balises <i>.",
    "```html\nWrap it in <em> tags.\n```",
    "<think>maybe <p></think>\nPut the title in an <h1> element!",
    "You can wrap the answer in <span> tags\nand style it with CSS.",
]


@pytest.mark.parametrize("reply", MENTIONS)
def test_prose_naming_a_tag_fails(reply: str) -> None:
    result = check(reply, "EXPECT HTML")
    assert not result.ok, result.value
    assert result.violations[0].code == "html.no_element"


@pytest.mark.parametrize("reply", MENTIONS)
def test_streaming_agrees(reply: str) -> None:
    guard = StreamGuard("EXPECT HTML")
    for i in range(0, len(reply), 4):
        guard.feed(reply[i : i + 4])
    assert not guard.finish().ok


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("Wrap it in <b> tags.\n\n<p>x</p>", "<p>x</p>"),
        ("Wrap it in <b> tags.\r\n\r\n<ul><li>x</li></ul>\r\n", "<ul><li>x</li></ul>"),
        ("Use `<b>` for bold:\n\n<p><b>word</b></p>", "<p><b>word</b></p>"),
        ("<think>use <b></think>\n<p>a</p>", "<p>a</p>"),
    ],
)
def test_the_html_after_a_mention_is_the_payload(reply: str, value: str) -> None:
    result = check(reply, "EXPECT HTML")
    assert result.ok, result.violations
    assert result.value == value


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("Text with <b>bold</b> word.", "Text with <b>bold</b> word."),
        ("Line one<br>line two.", "Line one<br>line two."),
        ("Hello <b>world", "Hello <b>world</b>"),  # cut off by the end of the reply: healed
        ("<div><p>Hello <b>world", "<div><p>Hello <b>world</b></p></div>"),
    ],
)
def test_html_in_sentences_stays_html(reply: str, value: str) -> None:
    result = check(reply, "EXPECT HTML")
    assert result.ok, result.violations
    assert result.value == value


@pytest.mark.parametrize("expect", ["EXPECT HTML", "EXPECT XML"])
@pytest.mark.parametrize(
    "reply",
    ["1. <b> makes text bold.", "- <b> makes text bold.", "Tip! <b> makes text bold.", "Note. <em> tags slant."],
)
def test_a_list_marker_or_a_sentence_end_does_not_introduce_a_mentioned_tag(expect, reply):
    # a sentence's end introduces a JSON payload ("Sure! {...}"), never markup: the tag is
    # still named inside prose, and healing must not close it around the rest of the line
    # (the judgement shared with JSON once dropped these, healed with ok=True)
    assert not check(reply, expect).ok
