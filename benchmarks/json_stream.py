"""Streaming JSON check: formatbook's incremental checker against re-parsing the prefix.

Run: ``python benchmarks/json_stream.py`` (add ``--quick`` for fewer repeats).

An LLM-like JSON reply (a list of records with prose fields, numbers, booleans, nulls,
nested objects and arrays, indented) of about 10 KB, 100 KB and 1 MB is fed to the strict
``JsonChecker`` in 4-character chunks, as a token stream would arrive. Each total is
compared with one ``json.loads`` of the whole reply. partial-json-parser, used the usual
way (re-parse the whole prefix at every chunk), is run on a capped number of chunks of
the 100 KB reply and extrapolated — the output says so. Every figure is the best of
several runs. Target (issue 3): the checker on 1 MB in 4-char chunks costs at most 30x
one json.loads, growing linearly with size.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins"))

from timing import Row, best, interleaved  # noqa: E402

from formatbook_json.stream import JsonChecker  # noqa: E402

_WORDS = (
    "the model returns a short answer with several fields and we check each value as it "
    "streams from the server while keeping counts of words sentences and lines for every "
    "record in order to stop early when a limit is exceeded"
).split()


def llm_like_json(size: int, seed: int = 7) -> str:
    """A deterministic LLM-like JSON document of about ``size`` characters."""
    rng = random.Random(seed)

    def sentence(n: int) -> str:
        return " ".join(rng.choice(_WORDS) for _ in range(n)).capitalize() + "."

    items: list[dict] = []
    doc = {"status": "ok", "model": "gpt-like", "items": items}
    text = json.dumps(doc, indent=2)
    while len(text) < size:
        for _ in range(20):
            items.append(
                {
                    "id": len(items) + 1,
                    "title": sentence(rng.randint(3, 8)),
                    "summary": " ".join(sentence(rng.randint(6, 14)) for _ in range(rng.randint(1, 4))),
                    "tags": [rng.choice(_WORDS) for _ in range(rng.randint(1, 4))],
                    "score": round(rng.random() * 100, 2),
                    "approved": rng.random() < 0.5,
                    "reviewer": None
                    if rng.random() < 0.3
                    else {"name": sentence(2)[:-1], "quote": "\u201c" + sentence(4) + "\u201d"},
                    "steps": [{"n": k, "text": sentence(rng.randint(4, 10))} for k in range(rng.randint(0, 3))],
                }
            )
        text = json.dumps(doc, indent=2, ensure_ascii=False)
    return text


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's row: the strict checker fed 4-character chunks against one json.loads
    (issue 3: ≤ 30× at 1 MB), interleaved."""
    out = []
    for size in (100_000,) if quick else (100_000, 1_000_000):
        text = llm_like_json(size)
        chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
        t = interleaved({"ours": lambda c=chunks: feed_all(c), "peer": lambda t=text: json.loads(t)}, 3 if quick else 7)
        out.append(Row("JSON strict stream checker, 4-char", len(text), t["ours"], "json.loads", t["peer"], goal=30))
    return out


def feed_all(chunks: list[str]) -> None:
    checker = JsonChecker(True)
    feed = checker.feed
    for chunk in chunks:
        if not feed(chunk).ok:  # .ok, not bool(): StreamStatus.__bool__ is a Python call
            raise AssertionError("the checker rejected a valid document")
    if not checker.finish():
        raise AssertionError("the checker did not accept the complete document")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--chunk", type=int, default=4, help="characters per chunk (default 4)")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    step = args.chunk

    print(f"JSON streaming check, {step}-character chunks, best of {repeat} runs (CPU time)\n")
    print(f"{'size':>10} {'chunks':>9} {'json.loads':>12} {'checker':>11} {'ratio':>8} {'per chunk':>10}")
    rows = []
    for size in (10_000, 100_000, 1_000_000):
        text = llm_like_json(size)
        json.loads(text)
        chunks = [text[i : i + step] for i in range(0, len(text), step)]
        t_loads = best(lambda text=text: json.loads(text), repeat * 3, max(1, 2_000_000 // len(text)))
        t_check = best(lambda chunks=chunks: feed_all(chunks), repeat)
        rows.append((len(text), t_check))
        print(
            f"{len(text):>10,} {len(chunks):>9,} {t_loads * 1e3:>10.3f}ms {t_check * 1e3:>9.2f}ms"
            f" {t_check / t_loads:>7.1f}x {t_check / len(chunks) * 1e9:>8.0f}ns"
        )
    (n_small, t_small), (n_big, t_big) = rows[0], rows[-1]
    print(
        f"\ngrowth 10 KB -> 1 MB: size x{n_big / n_small:.0f}, checker time x{t_big / t_small:.0f} (linear = same factor)"
    )
    print("target: checker on 1 MB <= 30x one json.loads")

    try:
        from partial_json_parser import loads as partial_loads  # noqa: PLC0415 - optional: compared only when installed
    except ImportError:
        print("\npartial-json-parser is not installed (pip install partial-json-parser): skipped")
        return
    text = llm_like_json(100_000)
    chunks = [text[i : i + step] for i in range(0, len(text), step)]
    t_loads = best(lambda text=text: json.loads(text), repeat * 3, max(1, 2_000_000 // len(text)))
    t_check = best(lambda chunks=chunks: feed_all(chunks), repeat)
    cap = 2_000
    # Chunks spread over the whole reply, so the prefixes have the sizes a full run sees.
    sample = list(range(0, len(chunks), max(1, len(chunks) // cap)))[:cap]
    prefixes = [text[: (k + 1) * step] for k in sample]

    def reparse() -> None:
        for prefix in prefixes:
            partial_loads(prefix)

    t_sample = best(reparse, 1 if args.quick else 2)
    t_partial = t_sample * len(chunks) / len(sample)
    print(f"\npartial-json-parser re-parsing the prefix at every chunk, {len(text):,} chars, {len(chunks):,} chunks:")
    print(
        f"  measured {len(sample):,} chunks evenly spread over the reply in {t_sample:.2f}s;"
        f" EXTRAPOLATED to all chunks: {t_partial:.1f}s"
    )
    print(
        f"  = {t_partial / t_loads:,.0f}x one json.loads (extrapolated); formatbook checker {t_check / t_loads:.1f}x;"
        f" checker is {t_partial / t_check:,.0f}x faster"
    )


if __name__ == "__main__":
    main()
