"""Helpers for the grammar tests of every format: held samples accepted and damaged ones
refused by every engine, and the subset rule (a text the grammar matches passes check())
over single-character edits of the samples."""

from __future__ import annotations

from formatbook_core import Expectations, check
from formatbook_core.exports import grammar
from formatbook_core.testing.grammars import ENGINES, accepts, compiled

ALL = dict.fromkeys(ENGINES, True)
NONE = dict.fromkeys(ENGINES, False)
#: Characters inserted by :func:`edits`: the syntax of the formats exported, a letter, a digit.
INSERTED = '",:{}[]\n -#a0'


def assert_grammar(exp: Expectations, good: list[str], bad: list[str]) -> dict:
    """Every engine accepts each of ``good`` (which check() passes as written) and refuses
    each of ``bad``; returns the compiled engines."""
    engines = compiled(grammar(exp))
    for text in good:
        assert check(text, exp).verdict == "pass", text
        assert accepts(engines, text) == ALL, text
    for text in bad:
        assert accepts(engines, text) == NONE, text
    return engines


def edits(text: str) -> list[str]:
    """``text`` with one character deleted, or one of :data:`INSERTED` inserted, everywhere."""
    out = {text[:i] + text[i + 1 :] for i in range(len(text))}
    out |= {text[:i] + c + text[i:] for i in range(len(text) + 1) for c in INSERTED}
    out.discard(text)
    return sorted(out)


def assert_subset(exp: Expectations, samples: list[str]) -> int:
    """Every edit of the samples that some engine accepts is accepted by all of them and
    passes check() as written (the grammar matches no text check() refuses, nor one it must
    heal); returns how many edits were accepted."""
    engines = compiled(grammar(exp))
    accepted = 0
    for sample in samples:
        for text in edits(sample):
            found = accepts(engines, text)
            if any(found.values()):
                assert found == ALL, (text, found)
                assert check(text, exp).verdict == "pass", text
                accepted += 1
    return accepted
