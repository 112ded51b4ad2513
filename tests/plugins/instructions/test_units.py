"""The instruction units, each on hand-checked cases, in both definitions."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formatbook_core import Count, Expectations, check
from formatbook_core.counting import IncrementalCount
from formatbook_core.expectations import parse_expectations
from formatbook_core.results import ExpectationError
from formatbook_instructions import (
    Bullets,
    CapitalWords,
    Highlights,
    LiteralUnit,
    Placeholders,
    SectionsMarked,
    SeparatedParts,
)


def lit(text, definition="formatbook"):
    return LiteralUnit(definition=definition).with_argument(text)


@pytest.mark.parametrize(
    ("literal", "text", "formatbook", "ifeval"),
    [
        (",", "a, b, c", 2, 2),
        (",", "no commas here", 0, 0),
        ("data", "Data, data and DATA", 3, 3),
        ("data", "database metadata data-driven", 1, 3),  # whole words: only 'data' before '-'
        ("data", "data_set", 1, 1),  # "_" is no letter or digit: a word boundary here
        ("e", "eee Elephant", 5, 5),  # one character: everywhere
        ("aa", "aaaa", 0, 2),  # whole word: 'aaaa' is one word; substrings do not overlap
        ("P.S.", "p.s. and P.S.", 2, 2),  # starts and ends with a non-letter: anywhere
        ("don't", "Don't, don't!", 2, 2),
    ],
)
def test_literal(literal, text, formatbook, ifeval):
    assert lit(literal).count(text) == formatbook
    assert lit(literal, "ifeval").count(text) == ifeval


def test_literal_positions():
    assert lit(",").find("a,\nb, c") == [(1, 2), (4, 5)]


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("* one\n* two\n- three", 3, 3),
        ("  * nested\n\t- tabbed", 2, 2),
        ("*emphasis* at the start\n---\n-5 degrees", 0, 3),
        ("* \n- \n*", 0, 2),  # a marker without text is no bullet; IFEval: '* ' and '- ' count
        ("**bold** line", 0, 0),
        ("text * not at start", 0, 0),
    ],
)
def test_bullets(text, formatbook, ifeval):
    assert Bullets().count(text) == formatbook
    assert Bullets("ifeval").count(text) == ifeval


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("*one* and *two*", 2, 2),
        ("**bold** text", 1, 1),
        ("2 * 3 * 4", 0, 1),  # white space inside the stars: no emphasis
        ("* item *with* emphasis", 1, 1),  # formatbook: *with*; IFEval: '* item *' (the bullet's star)
        ("** **", 0, 0),
        ("*a\nb*", 0, 0),  # not across lines
        ("***", 0, 0),
    ],
)
def test_highlights(text, formatbook, ifeval):
    assert Highlights().count(text) == formatbook
    assert Highlights("ifeval").count(text) == ifeval


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("Dear [name], at [address].", 2, 2),
        ("[] and [ ]", 0, 2),
        ("see [the docs](http://x) now", 0, 1),
        ("[[nested]]", 1, 1),
        ("[open\nclose]", 0, 0),
        ("[a] [b] [c", 2, 2),
    ],
)
def test_placeholders(text, formatbook, ifeval):
    assert Placeholders().count(text) == formatbook
    assert Placeholders("ifeval").count(text) == ifeval


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("NASA and the ESA", 2, 2),
        ("I think so", 1, 1),
        ("DON'T stop", 1, 2),  # formatbook: one word; \w+ tokens: DON, T
        ("STATE-OF-THE-ART", 4, 1),
        ("COVID-19 cases", 1, 1),  # formatbook: COVID (19 has no cased letter); ifeval: one token
        ("123 456", 0, 0),
        ("ÉTÉ été", 1, 1),
    ],
)
def test_capital_words(text, formatbook, ifeval):
    assert CapitalWords().count(text) == formatbook
    assert CapitalWords("ifeval").count(text) == ifeval


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("one\n***\ntwo\n***\nthree", 3, 3),
        ("***\none\n***\ntwo\n***", 2, 2),  # blank first and last parts never count
        ("one\n***\n\n***\ntwo", 2, 3),  # a blank part between separators: IFEval counts it
        ("", 0, 0),
        ("just text", 1, 1),
    ],
)
def test_paragraphs_separated_by(text, formatbook, ifeval):
    assert SeparatedParts("paragraphs separated by").with_argument("***").count(text) == formatbook
    unit = SeparatedParts("paragraphs separated by", definition="ifeval").with_argument("***")
    assert unit.count(text) == ifeval


def test_responses_separated_by():
    unit = SeparatedParts("responses separated by").with_argument("******")
    assert unit.count("first answer\n******\nsecond answer") == 2
    assert unit.count("only one") == 1


@pytest.mark.parametrize(
    ("text", "formatbook", "ifeval"),
    [
        ("SECTION 1\nintro\nSECTION 2\nbody", 2, 2),
        ("SECTION1 and SECTION  3", 1, 1),  # at most one space before the number
        ("SUBSECTION 1", 0, 1),
        ("Section 1", 0, 0),  # case-sensitive
        ("SECTION X", 0, 0),  # a number is needed
    ],
)
def test_sections_marked(text, formatbook, ifeval):
    assert SectionsMarked().with_argument("SECTION").count(text) == formatbook
    assert SectionsMarked(definition="ifeval").with_argument("SECTION").count(text) == ifeval


# --- settled_end: counting while streaming is additive wherever a unit says it is -----------

UNITS = [
    lit(","),
    lit("data"),
    lit("aa"),
    lit("ab"),
    Bullets(),
    Highlights(),
    Placeholders(),
    CapitalWords(),
    SeparatedParts("paragraphs separated by").with_argument("***"),
    SeparatedParts("responses separated by").with_argument("aba"),
    SectionsMarked().with_argument("SECTION"),
]
SAMPLES = [
    "data, data; database data-data\n* one *two*\n- [x] [y](z)\nNASA SAYS aaaa aa\n***\nSECTION 1 ***",
    "ababababa aba abab\n*** **** *****\nSECTION2\nSECTION 33 DON'T",
    "a,b,,c\n\n* x\n*y*\n[ ] [a]",
]


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: f"{u.name}")
@pytest.mark.parametrize("sample", SAMPLES)
def test_incremental_count_matches_the_count_for_every_chunking(unit, sample):
    for size in (1, 2, 3, 7):
        inc = IncrementalCount(unit)
        for i in range(0, len(sample), size):
            inc.feed(sample[i : i + size])
            # the settled part never exceeds the final count of any continuation: here, the sample
            assert inc.settled() <= unit.count(sample)
        assert inc.total() == unit.count(sample)


def test_settled_end_is_additive_at_every_reported_index():
    # the contract: count(text[:i]) + count(text[i:] + c) == count(text + c) for every c
    continuations = ["", "a", "ta", ",", "\n", "*", "]", "**", "SECTION 1", "*** x"]
    for unit in UNITS:
        for sample in SAMPLES:
            for end in range(len(sample) + 1):
                text = sample[:end]
                i = unit.settled_end(text, 0)
                for c in continuations:
                    assert unit.count(text[:i]) + unit.count(text[i:] + c) == unit.count(text + c), (unit, text, i, c)


# --- composition with formats ---------------------------------------------------------------


def test_commas_in_json_count_on_values_only():
    reply = '{"name": "Ada", "tags": ["a", "b"]}'
    assert check(reply, 'EXPECT JSON\nEXPECT MAX 0 ","').ok  # commas between members are syntax
    result = check('{"name": "Lovelace, Ada"}', 'EXPECT JSON\nEXPECT MAX 0 ","')
    assert not result.ok
    assert result.counts['","'] == 1
    assert result.violations[0].message == "1 \",\" exceeds the maximum of 0: the values 'Lovelace, Ada'"


def test_markup_units_count_the_payload_text_with_a_format():
    # a format's values drop markup (Markdown list markers, emphasis), so BULLETS,
    # HIGHLIGHTS and PARAGRAPHS SEPARATED BY count in the checked text
    reply = "# Intro\n\n* a\n* b *bold*\n\n# Steps\n\n* one\n* two\n"
    assert check(reply, "EXPECT MARKDOWN\nEXPECT EXACTLY 4 BULLETS\nEXPECT EXACTLY 1 HIGHLIGHTS").ok
    result = check(reply, "EXPECT MARKDOWN\nEXPECT MAX 3 BULLETS")
    assert not result.ok and result.counts["bullets"] == 4


def test_a_markup_unit_cannot_be_scoped():
    with pytest.raises(ExpectationError, match="BULLETS counts markup in the whole checked text"):
        check("x", 'EXPECT MARKDOWN\nEXPECT EXACTLY 3 BULLETS IN "Steps"')


def test_a_word_count_in_a_markdown_section_still_counts_values():
    reply = "# Intro\n\nNASA here.\n\n# Steps\n\nESA and NASA.\n"
    result = check(reply, 'EXPECT MARKDOWN\nEXPECT EXACTLY 2 CAPITAL WORDS IN "Steps"')
    assert result.ok, result.violations


def test_python_count_equals_the_line():
    parsed = parse_expectations('EXPECT EXACTLY 4 PARAGRAPHS SEPARATED BY "***"\nEXPECT MAX 0 ","')
    built = Expectations(
        counts=[Count("paragraphs separated by", exactly=4, arg="***"), Count("literal", max=0, arg=",")]
    )
    assert parsed.counts == built.counts
    assert [c.describe() for c in built.counts] == ['EXACTLY 4 PARAGRAPHS SEPARATED BY "***"', 'MAX 0 ","']


# --- the IFEval emulations against IFEval's own patterns (fine on these short samples) ------


REFERENCE_SAMPLES = [
    "* one\n* two\n- three\n\n  * nested *x*\n---\n-5\n**bold** [a] [] [b](c)\n",
    "*a* *b* **c** 2 * 3 * 4\n* \n*\n- \n[[x]] [y\nz]\n",
    "\n\n   \n* after blanks\n\t-tab\n***\n****\n*one**two*\n",
]


@pytest.mark.parametrize("text", REFERENCE_SAMPLES)
def test_ifeval_emulations_agree_with_ifeval_patterns(text):
    bullets = len(re.findall(r"^\s*\*[^\*].*$", text, flags=re.MULTILINE)) + len(
        re.findall(r"^\s*-.*$", text, flags=re.MULTILINE)
    )
    assert Bullets("ifeval").count(text) == bullets
    highlights = sum(1 for h in re.findall(r"\*[^\n\*]*\*", text) if h.strip("*").strip()) + sum(
        1 for h in re.findall(r"\*\*[^\n\*]*\*\*", text) if h.removeprefix("**").removesuffix("**").strip()
    )
    assert Highlights("ifeval").count(text) == highlights
    assert Placeholders("ifeval").count(text) == len(re.findall(r"\[.*?\]", text))


# --- the settled_end contract, on generated texts ---------------------------------------------


PIECES = st.sampled_from(
    [
        "a",
        "A",
        "t",
        "d",
        "data",
        "DATA",
        " ",
        "\n",
        ",",
        "*",
        "**",
        "* ",
        "- ",
        "[",
        "]",
        "(",
        "'",
        "_",
        "***",
        "SECTION",
        "1",
        "É",
        "ab",
        "aba",
        "\r",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=25), st.lists(PIECES, max_size=4), st.sampled_from(UNITS))
def test_settled_end_contract_on_generated_text(pieces, more, unit):
    text, continuation = "".join(pieces), "".join(more)
    for start in (0, len(text) // 2, len(text)):
        i = unit.settled_end(text, start)
        assert 0 <= i <= len(text)
        assert unit.count(text[:i]) + unit.count(text[i:] + continuation) == unit.count(text + continuation)
