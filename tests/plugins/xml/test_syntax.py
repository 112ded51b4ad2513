"""Well-formedness verdicts on cases written by hand (W3C-style: namespaces, CDATA,
comments, PIs, entities) and on LLM-style replies, with the violation codes and places."""

from __future__ import annotations

import pytest
from lxml import etree

from formatbook_core import get_format

XML = get_format("xml")

VALID = [
    "<a/>",
    "<a></a>",
    "  \n<a>x</a>\n",
    '<?xml version="1.0" encoding="UTF-8"?>\n<a/>',
    '<?xml version="1.0" standalone="yes"?><a/>',
    "\ufeff<a/>",
    '<a xmlns="urn:x" xmlns:p="urn:p"><p:b p:c="1"/></a>',
    '<a xml:lang="fr" xml:space="preserve">  </a>',
    "<a><![CDATA[<not> & markup]]]]></a>",
    "<a><!-- comment - with dash --></a>",
    "<!-- before --><?pi data?><a/><!-- after --><?pi?>",
    "<a>&lt;&gt;&amp;&apos;&quot;&#65;&#x41;&#x1F600;</a>",
    '<a b="&lt;&amp;" c=\'"\' d="\'"/>',
    "<a>]></a>",
    "<a>]]</a>",
    "<r>]]<b/>> and ]]&amp;> and ]]<b></b>> then a long enough tail</r>",
    "<\u00e9l\u00e9ment attr\u00b7x='1'>\u65e5\u672c</\u00e9l\u00e9ment>",
    "<!DOCTYPE a>\n<a/>",
    "<a\n  b = '1'\n/>",
    "<a></a \n>",
    "<a>\x7f\x85</a>",
    "<reasoning>The user wants X.</reasoning>".replace("reasoning", "answer"),
]

INVALID = [
    ("", "xml.empty"),
    ("Sorry, I can't help with that.", "xml.text_before_root"),
    ("<a>", "xml.unclosed"),
    ("<a>x</b>", "xml.mismatched_tag"),
    ("<a><b></a></b>", "xml.mismatched_tag"),
    ("<a/><b/>", "xml.second_root"),
    ("<a/>tail", "xml.text_after_root"),
    ("<a/></a>", "xml.text_after_root"),
    ("</a>", "xml.mismatched_tag"),
    ("<a>AT&T</a>", "xml.entity"),
    ("<a>&nbsp;</a>", "xml.entity"),
    ("<a>& b</a>", "xml.entity"),
    ("<a>&#0;</a>", "xml.entity"),
    ("<a>&#xD800;</a>", "xml.entity"),
    ("<a>a < b</a>", "xml.syntax"),
    ("<a x=1/>", "xml.syntax"),
    ('<a x="1"y="2"/>', "xml.syntax"),
    ('<a x="1" x="2"/>', "xml.syntax"),
    ('<a x="<"/>', "xml.syntax"),
    ("<a>]]></a>", "xml.syntax"),
    ("<a><!-- a -- b --></a>", "xml.syntax"),
    ("<![CDATA[x]]><a/>", "xml.syntax"),
    (' <?xml version="1.0"?><a/>', "xml.declaration"),
    ('<a><?xml version="1.0"?></a>', "xml.declaration"),
    ("<?XML version='1.0'?><a/>", "xml.declaration"),
    ("<a>\x01</a>", "xml.invalid_char"),
    ("<a>\ud800</a>", "xml.invalid_char"),
    ("<p:a/>", "xml.namespace"),
    ('<a xmlns:p="urn:p" xmlns:q="urn:p" p:x="1" q:x="2"/>', "xml.namespace"),
    ('<?xml version="1.0" ?  ><a/>', "xml.syntax"),
    ("<a/ >", "xml.syntax"),
    ("<a/><!DOCTYPE a>", "xml.doctype"),
    ("<!DOCTYPE a><!DOCTYPE a><a/>", "xml.doctype"),
    ("<a>" * 300, "xml.too_deep"),
]


@pytest.mark.parametrize("text", VALID)
def test_valid(text):
    assert XML.is_valid(text), XML.validate(text)
    assert XML.can_be_valid(text)


@pytest.mark.parametrize(("text", "code"), INVALID)
def test_invalid_with_its_code(text, code):
    violations = XML.validate(text)
    assert violations, text
    assert violations[0].code == code, violations


def test_lxml_agrees_on_the_valid_cases():
    for text in VALID:
        etree.fromstring(text.encode("utf-8"), etree.XMLParser(resolve_entities=False))


def test_the_mismatch_points_at_the_first_differing_character():
    text = "<answer>42</answr>"
    (v,) = XML.validate(text)
    assert v.code == "xml.mismatched_tag"
    assert v.span.start == text.rindex("r>")  # </answ then 'r' where 'e' was wanted


def test_lxml_errors_carry_line_and_column():
    text = "<a>\n  <p:b/>\n</a>"
    (v,) = XML.validate(text)
    assert v.code == "xml.namespace"
    assert "line 2" in v.message
    assert text[v.span.start - 1 : v.span.start + 1] in ("b/", "<p", "p:", ":b", "/>")


def test_depth_limit_follows_max_depth():
    text = "<a>" * 20 + "</a>" * 20
    assert XML.is_valid(text)
    assert not XML.is_valid(text, max_depth=10)
    assert XML.validate(text, max_depth=10)[0].code == "xml.too_deep"


def test_max_size():
    assert XML.validate("<a>xxxx</a>", max_size=5)[0].code == "xml.too_large"


LLM_REPLIES_VALID = [
    "<response>\n  <reasoning>Two plus two is four.</reasoning>\n  <answer>4</answer>\n</response>",
    '<tool_call name="get_weather">\n  <arg name="city">Z\u00fcrich</arg>\n  <arg name="unit">celsius</arg>\n</tool_call>',
    "<answer>Use <code>a &lt; b</code> to compare.</answer>",
    '<?xml version="1.0"?>\n<!-- generated -->\n<items><item id="1"/><item id="2"/></items>',
]
LLM_REPLIES_INVALID = [
    "<answer>AT&T is a company</answer>",
    "<answer>if a < b then swap</answer>",
    "<reasoning>think</reasoning>\n<answer>42</answer>",
    "<answer>The capital is Paris.",
    "<Answer>Paris</answer>",
    "<b><i>bold</b></i>",
    "<answer>caf&eacute;&nbsp;au lait</answer>",
]


@pytest.mark.parametrize("text", LLM_REPLIES_VALID)
def test_llm_replies_valid(text):
    assert XML.is_valid(text)


@pytest.mark.parametrize("text", LLM_REPLIES_INVALID)
def test_llm_replies_invalid_as_they_stand(text):
    assert not XML.is_valid(text)
