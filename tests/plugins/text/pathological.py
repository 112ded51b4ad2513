"""Pathological text replies for tests/fuzz/test_pathological.py (see tests/plugins/json/pathological.py)."""

from formatbook_core.fuzzing.pathological import Case

_WORDS = "EXPECT TEXT\nEXPECT MAX 10000000 WORDS\nEXPECT MAX 10000000 SENTENCES\nEXPECT MAX 10000000 PARAGRAPHS"

CASES = [
    Case("long-line", lambda n: "x" * n, 18_750, _WORDS),
    Case("many-words", lambda n: "word " * n, 1_875, _WORDS),
    Case("many-sentences", lambda n: "Yes. " * n, 1_500, _WORDS),
    Case(
        "many-blank-lines",
        lambda n: "\n" * n,
        9_375,
        _WORDS,
    ),
    Case("abbreviations", lambda n: "e.g. i.e. Dr. " * n, 375, _WORDS),
    Case(
        "spaces-fed-one-at-a-time",
        lambda n: " " * n,
        1_875,
        _WORDS,
        chunk=1,
    ),
    Case(
        "carriage-returns",
        lambda n: "\r" * n,
        9_375,
        _WORDS,
    ),
    Case("think-block-then-text", lambda n: "<think>" + "x " * n + "</think>answer", 3_750, _WORDS),
]
