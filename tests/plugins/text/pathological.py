"""Pathological text replies for tests/fuzz/test_pathological.py (see tests/plugins/json/pathological.py)."""

from formatbook_core.fuzzing.pathological import Case

_WORDS = "EXPECT TEXT\nEXPECT MAX 10000000 WORDS\nEXPECT MAX 10000000 SENTENCES\nEXPECT MAX 10000000 PARAGRAPHS"

CASES = [
    Case("long-line", lambda n: "x" * n, 2_400, _WORDS),
    Case("many-words", lambda n: "word " * n, 240, _WORDS),
    Case("many-sentences", lambda n: "Yes. " * n, 1_500, _WORDS),
    Case(
        "many-blank-lines",
        lambda n: "\n" * n,
        2_400,
        _WORDS,
    ),
    Case("abbreviations", lambda n: "e.g. i.e. Dr. " * n, 60, _WORDS),
    Case(
        "spaces-fed-one-at-a-time",
        lambda n: " " * n,
        240,
        _WORDS,
        chunk=1,
    ),
    Case(
        "carriage-returns",
        lambda n: "\r" * n,
        2_400,
        _WORDS,
    ),
    Case("think-block-then-text", lambda n: "<think>" + "x " * n + "</think>answer", 1_900, _WORDS),
]
