"""How often a check() reads the CSV payload, counted (issue 24): the analysis locate made
is handed on, healing starts from the pipeline's analysis, and the table read gives the
values and scopes."""

from __future__ import annotations

import threading

import pytest

import formatbook_csv.format as csv_format
from formatbook_core import Count, Expectations, check


@pytest.fixture
def reads(monkeypatch):
    """The texts the strict reading parsed."""
    calls: list[str] = []
    parse = csv_format.parse
    monkeypatch.setattr(csv_format, "parse", lambda text, *a, **k: calls.append(text) or parse(text, *a, **k))
    return calls


EXPECT = 'EXPECT CSV\nEXPECT MAX 50 WORDS\nEXPECT MAX 2 WORDS IN "name"'


def test_a_clean_reply_is_read_once_values_and_scopes_included(reads):
    result = check("name,age\nAda,36\nBob,40\n", EXPECT)
    assert result.verdict == "pass" and result.counts == {"words": 4, 'words IN "name"': 2}
    assert len(reads) == 1


def test_a_reply_healed_from_checked_records_is_read_once(reads):
    result = check("name,age\r\nAda, 36\nBob,40\n", EXPECT)  # line ends of both kinds: healed by the plan
    assert result.verdict == "healed" and result.counts == {"words": 4, 'words IN "name"': 2}
    assert len(reads) == 1  # the payload; healing starts from that reading and writes the table


def test_a_reply_healed_line_by_line_reads_the_healed_text_once(reads):
    """Healed as text (``heal/stretch.py``): the strict reading of the healed text decides
    whether it stands, and is the value the pipeline takes."""
    result = check("name,age\nAda, 36\nBob,40\n", EXPECT)
    assert result.verdict == "healed" and result.counts == {"words": 4, 'words IN "name"': 2}
    assert len(reads) == 2 and reads[1] == result.text


def test_a_reply_of_crlf_lines_is_healed_line_by_line(reads):
    """Every line ended by CRLF: healed as text too, joined by CRLF again."""
    result = check("name,age\r\nAda, 36\r\nBob,40\r\n", EXPECT)
    assert result.verdict == "healed" and result.text == "name,age\r\nAda,36\r\nBob,40\r\n"
    assert [(r.kind, r.span.start, r.span.end) for r in result.repairs] == [("space_after_delimiter", 10, 17)]
    assert len(reads) == 2 and reads[1] == result.text


def test_a_reply_healed_with_a_schema_reads_the_healed_text_once(reads):
    exp = Expectations(format="csv", schema=["name", "age"], counts=[Count("words", max=50)])
    result = check("name,age\nAda, 36\nBob,40\n", exp)
    assert result.verdict == "healed" and result.counts == {"words": 4}
    assert len(reads) == 2 and reads[1] == result.text  # heal's confirmation, which the pipeline takes


def test_the_format_holds_no_thread_local():
    assert not [v for v in vars(csv_format).values() if isinstance(v, threading.local)]
