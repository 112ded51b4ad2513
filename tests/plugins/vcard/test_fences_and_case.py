"""Issue 9, the vCard side of fuzz repro icalendar-heal_idempotent-e01d148471: the names are
compared in any case (``BEGIN:VcArD`` opens a card), the ``END:VCARD`` the healer adds is
upper case and stays under a second heal, and a Markdown fence line inside a card is taken
out (a listed ``fence`` repair, as the fences around a card), never joined to the value
before it (it was: ``FN:A\\n`````). A card cut off after the last ``END:VCARD`` is located
with the cards before it."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core import heal as pipeline_heal

VCARD = get_format("vcard")
EXPECT = "EXPECT VCARD"


def test_a_fence_line_in_a_card_is_set_aside_not_joined() -> None:
    text = "BEGIN:VcArD\nVERSION:4.0\nFN:A\n```\nNOTE:x\nEND:VcArD\n"
    healed = VCARD.heal(text)
    assert healed.text == "BEGIN:VcArD\r\nVERSION:4.0\r\nFN:A\r\nNOTE:x\r\nEND:VcArD\r\n"
    assert "fence" in {r.kind for r in healed.repairs} and not healed.set_aside
    assert VCARD.heal(healed.text).text == healed.text


def test_a_fence_line_after_a_note_is_not_part_of_it() -> None:
    text = "BEGIN:VCARD\nVERSION:4.0\nFN:A\nNOTE:call me\n~~~\nEND:VCARD\n"
    healed = VCARD.heal(text)
    assert "NOTE:call me\r\nEND:VCARD" in healed.text
    assert "fence" in {r.kind for r in healed.repairs}


def test_the_added_end_is_upper_case_and_stable() -> None:
    once = pipeline_heal("BEGIN:VcArD\nVERSION:4.0\nFN:A\n", EXPECT)
    assert once.text == "BEGIN:VcArD\r\nVERSION:4.0\r\nFN:A\r\nEND:VCARD\r\n"
    assert VCARD.is_valid(once.text)
    assert pipeline_heal(once.text, EXPECT).text == once.text


def test_the_fuzz_repro_shape_in_vcard() -> None:
    # the iCalendar repro's shape with cards that have a name: healed once, then unchanged
    text = "BEGIN:VcArD\nVERSION:4.0\nFN:A\n```\nEND:VcArD\nBEGIN:VcArD\nVERSION:4.0\nFN:B\n"
    once = pipeline_heal(text, EXPECT)
    assert once.text == (
        "BEGIN:VcArD\r\nVERSION:4.0\r\nFN:A\r\nEND:VcArD\r\nBEGIN:VcArD\r\nVERSION:4.0\r\nFN:B\r\nEND:VCARD\r\n"
    )
    assert pipeline_heal(once.text, EXPECT).text == once.text


def test_a_card_cut_off_after_a_closed_one_is_healed_with_it() -> None:
    # before: the stretch ended at the last END:VCARD, and card B was set aside as prose
    text = "BEGIN:VCARD\nVERSION:4.0\nFN:A\nEND:VCARD\nBEGIN:VCARD\nVERSION:4.0\nFN:B\n"
    once = pipeline_heal(text, EXPECT)
    assert once.text.endswith("FN:B\r\nEND:VCARD\r\n") and not once.set_aside
    assert "truncated_card" in {r.kind for r in once.repairs}


def test_a_cut_off_card_that_cannot_be_healed_leaves_the_closed_ones() -> None:
    # cut before its FN: no card can be made of it; the closed card passes, the rest is listed
    text = "BEGIN:VCARD\nVERSION:4.0\nFN:A\nEND:VCARD\nBEGIN:VCARD\nVERSION:4.0\n"
    once = pipeline_heal(text, EXPECT)
    assert once.text == "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEND:VCARD\r\n"
    assert [s.text for s in once.set_aside] == ["BEGIN:VCARD\nVERSION:4.0\n"]
