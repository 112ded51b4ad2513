"""How often a check() reads the vCard payload with vobject, counted (issue 24): healing
starts from the pipeline's analysis and hands on the one it confirmed its text with."""

from __future__ import annotations

import threading

import pytest

import formatbook_vcard.analysis as analysis
from formatbook_core import check

EXPECT = "EXPECT VCARD\nEXPECT MAX 50 WORDS"


@pytest.fixture
def reads(monkeypatch):
    """The texts vobject read."""
    calls: list[str] = []
    read = analysis.read_components
    monkeypatch.setattr(analysis, "read_components", lambda text, *rest: calls.append(text) or read(text, *rest))
    return calls


def test_a_clean_reply_is_read_once(reads):
    result = check("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n", EXPECT)
    assert result.verdict == "pass" and result.counts == {"words": 2}
    assert len(reads) == 1


def test_a_healed_reply_is_read_once_healed(reads):
    result = check("BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\n", EXPECT)
    assert result.verdict == "healed" and result.counts == {"words": 2}
    # the content-line rules refuse the payload before vobject; heal's confirmation reads
    # the healed text, and the pipeline takes that analysis
    assert len(reads) == 1 and result.text.startswith(reads[0])  # (its core span: without the end)


def test_the_analysis_holds_no_thread_local():
    assert not [v for v in vars(analysis).values() if isinstance(v, threading.local)]
