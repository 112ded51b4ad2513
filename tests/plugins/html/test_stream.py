"""The incremental checkers and can_be_valid: sound on every prefix of every valid reply
(hypothesis chooses the chunkings), falsy once html5lib reports an error the text already
shows, exact at finish(), linear (each character handed to html5lib once)."""

from __future__ import annotations

import functools
import gc
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import StreamGuard, check, get_format
from formatbook_core.testing import check_stream_prefixes
from formatbook_html import stream as html_stream

fmt = get_format("html")
REPLIES = Path(__file__).parent / "fixtures" / "replies"
VALID = [*fmt.samples, *(p.read_text(encoding="utf-8") for p in sorted(REPLIES.glob("valid-*.html")))]


@pytest.mark.parametrize("text", VALID, ids=range(len(VALID)))
def test_every_prefix_of_a_valid_reply_can_be_valid(text):
    assert fmt.is_valid(text)
    for end in range(len(text) + 1):
        assert fmt.can_be_valid(text[:end]), text[:end]


@pytest.mark.parametrize("text", VALID, ids=range(len(VALID)))
def test_checkers_stay_truthy_char_by_char(text):
    check_stream_prefixes(fmt, text, True)
    check_stream_prefixes(fmt, text, False)


@functools.cache
def _filled(text: str) -> str:
    """``text`` long enough that the checker hands text to the parser thread mid-way, and
    still valid (asked once a text: html5lib reads the 11 KB in about 19 ms)."""
    filler = "<p>filler paragraph &amp; more</p>\n" * 300
    text = text.replace("</body>", filler + "</body>") if "</body>" in text else text + "\n" + filler
    assert fmt.is_valid(text)
    return text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VALID), st.lists(st.integers(min_value=1, max_value=5000), min_size=1, max_size=40))
def test_random_chunkings_of_valid_replies_stay_truthy(text, sizes):
    text = _filled(text)
    checker = fmt.stream()
    pos, i = 0, 0
    while pos < len(text):
        size = sizes[i % len(sizes)]
        assert checker.feed(text[pos : pos + size]), (pos, size)
        pos += size
        i += 1
    assert checker.finish()


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        ("<p>a</span>", False),  # an end tag that closes nothing: shown already
        ("<p>AT&T ", False),  # no character reference can start "&T "
        ("<p>AT&T", True),  # "&T" may still become "&Tab;"
        ("<div><p>Hello", True),  # open elements: only end-of-input errors
        ('<ul><li class="x', True),  # a tag cut in half
        ("<b><i>x</b>", False),  # misnested, shown by </b>
        ("<!DOCTYPE html><html><body></body></html><p>", False),  # content after the document
        ("<html>", False),  # a document without a doctype: shown by <html>
        ("<htm", True),  # maybe <html ...> (a document) or another tag
        ("<!DOC", True),
        ("", True),
        ("Hello, here is", True),
        ("<table>oops<tr>", False),  # foster-parented text, flushed by <tr>
        ("<table>oops", True),  # html5lib holds table text until the next token
    ],
)
def test_can_be_valid(prefix, expected):
    assert fmt.can_be_valid(prefix) is expected


def test_a_definite_error_turns_the_checker_falsy_before_the_end():
    checker = fmt.stream()
    assert checker.feed("<h2>Report</h2>\n<p>one</span>\n")
    status = None
    for _ in range(400):  # past HANDOFF characters: handed to the parser
        status = checker.feed("<p>more text</p>\n")
        if not status:
            break
    assert status is not None and not status
    assert "unexpected-end-tag" in status.reason
    assert status.position == len("<h2>Report</h2>\n<p>one</span")
    assert not checker.finish()  # it stays falsy


def test_finish_reports_end_of_input_errors():
    checker = fmt.stream()
    assert checker.feed("<div><p>cut")
    status = checker.finish()
    assert not status and "expected-closing-tag-but-got-eof" in status.reason
    relaxed = fmt.stream(strict=False)
    relaxed.feed("<div><p>cut")
    assert relaxed.finish()  # heal closes it


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="<>/=\"' &;!-abpdivlu\n\r", max_size=60))
def test_finish_agrees_with_is_valid(text):
    checker = fmt.stream()
    for ch in text:
        checker.feed(ch)
    assert bool(checker.finish()) == fmt.is_valid(text)
    if fmt.is_valid(text):
        assert all(fmt.can_be_valid(text[:i]) for i in range(len(text) + 1))


def test_each_character_is_handed_to_html5lib_once(monkeypatch):
    reads: list[int] = []
    original = html_stream.WaitingReader.read

    def counting(self, size=-1):
        data = original(self, size)
        if data:  # (html5lib also asks read(0), and reads "" at the end)
            reads.append(len(data))
        return data

    monkeypatch.setattr(html_stream.WaitingReader, "read", counting)
    text = "<p>word &amp; word</p>\n" * 20_000
    checker = fmt.stream()
    for i in range(0, len(text), 7):
        assert checker.feed(text[i : i + 7])
    assert checker.finish()
    assert sum(reads) == len(text)
    assert len(reads) <= len(text) // html_stream.HANDOFF + 1  # one read per hand-over


def test_one_big_chunk_is_read_only_up_to_its_first_error(monkeypatch):
    # handed over in pieces of HANDOFF_MAX: the error in the second piece stops the
    # parser there, with the position a chunked feed gives (before: all 450 KB were parsed)
    reads: list[int] = []
    original = html_stream.WaitingReader.read

    def counting(self, size=-1):
        data = original(self, size)
        reads.append(len(data))
        return data

    monkeypatch.setattr(html_stream.WaitingReader, "read", counting)
    head = "<p>fine</p>\n" * 8_000  # 96,000 characters: past the first piece
    text = head + "<p>one</span>\n" + "<p>more text</p>\n" * 20_000
    status = fmt.stream().feed(text)
    assert not status and "unexpected-end-tag" in status.reason
    assert status.position == len(head + "<p>one</span")
    assert sum(reads) == 2 * html_stream.HANDOFF_MAX
    assert not fmt.is_valid(text)


def test_dropped_checkers_end_their_threads():
    def alive() -> int:
        return sum(1 for t in threading.enumerate() if t.name == "formatbook-html-stream")

    before = alive()
    for _ in range(50):
        checker = fmt.stream()
        checker.feed("<div>" + "x" * 5000)  # handed over: the thread waits for more
        del checker
    gc.collect()
    for _ in range(100):
        if alive() <= before:
            break
        threading.Event().wait(0.01)
    assert alive() <= before


def test_guard_on_a_streamed_llm_reply():
    reply = "Sure! Here is the summary:\n\n```html\n<h2>Summary</h2>\n<p>All <b>good</b>.</p>\n```\nAnything else?"
    guard = StreamGuard("EXPECT HTML")
    for i in range(0, len(reply), 3):
        assert guard.feed(reply[i : i + 3])
    result = guard.finish()
    assert result.ok and result.text == check(reply, "EXPECT HTML").text == "<h2>Summary</h2>\n<p>All <b>good</b>.</p>"
    strict = StreamGuard("EXPECT HTML", strict=True)
    bad = "<p>one</b>" + "<p>x</p>" * 1000
    statuses = [strict.feed(bad[i : i + 50]) for i in range(0, len(bad), 50)]
    assert not statuses[-1]
