"""StreamGuard on the throwaway kv format and on plain text."""

from __future__ import annotations

import random

import pytest

import formatbook_text
from formatbook_core import StreamGuard, StreamStatus, check, parse_expectations

from .conftest_formats import _LINE, KvChecker, KvFormat, kv_registry


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


# --- think blocks: set aside wherever check() sets them aside ------------------------


def feed_all(g, reply, size):
    """Feed ``reply`` in chunks of ``size``; the first falsy status, or None."""
    for i in range(0, len(reply), size):
        status = g.feed(reply[i : i + size])
        if not status:
            return status
    return None


@pytest.mark.parametrize("size", [1, 2, 5, 100])
def test_think_block_after_prose_is_not_counted(reg, size):
    # kv locates its payload outside think blocks (default_locate): the block's words are
    # never part of it, wherever the block sits
    reply = "a: one\n<Thinking>\ndraft: many many words here\n</thinking >\n"
    exp = "EXPECT KV\nEXPECT MAX 1 WORDS"
    assert check(reply, parse_expectations(exp, registry=reg)).ok
    assert feed_all(guard(exp, reg), reply, size) is None


@pytest.mark.parametrize("size", [1, 3, 7, 100])
def test_every_think_tag_any_case_closing_with_white_space(reg, size):
    reply = "<REASONING>\nx: a b c\n</reasoning\n  \n >a: one\n<think>\ny: d e f\n</THINK>"
    assert feed_all(guard("EXPECT KV\nEXPECT MAX 1 WORDS", reg), reply, size) is None
    # a closing tag of another name does not close the block: everything after is in it
    reply = "<think>x</reasoning>\na: one two three\n"
    assert feed_all(guard("EXPECT KV\nEXPECT MAX 1 WORDS", reg), reply, size) is None


def test_strict_position_after_a_think_block_in_the_middle(reg):
    reply = "a: 1\n<think>not kv</think>b=2"
    status = feed_all(guard("EXPECT KV", reg, strict=True), reply, 3)
    assert status is not None and status.position == reply.index("=")


def test_text_after_an_unclosed_think_block_is_never_fed(reg):
    g = guard("EXPECT KV\nEXPECT MAX 1 WORDS", reg)
    assert feed_all(g, "a: one\n<think>b: two three four\n", 1) is None
    assert g.finish().ok


@pytest.mark.parametrize("base", ["EXPECT MAX 1 WORDS", "EXPECT TEXT\nEXPECT MAX 1 WORDS"])
def test_no_format_and_text_set_an_opening_think_block_aside_as_check_does(reg, base):
    reg.register_plugin(formatbook_text, "text")
    exp = parse_expectations(base, registry=reg)
    reply = "<think>a b</think> hello"
    assert check(reply, exp).ok  # check() sets the opening block aside: 1 word
    assert feed_all(StreamGuard(exp), reply, 1) is None
    later = "hello <think>a b</think>"  # a block later in the text is part of the text
    assert not check(later, exp).ok
    status = feed_all(StreamGuard(exp), later, 1)
    assert status is not None and "words" in status.reason


# --- counting as check() counts -----------------------------------------------------


@pytest.mark.parametrize("reply", ["\n", " \r\n\t ", "\n\n\n"])
def test_a_blank_reply_counts_nothing(reg, reply):
    # check() leaves out a value of white space only: 0 lines, 0 characters
    exp = parse_expectations("EXPECT MAX 0 LINES\nEXPECT MAX 0 CHARACTERS\nEXPECT MAX 0 WORDS", registry=reg)
    assert check(reply, exp).ok
    assert feed_all(StreamGuard(exp), reply, 1) is None


def test_a_blank_start_then_text_counts(reg):
    exp = parse_expectations("EXPECT MAX 1 LINES", registry=reg)
    assert feed_all(StreamGuard(exp), "\n\nx\ny\nz", 1) is not None


def test_longer_than_max_size_stops_at_the_limit(reg):
    exp = parse_expectations("EXPECT KV max_size=10", registry=reg)
    g = StreamGuard(exp)
    assert g.feed("a: 123456")
    status = g.feed("78")
    assert not status and status.position == 10 and "max_size" in status.reason
    assert not g.finish().ok  # check() refuses it too


def test_the_reply_is_kept_whole_for_finish(reg):
    reply = "".join(f"k{i % 10}: v{i}\n" for i in range(300))
    g = guard("EXPECT KV", reg)
    for ch in reply:  # far more chunks than are kept apart
        g.feed(ch)
    assert g.text == reply
    g.feed("z: 1\n")
    assert g.text == reply + "z: 1\n"
    assert g.finish().reply == reply + "z: 1\n"


@pytest.mark.parametrize("broken", ["stream raises", "feed raises", "feed returns None"])
def test_a_broken_checker_stops_the_guard_with_a_reason_not_an_exception(reg, broken):
    class Checker:
        def feed(self, chunk):
            if broken == "feed raises":
                raise RuntimeError("boom")
            return None

        def copy(self):
            return self

        def finish(self):
            return StreamStatus(True)

    class Broken(KvFormat):
        def stream(self, schema=None, *, strict=True, **options):
            if broken == "stream raises":
                raise RuntimeError("boom")
            return Checker()

    e = parse_expectations("EXPECT KV", registry=reg)
    e.registry = type("R", (), {"get": lambda self, n: Broken(), "unit": reg.unit})()
    g = StreamGuard(e)
    status = g.feed("a: b")
    assert not status and status.reason and ("failed" in status.reason or "returned NoneType" in status.reason)


# --- scoped counts: kept when the checker names the scope (its optional scope_key) -----


class _ScopedKvChecker(KvChecker):
    """kv with scopes kept while streaming: a settled line's value is reported in the
    scope of its key, for the keys ``a`` and ``b`` only."""

    def scope_key(self, scope: str) -> str | None:
        return scope if scope in ("a", "b") else None

    def feed(self, chunk: str) -> StreamStatus:
        lines = (self.line + chunk).split("\n")[:-1]
        status = super().feed(chunk)
        if not status:
            return status
        pairs = [m.groups() for m in map(_LINE.match, lines) if m and m.group(2).strip()]
        return StreamStatus(True, values=status.values, scoped=tuple((k, v) for k, v in pairs))


@pytest.fixture
def scoped_reg(reg, monkeypatch):
    monkeypatch.setattr(KvFormat, "stream", lambda self, schema=None, *, strict=True, **o: _ScopedKvChecker(strict))
    return reg


def test_a_scoped_max_is_kept_when_the_checker_keeps_its_scope(scoped_reg):
    g = guard('EXPECT KV\nEXPECT MAX 2 WORDS IN "a"', scoped_reg)
    assert g.feed("b: one two three\n")  # another scope: not counted here
    assert g.feed("a: one two\n")
    status = g.feed("a: three\n")
    assert not status
    assert status.reason == '3 words already exceed MAX 2 WORDS IN "a"'


def test_a_scope_the_checker_does_not_keep_is_judged_at_finish(scoped_reg):
    g = guard('EXPECT KV\nEXPECT MAX 1 WORDS IN "c"', scoped_reg)
    assert g.feed("c: one two three\n")
    assert not g.finish().ok


def test_a_checker_without_scope_key_keeps_scoped_counts_for_finish(reg):
    g = guard('EXPECT KV\nEXPECT MAX 1 WORDS IN "a"', reg)
    assert g.feed("a: one two three\n")
    assert not g.finish().ok


def _stops(expect: str, chunks: list[str], defer: bool) -> list[tuple]:
    guard = StreamGuard(expect)
    for limit in guard._limits:
        limit._defer = limit._defer and defer
    out = []
    for chunk in chunks:
        status = guard.feed(chunk)
        out.append((status.ok, status.reason, status.position))
        if not status:
            break
    out.append(guard.headroom())
    return out


@pytest.mark.parametrize("unit", ["WORDS", "CHARACTERS"])
def test_an_open_value_counted_late_stops_where_counting_every_piece_does(unit):
    """A unit of at most one per character leaves the open string's pieces uncounted
    while its length cannot reach the limit: the guard stops at the same chunk, with the
    same reason and headroom, as when every piece is counted as it comes."""
    rng = random.Random(17)
    pool = ["word", "don't", "3.14", "e.g.", " ", "  ", ",", "1,a", "a'b", "\u00e9t\u00e9", "\u4e2d\u6587", "x_y", "-"]
    for _ in range(300):
        strings = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 40))) for _ in range(rng.randint(1, 4))]
        text = '{"a": [' + ", ".join('"' + s + '"' for s in strings) + "]}"
        total = check(text, f"EXPECT JSON\nEXPECT MIN 0 {unit}").counts[unit.lower()]
        expect = f"EXPECT JSON\nEXPECT MAX {rng.randint(0, total + 2)} {unit}"
        step = rng.randint(1, 9)
        chunks = [text[i : i + step] for i in range(0, len(text), step)]
        assert _stops(expect, chunks, True) == _stops(expect, chunks, False), (expect, chunks)
