"""Issue 8, "never ok with the wrong data": bold labels, '##Name', nested fences, a
filled section whose content was set aside, a scope on an absent optional section, and a
value that serialises."""

from __future__ import annotations

import json

import pytest

from formatbook_core import Count, Expectations, check
from formatbook_markdown import enforce_flex_md, extract_output, parse_flex_md
from formatbook_markdown.reply.blocks import scan
from formatbook_markdown.values import extract_scope, extract_values

from .helpers import SPEC, assert_nothing_lost, kinds

FENCE = "```"


def sections(result) -> dict[str, str]:
    return {name: s.md for name, s in result.extracted.sections_by_name.items()}


# --- 1. bold labels -----------------------------------------------------------------------

LABELLED = [
    # (reply, Short answer, Reasoning): each as the issue gives it, and variants
    ("**Short answer:** Yes, it works.\n\n**Reasoning:**\n1. Because.", "Yes, it works.", "1. Because."),
    ("**Short answer:**\nYes.\n**Reasoning:**\n1. Because.", "Yes.", "1. Because."),
    ("**Short answer**: Yes.\n**Reasoning**:\n1. Because.\n2. Then.", "Yes.", "1. Because.\n2. Then."),
    ("__Short answer:__ No.\n__Reasoning:__ 1. It fails.", "No.", "1. It fails."),
    ("**Short answer:** Maybe.\nIt depends.\n\n**Reasoning:**\n\n1. Because.", "Maybe.\nIt depends.", "1. Because."),
    ("**Short answer:**\nYes.\n**Reasoning:**\n- Because.", "Yes.", "- Because."),
    ("**SHORT ANSWER:** Yes.\n\n**reasoning:**\n1. Because.", "Yes.", "1. Because."),
]


@pytest.mark.parametrize("reply,short,reasoning", LABELLED)
@pytest.mark.parametrize("level", [1, 2])
def test_bold_labels_with_text_and_without_blank_lines_are_sections(reply, short, reasoning, level):
    r = enforce_flex_md(reply, SPEC, level=level)
    assert r.ok and "filled" not in kinds(r)
    assert sections(r) == {"Short answer": short, "Reasoning": reasoning}
    assert r.extracted.preamble is None
    assert_nothing_lost(reply, r)
    again = enforce_flex_md(r.repaired_md, SPEC, level=level)
    assert again.ok and again.repairs == [] and sections(again) == sections(r)


@pytest.mark.parametrize("reply,short,reasoning", LABELLED)
def test_labels_are_read_alike_without_repair(reply, short, reasoning):
    ex = extract_output(reply, SPEC)
    assert {n: s.md for n, s in ex.sections_by_name.items()} == {"Short answer": short, "Reasoning": reasoning}
    # counts see the same sections (the labels are no values)
    assert " ".join(extract_scope(reply, "Short answer", SPEC)).split() == short.replace("\n", " ").split()
    assert "Short" not in " ".join(extract_values(reply, SPEC))


def test_the_label_repair_writes_the_text_on_its_own_line():
    r = enforce_flex_md("**Short answer:** Yes, it works.\n\n**Reasoning:**\n1. Because.", SPEC, level=1)
    assert r.repaired_md == "## Short answer\nYes, it works.\n\n## Reasoning\n1. Because.\n"
    assert kinds(r) == ["heading_from_label", "heading_from_label"]


@pytest.mark.parametrize(
    "reply",
    [
        "## Short answer\nYes.\n\n**Note** that this is bold: **Reasoning** matters.\n\n## Reasoning\n1. a\n",
        "## Short answer\nThe **Reasoning** is below.\n\n## Reasoning\n1. a\n",
        "## Short answer\nYes.\n\n## Reasoning\n1. a\n\n**Reasoning:** # not a heading\n",
    ],
)
def test_bold_text_that_is_no_label_stays_text(reply):
    ex = extract_output(reply, SPEC)
    assert ex.sections_by_name["Short answer"].md.startswith(("Yes.", "The **Reasoning**"))
    assert list(ex.sections_by_name) == ["Short answer", "Reasoning"]
    assert len(list(ex.outline.walk())) == 2


@pytest.mark.parametrize(
    "reply,level",
    [
        ("##Short answer\nYes.\n\n##Reasoning\n1. Because.", 2),
        ("#Short answer\nYes.\n\n#Reasoning\n1. Because.", 1),
        ("###Short answer:\nYes.\n###Reasoning\n1. Because.", 3),
    ],
)
def test_a_heading_without_its_space_is_repaired_not_no_sections(reply, level):
    r = enforce_flex_md(reply, SPEC, level=1)
    assert r.ok, [i.code for i in r.issues]
    assert sections(r) == {"Short answer": "Yes.", "Reasoning": "1. Because."}
    assert "heading_renamed" in kinds(r) and "filled" not in kinds(r)
    hashes = "#" * level
    assert f"{hashes} Short answer\nYes." in r.repaired_md


# --- 2. nested fences at L2 -----------------------------------------------------------------

NESTED = [
    f"{FENCE}markdown\n## Short answer\nYes.\n\n{FENCE}python\nprint(1)\n{FENCE}\n\n## Reasoning\n1. Because.\n{FENCE}\n",
    f"{FENCE}md\n## Short answer\nYes.\n{FENCE}js\nx()\n{FENCE}\n## Reasoning\n1. Because.\n{FENCE}",
    "~~~markdown\n## Short answer\nYes.\n\n~~~python\nprint(1)\n~~~\n\n## Reasoning\n1. Because.\n~~~\n",
    f"{FENCE}markdown\n## Short answer\nYes.\n\n{FENCE}python\na\n{FENCE}\n\n{FENCE}sh\nb\n{FENCE}\n## Reasoning\n1. Because.\n{FENCE}\n",
]


@pytest.mark.parametrize("reply", NESTED)
@pytest.mark.parametrize("level", [1, 2, 3])
def test_nested_fences_pair_as_a_reader_pairs_them(reply, level):
    r = enforce_flex_md(reply, SPEC, level=level)
    assert r.ok and "filled" not in kinds(r) and "outside_set_aside" not in kinds(r)
    assert r.extracted.sections_by_name["Reasoning"].md == "1. Because."
    assert r.extracted.sections_by_name["Short answer"].md.startswith("Yes.")
    assert r.extracted.outside == []
    assert_nothing_lost(reply, r, syntax=frozenset({"md", "markdown"}))
    again = enforce_flex_md(r.repaired_md, SPEC, level=level)
    assert again.ok and again.repairs == [] and sections(again) == sections(r)


def test_at_l2_the_container_gets_a_fence_commonmark_reads_the_same_way():
    r = enforce_flex_md(NESTED[0], SPEC, level=2)
    assert kinds(r) == ["container_refenced"]
    assert r.repaired_md.startswith("````markdown\n") and r.repaired_md.endswith("\n````\n")
    assert len(scan(r.repaired_md).fences) == 1  # CommonMark sees one block


def test_a_bare_inner_fence_still_closes_the_container():
    reply = f"{FENCE}markdown\n## Short answer\nYes.\n{FENCE}\ncode\n{FENCE}\n## Reasoning\n1. a\n{FENCE}\n"
    r = enforce_flex_md(reply, SPEC, level=2)
    assert "outside_set_aside" in kinds(r)


# --- 3. a filled section whose content was set aside ------------------------------------------


@pytest.mark.parametrize(
    "reply,level",
    [
        ("Short answer: Yes.\n\n## Reasoning\n1. Because.", 1),
        ("- **Short answer** - yes\n\n## Reasoning\n1. Because.", 1),
        ("> ## Short answer\n> Yes.\n\n## Reasoning\n1. Because.", 1),
        (f"{FENCE}markdown\n## Reasoning\n1. Because.\n{FENCE}\n\n**Short answer:** Yes.\n", 2),
        (f"## Short answer\nYes.\n\n{FENCE}markdown\n## Short answer\nYes.\n{FENCE}\nReasoning: because\n", 2),
        ("## **Short answer:** Yes.\n\n## Reasoning\n1. Because.", 1),
        ("## Short answer: Yes.\n\n## Reasoning\n1. Because.", 1),
        ("## Short answer - yes\n\n## Reasoning\n1. Because.", 2),
    ],
)
def test_a_section_filled_while_set_aside_text_names_it_fails(reply, level):
    r = enforce_flex_md(reply, SPEC, level=level)
    assert not r.ok
    assert "markdown.section_misplaced" in [i.code for i in r.issues]
    assert r.output_text.startswith("# Flex-MD Issues Envelope")
    res = check(reply, Expectations(format="markdown", schema=SPEC, options={"level": level}))
    assert not res.ok


def test_a_filled_section_with_an_unrelated_preamble_is_still_a_repair():
    r = enforce_flex_md("Sure, here it is.\n\n## Short answer\nYes.\n", SPEC, level=1)
    assert r.ok and kinds(r) == ["preamble_set_aside", "filled"]


# --- 4. a scope on an absent optional section ---------------------------------------------------


def test_a_scope_on_an_absent_optional_section_counts_zero():
    reply = "## Short answer\nYes.\n\n## Reasoning\n1. Because.\n"
    res = check(
        reply, Expectations(format="markdown", schema=SPEC, counts=[Count("words", max=5, scope="Assumptions")])
    )
    assert res.ok and res.violations == []
    assert list(res.counts.values()) == [0]
    assert extract_scope(reply, "assumptions", SPEC) == []


def test_a_scope_on_an_absent_required_or_unknown_section_is_still_missing():
    reply = "## Short answer\nYes.\n"
    assert extract_scope(reply, "Reasoning", SPEC) is None
    assert extract_scope(reply, "Elsewhere", SPEC) is None
    assert extract_scope(reply, "Assumptions", None) is None


# --- 5. the value serialises ------------------------------------------------------------------


def test_extracted_to_json_is_plain_json_data():
    reply = (
        "## Short answer\nYes.\n\n## Reasoning\n1. Because.\n   - nested\n2. Then.\n\n"
        "## Assumptions\nNone\n\n| Option | Cost | Risk |\n| --- | --- | --- |\n| A | 3 | low |\n"
    )
    r = enforce_flex_md(reply, SPEC, level=1)
    data = r.extracted.to_json()
    assert json.loads(json.dumps(data)) == data
    reasoning = data["sections"]["Reasoning"]
    assert reasoning["md"] == "1. Because.\n   - nested\n2. Then."
    assert reasoning["list"]["ordered"] is True
    items = reasoning["list"]["items"]
    assert [(i["text"], i["index"]) for i in items] == [("Because.", 1), ("Then.", 2)]
    assert items[0]["children"][0]["text"] == "nested" and items[0]["children"][0]["index"] is None
    assert data["sections"]["Short answer"] == {"md": "Yes.", "empty": False, "list": None, "table": None}
    assumptions = data["sections"]["Assumptions"]
    assert assumptions["empty"] is False  # the table follows the empty value
    assert assumptions["table"] == {
        "columns": ["Option", "Cost", "Risk"],
        "rows": [["A", "3", "low"]],
        "kind": "table",
        "by": None,
    }
    assert data["tables"] == [assumptions["table"]]
    assert [n["title"] for n in data["outline"]["nodes"]] == ["Short answer", "Reasoning", "Assumptions"]
    assert data["preamble"] is None and data["outside"] == [] and data["think"] == []


def test_check_result_value_serialises_through_to_json():
    res = check("## Short answer\nYes.\n\n## Reasoning\n1. Because.\n", Expectations(format="markdown", schema=SPEC))
    assert res.ok
    text = json.dumps(res.value.to_json())
    assert json.loads(text)["sections"]["Reasoning"]["list"]["items"][0]["text"] == "Because."


def test_frames_give_their_json_form():
    doc = parse_flex_md(
        '[[message role=user id=m1]]\n@tags: a, b\nHello.\n\n@payload:name: data\n```json\n{"x": 1}\n```\n'
    )
    data = doc.to_json()
    assert json.loads(json.dumps(data)) == data
    frame = data["frames"][0]
    assert frame["type"] == "message" and frame["role"] == "user" and frame["id"] == "m1"
    assert frame["payloads"]["data"]["value"] == {"x": 1}
    assert doc.frames[0].to_json() == frame
