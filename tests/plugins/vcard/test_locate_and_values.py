"""locate (fences, BEGIN…END in prose) and the values counted (through check)."""

from __future__ import annotations

import pytest

from formatbook_core import ExpectationError, check, get_format

VCARD = get_format("vcard")
CARD = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\nORG:Analytical Engines\\, Ltd.;Research\r\n"
    "TITLE:Chief Mathematician\r\nEMAIL:ada@example.org\r\nTEL:+44 20 7946 0000\r\nBDAY:1815-12-10\r\n"
    "ADR:;;12 St James's Square;London;;SW1Y 4JH;United Kingdom\r\nCATEGORIES:math,poetry\r\n"
    "NOTE:Wrote the first program\\, and notes on it.\r\nEND:VCARD"
)


def located(reply: str) -> list[str]:
    return [reply[s:e] for s, e in VCARD.locate(reply)]


@pytest.mark.parametrize("tag", ["vcard", "VCF", "vcf"])
def test_fences(tag):
    reply = f"Here you go:\n```{tag}\n{CARD}\n```\nAnything else?"
    assert located(reply)[0] == CARD
    assert check(reply, "EXPECT VCARD").verdict == "healed"  # the prose set aside


def test_prose_around_begin_end_is_set_aside():
    reply = (
        f"Sure! Here is the card.\n{CARD}\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nFN:B\r\nEND:VCARD\r\nImport it in your app."
    )
    spans = located(reply)
    assert spans[0].startswith("BEGIN:VCARD") and spans[0].endswith("END:VCARD\r\n") and spans[0].count("BEGIN") == 2
    result = check(reply, "EXPECT VCARD")
    assert result.ok and [r.kind for r in result.repairs] == ["located"]
    assert [s.text.strip() for s in result.set_aside] == ["Sure! Here is the card.", "Import it in your app."]
    assert len(result.value) == 2


def test_cards_in_several_fences_are_one_payload():
    reply = (
        "First:\n```vcard\nBEGIN:VCARD\nVERSION:4.0\nFN:Ada\nEND:VCARD\n```\n"
        "Second:\n```vcard\nBEGIN:VCARD\nVERSION:4.0\nFN:Alan\nEND:VCARD\n```\nDone."
    )
    result = check(reply, "EXPECT VCARD")
    assert result.ok and [c.fn.value for c in result.value] == ["Ada", "Alan"]
    assert {"located", "prose"} <= {r.kind for r in result.repairs}
    assert "Second:" in [s.text for s in result.set_aside]


def test_think_block_and_cut_reply():
    reply = "<think>BEGIN:VCARD is what they want</think>\nOK:\nBEGIN:VCARD\nVERSION:4.0\nFN:Ada\nNOTE:cut he"
    assert located(reply)[0].startswith("BEGIN:VCARD\nVERSION")
    result = check(reply, "EXPECT VCARD")
    assert result.ok and "truncated_card" in [r.kind for r in result.repairs]


def test_prose_only_gets_the_whole_reply():
    assert located("  no card here ") == ["no card here"]


def test_extract_values_text_only():
    values = VCARD.extract_values(CARD)
    assert values == [
        "Ada Lovelace",
        "Lovelace",
        "Ada",
        "Analytical Engines, Ltd.",
        "Research",
        "Chief Mathematician",
        "12 St James's Square",
        "London",
        "United Kingdom",
        "math",
        "poetry",
        "Wrote the first program, and notes on it.",
    ]


def test_scopes_through_check():
    result = check(CARD, 'EXPECT VCARD\nEXPECT MAX 8 WORDS IN "NOTE"')
    assert result.ok and result.counts == {'words IN "NOTE"': 8}
    result = check(CARD, 'EXPECT VCARD\nEXPECT MAX 7 WORDS IN "note"')
    assert not result.ok and result.violations[0].code == "count.max"
    result = check(CARD, 'EXPECT VCARD\nEXPECT MAX 3 WORDS IN "TITLE"')
    assert result.ok and result.counts == {'words IN "TITLE"': 2}
    result = check(CARD, 'EXPECT VCARD\nEXPECT MAX 3 WORDS IN "X-MISSING"')
    assert not result.ok and result.violations[0].code == "count.scope_missing"
    # emails, phones and dates are not counted; names, org, title, address, note are
    result = check(CARD, "EXPECT VCARD\nEXPECT MAX 100 WORDS")
    # 2 (FN) + 2 (N) + 4 (ORG) + 2 (TITLE) + 7 (ADR, postal code left out) + 2 (CATEGORIES) + 8 (NOTE)
    assert result.counts == {"words": 27}


def test_scope_must_be_a_property_name():
    with pytest.raises(ExpectationError):
        check(CARD, 'EXPECT VCARD\nEXPECT MAX 3 WORDS IN "/note"')


def test_guidance_is_short_and_says_the_forms():
    text = VCARD.guidance()
    assert "BEGIN:VCARD" in text and "VERSION" in text and "YYYYMMDD" in text and "FN" in text
    assert len(text.splitlines()) < 20
    # the example in the guidance is itself a valid card
    example = "\r\n".join(
        line for line in text.splitlines() if line[:1].isupper() and ":" in line and " " not in line.split(":")[0]
    )
    assert VCARD.is_valid(example), VCARD.validate(example)


@pytest.mark.parametrize("lead", ["\u00a0", "\u00a0\u00a0", " \t\u00a0", "\u3000"])
@pytest.mark.parametrize("before", ["", "Here:\n", "Here:\r\n\r\n"])
def test_a_card_indented_by_any_blanks_is_that_card(lead: str, before: str) -> None:
    # a no-break space before BEGIN:VCARD after prose hid the card (the reply failed)
    card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann Lee\r\nEND:VCARD"
    reply = f"{before}{lead}{card}\r\nBye"
    result = check(reply, "EXPECT VCARD")
    assert result.ok, result.violations
    assert result.text.startswith("BEGIN:VCARD") and "FN:Ann Lee" in result.text
    assert "Bye" not in result.text
