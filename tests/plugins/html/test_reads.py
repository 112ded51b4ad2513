"""How often a check() parses the HTML payload, counted (issue 24): values and scopes come
from the tree analyze built, healing starts from the pipeline's analysis and hands on the
one it confirmed its text with."""

from __future__ import annotations

import threading

import pytest

import formatbook_html.format as html_format
import formatbook_html.parse as html_parse
from formatbook_core import check

EXPECT = 'EXPECT HTML\nEXPECT MAX 50 WORDS\nEXPECT MAX 1 WORDS IN "b"'


@pytest.fixture
def reads(monkeypatch):
    """The texts html5lib parsed, wherever the format calls it."""
    calls: list[str] = []
    parse = html_parse.parse

    def counting(text, *args, **kwargs):
        calls.append(text)
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(html_parse, "parse", counting)
    monkeypatch.setattr(html_format, "parse", counting)
    return calls


def test_a_clean_reply_is_parsed_once_values_and_scopes_included(reads):
    result = check("<p>Paris is <b>big</b>.</p>", EXPECT)
    assert result.verdict == "pass" and result.counts == {"words": 3, 'words IN "b"': 1}
    assert len(reads) == 1


def test_a_broken_reply_is_parsed_three_times(reads):
    result = check("<p>Paris is <b>big</p>", EXPECT)
    assert result.verdict == "healed" and result.counts == {"words": 3, 'words IN "b"': 1}
    # the payload, healing's own parse (it keeps more errors), the healed text it confirms
    assert len(reads) == 3 and reads[0] == reads[1] and reads[2] == result.text


def test_the_format_holds_no_thread_local():
    assert not [v for v in vars(html_format).values() if isinstance(v, threading.local)]


FMT = html_format.HtmlFormat()


def _new(text: str) -> str:
    """An equal string, a new object (a literal is one object for every test)."""
    return "".join(list(text))


def test_the_verbs_of_one_valid_text_read_it_once(reads):
    # check_robust's questions about one reply: html5lib runs once for the verdicts;
    # can_be_valid of a text read clean needs no reading of its own
    text = _new("<p>Paris is <b>big</b>.</p>")
    assert FMT.is_valid(text) and FMT.validate(text) == [] and FMT.can_be_valid(text)
    assert FMT.heal(text).text == text and FMT.is_valid(text)
    assert reads == [text]


def test_analyze_still_reads_a_valid_text_for_its_tree(reads):
    text = _new("<p>Paris is <b>big</b>.</p>")
    assert FMT.is_valid(text)
    analysis = FMT.analyze(text)
    assert analysis.ok and FMT.values_of(analysis, text) == ["Paris is big."]
    assert len(reads) == 2


def test_an_invalid_texts_analysis_is_its_remembered_verdict(reads):
    text = _new("<p>Paris is <b>big</p>")
    fresh = FMT.analyze(_new(text)).violations  # an equal text, read for comparison
    assert not FMT.is_valid(text)
    analysis = FMT.analyze(text)
    assert analysis.value is None and analysis.document is None
    assert analysis.violations == fresh and [v.code for v in fresh] == ["html.syntax"]
    assert len(reads) == 2
    # an error html5lib reported before the end: can_be_valid reads the text for it
    text = _new("<p>a</b>")
    assert FMT.is_valid(text) is False and FMT.can_be_valid(text) is False and len(reads) == 4


def test_a_verdict_is_kept_for_that_text_schema_and_depth(reads):
    text = _new("<div><p>x</p></div>")
    assert FMT.is_valid(text)
    assert FMT.is_valid(_new(text))  # an equal new string: read again
    assert FMT.validate(text, {"required": ["h1"]})[0].code == "html.required"
    assert FMT.validate(text, {"required": ["p"]}) == []
    assert FMT.validate(text, max_depth=1)[0].code == "html.too_deep"
    assert FMT.is_valid(text, max_size=5) is False  # judged before any reading
    assert len(reads) == 5
    # the last four (text, schema, depth) are kept
    assert FMT.validate(text, {"required": ["h1"]})[0].code == "html.required"
    assert FMT.validate(text, max_depth=1)[0].code == "html.too_deep"
    assert len(reads) == 5
