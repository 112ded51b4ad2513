"""Pathological CSV replies for tests/fuzz/test_pathological.py (see tests/plugins/json/pathological.py):
check, heal and a StreamGuard fed in small chunks must grow about linearly."""

from formatbook_core.fuzzing.pathological import Case

_CSV = "EXPECT CSV"
_COUNTED = 'EXPECT CSV\nEXPECT MAX 10000000 WORDS IN "b"'

CASES = [
    Case("many-rows", lambda n: "a,b\n" + "1,two words\n" * n, 750, _COUNTED),
    Case("long-quoted-field", lambda n: 'a,b\n1,"' + 'x""' * n + '"\n', 3_200, _CSV),
    Case("unclosed-quote", lambda n: 'a,b\n1,"' + "x,\n" * n, 1_600, _CSV),
    Case("many-columns", lambda n: ",".join(f"c{i}" for i in range(n)) + "\n" + ",".join("1" * n), 940, _CSV),
    Case("spaces-after-commas", lambda n: "a, b\n" + "1, 2\n" * n, 94, _CSV),
    Case("blank-lines", lambda n: "a,b\n" + "\n" * n + "1,2\n", 780, _CSV),
    Case("semicolons", lambda n: "a;b\n" + "1;2\n" * n, 110, _CSV),
    Case("markdown-table", lambda n: "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * n, 99, _CSV),
    Case("stray-quotes", lambda n: 'a,b\n1,"x "y" z"\n' * n, 47, _CSV),
    Case("prose-with-commas", lambda n: "Well, yes, and no, " * n, 94, _CSV),
    Case("ragged-rows", lambda n: "a,b,c\n" + "1,2,3\n" * n + "1,2\n", 110, _CSV),
    Case("lone-carriage-returns", lambda n: "a,b\r" + "1,2\r" * n, 160, _CSV),
    Case("delimiter-lines-in-prose", lambda n: "Intro:\n" + "x,y\n\n" * n + "done.", 63, _CSV),
    # a think block before each fence: which blocks hold or overlap a fence was found by
    # scanning every block for every fence, and think_inside every block for every candidate
    Case(
        "think-blocks-and-fences",
        lambda n: ("<think>x</think>\n```\n" + "a,b\n1,2" + "\n```\n") * n,
        65,
        _CSV,
    ),
]
