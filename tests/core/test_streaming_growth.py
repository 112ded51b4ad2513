"""Every StreamGuard.feed costs time in proportion to its chunk: the work of feeding a
reply one character at a time grows linearly with the reply.

Measured by growth, not by time: a subprocess feeds each reply at two sizes (n and 4n)
and reports the CPU time of each (the best of three runs); linear work grows about 4
times, quadratic work 16 times, and the test allows 9 (generous: a loaded machine slows
both sizes alike). Nothing here asserts how long anything takes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

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

_SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    from formatbook_core import StreamGuard
    exp, make, n = sys.argv[1], sys.argv[2], int(sys.argv[3])

    def run(size):
        reply = eval(make, {"n": size})
        best = None
        for _ in range(3):
            guard = StreamGuard(exp)
            start = time.process_time()
            for ch in reply:
                guard.feed(ch)
            spent = time.process_time() - start
            best = spent if best is None else min(best, spent)
        return best

    run(n // 4)  # warm up imports and caches
    print(json.dumps([run(n), run(4 * n)]))
    """
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_feeding_one_character_at_a_time_is_linear(name):
    exp, make = CASES[name]
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, exp, make, "20000"], capture_output=True, text=True, check=True, timeout=600
    )
    small, large = json.loads(out.stdout)
    assert large < 9 * max(small, 0.005), f"{name}: {small:.3f}s at n, {large:.3f}s at 4n"
