"""Replies a new user checked as models write them, each a bug found in review: the
reply must never pass with data it did not mean."""

from __future__ import annotations

import pytest
from lxml import etree

from formatbook_core import check


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
    # The empty element came first and won: ok=True with '<answer/>'.
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == "<answer>42</answer>"


def test_a_lone_empty_element_is_still_the_payload() -> None:
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
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload


@pytest.mark.parametrize("reply", ["The answer is <answer>Paris and", "The result is <done/> now."])
def test_a_tag_inside_a_sentence_alone_is_no_payload(reply: str) -> None:
    # a mention with no payload after it: failing beats passing the mention as the answer
    assert not check(reply, "EXPECT XML").ok


@pytest.mark.parametrize("reply", ["<list><li>one<li>two</list>", "<ul>\n  <li>one\n  <li>two\n</ul>"])
def test_unclosed_siblings_of_one_name_are_not_nested_in_silence(reply: str) -> None:
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
    result = check(reply, "EXPECT XML")
    assert result.ok
    assert _xml(result.value) == payload
    assert "void_element" not in [r.kind for r in result.repairs]
