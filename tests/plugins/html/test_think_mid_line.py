"""A think tag mid-line in HTML is an element like any other (a think block opens only at a
line's start): healing keeps it and stays idempotent (checked by hand)."""

from __future__ import annotations

from formatbook_core import check, heal


def test_a_mid_line_think_element_is_healed_as_markup() -> None:
    reply = "<div>Hello <think>world</think> there"
    result = check(reply, "EXPECT HTML")
    assert result.ok and result.value == "<div>Hello <think>world</think> there</div>"
    healed = heal(reply, "EXPECT HTML").text
    assert healed == "<div>Hello <think>world</think> there</div>"
    assert heal(healed, "EXPECT HTML").text == healed
