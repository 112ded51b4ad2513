"""Expectation-aware generation: the checking overhead per generated token, by reply length.

Run: ``python benchmarks/bench_generate.py`` (``--quick`` for fewer repeats, ``--formats
json,text`` to pick).

What ``generate()`` adds to each step is, per candidate tried, one ``StreamGuard.copy()``
(strict checker, MAX limits, think splitter, the text kept for ``check()``) and one
``feed`` of the candidate. For each format a valid reply of 100 KB+ is cut in 4-character
tokens; the guard is fed up to 1 KB, 10 KB and 100 KB, and there the cost of copy + feed
of the next token is measured (best of several runs of many candidates, CPU time). It must
be flat: the same at 100 KB as at 1 KB. Then ``generate()`` itself runs to 100 KB of JSON
with a scripted model whose first choice breaks the JSON at every step (two candidates
tried per token), and the time per generated token is read off in windows at 1, 10 and
100 KB.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from json_stream import llm_like_json  # noqa: E402

from formatbook_core import StreamGuard  # noqa: E402
from formatbook_core.generation import generate  # noqa: E402

SIZES = (1_000, 10_000, 100_000)
TOKEN = 4
_WORDS = "the quick brown fox jumps over a lazy dog while Ada writes her notes".split()


def _sentence(i: int, n: int = 9) -> str:
    return " ".join(_WORDS[(i * 7 + k) % len(_WORDS)] for k in range(n))


def text_doc(size: int) -> str:
    out, i = [], 0
    while sum(map(len, out)) < size:
        out.append(_sentence(i).capitalize() + ". ")
        i += 1
    return "".join(out)


def markdown_doc(size: int) -> str:
    out, i = ["## Short answer\n\nYes.\n\n## Reasoning\n\n"], 0
    while sum(map(len, out)) < size:
        out.append(f"{i + 1}. {_sentence(i).capitalize()}.\n")
        i += 1
    return "".join(out)


def csv_doc(size: int) -> str:
    out, i = ["name,age,city,note\n"], 0
    while sum(map(len, out)) < size:
        out.append(f"Ada {i},{20 + i % 50},London,{_sentence(i, 4)}\n")
        i += 1
    return "".join(out)


def yaml_doc(size: int) -> str:
    out, i = ["items:\n"], 0
    while sum(map(len, out)) < size:
        out.append(f"  - name: Ada {i}\n    age: {20 + i % 50}\n    note: {_sentence(i, 5)}\n")
        i += 1
    return "".join(out)


def xml_doc(size: int) -> str:
    out, i = ["<items>\n"], 0
    while sum(map(len, out)) < size:
        out.append(f'  <item n="{i}"><name>Ada</name><note>{_sentence(i, 5)}</note></item>\n')
        i += 1
    return "".join(out) + "</items>\n"


def html_doc(size: int) -> str:
    out, i = ["<ul>\n"], 0
    while sum(map(len, out)) < size:
        out.append(f"<li><b>Ada {i}</b> {_sentence(i, 6)}</li>\n")
        i += 1
    return "".join(out) + "</ul>\n"


# format -> (EXPECT lines, document builder, a candidate that breaks it at a token boundary)
FORMATS: dict[str, tuple[str, Callable[[int], str]]] = {
    "text": ("EXPECT TEXT\nEXPECT MAX 1000000 WORDS", text_doc),
    "json": ("EXPECT JSON\nEXPECT MAX 1000000 WORDS", lambda n: llm_like_json(n)),
    "markdown": ("EXPECT MARKDOWN\nEXPECT MAX 1000000 WORDS", markdown_doc),
    "csv": ("EXPECT CSV\nEXPECT MAX 1000000 WORDS", csv_doc),
    "yaml": ("EXPECT YAML\nEXPECT MAX 1000000 WORDS", yaml_doc),
    "xml": ("EXPECT XML\nEXPECT MAX 1000000 WORDS", xml_doc),
    "html": ("EXPECT HTML", html_doc),
}


def per_candidate(expect: str, doc: str, at: int, repeat: int, number: int, spots: int = 8) -> float:
    """Seconds for one copy + feed of the next token with the guard fed ``at`` characters:
    the mean over ``spots`` consecutive tokens (a state inside a string costs less than one
    between tokens), each the best of ``repeat`` runs of ``number`` candidates."""
    cut = at - at % TOKEN
    guard = StreamGuard(expect, strict=True)
    for i in range(0, cut, TOKEN):
        if not guard.feed(doc[i : i + TOKEN]):
            raise AssertionError(f"the strict guard refused the valid document at {i}: {guard.status.reason}")
    total = 0.0
    for spot in range(spots):
        token = doc[cut + spot * TOKEN : cut + (spot + 1) * TOKEN]
        times = []
        for _ in range(repeat):
            t0 = time.process_time()
            for _ in range(number):
                guard.copy().feed(token)
            times.append((time.process_time() - t0) / number)
        total += min(times)
        guard.feed(token)
    return total / spots


def generate_windows(size: int) -> dict[int, float]:
    """``generate()`` of a JSON reply of ``size`` characters, the model's first choice
    breaking it at every step: seconds per generated token around each of SIZES."""
    doc = llm_like_json(size)
    json.loads(doc)
    tokens = [doc[i : i + TOKEN] for i in range(0, len(doc), TOKEN)]
    stamps: list[float] = []

    def model(prompt: str, reply: str) -> list:
        stamps.append(time.process_time())
        k = len(stamps) - 1  # one call per step: no backtracking happens
        return ["\x01", tokens[k]] if k < len(tokens) else [None]

    result = generate(model, "", "EXPECT JSON", max_tokens=len(tokens) + 1)
    if not result.ok or result.reply != doc or result.rejected != len(tokens):
        raise AssertionError("generate() did not write the document")
    windows = {}
    for at in SIZES:
        k = min(at // TOKEN, len(stamps) - 201)
        windows[at] = (stamps[k + 200] - stamps[k]) / 200
    return windows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--formats", default=",".join(FORMATS), help="comma-separated formats")
    args = parser.parse_args()
    repeat, number = (3, 100) if args.quick else (5, 300)
    print(f"copy() + feed() of one {TOKEN}-character token, strict StreamGuard, best of {repeat} x {number} (CPU)\n")
    print(f"{'format':<10}" + "".join(f"{f'{s // 1000} KB':>12}" for s in SIZES) + f"{'100/1':>8}")
    for name in args.formats.split(","):
        expect, build = FORMATS[name]
        doc = build(max(SIZES) + 1_000)
        n = number if name != "html" else 3  # html's copy re-parses the text so far: slow
        cost = [per_candidate(expect, doc, at, repeat, n) for at in SIZES]
        cells = "".join(f"{c * 1e6:>9.1f} µs" for c in cost)
        print(f"{name:<10}{cells}{cost[-1] / cost[0]:>7.1f}x", flush=True)
    print("\ngenerate() to 100 KB of JSON, 2 candidates tried per token (the first breaks it)")
    windows = min((generate_windows(max(SIZES) + 2_000) for _ in range(max(repeat - 2, 1))), key=lambda w: w[SIZES[-1]])
    for at, seconds in windows.items():
        print(f"  per token at {at // 1000:>3} KB: {seconds * 1e6:8.1f} µs")


if __name__ == "__main__":
    main()
