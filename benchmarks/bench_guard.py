"""StreamGuard with a MAX WORDS limit over a streamed JSON reply, against one json.loads.

Run: ``python benchmarks/bench_guard.py`` (add ``--quick`` for fewer repeats).

The same LLM-like JSON reply as ``json_stream.py`` (about 10 KB, 100 KB and 1 MB) is fed
to ``StreamGuard("EXPECT JSON\\nEXPECT MAX <n> WORDS")`` in 4-character chunks, as
``ask`` feeds a streamed reply: the relaxed checker, the think-block splitter and the
word count of every settled value, then ``finish()`` (the full ``check`` of the reply).
The limit is above the reply's word count, so the guard runs to the end. Each total is
compared with one ``json.loads`` of the whole reply; every figure is the best of several
runs, in CPU time. Target (issue 13): at most 60x one json.loads at 1 MB, linear in size.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from json_stream import llm_like_json  # noqa: E402
from timing import Row, best, interleaved  # noqa: E402

from formatbook_core import StreamGuard, check  # noqa: E402
from formatbook_core.llm_replies import GUARD_LAG  # noqa: E402

EXPECT = "EXPECT JSON\nEXPECT MAX {limit} WORDS"


def guard_all(chunks: list[str], expect: str, with_finish: bool, lag: int = 0) -> None:
    guard = StreamGuard(expect, lag=lag)
    feed = guard.feed
    for chunk in chunks:
        if not feed(chunk).ok:  # .ok, not bool(): StreamStatus.__bool__ is a Python call
            raise AssertionError("the guard stopped a reply that passes")
    if with_finish and not guard.finish().ok:
        raise AssertionError("the reply did not pass")


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's rows: StreamGuard (``lag=0``, 4-character chunks) with ``EXPECT JSON``
    alone (goal ≤ 60× one json.loads) and with a MAX WORDS limit (goal ≤ 80×), interleaved."""
    out = []
    for size in (100_000,) if quick else (100_000, 1_000_000):
        text = llm_like_json(size)
        words = check(text, "EXPECT JSON\nEXPECT MIN 0 WORDS").counts["words"]
        chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
        limited = EXPECT.format(limit=words + 1)
        t = interleaved(
            {
                "json": lambda c=chunks: guard_all(c, "EXPECT JSON", False, 0),
                "words": lambda c=chunks, e=limited: guard_all(c, e, False, 0),
                "peer": lambda t=text: json.loads(t),
            },
            3 if quick else 5,
        )
        out.append(Row("StreamGuard JSON, lag 0, 4-char", len(text), t["json"], "json.loads", t["peer"], goal=60))
        out.append(Row("StreamGuard JSON+MAX WORDS, lag 0", len(text), t["words"], "json.loads", t["peer"], goal=80))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--chunk", type=int, default=4, help="characters per chunk (default 4)")
    args = parser.parse_args()
    repeat = 3 if args.quick else 5
    step = args.chunk

    print(f"StreamGuard, EXPECT JSON + MAX WORDS, {step}-character chunks, best of {repeat} runs (CPU time)")
    print(f"lag {GUARD_LAG} is what ask() uses; lag 0 answers on every chunk\n")
    print(
        f"{'size':>10} {'chunks':>9} {'json.loads':>11} {'lag':>4} {'feeds':>9} {'ratio':>7} {'+finish':>9} {'ratio':>7}"
    )
    rows: dict[int, list[tuple[int, float]]] = {0: [], GUARD_LAG: []}
    for size in (10_000, 100_000, 1_000_000):
        text = llm_like_json(size)
        json.loads(text)
        words = check(text, "EXPECT JSON\nEXPECT MIN 0 WORDS").counts["words"]
        expect = EXPECT.format(limit=words + 1)
        chunks = [text[i : i + step] for i in range(0, len(text), step)]
        t_loads = best(lambda text=text: json.loads(text), repeat * 3, max(1, 2_000_000 // len(text)))
        for lag in rows:
            t_feed = best(lambda c=chunks, e=expect, lag=lag: guard_all(c, e, False, lag), repeat)
            t_all = best(lambda c=chunks, e=expect, lag=lag: guard_all(c, e, True, lag), repeat)
            rows[lag].append((len(text), t_feed))
            print(
                f"{len(text):>10,} {len(chunks):>9,} {t_loads * 1e3:>9.3f}ms {lag:>4} {t_feed * 1e3:>7.1f}ms"
                f" {t_feed / t_loads:>6.1f}x {t_all * 1e3:>7.1f}ms {t_all / t_loads:>6.1f}x"
            )
    for lag, measured in rows.items():
        (n_small, t_small), (n_big, t_big) = measured[0], measured[-1]
        print(
            f"\nlag {lag}: growth 10 KB -> 1 MB: size x{n_big / n_small:.0f}, feeds x{t_big / t_small:.0f} (linear = same)"
        )
    print("target (issue 13): the guard's feeds on 1 MB in 4-character chunks <= 60x one json.loads, linear")


if __name__ == "__main__":
    main()
