"""The NFA of :mod:`formatbook_core.data_schema.prefix_patterns`: its verdict on whole
strings agrees with Python's ``re`` and with the engine of :mod:`.patterns`, and a prefix
it calls dead has no continuation that matches (checked by brute force)."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formatbook_core.data_schema import prefix_patterns as pp
from formatbook_core.data_schema.patterns import search
from formatbook_core.data_schema.prefix_patterns import compiled_pattern, prefix_pattern

# Patterns read exactly, on an alphabet where re, ECMA and jsonschema-rs agree (no \n:
# Python's $ also matches before a final newline).
PATTERNS = [
    "^[A-Z]{3}-\\d+$",
    "^a*b$",
    "^(ab|a)c",
    "^(?:a|b)+$",
    "^a{2,3}$",
    "^a{2,}b",
    "^[^ab]+$",
    "^[a-c-]$",
    "^\\w+@\\w+\\.com$",
    "^\\s*\\S",
    "^(a|b)?c{0,2}$",
    "^\\x41\\u0042\\u{43}\\.\\-$",
    "^(?<year>\\d{4})-(?P<m>\\d\\d)$",
    "^a+?b??$",
    "^$",
    "^a$b",
    "^[\\d-]+$",
    "^.b$",
    "^(a*)*$",
    "^[+-]?\\d+(\\.\\d+)?$",
    "abc",
    "^a|b",
    "b$",
    "^a*",
    "(^a|^b)c",
    "^(x|)y$",
]
TEXTS = ["", "a", "b", "ab", "abc", "aab", "aaab", "ac", "abac", "ABC-12", "ABC-", "x@y.com", "  z", "AB.-", "ABC.-"]
TEXTS += ["2024-05", "-1.5", "+7", "1.", "c", "cc", "ccc", "ba", "bb", "y", "xy", "-", "d", "ab-1", "d1", "a b"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_whole_strings_agree_with_re_and_the_end_engine(pattern: str) -> None:
    compiled = compiled_pattern(pattern)
    assert compiled is not None
    for text in TEXTS:
        expected = re.search(pattern.replace("\\u{43}", "C").replace("(?<year>", "(?P<year>"), text) is not None
        assert compiled.search(text) is expected, (pattern, text)
        assert search(pattern, text) is expected, (pattern, text)


def _alive_by_brute_force(pattern: str, prefix: str, alphabet: str, depth: int) -> bool:
    rx = re.compile(pattern)
    return any(
        rx.search(prefix + "".join(rest)) for n in range(depth + 1) for rest in itertools.product(alphabet, repeat=n)
    )


BRUTE = [  # (pattern, alphabet): every live prefix has a continuation of at most 4 characters
    ("^a*b$", "ab"),
    ("^(ab|a)c", "abc"),
    ("^a{2,3}$", "ab"),
    ("^[^ab]+$", "abc"),
    ("^(a|b)?c{0,2}$", "abc"),
    ("^a$b", "ab"),
    ("^[+-]?\\d(\\.\\d)?$", "+-1."),
    ("^(x|)y$", "xy"),
    ("(^a|^b)c", "abc"),
    ("^a.b", "ab\n"),
]


@pytest.mark.parametrize(("pattern", "alphabet"), BRUTE)
def test_a_prefix_is_dead_exactly_when_no_continuation_matches(pattern: str, alphabet: str) -> None:
    compiled = prefix_pattern(pattern)
    assert compiled is not None
    assert not compiled.dead(compiled.start)  # the empty prefix is never judged
    for n in range(1, 5):
        for letters in itertools.product(alphabet, repeat=n):
            prefix = "".join(letters)
            run = compiled.feed(compiled.start, prefix)
            assert compiled.dead(run) is not _alive_by_brute_force(pattern, prefix, alphabet, 4), (pattern, prefix)


def test_the_stream_dies_at_the_first_impossible_character() -> None:
    compiled = prefix_pattern("^[A-Z]{3}-\\d+$")
    assert compiled is not None
    run = compiled.start
    verdicts = []
    for c in "ABC-12x9":
        run = compiled.feed(run, c)
        verdicts.append(compiled.dead(run))
    assert verdicts == [False] * 6 + [True, True]


def test_pieces_and_characters_give_the_same_run() -> None:
    compiled = prefix_pattern("^(ab|a)+c?$")
    assert compiled is not None
    text = "abaabab"
    one = compiled.feed(compiled.start, text)
    run = compiled.start
    for piece in ("ab", "", "aab", "a", "b"):
        run = compiled.feed(run, piece)
    assert one[0] == run[0] and not compiled.dead(run)
    assert compiled.dead(compiled.feed(run, "cc"))


@pytest.mark.parametrize(
    "pattern",
    [
        "abc",  # searched: a match may begin anywhere
        "^a|b",  # one branch floats
        "b$",
        "^a*",  # the empty string matches at the start: every string matches
        "^",
        "$",
        "(?:^|x)a",
    ],
)
def test_a_pattern_no_prefix_decides_is_left_to_the_end(pattern: str) -> None:
    assert compiled_pattern(pattern) is not None
    assert prefix_pattern(pattern) is None


@pytest.mark.parametrize(
    "pattern",
    [
        "^(?=a)a",
        "^(?!a)b",
        "^(?<=a)b",
        "^(a)\\1$",
        "^\\bword",
        "^\\p{L}+$",
        "^(?i)abc$",
        "^[]a]$",  # ECMA: an empty class; jsonschema-rs: ] or a
        "^[^]a]$",
        "^[[:alpha:]]$",
        "^[a&&b]$",
        "^a{,2}$",
        "^a{2,1}$",
        "^a{1001}$",
        "^a*+$",  # accepted by jsonschema-rs, no ECMA meaning
        "^a}$",
        "^\\e$",
        "^\\Aa",
        "^a\\z",
        "(",
        "a)",
        "^[a-\\d]$",
        "^[z-a]$",
        "^(?<=x)",
        "^" + "(a{1000}){1000}$",  # past MAX_NODES
    ],
)
def test_syntax_not_read_exactly_is_refused(pattern: str) -> None:
    assert compiled_pattern(pattern) is None
    assert prefix_pattern(pattern) is None


def test_classes_take_the_union_of_what_the_engines_read() -> None:
    # jsonschema-rs reads \d as ASCII, Python's re as Unicode: a prefix is never refused
    # for a character either may take; the negated forms keep what both may take.
    for pattern, char in [("^\\d$", "\u0663"), ("^\\w$", "\u00e9"), ("^\\s$", "\ufeff"), ("^.$", "\r")]:
        compiled = prefix_pattern(pattern)
        assert compiled is not None and not compiled.dead(compiled.feed(compiled.start, char)), pattern
    for pattern, char in [("^\\D$", "\u0663"), ("^[^\\d]$", "\u0663"), ("^\\W$", "\u00e9"), ("^[^\\w]$", "\u00e9")]:
        compiled = prefix_pattern(pattern)
        assert compiled is not None and not compiled.dead(compiled.feed(compiled.start, char)), pattern
    compiled = prefix_pattern("^\\d$")
    assert compiled is not None and compiled.dead(compiled.feed(compiled.start, "x"))
    compiled = prefix_pattern("^.$")
    assert compiled is not None and compiled.dead(compiled.feed(compiled.start, "\n"))


def test_past_the_work_budget_the_run_stops_deciding(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = prefix_pattern("^(a|aa|aaa)*(b|bb){3,30}$")
    assert compiled is not None
    monkeypatch.setattr(pp, "_CACHE", 0)  # every step a miss: the work grows with the text
    monkeypatch.setattr(pp, "MAX_WORK", 200)
    run = compiled.feed(compiled.start, "a" * 500)
    assert run[0] is None  # undecided: left to the end
    assert not compiled.dead(compiled.feed(run, "zzz"))
    assert run[1] < 200 + 100  # stopped just past the budget, not at the text's end


def test_the_work_is_linear_in_the_text() -> None:
    compiled = prefix_pattern("^(a|a?)+(a{1,20}){1,20}b$")  # many states alive at once
    assert compiled is not None
    short = compiled.feed(compiled.start, "a" * 1000)
    long = compiled.feed(compiled.start, "a" * 4000)
    assert long[1] <= short[1] + 1  # after the cache warms, a repeated step costs no visit
    assert compiled.dead(compiled.feed(long, "bb"))


# --- generated patterns ----------------------------------------------------------------
_ATOMS = st.sampled_from(["a", "b", "c", ".", "[ab]", "[^a]", "\\d", "\\w", "1", "(?:a|bc)", "(a|)"])
_QUANT = st.sampled_from(["", "", "*", "+", "?", "{2}", "{0,2}", "{1,}"])


@st.composite
def _patterns(draw: st.DrawFn) -> str:
    parts = [draw(_ATOMS) + draw(_QUANT) for _ in range(draw(st.integers(1, 4)))]
    body = "".join(parts)
    if draw(st.booleans()):
        body = body + "|" + draw(_ATOMS) + draw(_QUANT)
        body = "(?:" + body + ")"
    return draw(st.sampled_from(["^", "^", ""])) + body + draw(st.sampled_from(["$", ""]))


@settings(max_examples=150)
@given(pattern=_patterns(), text=st.text("abc1 ", max_size=6))
def test_generated_patterns_agree_with_re(pattern: str, text: str) -> None:
    compiled = compiled_pattern(pattern)
    assert compiled is not None, pattern
    assert compiled.search(text) is (re.search(pattern, text) is not None)


@settings(max_examples=100)
@given(pattern=_patterns(), prefix=st.text("abc1", max_size=4))
def test_generated_patterns_never_refuse_a_live_prefix(pattern: str, prefix: str) -> None:
    compiled = prefix_pattern(pattern)
    if compiled is None:
        return
    run = compiled.feed(compiled.start, prefix)
    if compiled.dead(run):
        assert not _alive_by_brute_force(pattern, prefix, "abc1", 4), (pattern, prefix)


def test_the_cache_holds_a_bounded_number_of_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pattern whose sets multiply (2^13 of them here) fills the cache up to its bound,
    then steps uncached: the same answers, bounded memory."""
    rng = random.Random(5)
    text = "".join("a" if rng.random() < 0.5 else "b" for _ in range(6000))
    fresh = pp.PrefixPattern("^(a|b)*a(a|b){12}$", pp.compile_nfa("^(a|b)*a(a|b){12}$"))  # type: ignore[arg-type]
    monkeypatch.setattr(pp, "_HELD", 2_000)
    run = fresh.feed(fresh.start, text)
    assert fresh._held < 2_000 + 100  # one set past the bound at most
    monkeypatch.setattr(pp, "_CACHE", 0)
    uncached = pp.PrefixPattern("^(a|b)*a(a|b){12}$", pp.compile_nfa("^(a|b)*a(a|b){12}$"))  # type: ignore[arg-type]
    assert uncached.feed(uncached.start, text)[0] == run[0]
    assert not fresh.dead(run) and fresh.dead(fresh.feed(run, "c"))
