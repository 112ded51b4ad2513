"""Validity of vCard 3.0 and 4.0: structure, required properties, typed values, escaping;
violations name the card index and the property; the value is vobject's component."""

from __future__ import annotations

import pytest

from formatbook_core import check, get_format

VCARD = get_format("vcard")


def card(*lines: str, version: str | None = "3.0") -> str:
    head = ["BEGIN:VCARD"] + ([f"VERSION:{version}"] if version else [])
    return "\r\n".join([*head, *lines, "END:VCARD"]) + "\r\n"


def codes(text: str) -> list[tuple[str, tuple]]:
    return [(v.code, v.path) for v in VCARD.validate(text)]


def test_valid_3_and_4():
    assert VCARD.is_valid(card("FN:Ada Lovelace", "N:Lovelace;Ada;;;"))
    assert VCARD.is_valid(card("FN:Ada Lovelace", version="4.0"))  # N is optional in 4.0


def test_value_is_the_vobject_component_and_a_list_for_several():
    one = VCARD.parse(card("FN:Ada Lovelace", "N:Lovelace;Ada;;;", "EMAIL:ada@example.org"))
    assert one.name == "VCARD" and one.fn.value == "Ada Lovelace" and one.email.value == "ada@example.org"
    assert one.n.value.family == "Lovelace"
    two = VCARD.parse(card("FN:A", "N:A;;;;") + card("FN:B", version="4.0"))
    assert isinstance(two, list) and [c.fn.value for c in two] == ["A", "B"]
    result = check(card("FN:A", "N:A;;;;") + card("FN:B", version="4.0"), "EXPECT VCARD")
    assert result.verdict == "pass" and [c.fn.value for c in result.value] == ["A", "B"]


def test_required_properties_name_card_and_property():
    text = card("FN:A", "N:A;;;;") + card("EMAIL:b@example.org", version="3.0")
    assert codes(text) == [
        ("vcard.missing_property", (1, "FN")),
        ("vcard.missing_property", (1, "N")),
    ]
    assert codes(card("FN:A", version=None)) == [("vcard.version", (0, "VERSION"))]
    assert codes(card("FN:A", "N:A;;;;", version="2.1")) == [
        ("vcard.version", (0, "VERSION")),
        ("vcard.version", (0, "VERSION")),
    ]


def test_version_4_must_come_first():
    text = "BEGIN:VCARD\r\nFN:A\r\nVERSION:4.0\r\nEND:VCARD\r\n"
    assert codes(text) == [("vcard.version", (0, "VERSION"))]
    # 3.0 puts VERSION anywhere
    assert VCARD.is_valid("BEGIN:VCARD\r\nFN:A\r\nN:A;;;;\r\nVERSION:3.0\r\nEND:VCARD\r\n")


@pytest.mark.parametrize(
    "line, ok",
    [
        ("EMAIL:ada@example.org", True),
        ("EMAIL;TYPE=INTERNET,PREF:ada.lovelace+cards@mail.example.co.uk", True),
        ("EMAIL:ada at example dot org", False),
        ("EMAIL:ada@localhost", False),
        ("EMAIL:@example.org", False),
        ("EMAIL:a@b@example.org", False),
        ("TEL:+1 (555) 010-9999", True),
        ("TEL;TYPE=CELL:555.010.9999 x42", True),
        ("TEL;VALUE=uri:tel:+1-555-010-9999;ext=42", True),
        ("TEL:call me maybe", False),
        ("TEL:12", False),
        ("TEL:555+1234", False),
        ("BDAY:1815-12-10", True),
        ("BDAY:18151210", True),
        ("BDAY:1815-12-10T10:30:00Z", True),
        ("BDAY:1815-02-30", False),
        ("BDAY:December 10 1815", False),
        ("BDAY:--1210", False),  # 4.0 only
    ],
)
def test_typed_values_3(line, ok):
    text = card("FN:A", "N:A;;;;", line)
    assert VCARD.is_valid(text) is ok
    if not ok:
        name = line.split(":")[0].split(";")[0]
        assert codes(text) == [("vcard.value", (0, name))]


@pytest.mark.parametrize(
    "line, ok",
    [
        ("BDAY:18151210", True),
        ("BDAY:--1210", True),
        ("BDAY:1815", True),
        ("BDAY:1815-12", True),
        ("BDAY:18151210T103000Z", True),
        ("BDAY:1815-12-10", False),  # extended form is not 4.0's: healed to 18151210
        ("BDAY;VALUE=text:circa 1815", True),
        ("ANNIVERSARY:20090808T1430-0500", True),
        ("BDAY:--1310", False),
    ],
)
def test_dates_4(line, ok):
    assert VCARD.is_valid(card("FN:A", line, version="4.0")) is ok


def test_escaping_rules_per_version():
    # 3.0: , and ; escaped in a text value; 4.0: only , (a ; MAY be escaped)
    assert codes(card("FN:A", "N:A;;;;", "NOTE:a, b")) == [("vcard.escape", (0, "NOTE"))]
    assert codes(card("FN:A", "N:A;;;;", "NOTE:a; b")) == [("vcard.escape", (0, "NOTE"))]
    assert VCARD.is_valid(card("FN:A", "NOTE:a; b", version="4.0"))
    assert not VCARD.is_valid(card("FN:A", "NOTE:a, b", version="4.0"))
    assert codes(card("FN:A", "N:A;;;;", "NOTE:C:\\Users")) == [("vcard.escape", (0, "NOTE"))]
    assert VCARD.is_valid(card("FN:A", "N:A;;;;", "NOTE:a\\, b\\; c\\\\d\\ne"))
    # ORG is compound: ; separates units, a comma must be escaped
    assert VCARD.is_valid(card("FN:A", "N:A;;;;", "ORG:Acme\\, Inc.;Sales"))
    assert not VCARD.is_valid(card("FN:A", "N:A;;;;", "ORG:Acme, Inc.;Sales"))
    # lists: CATEGORIES and NICKNAME separate with commas
    assert VCARD.is_valid(card("FN:A", "N:A;;;;", "CATEGORIES:a,b,c"))


def test_structure():
    assert [c for c, _ in codes("END:VCARD\r\n")] == ["vcard.end", "vcard.empty"]
    nested = "BEGIN:VCARD\r\nVERSION:3.0\r\nBEGIN:VCARD\r\n"
    assert [c for c, _ in codes(nested)][:1] == ["vcard.begin"]
    assert [c for c, _ in codes(card("FN:A", "N:A;;;;").replace("END:VCARD", "END:VCALENDAR"))][:1] == ["vcard.end"]
    assert [c for c, _ in codes(card("FN:A", "N:A;;;;")[: -len("END:VCARD\r\n")])] == ["vcard.unclosed"]
    assert [c for c, _ in codes(card("FN:A", "N:A;;;;", "N:B;;;;"))] == ["vcard.cardinality"]
    assert [c for c, _ in codes(card("FN:A", "N:A;;;;", ""))] == ["vcard.blank_line"]
    assert [c for c, _ in codes(card("FN:A", "N:A;;;;").replace("\r\n", "\n"))] == ["vcard.line_break"]


def test_prose_is_not_a_vcard():
    assert not VCARD.is_valid("Sorry, I can't help with that.")
    assert [v.code for v in VCARD.validate("Sorry, I can't help with that.")] == ["vcard.syntax", "vcard.empty"]
    result = check("Sorry, I can't help with that.", "EXPECT VCARD")
    assert not result.ok and result.violations[0].code == "vcard.syntax"
    assert not VCARD.is_valid("")


def test_content_line_grammar():
    base = ("FN:A", "N:A;;;;")
    assert VCARD.is_valid(card(*base, 'X-A;P="a:b;c,d";Q=x,y:v'))
    assert VCARD.is_valid(card(*base, "item1.URL:https://example.org/a?b=c"))
    for bad in ("X A:v", "X-A;P:v", 'X-A;P="open:v', 'X-A;P=a"b:v', "A.B.C:v", "X-A:v\x00", "X_A:v"):
        assert [c for c, _ in codes(card(*base, bad))] == ["vcard.syntax"], bad


def test_white_space_around_the_cards_is_ignored():
    text = card("FN:A", "N:A;;;;")
    assert VCARD.is_valid("\n\n  " + text + "\n \t\n")
    assert VCARD.is_valid(text.rstrip("\r\n"))  # the final CRLF is optional


def test_long_lines_are_valid_folds_are_read():
    note = "NOTE:" + "word " * 40
    assert VCARD.is_valid(card("FN:A", "N:A;;;;", note.rstrip()))
    folded = card("FN:A", "N:A;;;;", "NOTE:first half\r\n  and the second")
    assert VCARD.parse(folded).note.value == "first half and the second"


def test_values_with_commas_keep_every_value():
    """vobject alone keeps only the first comma-separated value of a property it has no
    behaviour for; the plugin sets such values back from the text."""
    text = card(
        "FN:A",
        "PHOTO:data:image/png;base64,iVBORw0KGgo",
        "URL:https://example.org/a,b",
        "NICKNAME:Ace,The A\\, Team",
        "X-HOBBIES:chess,go",
        "URL:https://example.org/plain",
        "URL:https://example.org/c,d",
        "CATEGORIES:work,friends",
        version="4.0",
    )
    c = VCARD.parse(text)
    assert c.photo.value == "data:image/png;base64,iVBORw0KGgo"
    assert [u.value for u in c.contents["url"]] == [
        "https://example.org/a,b",
        "https://example.org/plain",
        "https://example.org/c,d",
    ]
    assert c.nickname.value == ["Ace", "The A, Team"]
    assert c.contents["x-hobbies"][0].value == "chess,go"
    assert c.categories.value == ["work", "friends"]


def test_vobject_failures_are_violations():
    bad_base64 = card("FN:A", "N:A;;;;", "PHOTO;ENCODING=b;TYPE=JPEG:QUJ")
    assert [v.code for v in VCARD.validate(bad_base64)] == ["vcard.unreadable"]
    assert check(bad_base64, "EXPECT VCARD").violations[0].code == "vcard.unreadable"
