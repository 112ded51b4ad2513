"""Values: text nodes and attribute values (CDATA included), not tag names; XPath scopes,
tested through formatbook_core.check."""

from __future__ import annotations

import pytest

from formatbook_core import ExpectationError, check, get_format, parse_expectations

XML = get_format("xml")


def test_values_are_text_and_attributes_not_names():
    text = '<order id="42"><item sku="A-1">Tea &amp; biscuits</item><!-- hidden --><?pi hidden?><note><![CDATA[a < b]]></note>tail</order>'
    assert XML.extract_values(text) == ["42", "A-1", "Tea & biscuits", "a < b", "tail"]


def test_cdata_merges_with_the_text_around_it_and_blanks_are_left_out():
    assert XML.extract_values("<a>\n  <b>x<![CDATA[y]]>z</b>\n  <c>   </c>\n</a>") == ["xyz"]


def test_namespaced_names_are_not_values():
    values = XML.extract_values('<p:a xmlns:p="urn:p" p:k="v"><p:b>t</p:b></p:a>')
    assert values == ["v", "t"]  # a namespace declaration is not an attribute in lxml


def test_many_attributes_give_their_values_in_order():
    # past 32 attributes the values are read in one walk (lxml's attrib.values() looks
    # each one up by name again): the same values, decoded, in order, blanks left out
    attributes = " ".join(f'k{i}="v{i}"' for i in range(40))
    text = f'<a xmlns:p="urn:p" {attributes} p:x="&amp;&#65;" blank="  " last=" z "><b k="1">t</b></a>'
    assert XML.extract_values(text) == [*(f"v{i}" for i in range(40)), "&A", " z ", "1", "t"]


def test_word_count_runs_on_values_only():
    reply = '<answer lang="en">Paris is the capital</answer>'
    result = check(reply, "EXPECT XML\nEXPECT MAX 5 WORDS")
    assert result.ok and result.counts["words"] == 5  # "en" + 4 words; the tag name is not counted


def test_scope_counts_that_element_only():
    reply = (
        "<response>\n  <reasoning>This is a long line of reasoning with many many words in it to count</reasoning>\n"
        "  <answer>Paris is the capital of France</answer>\n</response>"
    )
    ok = check(reply, 'EXPECT XML\nEXPECT MAX 6 WORDS IN "//answer"')
    assert ok.ok, ok.violations
    assert ok.counts['words IN "//answer"'] == 6
    over = check(reply, 'EXPECT XML\nEXPECT MAX 5 WORDS IN "//answer"')
    assert not over.ok
    assert over.violations[0].code == "count.max"
    whole = check(reply, "EXPECT XML\nEXPECT MAX 6 WORDS")
    assert not whole.ok  # the reasoning counts when no scope is given


def test_scope_on_the_llm_shape_with_root():
    reply = "<reasoning>" + "word " * 80 + "</reasoning>\n<answer>Forty two</answer>"
    result = check(reply, 'EXPECT XML root=response\nEXPECT MAX 50 WORDS IN "//answer"')
    assert result.ok
    assert result.counts['words IN "//answer"'] == 2


def test_scope_attribute_and_string_results():
    text = '<r><item id="a1">x</item><item id="b2">y z</item></r>'
    assert XML.extract_scope(text, "//item/@id") == ["a1", "b2"]
    assert XML.extract_scope(text, "//item[2]") == ["b2", "y z"]
    assert XML.extract_scope(text, "string(//item[2])") == ["y z"]
    assert XML.extract_scope(text, "count(//item)") == ["2"]


def test_a_missing_scope_is_a_violation():
    result = check("<r><a>x</a></r>", 'EXPECT XML\nEXPECT MAX 5 WORDS IN "//answer"')
    assert not result.ok
    assert result.violations[0].code == "count.scope_missing"


def test_a_scope_that_is_not_xpath_is_an_expectation_error():
    with pytest.raises(ExpectationError):
        parse_expectations('EXPECT XML\nEXPECT MAX 5 WORDS IN "//answer["')


def test_no_regular_expressions_from_scopes():
    # EXSLT regular expressions are off: the re: prefix means nothing, the scope selects nothing
    reply = "<r><a>" + "a" * 30 + "!</a></r>"
    result = check(reply, "EXPECT XML\nEXPECT MAX 5 WORDS IN \"//a[re:test(., '^(a+)+$')]\"")
    assert not result.ok
    assert result.violations[0].code == "count.scope_missing"
