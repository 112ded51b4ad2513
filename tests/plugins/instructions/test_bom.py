"""Issue 9: a byte order mark (U+FEFF) opening a ``str`` reply is no character of it. The
kinds that read the start of the text (STARTS WITH, QUOTED, ONE OF, PARAGRAPH n STARTS WITH)
skip it in ``check()`` and in their streams, fed through StreamGuard in any chunks (a chunk
that is the mark alone included), so that the guard and check() agree. The mark is the
core's one definition (``formatbook_core.decoding.BOM``, dropped from bytes by
``decode_reply``); only one mark at the very start is skipped."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check
from formatbook_core.decoding import BOM, bom_length, decode_reply

B = "\ufeff"


def guard_verdict(exp: str, chunks: list[str]) -> tuple[bool, int | None]:
    guard = StreamGuard(exp)
    for chunk in chunks:
        status = guard.feed(chunk)
        if not status:
            return False, status.position
    return True, None


def chunkings(reply: str) -> list[list[str]]:
    """The reply a character at a time, in two-character chunks, whole, and as the mark
    alone then the rest."""
    return [
        list(reply),
        [reply[i : i + 2] for i in range(0, len(reply), 2)],
        [reply],
        [reply[:1], reply[1:]],
    ]


def test_the_one_definition() -> None:
    assert BOM == B
    assert bom_length(B + "x") == 1 and bom_length("x" + B) == 0 and bom_length("") == 0
    assert decode_reply(BOM.encode("utf-8") + b"Hi") == ("Hi", None)


PASSING = [
    (B + "Hello there", 'EXPECT STARTS WITH "Hello"'),
    (B + "  Hello there", 'EXPECT STARTS WITH "Hello"'),  # white space after the mark, as without it
    (B + '"Hi"', "EXPECT QUOTED"),
    (B + "\u201cHi\u201d", "EXPECT QUOTED"),
    (B + "yes", 'EXPECT ONE OF "yes" | "no"'),
    (B + " no\n", 'EXPECT ONE OF "yes" | "no"'),
    (B + "However, it rained.\n\nThen it stopped.", 'EXPECT PARAGRAPH 1 STARTS WITH "However"'),
]


@pytest.mark.parametrize("reply,exp", PASSING)
def test_a_leading_mark_is_skipped(reply: str, exp: str) -> None:
    assert check(reply, exp).ok
    assert check(reply[1:], exp).ok  # the same reply without the mark: the same verdict
    for chunks in chunkings(reply):
        assert guard_verdict(exp, chunks) == (True, None), chunks


FAILING = [
    # (reply, EXPECT, the offset where the guard stops: the first wrong character, mark counted)
    (B + "Hi there", 'EXPECT STARTS WITH "Hello"', 2),  # 'i' at offset 2
    (B + "Hi", "EXPECT QUOTED", 1),  # 'H' at offset 1 is no quote
    (B + "maybe", 'EXPECT ONE OF "yes" | "no"', 1),  # 'm' fits no option
    (B + B + "Hello", 'EXPECT STARTS WITH "Hello"', 1),  # only one mark, at the very start, is skipped
    ("x" + B + "Hello", 'EXPECT STARTS WITH "Hello"', 0),
]


@pytest.mark.parametrize("reply,exp,at", FAILING)
def test_what_follows_the_mark_is_still_judged(reply: str, exp: str, at: int) -> None:
    assert not check(reply, exp).ok
    for chunks in chunkings(reply):
        assert guard_verdict(exp, chunks) == (False, at), chunks


def test_spans_count_the_mark() -> None:
    (violation,) = check(B + "Hi there", 'EXPECT STARTS WITH "Hello"').violations
    assert violation.span == (1, 6)  # "Hi th" in the reply, after the mark


def test_the_mark_alone_is_an_empty_reply() -> None:
    # check() says empty; the guard cannot stop yet (a quote may still come): it never
    # stops what check() would accept, and check() at the end refuses
    assert not check(B, "EXPECT QUOTED").ok
    assert guard_verdict("EXPECT QUOTED", [B]) == (True, None)
