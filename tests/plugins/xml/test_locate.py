"""Where the payload sits: fences, the first element through its root's end, prose and
think blocks set aside, several top-level tags together with the option ``root``."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, ThinkTags, check, get_format, heal

XML = get_format("xml")


def _first(reply: str, **options) -> str:
    span = XML.locate(reply, **options)[0]
    return reply[span.start : span.end]


@pytest.mark.parametrize(
    ("reply", "payload"),
    [
        ("Here you go:\n```xml\n<a>1</a>\n```\nDone.", "<a>1</a>"),
        ("```\n<a>1</a>\n```", "<a>1</a>"),
        ("Answer: <answer>42</answer> — hope it helps!", "<answer>42</answer>"),
        ("<think>I should use <b> tags</think>\n<answer>42</answer>", "<answer>42</answer>"),
        (
            'Sure.\n<?xml version="1.0"?>\n<!-- c -->\n<r><x/></r>\n<!-- end -->\nBye',
            '<?xml version="1.0"?>\n<!-- c -->\n<r><x/></r>\n<!-- end -->',
        ),
        ("Result:\n<a><b>cut off", "<a><b>cut off"),
        ("<a><b><a>nested same name</a></b></a> after", "<a><b><a>nested same name</a></b></a>"),
        ("If a < b then <r>x</r>.", "<r>x</r>"),
        ("<p><b><i>x</b></i></p> tail", "<p><b><i>x</b></i></p>"),
        ("<reasoning>why</reasoning>\n<answer>what</answer>", "<answer>what</answer>"),
    ],
)
def test_first_candidate(reply, payload):
    assert _first(reply) == payload


def test_several_top_level_tags_are_one_payload_with_root():
    reply = "Sure!\n<reasoning>why</reasoning>\n<answer>what</answer>\nCheers"
    assert _first(reply, root="response") == "<reasoning>why</reasoning>\n<answer>what</answer>"
    result = check(reply, "EXPECT XML root=response")
    assert result.ok
    assert result.text == "<response><reasoning>why</reasoning>\n<answer>what</answer></response>"
    assert [s.text.strip() for s in result.set_aside] == ["Sure!", "Cheers"]


def test_prose_between_top_level_tags_ends_the_payload():
    reply = "<a>1</a>\nand then\n<b>2</b>"
    assert _first(reply, root="r") == "<a>1</a>"


def test_later_elements_are_later_candidates():
    reply = "<a>1</a> text <b>2</b>"
    spans = XML.locate(reply)
    assert [reply[s.start : s.end] for s in spans] == ["<a>1</a>", "<b>2</b>"]


def test_a_reply_without_xml_fails_with_a_violation():
    result = check("I'm sorry, I can't do that.", "EXPECT XML")
    assert not result.ok
    assert result.violations


def test_locate_is_linear_on_many_candidates():
    # one per line: "x <a/> x" on one line is an empty element inside a sentence (a mention)
    reply = "<a/> x\n" * 20_000
    spans = XML.locate(reply)
    assert len(spans) == 20_000


def test_locate_is_linear_on_many_mentions_in_sentences():
    # each "<b>" inside a sentence and never closed is read again from after it, at most
    # MAX_MENTIONS times; then the rest is one cut-off root
    reply = "x <b> x " * 20_000 + "<root>ok</root>"
    spans = XML.locate(reply)
    assert spans and len(spans) <= 2


@pytest.mark.parametrize("reply", ["<think><a/>", "<think><a/></think>\n ", "<thinking>x</thinking><reasoning><a/>"])
def test_a_reply_of_think_blocks_only_is_no_element(reply: str) -> None:
    # issue 9: it was the element <think> (or a <root> healing wrapped around the blocks)
    for expect in ("EXPECT XML", "EXPECT XML root=answer"):
        if "reasoning" in reply and "root" in expect:
            continue  # with root, <reasoning> is an element of the payload (below)
        result = check(reply, expect)
        assert not result.ok and [v.code for v in result.violations] == ["xml.empty"], expect


def test_with_root_a_reasoning_element_is_still_the_payload() -> None:
    assert check("<reasoning><a/></reasoning>", "EXPECT XML").violations[0].code == "xml.empty"
    result = check("<think>x</think>\n<reasoning><a/></reasoning>", "EXPECT XML root=answer")
    assert result.ok and result.text == "<reasoning><a/></reasoning>"


def test_think_tags_are_declared_as_markup_and_a_draft_fence_stays_a_draft_with_root() -> None:
    # with root= XML keeps <reasoning> elements and reads the prepared reply with only the
    # other think blocks blanked: a fence inside <think> is still a draft
    assert get_format("xml").think_tags is ThinkTags.MARKUP
    reply = "<think>\n```xml\n<draft/>\n```\n</think>\n```xml\n<a>1</a>\n```"
    assert check(reply, "EXPECT XML root=response").text == "<a>1</a>"
    assert [reply[s.start : s.end] for s in get_format("xml").locate(reply, root="response")][:1] == ["<a>1</a>"]


@pytest.mark.parametrize(
    ("reply", "expect"),
    [
        ("```\n<reasoning>", "EXPECT XML"),  # fuzz seed 9090, 7e39a60208
        ("~~~\n<think>", "EXPECT XML root=response"),  # fuzz seed 9090, b7a00fb56e
        ("```\n<think>draft: <a/>\n```", "EXPECT XML"),
    ],
)
def test_a_fence_body_holding_a_think_block_is_no_payload(reply: str, expect: str) -> None:
    # it was healed into '<think></think>', which check() then set aside: the healed
    # text did not heal again
    assert not check(reply, expect).ok
    with pytest.raises(HealError):
        heal(reply, expect)


def test_a_fence_after_a_think_block_is_still_the_payload() -> None:
    result = check("<think>x</think>\n```xml\n<a>1</a>\n```", "EXPECT XML")
    assert result.ok and result.text == "<a>1</a>"


@pytest.mark.parametrize(
    ("reply", "expect"),
    [
        ("<reasoning>a<reasoning>a</reasoning></reasoning>", "EXPECT XML root=response"),  # seed 9090, 538ace0ac5
        ("<a>x<a>y</a></a>", "EXPECT XML"),
    ],
)
def test_a_start_tag_read_as_a_mention_whose_end_tag_closes_around_the_root_is_the_root(reply, expect):
    # '<a>x<a>y' is healed by closing both; the outer start tag, followed by text and the
    # same start tag, was then read as a mention and only the inner element located
    result = check(reply, expect)
    assert result.ok and result.text == reply
    assert heal(reply, expect).text == reply


def test_a_mention_before_the_root_is_still_left_out():
    result = check("Put it in an <answer> tag: <answer>42</answer> done", "EXPECT XML")
    assert result.ok and result.text == "<answer>42</answer>"


def test_healing_never_opens_the_payload_with_an_element_named_like_a_think_block():
    # '\xa0<think>' is no think block (only spaces, tabs and line breaks may come before
    # one) but healed to '<think></think>' it would be set aside, leaving no payload (fuzz
    # seed 31337, xml-heal_idempotent-4b19a24792)
    result = check("\xa0<think>", "EXPECT XML")
    assert not result.ok and [v.code for v in result.violations] == ["xml.syntax"]
    with pytest.raises(HealError):
        heal("\xa0<think>", "EXPECT XML")
    # with root, <reasoning> is an element of the payload
    assert heal("\xa0<reasoning>a", "EXPECT XML root=response").text == "<reasoning>a</reasoning>"


def test_a_fence_line_inside_an_element_is_its_text() -> None:
    # the fence opens inside <note>: its lines are the element's text, and '</note>' in it
    # closes the element (healing reads them so; the locator blanked the fence and ran
    # the element to the end of the reply, fence and all)
    reply = "Say:\n<note>a\n```\n</note>\n```\n"
    result = check(reply, "EXPECT XML")
    assert result.ok and result.text == "<note>a\n```\n</note>"
    assert result.value.text == "a\n```\n"


def test_healing_an_element_with_a_fence_line_inside_is_idempotent() -> None:
    # fuzz seed 4711, repro xml-heal_idempotent-94855e71ef: the healed text was located
    # again through the fence as a cut-off element (the second <p> blanked with the fence)
    once = heal("<p>\n```<p>\n```\na", "EXPECT XML").text
    again = check(once, "EXPECT XML")
    assert again.ok and again.text == once and again.repairs == []


def test_a_tag_in_a_code_sample_inside_an_element_never_makes_it_a_mention() -> None:
    # read with the fence's lines, the outer <answer> was followed by prose and then the
    # same start tag, and taken for a mention: the sample '<answer>42</answer>' passed as
    # the payload (found reviewing stop 23's change); the whole element is valid as written
    reply = "<answer>\nWrap it:\n```\nx <answer>42</answer>\n```\nThat is all.\n</answer>"
    result = check(reply, "EXPECT XML")
    assert result.ok and result.text == reply and result.repairs == []
    assert result.value.text.startswith("\nWrap it:")


def test_a_fence_closing_the_element_sooner_is_not_taken() -> None:
    # the fence's '</r>' would end the element before 'more': neither reading is sure
    assert not check("<r>\n```\n</r>\n```\nmore</r>", "EXPECT XML").ok


@pytest.mark.parametrize("reply", ["The answer is <answer>Paris and", "The result is <done/> now."])
def test_a_tag_inside_a_sentence_alone_is_no_payload(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
    # a mention with no payload after it: failing beats passing the mention as the answer
    assert not check(reply, "EXPECT XML").ok
