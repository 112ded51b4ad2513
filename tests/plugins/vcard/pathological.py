"""Pathological vCard replies for tests/fuzz/test_pathological.py: each ``Case`` is run at
``size`` and ``8 * size``; check, heal and a StreamGuard fed in small chunks must grow about
linearly."""

from formatbook_core import get_format
from formatbook_core.fuzzing.pathological import Case

_HEAD = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nN:A;;;;\n"

# the contract's huge-repeated-samples input: the format's samples joined by blank lines,
# repeated (issue 29)
SAMPLES = "\n".join(get_format("vcard").samples) + "\n"

CASES = [
    Case("many-cards-lf", lambda n: (_HEAD + "END:VCARD\n") * n, 38, "EXPECT VCARD"),
    Case("long-note-unescaped", lambda n: _HEAD + "NOTE:" + "a, b; " * n + "\nEND:VCARD", 160, "EXPECT VCARD"),
    Case("many-folds", lambda n: _HEAD + "NOTE:a" + "\n b" * n + "\nEND:VCARD", 200, "EXPECT VCARD"),
    Case("broken-note-lines", lambda n: _HEAD + "NOTE:a\n" + "more text\n" * n + "END:VCARD", 94, "EXPECT VCARD"),
    Case("param-commas", lambda n: _HEAD + "X-A;B=" + "," * n + "!\nEND:VCARD", 650, "EXPECT VCARD"),
    Case("many-params", lambda n: _HEAD + "X-A" + ";P=a" * n + ":v\nEND:VCARD", 440, "EXPECT VCARD"),
    Case("photo-base64", lambda n: _HEAD + "PHOTO;ENCODING=b:" + "QUJD" * n + "\nEND:VCARD", 5_000, "EXPECT VCARD"),
    Case("prose-then-card", lambda n: "word " * n + "\n" + _HEAD + "END:VCARD", 490, "EXPECT VCARD"),
    Case("unclosed-cards", lambda n: "BEGIN:VCARD\nFN:A\n" * n, 250, "EXPECT VCARD"),
    # issue 30: nested BEGIN:VCARD lines, closed at the end or never
    Case("nested-closed-cards", lambda n: "BEGIN:VCARD\n" * n + "END:VCARD\n" * n, 63, "EXPECT VCARD"),
    Case("nested-begins", lambda n: "BEGIN:VCARD\r\n" * n + "FN:A\r\nEND:VCARD\r\n", 63, "EXPECT VCARD"),
    Case(
        "values-counted",
        lambda n: _HEAD + "NOTE:" + "one two " * n + "\nEND:VCARD",
        170,
        "EXPECT VCARD\nEXPECT MAX 100000000 WORDS",
    ),
    # a think block before each fence: which blocks hold or overlap a fence was found by
    # scanning every block for every fence, and think_inside every block for every candidate
    Case(
        "think-blocks-and-fences",
        lambda n: ("<think>x</think>\n```\n" + "BEGIN:VCARD" + "\n```\n") * n,
        62,
        "EXPECT VCARD",
    ),
    Case("repeated-samples", lambda n: SAMPLES * n, 8, "EXPECT VCARD", chunk=256),
]
