"""Every StreamGuard.feed costs time in proportion to its chunk: the work of feeding a
reply one character at a time grows linearly with the reply.

Measured by growth, not by time: a subprocess feeds each reply at two sizes (n and 4n)
and compares their CPU times (tests/feed_growth.py). Nothing here asserts how long
anything takes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.feed_growth import feeding_grows_linearly

_CONTRACT = Path(__file__).parent / "fixtures" / "guard_contract.md"
_KEPT = f'EXPECT MARKDOWN {_CONTRACT}\nEXPECT MAX 100000000 WORDS\nEXPECT MAX 100000000 WORDS IN "Short answer"'

# name -> (expectations, the reply of size n as a Python expression of n)
CASES = {
    "blank reply, no format": ("EXPECT MAX 3 WORDS", "' ' * n"),
    "carriage returns, text": ("EXPECT TEXT", "'\\r' * n"),
    "carriage returns, text with a limit": ("EXPECT TEXT\nEXPECT MAX 3 LINES", "'\\r' * n"),
    # white space the guard holds back until text follows it (U+00A0 after the root)
    "no-break spaces after XML": ("EXPECT XML", "'<a/>' + '\\xa0' * n"),
    "no-break spaces then text, XML": ("EXPECT XML", "'<a/>' + '\\xa0 \\n' * (n // 3) + 'x'"),
    "blank before JSON": ("EXPECT JSON\nEXPECT MAX 3 WORDS", "' ' * n + '{}'"),
    "unclosed think block, JSON": ("EXPECT JSON", "'<think>' + 'a' * n"),
    "white space in a closing tag, JSON": ("EXPECT JSON", "'<think>x</think' + ' ' * n"),
    "cut opening tags, JSON": ("EXPECT JSON", "'<thi' * (n // 4)"),
    "many think blocks, JSON": ("EXPECT JSON\nEXPECT MAX 1 WORDS", "'<think>a</think >' * (n // 17) + '[1]'"),
    # Markdown counts kept while streaming: many settled paragraphs, and one open paragraph
    # (a line never ended) that is never settled
    "settled paragraphs, Markdown contract": (_KEPT, "'# Short answer\\n' + 'Yes it is.\\n\\n' * (n // 12)"),
    "one long paragraph, Markdown contract": (_KEPT, "'# Short answer\\n' + 'word ' * (n // 5)"),
    "many sections, Markdown contract": (_KEPT, "'# Short answer\\nYes.\\n\\n# Notes\\nNo.\\n\\n' * (n // 28)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_feeding_one_character_at_a_time_is_linear(name):
    exp, make = CASES[name]
    feeding_grows_linearly(name, exp, make, 20_000)
