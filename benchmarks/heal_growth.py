"""How healing grows with the text, in every format: ``heal()`` at about 1 MB and 10 MB.

Issue 31's goal: at most 12x the time for 10x the text (linear is 10x). Each format gets
one realistic damaged shape, repeated to size (YAML: a plain value holding ``: ``; XML:
``AT&T`` and ``< 5`` in text; HTML: a ``<div>`` never closed; Markdown: a list under a
contract-free document; CSV: spaces after every comma; JSON: trailing commas). The small
size is timed several times and the best kept (a run varies by half on a shared machine);
the large one fewer times; each run heals a new text (a cache of the last analysis must
not be what is timed).

Run: ``python benchmarks/heal_growth.py [--formats yaml,xml] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from timing import Row

from formatbook_core import heal

#: format -> (EXPECT text, a damaged document of about n * 30 characters)
SHAPES: dict[str, tuple[str, Callable[[int], str]]] = {
    "json": (
        "EXPECT JSON max_size=20000000",
        lambda n: "[" + "".join(f'{{"id": {i}, "tags": ["a", "b",],}},' for i in range(n)) + "]",
    ),
    "yaml": (
        "EXPECT YAML max_size=20000000",
        lambda n: "items:\n" + "".join(f"  - name: item {i}\n    note: a: b\n" for i in range(n)),
    ),
    "xml": (
        "EXPECT XML max_size=20000000",
        lambda n: "<r>" + "".join(f'<i n="{i}">AT&T {i} < 5</i>' for i in range(n)) + "</r>",
    ),
    "html": (
        "EXPECT HTML max_size=20000000",
        lambda n: "<div>" + "".join(f"<p>para {i} <b>bold</b></p>" for i in range(n)),
    ),
    "markdown": (
        "EXPECT MARKDOWN max_size=20000000",
        lambda n: "## Notes\n" + "".join(f"* item {i} of the list\n" for i in range(n)),
    ),
    "csv": (
        "EXPECT CSV max_size=20000000",
        lambda n: "name, age, city\n" + "".join(f"Ada {i}, {i % 90}, London\n" for i in range(n)),
    ),
}


def _cpu(text: str, expect: str) -> float:
    """The CPU seconds of one ``heal(text, expect)``."""
    start = time.process_time()
    heal(text, expect)
    return time.process_time() - start


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's rows: ``heal`` of each format's damaged shape at ten times the size
    against the smaller one (goal ≤ 12×; quick: 100 KB -> 1 MB, else 1 MB -> 10 MB)."""
    small, large = (100_000, 1_000_000) if quick else (1_000_000, 10_000_000)
    out = []
    for name, (expect, make) in SHAPES.items():
        unit = len(make(100)) / 100
        n_small, n_large = int(small / unit), int(large / unit)
        a = min(_cpu(make(n_small + run), expect) for run in range(3))
        b = min(_cpu(make(n_large + run), expect) for run in range(1 if quick else 2))
        out.append(
            Row(f"{name} heal growth x10 in size", len(make(n_large)), b, f"same at {small // 1000} KB", a, goal=12)
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--formats", default=",".join(SHAPES))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'format':10} {'small':>9} {'time':>8} {'large':>9} {'time':>8} {'growth':>7}")
    for name in args.formats.split(","):
        expect, make = SHAPES[name]
        unit = len(make(100)) / 100
        n_small, n_large = int(1_000_000 / unit), int(10_000_000 / unit)
        # a new text each run (one item more): a format may keep the analysis of a text it
        # has just read, and a repeated text would time that cache, not healing
        a = min(_cpu(make(n_small + run), expect) for run in range(args.runs * 2))
        b = min(_cpu(make(n_large + run), expect) for run in range(max(1, args.runs // 2)))
        mark = "ok" if b / a <= 12 else "over"
        size_a, size_b = len(make(n_small)) / 1e6, len(make(n_large)) / 1e6
        print(f"{name:10} {size_a:8.1f}M {a:7.2f}s {size_b:8.1f}M {b:7.2f}s {b / a:6.1f}x {mark}")


if __name__ == "__main__":
    main()
