"""Words on ASCII text are counted with the standard library's engine (a fast path): the
count must be the UAX #29 count of the general pattern on every ASCII string."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from formatbook_core.counting import _ASCII_WORD, _ASCII_WORD_BREAKS, _WORD, _WORD_SAFE, Words, _compiled

# one character of each Word_Break class ASCII has, and the joiners between them
ALPHABET = "aZ09_:.,;' \n-\"@#\t/"


def test_every_short_string_of_the_relevant_classes_counts_the_same():
    for n in range(1, 5):
        for chars in itertools.product(ALPHABET, repeat=n):
            text = "".join(chars)
            assert len(_ASCII_WORD.findall(text)) == len(_compiled(_WORD).findall(text)), repr(text)


def test_random_ascii_counts_the_same():
    rng = random.Random(13)
    every = [chr(i) for i in range(128)]
    for _ in range(20_000):
        pool = every if rng.random() < 0.3 else ALPHABET
        text = "".join(rng.choice(pool) for _ in range(rng.randint(1, 16)))
        assert len(_ASCII_WORD.findall(text)) == len(_compiled(_WORD).findall(text)), repr(text)


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_words_count_on_ascii_is_the_general_count(text):
    assert Words().count(text) == len(_compiled(_WORD).findall(text))


def _general_settled_end(text: str, start: int) -> int:
    m = _compiled(_WORD_SAFE).search(text, max(1, start - 1))
    return m.start() if m else 0


def test_ascii_word_breaks_are_the_general_patterns():
    general = _compiled(_WORD_SAFE)
    # a boundary after each ASCII character: the ones _WORD_SAFE looks back on
    breaks = "".join(chr(c) for c in range(128) if (m := general.search(chr(c) + "a", 1)) and m.start() == 1)
    assert breaks == _ASCII_WORD_BREAKS
    assert " " in breaks and "\n" in breaks and "-" in breaks and "a" not in breaks and "'" not in breaks


def test_every_short_string_settles_where_the_general_pattern_does():
    words = Words()
    for n in range(0, 5):
        for chars in itertools.product(ALPHABET, repeat=n):
            text = "".join(chars)
            for start in range(n + 2):
                assert words.settled_end(text, start) == _general_settled_end(text, start), (text, start)


def test_random_ascii_settles_where_the_general_pattern_does():
    rng = random.Random(29)
    words = Words()
    every = [chr(i) for i in range(128)]
    for _ in range(20_000):
        pool = every if rng.random() < 0.3 else ALPHABET
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 24)))
        start = rng.randint(0, len(text) + 1)
        assert words.settled_end(text, start) == _general_settled_end(text, start), (text, start)
    assert words.settled_end("hello world, again", 3) == 13  # after ", ": the last sure boundary
    assert words.settled_end("don't", 1) == 0  # "'" joins: nothing is sure yet


def test_examples_by_hand():
    words = Words()
    assert words.count("don't stop 3.14 well-known camelCase") == 6  # don't, stop, 3.14, well, known, camelCase
    assert words.count("ada@x.org") == 2
    assert words.count("1,000 a.b a..b _ __x") == 5  # 1,000 / a.b / a / b / __x
