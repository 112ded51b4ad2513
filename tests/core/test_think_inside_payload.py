"""A think block on its own lines inside a payload, with more of the payload after it
(found in review at the end of the session of stop 22). YAML and CSV took the part before
the block and set the rest aside: ``ok=True`` without what the reply meant. The core now
refuses a candidate whose other side of a touching think block continues it
(``<format>.think_inside``, as JSON's own ``json.think_inside``); HTML and XML read a think
block inside their markup as an element and Markdown reads through it. In a calendar or a
card, a block between content lines was joined into the value before it; it is set aside."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, check, heal

MESSAGE_END = "continues the payload (a note inside the data, or data thought over: which cannot be told)"


@pytest.mark.parametrize(
    ("expect", "reply", "block"),
    [
        ("EXPECT YAML", "a: 1\n<think>x</think>\nb: 2", (5, 21)),  # was {'a': 1}
        ("EXPECT CSV", "a,b\n1,2\n<think>x</think>\n3,4", (8, 24)),  # was the first row only
        ("EXPECT YAML", "a: 1\n<think>x</think>\nb: 2\n<think>y</think>\nc: 3", (5, 21)),
        ("EXPECT CSV", "a,b\n1,2\n\n<think>x</think>\n\n3,4", (9, 25)),  # blank lines around it
    ],
)
def test_a_think_block_inside_a_payload_fails_the_reply(expect: str, reply: str, block: tuple[int, int]) -> None:
    result = check(reply, expect)
    assert not result.ok
    fmt = expect.split()[1].lower()
    assert [v.code for v in result.violations] == [f"{fmt}.think_inside"]
    assert result.violations[0].message.endswith(MESSAGE_END)
    assert (result.violations[0].span.start, result.violations[0].span.end) == block
    with pytest.raises(HealError):
        heal(reply, expect)


@pytest.mark.parametrize(
    ("expect", "reply", "text"),
    [
        # what follows the block does not continue the payload: prose, set aside as before
        ("EXPECT CSV", "a,b\n1,2\n<think>x</think>\nHope this helps!", "a,b\n1,2"),
        # a block opening the reply: nothing on its other side
        ("EXPECT YAML", "<think>x</think>\na: 1", "a: 1"),
        ("EXPECT CSV", "<think>x</think>\na,b\n1,2", "a,b\n1,2"),
        # markup: kept as an element
        ("EXPECT XML", "<r>\n<think>x</think>\n<b/>\n</r>", "<r>\n<think>x</think>\n<b/>\n</r>"),
    ],
)
def test_a_think_block_that_does_not_split_the_payload_still_passes(expect: str, reply: str, text: str) -> None:
    result = check(reply, expect)
    assert result.ok and result.text == text


@pytest.mark.parametrize(
    ("expect", "reply", "text"),
    [
        # the block's line was joined into PRODID's value (and FN's): now set aside
        (
            "EXPECT ICALENDAR",
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n<think>x</think>\nEND:VCALENDAR",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR",
        ),
        (
            "EXPECT ICALENDAR",  # a property inside the block is no property of the calendar
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n<think>\nSUMMARY:no\n</think>\nEND:VCALENDAR",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR",
        ),
        (
            "EXPECT VCARD",
            "BEGIN:VCARD\nVERSION:4.0\nFN:A\n<think>\nTEL:1\n</think>\nEND:VCARD",
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEND:VCARD\r\n",
        ),
    ],
)
def test_a_think_block_between_content_lines_is_set_aside(expect: str, reply: str, text: str) -> None:
    result = check(reply, expect)
    assert result.ok and result.text == text
    assert [s.kind for s in result.set_aside] == ["think"]
    assert result.set_aside[0].text.startswith("<think>") and result.set_aside[0].text.endswith("</think>")
    assert heal(text, expect).text == text
