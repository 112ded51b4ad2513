"""extract_values and CSS selector scopes, counted through formatbook_core.check."""

from __future__ import annotations

import pytest

from formatbook_core import ExpectationError, ScopeNotFound, check, get_format

fmt = get_format("html")


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("<p>Hel<b>lo</b> world</p>", ["Hello world"]),
        ("<p>one</p><p>two</p>", ["one", "two"]),
        ("<ul><li>a <i>b</i></li><li>c</li></ul>", ["a b", "c"]),
        ("<p>line one<br>line two</p>", ["line one", "line two"]),
        ('<img src="x.png" alt="A red fox"><p title="tip">Body</p>', ["A red fox", "tip", "Body"]),
        ("<p>shown</p><script>var hidden = 1;</script><style>p {}</style>", ["shown"]),
        ("<template><p>not shown</p></template><p>x</p>", ["x"]),
        ("<!-- a comment --><p>x</p>", ["x"]),
        ("<p>  spaced\n\n   out  </p>", ["spaced out"]),
        ("<pre>  keep\n  this</pre>", ["  keep\n  this"]),
        ("<p>a &amp; b &lt; c &copy;</p>", ["a & b < c \u00a9"]),
        (
            "<!DOCTYPE html><html><head><title>T</title><meta name=x></head><body><h1>H</h1></body></html>",
            ["H"],
        ),
        ("<table><tr><td>1</td><td>2</td></tr></table>", ["1", "2"]),
        ("<p> </p><div>\n</div>", []),
    ],
)
def test_extract_values(text, values):
    assert fmt.extract_values(text) == values


ARTICLE = (
    "<article><h2>Title words here</h2><p>one two three</p><p>four five</p></article>"
    "<aside><p>six seven eight nine ten eleven</p></aside>"
)


def test_scoped_count_counts_only_the_selected_elements():
    result = check(ARTICLE, 'EXPECT HTML\nEXPECT MAX 5 WORDS IN "article p"')
    assert result.ok
    assert result.counts == {'words IN "article p"': 5}
    result = check(ARTICLE, 'EXPECT HTML\nEXPECT MAX 4 WORDS IN "article p"')
    assert not result.ok and [v.code for v in result.violations] == ["count.max"]
    # the whole reply, for comparison: 3 + 3 + 2 + 6 words
    assert check(ARTICLE, "EXPECT HTML\nEXPECT MAX 100 WORDS").counts == {"words": 14}


def test_nested_matches_count_once():
    text = "<div class=a><div class=a><p>one two</p></div></div>"
    assert fmt.extract_scope(text, "div.a") == ["one two"]


def test_scope_attribute_selectors_and_sentences():
    text = '<section id="summary"><p>First. Second.</p></section><section><p>Other.</p></section>'
    result = check(text, 'EXPECT HTML\nEXPECT EXACTLY 2 SENTENCES IN "#summary"')
    assert result.ok, result.violations


def test_scope_not_found_and_bad_selector():
    result = check("<p>x</p>", 'EXPECT HTML\nEXPECT MAX 5 WORDS IN "article"')
    assert [v.code for v in result.violations] == ["count.scope_missing"]
    with pytest.raises(ScopeNotFound):
        fmt.extract_scope("<p>x</p>", "h1")
    with pytest.raises(ExpectationError):
        check("<p>x</p>", 'EXPECT HTML\nEXPECT MAX 5 WORDS IN "p[["')


def test_counts_run_on_text_not_markup():
    text = '<p class="very long class names here">Two words</p>'
    assert check(text, "EXPECT HTML\nEXPECT MAX 2 WORDS").ok
