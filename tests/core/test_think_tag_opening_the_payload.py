"""A payload whose text opens with a think tag the reply opens no think block with: after a
no-break space (or another white space a think block never follows) the tag is text, but
the payload, its white space stripped, opens with it, and read again it is a think block
set aside (fuzz seed 24601, repro html-heal_idempotent-f1aa92bf7e: '\\xa0<think></think>'
passed as '<think></think>', which then had no payload). Which was meant cannot be told."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, check, heal


@pytest.mark.parametrize("expect", ["EXPECT HTML", "EXPECT XML", "EXPECT XML root=response"])
@pytest.mark.parametrize("space", ["\xa0", "\u3000", "\u2028"])
def test_a_think_tag_after_unusual_white_space_is_not_taken_as_the_payload(expect: str, space: str) -> None:
    reply = f"{space}<think></think>"
    result = check(reply, expect)
    assert not result.ok
    assert [v.code for v in result.violations] == [f"{expect.split()[1].lower()}.think_inside"]
    with pytest.raises(HealError):
        heal(reply, expect)


def test_html_markup_after_such_a_tag_is_refused_too() -> None:
    # it passed as '<think>x</think><p>a</p>', which checked again gives '<p>a</p>'
    result = check("\xa0<think>x</think><p>a</p>", "EXPECT HTML")
    assert [v.code for v in result.violations] == ["html.think_inside"]


def test_a_think_block_the_format_keeps_as_payload_still_passes() -> None:
    # with root=response a <reasoning> block opening the reply is part of the payload
    result = check("<reasoning>r</reasoning>\n<answer>a</answer>", "EXPECT XML root=response")
    assert result.ok
    assert result.text == "<response><reasoning>r</reasoning>\n<answer>a</answer></response>"


def test_a_think_block_opening_the_reply_is_still_set_aside() -> None:
    result = check(" <think>x</think><p>a</p>", "EXPECT HTML")
    assert result.ok and result.text == "<p>a</p>"
