"""Verdicts on HTML replies written independently of the plugin (fixtures/replies/), with
the html5lib error codes and (line, column) positions checked by hand in
fixtures/expected.json, and cross-checked against a plain html5lib parse."""

from __future__ import annotations

import json
from pathlib import Path

import html5lib
import pytest

from formatbook_core import check, get_format
from formatbook_html.parse import mode_of

HERE = Path(__file__).parent
REPLIES = HERE / "fixtures" / "replies"
EXPECTED = json.loads((HERE / "fixtures" / "expected.json").read_text(encoding="utf-8"))
fmt = get_format("html")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_verdict_codes_and_positions(name):
    text = (REPLIES / name).read_text(encoding="utf-8")
    violations = fmt.validate(text)
    assert fmt.is_valid(text) == (not EXPECTED[name])
    assert [[v.keyword, *v.expected] for v in violations] == EXPECTED[name]
    assert all(v.code == "html.syntax" for v in violations)
    for v in violations:
        line, col = v.expected
        assert f"line {line}, column {col}:" in v.message
        assert v.keyword in v.message  # html5lib's code is named


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "foster" not in json.dumps(EXPECTED[n])))
def test_positions_are_html5libs_own(name):
    """Our parse reports what a plain html5lib parse reports (our tree builder and
    tokenizer subclass change no verdict), apart from foster-parented text, which html5lib
    does not report."""
    text = (REPLIES / name).read_text(encoding="utf-8")
    parser = html5lib.HTMLParser()
    if text.lstrip().lower().startswith(("<!doctype", "<html")):
        parser.parse(text)
    else:
        parser.parseFragment(text, container="body")
    assert [[code, line, col] for (line, col), code, _ in parser.errors] == EXPECTED[name]


def test_the_fixtures_hold_both_verdicts():
    assert sum(1 for v in EXPECTED.values() if not v) >= 8
    assert sum(1 for v in EXPECTED.values() if v) >= 10
    assert sorted(p.name for p in REPLIES.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("<!DOCTYPE html><p>x", "document"),
        ("  <!doctype html>\n<p>x", "document"),
        ("<html lang=en><body><p>x", "document"),
        ("<HTML>", "document"),
        ("<htmlx>", "fragment"),
        ("<p>x</p>", "fragment"),
        ("text <b>x</b>", "fragment"),
        ("<!-- c --><p>x</p>", "fragment"),
        ("<!DOC", None),
        ("<htm", None),
        ("<html", None),
        ("   ", None),
    ],
)
def test_document_or_fragment(text, mode):
    assert mode_of(text) == mode


def test_missing_doctype_is_an_error_for_a_document_only():
    assert not fmt.is_valid("<html><body><p>x</p></body></html>")
    assert fmt.is_valid("<!DOCTYPE html><html><body><p>x</p></body></html>")
    assert fmt.is_valid("<p>x</p>")  # a fragment needs none


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Sorry, I can't help with that.", "html.no_element"),
        ("", "html.no_element"),
        ("   \n ", "html.no_element"),
        ("<!DOCTYPE html>", "html.no_element"),
        ("<!-- only a comment -->", "html.no_element"),
        ("a &lt; b", "html.no_element"),
        ("# Weekly report\n\nAll done.", "html.markdown"),
        ("Here is the list:\n\n- apples\n- pears", "html.markdown"),
        ("1. first\n2. second", "html.markdown"),
        ("This is **important**.", "html.markdown"),
        ("See [the docs](https://example.com).", "html.markdown"),
        ("```html\n```", "html.markdown"),
        ("<h2>Report</h2>\n## Details\n<p>x</p>", "html.markdown"),
        ("<p>intro</p>\n```python\nprint(1)\n```", "html.markdown"),
    ],
)
def test_prose_and_markdown_fail_with_a_violation_that_says_so(text, code):
    violations = fmt.validate(text)
    assert [v.code for v in violations] == [code]
    if code == "html.markdown":
        assert "Markdown" in violations[0].message


@pytest.mark.parametrize(
    "text",
    [
        "<pre>## not a heading</pre>",
        "<p><code># comment</code></p>",
        "<p>C# is a language; #1 in the list</p>",
        "<p>- a dash in running text</p>",
        "<script>// ## x\n</script><p>y</p>",
    ],
)
def test_hashes_in_code_or_prose_are_not_markdown(text):
    assert fmt.is_valid(text), fmt.validate(text)


def test_error_list_is_capped_with_a_summary():
    text = "<p>" + "</x>" * 200
    violations = fmt.validate(text)
    assert len(violations) == 51
    assert violations[-1].keyword == "more-errors"


def test_spans_point_into_the_reply_with_crlf_line_breaks():
    text = "<p>one</p>\r\n<p>two</p>\r\n</span>"
    (v,) = fmt.validate(text)
    assert v.keyword == "unexpected-end-tag" and v.expected == [3, 7]
    assert text[v.span.start] == ">"  # the '>' of </span>, counted in the reply as received


def test_text_after_a_think_block_after_finished_html_fails_the_reply() -> None:
    """Found by hand (was test_think_mid_line.py): a think tag mid-line in HTML is an element like any other."""
    # HTML text is HTML: read together, '<p>a</p>' and 'Thanks' are one fragment, so the
    # core cannot tell a closing remark from more of the payload (html.think_inside)
    result = check("<p>a</p>\n<think>x</think>\nThanks", "EXPECT HTML")
    assert not result.ok and [v.code for v in result.violations] == ["html.think_inside"]
    result = check("<p>a</p>\n<think>x</think>\n<p>b</p>", "EXPECT HTML")  # was '<p>a</p>'
    assert not result.ok and [v.code for v in result.violations] == ["html.think_inside"]
