"""Healing replies written the way models write vCards. Each healed result is read back
with vobject (independently of the plugin) and every field the reply gave is compared with
the value written here by hand: nothing lost, nothing altered beyond its encoding."""

from __future__ import annotations

import pytest
import vobject

from formatbook_core import check, get_format
from formatbook_core.testing import check_heal_idempotent
from formatbook_vcard.heal.properties import fn_from_name, name_from_fn

VCARD = get_format("vcard")


def healed(reply: str):
    result = check(reply, "EXPECT VCARD")
    assert result.verdict == "healed", result.violations
    cards = list(vobject.readComponents(result.text))
    return result, cards


def kinds(result) -> list[str]:
    return [r.kind for r in result.repairs]


def test_model_style_lf_no_version_no_n_unescaped_iso_date():
    reply = (
        "Here is the contact card you asked for:\n\n"
        "```vcard\n"
        "BEGIN:VCARD\n"
        "FN:Dr. Grace Brewster Hopper\n"
        "ORG:US Navy, Office of Naval Research\n"
        "TITLE:Rear Admiral\n"
        "EMAIL;TYPE=work:grace.hopper@navy.example.mil\n"
        "TEL;TYPE=cell:+1 (202) 555-0143\n"
        "BDAY:1906-12-09\n"
        'NOTE:Invented the first compiler; coined the term "debugging", famously.\n'
        "END:VCARD\n"
        "```\n"
        "Let me know if you need anything else!"
    )
    result, cards = healed(reply)
    assert kinds(result) == ["located", "line_break", "version_added", "escaped", "escaped", "n_derived"]
    (c,) = cards
    assert c.version.value == "3.0"
    assert c.fn.value == "Dr. Grace Brewster Hopper"
    n = c.n.value
    assert (n.family, n.given, n.additional, n.prefix) == ("Hopper", "Grace", "Brewster", "Dr.")
    assert c.org.value == ["US Navy, Office of Naval Research"]
    assert c.title.value == "Rear Admiral"
    assert c.email.value == "grace.hopper@navy.example.mil" and c.email.params["TYPE"] == ["work"]
    assert c.tel.value == "+1 (202) 555-0143" and c.tel.params["TYPE"] == ["cell"]
    assert c.bday.value == "1906-12-09"
    assert c.note.value == 'Invented the first compiler; coined the term "debugging", famously.'
    assert result.set_aside[0].text.startswith("Here is the contact card")
    check_heal_idempotent(VCARD, result.text)


def test_version_4_features_give_4_and_basic_dates():
    reply = "BEGIN:VCARD\nFN:Alan Turing\nKIND:individual\nBDAY:1912-06-23\nANNIVERSARY:1950-10-01T09:00:00Z\nEND:VCARD"
    result, (c,) = healed(reply)
    assert "version_added" in kinds(result) and kinds(result).count("date_basic") == 2
    assert c.version.value == "4.0"
    assert c.bday.value == "19120623" and c.anniversary.value == "19501001T090000Z"
    assert c.kind.value == "individual"
    assert not hasattr(c, "n")  # N is optional in 4.0: nothing invented


def test_truncated_reply_closes_the_card_and_drops_the_cut_line():
    reply = "BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\nTEL:+44 20 7946 0000\nEMAIL:ada@exa"
    result, (c,) = healed(reply)
    assert kinds(result) == ["line_break", "truncated_line", "truncated_card"]
    assert c.fn.value == "Ada Lovelace" and c.tel.value == "+44 20 7946 0000"
    assert not hasattr(c, "email")
    assert [s.text for s in result.set_aside] == ["EMAIL:ada@exa"]
    # a last line with its line break is complete: kept (the END was forgotten), and
    # prose after a blank line is not part of the card
    reply = "Here:\nBEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\nTEL:+44 20 7946 0000\n\nWant another one?"
    result, (c,) = healed(reply)
    assert kinds(result) == ["located", "line_break", "truncated_card"]
    assert c.tel.value == "+44 20 7946 0000" and not hasattr(c, "note")
    # a cut END is completed, nothing dropped
    result, (c,) = healed("BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\nEND:VC")
    assert kinds(result) == ["line_break", "truncated_card"] and c.fn.value == "Ada Lovelace"


def test_line_broken_without_fold_keeps_the_newline():
    reply = (
        "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nNOTE:First line of the note\r\nand its second line.\r\nEND:VCARD\r\n"
    )
    result, (c,) = healed(reply)
    assert kinds(result) == ["line_joined", "escaped"]
    assert c.note.value == "First line of the note\nand its second line."


def test_long_lines_are_folded_and_read_back_whole():
    note = "A long note that goes on " * 8
    reply = f"BEGIN:VCARD\nVERSION:4.0\nFN:Ada\nNOTE:{note}\nEND:VCARD\n"
    result, (c,) = healed(reply)
    assert "folded" in kinds(result)
    assert all(len(line.encode()) <= 75 for line in result.text.split("\r\n"))
    assert c.note.value == note
    # multi-byte characters are never split
    name = "Zoë Ørsted-Müller 山田太郎 " * 6
    result, (c,) = healed(f"BEGIN:VCARD\nVERSION:4.0\nFN:{name.strip()}\nEND:VCARD")
    assert all(len(line.encode()) <= 75 for line in result.text.split("\r\n"))
    assert c.fn.value == name.strip()


def test_type_shorthand_and_indentation_and_two_cards():
    reply = (
        "    BEGIN:VCARD\n    VERSION:3.0\n    FN:Jane Doe\n    N:Doe;Jane;;;\n    TEL;CELL:555-0100\n    END:VCARD\n"
        "\n    BEGIN:VCARD\n    VERSION:3.0\n    FN:John Roe\n    N:Roe;John;;;\n    END:VCARD\n"
    )
    result, cards = healed(reply)
    assert {"indentation", "type_param", "blank_line", "line_break"} <= set(kinds(result))
    assert [c.fn.value for c in cards] == ["Jane Doe", "John Roe"]
    assert cards[0].tel.value == "555-0100" and cards[0].tel.params["TYPE"] == ["CELL"]
    assert isinstance(result.value, list) and len(result.value) == 2


def test_missing_end_before_next_card_and_fn_from_n():
    reply = "BEGIN:VCARD\nVERSION:4.0\nN:Curie;Marie;Salomea;;\nBEGIN:VCARD\nVERSION:4.0\nFN:Pierre Curie\nEND:VCARD"
    result, cards = healed(reply)
    assert {"end_added", "fn_derived"} <= set(kinds(result))
    assert cards[0].fn.value == "Marie Salomea Curie"
    assert cards[0].n.value.family == "Curie" and cards[1].fn.value == "Pierre Curie"


def test_n_from_fn_forms():
    assert name_from_fn("Ada Lovelace") == "Lovelace;Ada;;;"
    assert name_from_fn("Lovelace, Ada King") == "Lovelace;Ada;King;;"
    assert name_from_fn("Prince") == "Prince;;;;"
    assert name_from_fn("Martin Luther King Jr.") == "King;Martin;Luther;;Jr."
    assert name_from_fn("Anne; Marie") == "Marie;Anne\\;;;;"
    assert fn_from_name("King;Martin;Luther;Dr.;Jr.") == "Dr. Martin Luther King Jr."


def test_backslashes_and_escapes_keep_the_text():
    reply = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nN:A;;;;\nNOTE:Path C:\\Users\\ada, then done\nEND:VCARD"
    result, (c,) = healed(reply)
    assert c.note.value == "Path C:\\Users\\ada, then done"


def test_what_cannot_be_healed():
    for reply in (
        "Sorry, I cannot share contact details.",
        "BEGIN:VCARD\nVERSION:3.0\nFN:A\nN:A;;;;\nEMAIL:not an address\nEND:VCARD",
        "BEGIN:VCARD\nVERSION:2.1\nFN:A\nEND:VCARD",
        "BEGIN:VCARD\nVERSION:4.0\nEMAIL:a@example.org\nEND:VCARD",  # no FN, N or ORG to derive it
        "BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR",
    ):
        result = check(reply, "EXPECT VCARD")
        assert not result.ok, reply


def test_valid_reply_unchanged():
    for sample in VCARD.samples:
        h = VCARD.heal(sample)
        assert h.text == sample and not h.repairs


def test_heal_spans_point_into_the_reply():
    reply = "Card:\nBEGIN:VCARD\nFN:Ada Lovelace\nNOTE:a, b\nEND:VCARD\nBye"
    result = check(reply, "EXPECT VCARD")
    escaped = next(r for r in result.repairs if r.kind == "escaped")
    assert reply[escaped.span.start : escaped.span.end] == "NOTE:a, b"
    added = next(r for r in result.repairs if r.kind == "version_added")
    assert reply[added.span.start - len("BEGIN:VCARD") : added.span.start] == "BEGIN:VCARD"


def test_indented_properties_and_blanks_around_typed_values():
    reply = "BEGIN:VCARD\n  VERSION:4.0\n  FN:Ada Lovelace\n  EMAIL: ada@example.org\n  TEL:+44 20 7946 0000\nEND:VCARD"
    result, (c,) = healed(reply)
    assert {"indentation", "trimmed"} <= set(kinds(result))
    assert c.fn.value == "Ada Lovelace" and c.email.value == "ada@example.org" and c.tel.value == "+44 20 7946 0000"
    # a real fold is not taken for an indented property
    folded = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nNOTE:a long\r\n  note, folded\r\nEND:VCARD\r\n"
    result, (c,) = healed(folded)
    assert "indentation" not in kinds(result) and c.note.value == "a long note, folded"


def test_a_rich_4_0_reply_keeps_every_field():
    reply = (
        "```vcf\nBEGIN:VCARD\nVERSION:4.0\nFN:Jane Smith\nN:Smith;Jane;Marie;Dr.;PhD\nGENDER:F\nBDAY:1990-07-21\n"
        'LANG;PREF=1:en\nTEL;VALUE=uri;TYPE="cell,voice";PREF=1:tel:+1-555-555-5678\n'
        "EMAIL;TYPE=work:jane.smith@example.org\n"
        'ADR;TYPE=home;LABEL="42 Elm Street\\nSpringfield, IL":;;42 Elm Street;Springfield;IL;62701;USA\n'
        "GEO:geo:39.7817,-89.6501\nUID:urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6\n"
        "NOTE:Prefers email over phone. Available Mon-Fri, 9am-5pm.\nEND:VCARD\n```"
    )
    result, (c,) = healed(reply)
    assert kinds(result) == ["located", "line_break", "date_basic", "escaped", "folded"]
    n = c.n.value
    assert (n.family, n.given, n.additional, n.prefix, n.suffix) == ("Smith", "Jane", "Marie", "Dr.", "PhD")
    assert c.gender.value == "F" and c.bday.value == "19900721" and c.lang.value == "en"
    assert c.tel.value == "tel:+1-555-555-5678" and c.tel.params == {
        "VALUE": ["uri"],
        "TYPE": ["cell,voice"],
        "PREF": ["1"],
    }
    assert c.email.value == "jane.smith@example.org"
    a = c.adr.value
    assert (a.street, a.city, a.region, a.code, a.country) == ("42 Elm Street", "Springfield", "IL", "62701", "USA")
    assert c.adr.params["LABEL"] == ["42 Elm Street\\nSpringfield, IL"]
    assert c.geo.value == "geo:39.7817,-89.6501"
    assert c.uid.value == "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    assert c.note.value == "Prefers email over phone. Available Mon-Fri, 9am-5pm."


def test_a_broken_note_line_with_a_colon_stays_in_the_note():
    reply = "BEGIN:VCARD\nVERSION:4.0\nFN:Ada\nNOTE:Meeting notes\nAgenda: discuss the budget\nEMAIL:ada@example.org\nEND:VCARD"
    result, (c,) = healed(reply)
    assert c.note.value == "Meeting notes\nAgenda: discuss the budget"
    assert c.email.value == "ada@example.org" and "agenda" not in c.contents


def test_bare_properties_only_when_they_read_as_a_card():
    result, (c,) = healed("FN:Ada Lovelace\nEMAIL:ada@example.org\nEND:VCARD")
    assert "begin_added" in kinds(result) and c.fn.value == "Ada Lovelace"
    for prose in ("Org: Acme Corp\nNote: they make anvils", "Name: Ada\nFN: hmm"):
        assert not check(prose, "EXPECT VCARD").ok


@pytest.mark.parametrize(
    ("fn", "family", "given", "additional"),
    [
        ("Ludwig van Beethoven", ["van Beethoven"], "Ludwig", []),
        ("Jean-Claude Van Damme", ["Van Damme"], "Jean-Claude", []),
        ("Vincent van der Berg", ["van der Berg"], "Vincent", []),
        ("Leonardo da Vinci", ["da Vinci"], "Leonardo", []),
        ("Ada King Lovelace", ["Lovelace"], "Ada", ["King"]),
        ("Dr. Martin Luther King Jr.", ["King"], "Martin", ["Luther"]),
    ],
)
def test_n_derived_from_fn_keeps_the_particles_of_the_family_name(
    fn: str, family: list[str], given: str, additional: list[str]
) -> None:
    """User finding (was test_user_findings.py)."""
    # 'Ludwig van Beethoven' became N:Beethoven;Ludwig;van;; — 'van' as a middle name.
    result = check(f"BEGIN:VCARD\nVERSION:3.0\nFN:{fn}\nEND:VCARD", "EXPECT VCARD")
    assert result.ok
    n = result.value.n.value
    as_list = lambda v: v if isinstance(v, list) else ([v] if v else [])  # noqa: E731
    assert as_list(n.family) == family
    assert n.given == given
    assert as_list(n.additional) == additional


def test_a_windows_path_keeps_its_backslashes() -> None:
    """User finding (was test_user_findings.py)."""
    # '\n' of '\notes' was kept as an escape while '\U' and '\a' were doubled: the NOTE
    # passed as 'C:\Users\ada' + newline + 'otes.txt'.
    reply = "BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nN:A;;;;\nNOTE:C:\\Users\\ada\\notes.txt\nEND:VCARD"
    result = check(reply, "EXPECT VCARD")
    assert result.ok
    assert result.value.note.value == "C:\\Users\\ada\\notes.txt"


def test_escapes_the_writer_meant_are_still_read() -> None:
    """User finding (was test_user_findings.py)."""
    reply = "BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nN:A;;;;\nNOTE:one\\ntwo\\, three; four\nEND:VCARD"
    result = check(reply, "EXPECT VCARD")
    assert result.ok
    assert result.value.note.value == "one\ntwo, three; four"
