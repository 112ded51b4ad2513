"""Healing LLM-style XML: each repair listed with its span; the result parsed and its text
and structure compared with what the reply meant (written by hand); HealError when a
repair would be a guess."""

from __future__ import annotations

import pytest
from lxml import etree

from formatbook_core import ExpectationError, Expectations, HealError, check, get_format

XML = get_format("xml")


def _tree(text: str):
    """(tag, attributes, text, [children], tail) of the parsed text, to compare structure."""

    def walk(e):
        return (e.tag, dict(e.attrib), e.text or "", [walk(c) for c in e], e.tail or "")

    return walk(etree.fromstring(text.encode("utf-8")))


CASES = [
    # reply, what it meant (as valid XML written by hand), repair kinds
    ("<answer>AT&T and P&G</answer>", "<answer>AT&amp;T and P&amp;G</answer>", ["escaped_ampersand"] * 2),
    ("<answer>if a < b then a</answer>", "<answer>if a &lt; b then a</answer>", ["escaped_lt"]),
    ("<answer>x<y</answer>".replace("x<y", "x < 3"), "<answer>x &lt; 3</answer>", ["escaped_lt"]),
    ("<item id=3 name=tea>x</item>", '<item id="3" name="tea">x</item>', ["unquoted_attribute"] * 2),
    ('<item id="3"name="tea"/>', '<item id="3" name="tea"/>', ["attribute_space"]),
    ("<Answer>Paris</answer>", "<Answer>Paris</Answer>", ["close_tag_case"]),
    ("<p><b><i>bold italic</b></i></p>", "<p><b><i>bold italic</i></b></p>", ["misnested", "misnested"]),
    (
        "<response><reasoning>The capital is Par",
        "<response><reasoning>The capital is Par</reasoning></response>",
        ["truncated_element"],
    ),
    (
        "<response><answer>Paris</answer></resp",
        "<response><answer>Paris</answer></response>",
        ["truncated_tag", "truncated_element"],
    ),
    (
        "<response><answer>Paris</answer><fin",
        "<response><answer>Paris</answer></response>",
        ["truncated_tag", "truncated_element"],
    ),
    ("<code><![CDATA[if (a < b) {", "<code><![CDATA[if (a < b) {]]></code>", ["truncated_cdata", "truncated_element"]),
    ("<a>x<!-- note", "<a>x<!-- note --></a>", ["truncated_comment", "truncated_element"]),
    (
        "<reasoning>why</reasoning>\n<answer>what</answer>",
        "<root><reasoning>why</reasoning>\n<answer>what</answer></root>",
        ["wrapped_roots"],
    ),
    ("<p>caf&eacute;&nbsp;&mdash; &copy; 2024</p>", "<p>caf\u00e9\u00a0\u2014 \u00a9 2024</p>", ["html_entity"] * 4),
    ("<p>&LT;tag&GT;</p>", "<p>&lt;tag&gt;</p>", ["html_entity"] * 2),
    ('\n  <?xml version="1.0"?>\n<a>x</a>', '<?xml version="1.0"?>\n<a>x</a>', ["xml_declaration"]),
    ('<a><?xml version="1.0"?>x</a>', "<a>x</a>", ["xml_declaration"]),
    ("<a>]]></a>", "<a>]]&gt;</a>", ["escaped_cdata_end"]),
    ("<a>bell\x07</a>", "<a>bell</a>", ["invalid_char"]),
    ('<a title="x < y & z">t</a>', '<a title="x &lt; y &amp; z">t</a>', ["escaped_lt", "escaped_ampersand"]),
    (
        "<response>\n  <reasoning>Compare a < b & check</reasoning>\n  <Answer>Yes</answer>\n",
        "<response>\n  <reasoning>Compare a &lt; b &amp; check</reasoning>\n  <Answer>Yes</Answer>\n</response>",
        ["escaped_lt", "escaped_ampersand", "close_tag_case", "truncated_element"],
    ),
]


@pytest.mark.parametrize(("reply", "meant", "kinds"), CASES)
def test_heal_gives_what_was_meant(reply, meant, kinds):
    healed = XML.heal(reply)
    assert [r.kind for r in healed.repairs] == kinds
    assert _tree(healed.text) == _tree(meant)
    for r in healed.repairs:
        assert 0 <= r.span.start <= r.span.end <= len(reply)
    again = XML.heal(healed.text)
    assert again.text == healed.text and not again.repairs


def test_repair_spans_point_at_what_was_repaired():
    reply = "<a>AT&T</a>"
    (r,) = XML.heal(reply).repairs
    assert reply[r.span.start : r.span.end] == "&"
    reply = "<Answer>x</answer>"
    (r,) = XML.heal(reply).repairs
    assert reply[r.span.start : r.span.end] == "</answer>"
    reply = "<a b=1/>"
    (r,) = XML.heal(reply).repairs
    assert reply[r.span.start : r.span.end] == "1"


def test_the_root_option_names_the_wrapper():
    healed = XML.heal("<a/><b/>", root="reply")
    assert healed.text == "<reply><a/><b/></reply>"


def test_the_simple_schema_root_names_the_wrapper():
    healed = XML.heal("<reasoning>r</reasoning><final>f</final>", {"root": "answer", "required": ["final"]})
    assert healed.text == "<answer><reasoning>r</reasoning><final>f</final></answer>"


@pytest.mark.parametrize(
    "reply",
    [
        "Sorry, I cannot help.",
        "<a>x</b>",  # </b> closes nothing: a typo for </a>, or a lost <b>? not decidable
        "<input disabled>",  # an attribute without a value
        '<a x="1" x="2"/>',  # which value?
        "text before <a/>",
        "<a/> text after",
        '<!DOCTYPE a [<!ENTITY e "v">]><a>&e;</a>',
        '<!DOCTYPE a SYSTEM "a.dtd"><a/>',
        "",
    ],
)
def test_heal_refuses_to_guess(reply):
    with pytest.raises(HealError) as err:
        XML.heal(reply)
    assert err.value.violations


def test_valid_replies_come_back_unchanged():
    for text in XML.samples:
        healed = XML.heal(text)
        assert healed.text == text and not healed.repairs


def test_a_schema_violation_is_not_healed():
    with pytest.raises(HealError) as err:
        XML.heal("<answer><final>x</final></answer>", {"root": "answer", "required": ["reasoning"]})
    assert err.value.violations[0].code == "schema.required"


def test_check_heals_an_llm_reply_with_prose_around():
    reply = (
        "Sure! Here is the answer in the requested format:\n\n"
        "<reasoning>AT&T's revenue grew because a < b</reasoning>\n<answer>Yes &mdash; it grew</answer>\n\n"
        "Let me know if you need more."
    )
    result = check(reply, "EXPECT XML root=response")
    assert result.ok
    assert result.verdict == "healed"
    root = etree.fromstring(result.text.encode())
    assert root.tag == "response"
    assert [c.tag for c in root] == ["reasoning", "answer"]
    assert root[0].text == "AT&T's revenue grew because a < b"
    assert root[1].text == "Yes \u2014 it grew"
    kinds = [r.kind for r in result.repairs]
    assert kinds[0] == "located"
    assert {"wrapped_roots", "escaped_ampersand", "escaped_lt", "html_entity"} <= set(kinds)
    assert [s.kind for s in result.set_aside] == ["prose", "prose"]
    # repair spans are offsets into the reply
    amp = next(r for r in result.repairs if r.kind == "escaped_ampersand")
    assert reply[amp.span.start] == "&"


@pytest.mark.parametrize("bad", ["1abc", "a b", "x:root", ""])
def test_the_root_option_must_be_an_element_name(bad):
    with pytest.raises(ExpectationError):
        Expectations(format="xml", options={"root": bad})


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
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload


@pytest.mark.parametrize(
    "reply",
    [
        "Put your answer in <answer></answer> tags.\n<answer>42</answer>",
        "I'll use the <answer/> element:\n<answer>42</answer>",
    ],
)
def test_an_empty_placeholder_named_in_prose_does_not_win_over_the_answer(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
    # The empty element came first and won: ok=True with '<answer/>'.
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == "<answer>42</answer>"


def test_a_lone_empty_element_is_still_the_payload() -> None:
    """User finding (was test_user_findings.py)."""
    result = check("Here: <done/>", "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == "<done/>"


@pytest.mark.parametrize(
    ("reply", "payload"),
    [
        ("The tag <b> is bold. Here: <root>ok</root>", "<root>ok</root>"),
        ("I will use <item> for each entry.\n<items><item>a</item></items>", "<items><item>a</item></items>"),
        ("Wrap each in <item>.\n\n<items><item>a</item></items>", "<items><item>a</item></items>"),
        ("Use <br/> for breaks. Here: <root>ok</root>", "<root>ok</root>"),
    ],
)
def test_a_bare_tag_named_in_prose_before_another_payload(reply: str, payload: str) -> None:
    """User finding (was test_user_findings.py)."""
    # The mention was read as a root never closed, running to the end and swallowing the
    # payload (ok=True, '<b> is bold. Here: <root>ok</root></b>'); the empty '<br/>' won
    # as the first complete element.
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload


@pytest.mark.parametrize(
    ("reply", "payload"),
    [
        ("Here: <answer>The capital is <b>Paris</b> and", "<answer>The capital is <b>Paris</b> and</answer>"),
        ("<answer>The capital is <b>Paris</b> and", "<answer>The capital is <b>Paris</b> and</answer>"),
        ("Here is the XML:\n<list>\n  <item>a</item>\n  <item>b", "<list>\n  <item>a</item>\n  <item>b</item></list>"),
    ],
)
def test_a_cut_off_root_introduced_as_the_answer_is_still_closed(reply: str, payload: str) -> None:
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload


@pytest.mark.parametrize("reply", ["<list><li>one<li>two</list>", "<ul>\n  <li>one\n  <li>two\n</ul>"])
def test_unclosed_siblings_of_one_name_are_not_nested_in_silence(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
    # Healing closed both at </list>, nesting the second item inside the first:
    # ok=True with '<list><li>one<li>two</li></li></list>', a structure the reply never meant.
    result = check(reply, "EXPECT XML")
    assert not result.ok
    assert "xml.heal" in [v.code for v in result.violations]


@pytest.mark.parametrize(
    ("reply", "payload"),
    [
        ("<p>Hello <b>world</p></b>", "<p>Hello <b>world</b></p>"),
        ("<data><value>10</value><value>20</data>", "<data><value>10</value><value>20</value></data>"),
    ],
)
def test_misnested_tags_of_different_elements_still_heal(reply: str, payload: str) -> None:
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload


@pytest.mark.parametrize(
    ("reply", "payload"),
    [
        ("<p>Hello <br> world</p>", "<p>Hello <br/> world</p>"),
        ("<p>Line<br>\n<br>two</p>", "<p>Line<br/>\n<br/>two</p>"),
        ("<p>a<br><b>x</p>", "<p>a<br/><b>x</b></p>"),
        ("<p>Hello<br>world", "<p>Hello<br/>world</p>"),
        ('<doc><img src="a.png"><caption>x</caption></doc>', '<doc><img src="a.png"/><caption>x</caption></doc>'),
    ],
)
def test_an_unclosed_void_element_holds_no_text(reply: str, payload: str) -> None:
    """User finding (was test_user_findings.py)."""
    # '<p>Hello <br> world</p>' healed into '<p>Hello <br> world</br></p>': the line break
    # became an element holding the text after it.
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload
    assert "void_element" in [r.kind for r in result.repairs]


@pytest.mark.parametrize(
    ("reply", "payload"),
    [
        ('<doc><img src="a.png"></img></doc>', '<doc><img src="a.png"/></doc>'),  # closed: nothing to do
        ("<rss><item><link>http://a</item></rss>", "<rss><item><link>http://a</link></item></rss>"),
    ],
)
def test_elements_that_hold_text_are_still_closed_around_it(reply: str, payload: str) -> None:
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload
    assert "void_element" not in [r.kind for r in result.repairs]


@pytest.mark.parametrize(
    "reply",
    [
        "<Order><id>1</id></order>",
        "<ORDER><id>1</id></order>",
        "<order><id>1</id></Order>",
        "<Order>\r\n<id>1</id>\r\n</order>\r\n",
    ],
)
def test_root_tag_case_healing_prefers_the_schemas_root_name(reply: str) -> None:
    """Issue 25: <Order>…</order> was healed to <Order>…</Order>, which the schema's root
    'order' then refused; the two tags differ in case, and the schema says which."""
    result = check(reply, Expectations(format="xml", schema={"root": "order"}))
    assert result.ok, result.violations
    assert result.text.startswith("<order>") and result.text.rstrip().endswith("</order>")
    assert result.value.tag == "order"
    assert "close_tag_case" in [r.kind for r in result.repairs]


def test_a_root_written_in_one_case_is_not_renamed() -> None:
    result = check("<Order><id>1</id></Order>", Expectations(format="xml", schema={"root": "order"}))
    assert not result.ok and result.violations[0].code == "schema.root"
    # without a schema, the start tag's case stands
    assert check("<Order><id>1</id></order>", "EXPECT XML").text == "<Order><id>1</id></Order>"


def test_a_healed_text_opening_with_an_element_named_like_a_think_block_is_refused():
    """Found while moving the refusal to the prepared reply (Reply.refuse_healed_notes):
    ``<think>a`` healed to ``<think>a</think>`` would open with a block check() sets
    aside, leaving no payload; with ``root`` a ``<reasoning>`` element is XML's own."""
    with pytest.raises(HealError, match="it would open with an element named like a think block") as held:
        get_format("xml").heal("<think>a")
    assert [v.code for v in held.value.violations] == ["xml.syntax"]
    assert get_format("xml").heal("<reasoning>a", None, root="r").text == "<reasoning>a</reasoning>"
