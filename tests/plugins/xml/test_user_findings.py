"""Replies a new user checked as models write them, each a bug found in review: the
reply must never pass with data it did not mean."""

from __future__ import annotations

import pytest
from lxml import etree

from formatbook_core import check


def _xml(value: object) -> str:
    return etree.tostring(value, encoding="unicode")  # type: ignore[call-overload]


@pytest.mark.parametrize(
    ("reply", "payload"),
    [
        ("Use the `<b>` tag for bold. Result:\n<root>ok</root>", "<root>ok</root>"),
        ("Wrap it in <answer> tags:\n<answer>42</answer>", "<answer>42</answer>"),
        ("I'll put the answer in an <answer> tag.\n\n<answer>Paris</answer>", "<answer>Paris</answer>"),
    ],
)
def test_a_tag_prose_names_is_not_a_root_that_swallows_the_payload(reply: str, payload: str) -> None:
    # Read as a root never closed, the mention ran to the end of the reply and healing
    # closed it: ok=True with '<answer> tags:\n<answer>42</answer></answer>'.
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload


@pytest.mark.parametrize(
    ("reply", "payload"),
    [
        ("<root><a>1</a><b>2", "<root><a>1</a><b>2</b></root>"),
        ("<answer>The capital is <b>Paris</b> and", "<answer>The capital is <b>Paris</b> and</answer>"),
        ("<item>\n  <item>1</item>", "<item>\n  <item>1</item></item>"),
    ],
)
def test_a_cut_off_root_is_still_closed(reply: str, payload: str) -> None:
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload
