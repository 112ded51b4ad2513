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
