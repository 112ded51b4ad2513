"""StreamGuard on the throwaway kv format and on plain text."""

from __future__ import annotations

import pytest

import formatbook_text
from formatbook_core import StreamGuard, parse_expectations

from .conftest_formats import kv_registry


@pytest.fixture
def reg():
    return kv_registry()


def guard(text, reg, **kw):
    return StreamGuard(parse_expectations(text, registry=reg), **kw)


def test_max_words_stops_once_settled_values_exceed(reg):
    g = guard("EXPECT KV\nEXPECT MAX 3 WORDS", reg)
    assert g.feed("first: John Smith\n")
    assert g.feed("last: Peter")  # the open line is not reported by kv: still 2 settled
    status = g.feed(" Green\n")
    assert not status
    assert "4 words" in status.reason and "MAX 3 WORDS" in status.reason
    assert status.position == len("first: John Smith\nlast: Peter Green\n")
    assert not g.feed("more: stuff\n")  # stays falsy


def test_strict_checker_failure_reports_position(reg):
    g = guard("EXPECT KV", reg, strict=True)
    assert g.feed("a: 1\n")
    status = g.feed("b=2")
    assert not status and status.position == len("a: 1\nb")


def test_relaxed_by_default(reg):
    g = guard("EXPECT KV", reg)
    assert g.feed("b = 2\n")
    result = g.finish()
    assert result.ok and result.verdict == "healed"


def test_think_block_before_payload_is_skipped(reg):
    g = guard("EXPECT KV", reg, strict=True)
    for chunk in ["  <thi", "nk>not = kv at", " all</th", "ink>a: 1\n"]:
        assert g.feed(chunk), chunk
    status = g.feed("b=2")
    assert not status
    assert status.position == len("  <think>not = kv at all</think>a: 1\nb")


def test_plain_text_word_limit_while_streaming(reg):
    reg.register_plugin(formatbook_text, "text")
    g = guard("EXPECT TEXT\nEXPECT MAX 3 WORDS", reg)
    assert g.feed("one two ")
    assert g.feed("three")
    assert g.feed(" fo")  # 'fo' may still be the 4th word, but 3 are settled: fine
    # a word is settled once the next word has begun (white space alone might be followed
    # by a combining mark that joins it)
    assert g.feed("ur ")
    assert not g.feed("five")


def test_no_format_counts_raw_text(reg):
    g = guard("EXPECT MAX 2 LINES", reg)
    assert g.feed("a\nb\n")
    assert not g.feed("c\nd")


def test_finish_gives_check_result(reg):
    g = guard("EXPECT KV\nEXPECT MIN 3 WORDS", reg)
    g.feed("a: one two\n")
    result = g.finish()
    assert not result.ok and result.counts == {"words": 2}


def test_feed_rejects_non_text(reg):
    with pytest.raises(TypeError):
        guard("EXPECT KV", reg).feed(b"bytes")
