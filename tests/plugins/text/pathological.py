"""Pathological text replies for tests/fuzz/test_pathological.py (see tests/plugins/json/pathological.py)."""

from formatbook_core.fuzzing.pathological import Case

_WORDS = "EXPECT TEXT\nEXPECT MAX 10000000 WORDS\nEXPECT MAX 10000000 SENTENCES\nEXPECT MAX 10000000 PARAGRAPHS"

CASES = [
    Case("long-line", lambda n: "x" * n, 75_000, _WORDS),
    Case("many-words", lambda n: "word " * n, 7_500, _WORDS),
    Case("many-sentences", lambda n: "Yes. " * n, 6_000, _WORDS),
    Case(
        "many-blank-lines",
        lambda n: "\n" * n,
        37_500,
        _WORDS,
        xfail="found by this suite: StreamGuard on a run of newlines grows about 40x for 8x the input, like \\r (open)",
    ),
    Case("abbreviations", lambda n: "e.g. i.e. Dr. " * n, 1_500, _WORDS),
    Case(
        "spaces-fed-one-at-a-time",
        lambda n: " " * n,
        7_500,
        _WORDS,
        chunk=1,
        xfail="StreamGuard re-scans the open value on each one-character chunk of white space (being fixed)",
    ),
    Case(
        "carriage-returns",
        lambda n: "\r" * n,
        37_500,
        _WORDS,
        xfail="1 MB of \\r under EXPECT TEXT is super-linear in StreamGuard (being fixed)",
    ),
    Case("think-block-then-text", lambda n: "<think>" + "x " * n + "</think>answer", 15_000, _WORDS),
]
