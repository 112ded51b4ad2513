"""A think tag mid-line in HTML is an element like any other (a think block opens only at a
line's start): healing keeps it and stays idempotent (checked by hand)."""

from __future__ import annotations

import pytest

from formatbook_core import check, heal


def test_a_mid_line_think_element_is_healed_as_markup() -> None:
    reply = "<div>Hello <think>world</think> there"
    result = check(reply, "EXPECT HTML")
    assert result.ok and result.value == "<div>Hello <think>world</think> there</div>"
    healed = heal(reply, "EXPECT HTML").text
    assert healed == "<div>Hello <think>world</think> there</div>"
    assert heal(healed, "EXPECT HTML").text == healed


@pytest.mark.parametrize(
    "reply",
    [
        "<div>\n<think>x</think>\n<p>a</p>\n</div>",  # was '<div></div>': <p>a</p> dropped
        "<answer>\n<reasoning>hm</reasoning>\n<p>Final</p></answer>",
        "~~~\n<answer>\n<reasoning></reasoning><final></final></answer>",  # fuzz seed 9090, 6c5a6b3f66
    ],
)
def test_html_that_goes_on_after_a_think_block_inside_it_is_read_whole(reply: str) -> None:
    # the think block sat between the HTML's first part (closed at the block, as if cut
    # off) and the rest, which was dropped with ok=True
    result = check(reply, "EXPECT HTML")
    body = reply.removeprefix("~~~\n")
    assert result.ok and result.text == body
    assert heal(result.text, "EXPECT HTML").text == body


def test_text_after_a_think_block_after_finished_html_fails_the_reply() -> None:
    # HTML text is HTML: read together, '<p>a</p>' and 'Thanks' are one fragment, so the
    # core cannot tell a closing remark from more of the payload (html.think_inside)
    result = check("<p>a</p>\n<think>x</think>\nThanks", "EXPECT HTML")
    assert not result.ok and [v.code for v in result.violations] == ["html.think_inside"]
    result = check("<p>a</p>\n<think>x</think>\n<p>b</p>", "EXPECT HTML")  # was '<p>a</p>'
    assert not result.ok and [v.code for v in result.violations] == ["html.think_inside"]


def test_a_think_block_after_html_with_nothing_after_it_is_set_aside() -> None:
    result = check("<p>a</p>\n<think>x</think>\n", "EXPECT HTML")
    assert result.ok and result.text == "<p>a</p>"
