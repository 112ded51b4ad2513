"""Property tests: settled_end is additive, IncrementalCount agrees with counting at once."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core.counting import BUILTIN_UNITS, IncrementalCount, Lines, Pages

# Pieces chosen to hit every rule: abbreviations, initials, decimals, CR LF, blank lines,
# combining marks, ZWJ emoji, flags, keycaps, CJK, Thai, Devanagari conjuncts, Hangul jamo.
FRAGMENTS = [
    "a", "B", "word", "Dr.", "e.g.", "etc.", "U.S.", "J.", "3.14", "don't", "well-known",
    " ", "  ", "\t", "\n", "\r", "\r\n", "\n\n", " \n", ".", "!", "?", "?!", "…", "...",
    "。", "！", "？", "」", ")", '"', "'", ",", ":", "_", "-", "/", "1", "42",
    "\u0301", "\u200d", "\u200b", "\u00ad", "\ufe0f", "\u20e3", "🇫", "🇷", "😀", "👩\u200d💻",
    "中", "文", "ひ", "カ", "ー", "ไทย", "ง่", "क", "\u094d", "ष", "\u1100", "\u1161",
    "ᄀ", "Ω", "é", "م", "ر", "\u0600", "x" * 70,
]

texts = st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join) | st.text(max_size=40)
UNITS = [u for u in BUILTIN_UNITS if not u.based_on]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, cont=texts, data=st.data())
def test_settled_end_is_additive(text, cont, data):
    start = data.draw(st.integers(0, len(text)))
    # Joins happen at the seam, so every fragment is tried as the start of the continuation.
    continuations = [cont] + [fragment + cont for fragment in FRAGMENTS]
    for unit in UNITS:
        for hint in (0, start):
            i = unit.settled_end(text, hint)
            assert 0 <= i <= len(text), unit
            if i:
                left = unit.count(text[:i])
                for c in continuations:
                    right = unit.count(text[i:] + c)
                    assert left + right == unit.count(text + c), (unit, text, c, i)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(texts, max_size=8), cont=texts)
def test_incremental_count_matches_counting_at_once(parts, cont):
    for unit in BUILTIN_UNITS:
        inc = IncrementalCount(unit)
        fed = ""
        last_settled = 0
        for part in parts:
            inc.feed(part)
            fed += part
            assert inc.total() == unit.count(fed), (unit, fed)
            settled = inc.settled()
            assert settled >= last_settled
            # a lower bound for every continuation, including this random one
            assert settled <= unit.count(fed + cont), (unit, fed, cont)
            last_settled = settled
        assert inc.total() == unit.count(fed)


def test_pages_follow_lines():
    inc = IncrementalCount(Pages())
    for _ in range(45):
        inc.feed("one line\n")
    assert inc.settled() == 2  # 45 settled lines are two pages
    assert inc.total() == 2


def test_feeding_one_character_at_a_time_keeps_a_short_tail():
    # Linear work: with safe points everywhere the pending tail never grows with the text.
    text = "Dr. Smith met Mr. Jones at 3.14 p.m. They talked.\n\n" * 200
    for unit in BUILTIN_UNITS:
        inc = IncrementalCount(unit)
        longest = 0
        for ch in text:
            inc.feed(ch)
            longest = max(longest, len(inc.pending))
        assert inc.total() == unit.count(text)
        limit = 300 if unit.name in ("paragraphs", "pages") else 80
        assert longest < limit, (unit, longest)


def test_lines_settle_after_each_line_break():
    unit = Lines()
    assert unit.settled_end("abc\ndef") == 4
    assert unit.settled_end("abc\r") == 0  # a CR LF may still be coming
    assert unit.settled_end("abc\rd") == 4
    assert unit.settled_end("abc\r\nd") == 5
