"""HTML: streaming and checking a reply of about 1 MB, against one html5lib parse and one
lxml.html parse of it.

Run: ``python benchmarks/bench_html.py`` (``--quick`` for fewer repeats, ``--size N``).

The reply is a generated LLM-style HTML fragment (headings, paragraphs with inline
markup and character references, lists, tables). Measured: the best of several runs of
the CPU time of this process (all its threads: the streaming checker's parser runs in a
thread of its own). Wall time is not used: on the shared machine it is two to three times
the CPU time for every entry alike, html5lib's own parse included.

* ``html5lib`` — one ``html5lib.parseFragment`` (etree tree), the library users would pick
  for a WHATWG verdict;
* ``lxml.html`` — one ``lxml.html.fragments_fromstring`` (libxml2, no HTML5 verdict),
  the fast baseline;
* ``is_valid`` — formatbook's verdict (one html5lib parse on formatbook's tree, the
  data-not-prose and Markdown checks);
* ``check`` — the whole pipeline with ``EXPECT MAX 1000000 WORDS`` (locate, verdict,
  values, counting);
* ``stream 4`` / ``stream 64`` — the strict checker fed 4- and 64-character chunks, then
  ``finish()``;
* ``guard`` — a ``StreamGuard`` (relaxed) fed 16-character chunks, ``finish()`` included;
* ``can_be_valid`` — on the whole text (one prefix check);
* at a tenth of the size, the same for the growth.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "plugins"))
sys.path.insert(0, str(ROOT))

import html5lib  # noqa: E402
import lxml.html  # noqa: E402
from timing import Row, best, interleaved  # noqa: E402

from formatbook_core import StreamGuard, check, get_format, heal  # noqa: E402

_WORDS = "the model writes a long answer with some bold words and a few links to other pages".split()


def html_reply(size: int, seed: int = 11) -> str:
    """A deterministic LLM-style HTML fragment of about ``size`` characters."""
    rng = random.Random(seed)

    def words(lo: int, hi: int) -> str:
        return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(lo, hi)))

    parts: list[str] = []
    length = 0
    n = 0
    while length < size:
        n += 1
        block = [f"<h2>Section {n}: {words(2, 5)}</h2>\n"]
        for _ in range(rng.randint(1, 3)):
            block.append(
                f"<p>{words(5, 15).capitalize()} <strong>{words(1, 3)}</strong> &amp; "
                f'<a href="/page/{n}">{words(1, 2)}</a> {words(3, 10)}.</p>\n'
            )
        block.append("<ul>\n" + "".join(f"  <li>{words(2, 6)}</li>\n" for _ in range(rng.randint(2, 5))) + "</ul>\n")
        if n % 3 == 0:
            rows = "".join(f"<tr><td>{words(1, 2)}</td><td>{rng.randint(1, 999)}</td></tr>" for _ in range(3))
            block.append(f"<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>{rows}</tbody></table>\n")
        text = "".join(block)
        parts.append(text)
        length += len(text)
    return "".join(parts)


def stream(fmt, text: str, chunk: int) -> None:
    checker = fmt.stream()
    for i in range(0, len(text), chunk):
        if not checker.feed(text[i : i + chunk]):
            raise SystemExit(f"the checker refused the valid reply at {i}")
    if not checker.finish():
        raise SystemExit("the checker's finish() refused the valid reply")


def guard(text: str) -> None:
    g = StreamGuard("EXPECT HTML\nEXPECT MAX 1000000 WORDS")
    for i in range(0, len(text), 16):
        g.feed(text[i : i + 16])
    if not g.finish().ok:
        raise SystemExit("the guard refused the valid reply")


def measure(text: str, repeats: int) -> dict[str, float]:
    fmt = get_format("html")
    assert fmt.is_valid(text), fmt.validate(text)[:3]
    variants = iter(range(10**6))

    def fresh() -> str:  # formatbook keeps the last parse: give it a new text each run
        return f"<!-- run {next(variants)} -->\n" + text

    out = {
        "html5lib": best(lambda: html5lib.parseFragment(text), repeats),
        "lxml.html": best(lambda: lxml.html.fragments_fromstring(text), repeats),
        "is_valid": best(lambda: fmt.is_valid(fresh()), repeats),
        "check": best(lambda: check(fresh(), "EXPECT HTML\nEXPECT MAX 1000000 WORDS"), repeats),
        "can_be_valid": best(lambda: fmt.can_be_valid(text), repeats),
        "stream 4": best(lambda: stream(fmt, text, 4), repeats),
        "stream 64": best(lambda: stream(fmt, text, 64), repeats),
        "guard": best(lambda: guard(fresh()), repeats),
    }
    return out


def bench_rows(quick: bool = True, sizes: tuple[int, ...] | None = None) -> list[Row]:
    """The table's rows: ``is_valid`` (goal ≤ 2× html5lib) and ``heal`` of the reply opened
    by a ``<div>`` never closed (goal ≤ 4×), interleaved with one html5lib parse."""
    fmt = get_format("html")
    out = []
    for size in sizes or ((100_000,) if quick else (100_000, 1_000_000)):
        text = html_reply(size)
        variants = iter(range(10**6))

        def fresh(text: str = text, variants=variants) -> str:  # a new text each run: the last parse is kept
            return f"<!-- run {next(variants)} -->\n" + text

        t = interleaved(
            {
                "valid": lambda: fmt.is_valid(fresh()),
                "heal": lambda: heal("<div>" + fresh(), "EXPECT HTML"),
                "peer": lambda text=text: html5lib.parseFragment(text),
            },
            3 if quick else 5 if size > 10_000 else 50,
        )
        out.append(Row("HTML is_valid", len(text), t["valid"], "html5lib", t["peer"], goal=2))
        out.append(Row("HTML heal (unclosed <div>)", len(text), t["heal"], "html5lib", t["peer"], goal=4))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--size", type=int, default=1_000_000)
    args = parser.parse_args()
    repeats = 2 if args.quick else 5
    for size in (args.size // 10, args.size):
        text = html_reply(size)
        figures = measure(text, repeats)
        base = figures["html5lib"]
        print(f"\n{len(text):,} characters (best of {repeats}):")
        for name, seconds in figures.items():
            print(f"  {name:<13} {seconds * 1000:9.1f} ms   {seconds / base:5.2f}x html5lib")


if __name__ == "__main__":
    main()
