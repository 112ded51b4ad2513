"""The guard's hot path answers what its general path answers, for the whole-reply formats.

``StreamGuard.feed`` takes most chunks past ``_pass`` and, while every character goes on to
the checker as it comes (``_hot``), leaves its own count of the text fed and the think
splitter's behind. The reference is the same guard with the hot path off (``_direct``
false: every chunk through ``_pass``). Seeded replies with think blocks (leading or not),
``<`` in the text, unusual white space and blank ends, for no format, text and Markdown,
under word and character limits, cut at random, must give the same status on every feed,
the same ``headroom()``, the same ``can_end()`` and the same counts once brought up.
(JSON, the located-payload case: ``tests/plugins/json/test_guard_fast_path.py``.)
"""

from __future__ import annotations

import random

from formatbook_core import StreamGuard, parse_expectations

_PIECES = ("word", "two words", "<b>", "a < b", "<think>x</think>", "\n", "  ", "\u00a0", "\u2028", "x.", "# Head\n")
_LEADS = ("", "<think>plan</think>\n", "  <thinking>\n< no\n</thinking>", "<thi", "\n")
_BASES = ("", "EXPECT TEXT", "EXPECT MARKDOWN", "EXPECT MARKDOWN level=0")


def _run(guard: StreamGuard, chunks: list[str]) -> list[tuple]:
    out = []
    for n, chunk in enumerate(chunks):
        s = guard.feed(chunk)
        out.append((s.ok, s.reason, s.position, s.complete, guard.headroom()))
        if not s.ok:
            break
        if n % 3 == 0:
            think = guard._think
            out.append((guard.can_end(), guard._fed, think._fed if think is not None else None))
    return out


def test_the_hot_path_answers_as_the_general_path_for_whole_reply_formats():
    rng = random.Random(39)
    stops = 0
    for _ in range(120):
        text = rng.choice(_LEADS) + "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 12)))
        base = rng.choice(_BASES)
        unit = rng.choice(("WORDS", "CHARACTERS"))
        limit = rng.choice((None, 2, 5, 40))
        expect = parse_expectations("\n".join(x for x in (base, limit and f"EXPECT MAX {limit} {unit}") if x))
        chunks, i = [], 0
        while i < len(text):
            step = rng.choice((1, 2, 3, 4, 4, 6))
            chunks.append(text[i : i + step])
            i += step
        general = StreamGuard(expect)
        general._direct = False
        want = _run(general, chunks)
        assert _run(StreamGuard(expect), chunks) == want, (text, chunks, expect)
        stops += not want[-1][0]
    assert 10 < stops < 110  # both sides of the verdict are reached
