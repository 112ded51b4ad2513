"""XML streaming: the strict incremental checker fed an LLM-like XML reply in 4-character
chunks (``finish()`` included, which parses the whole text with lxml once), against one
``lxml.etree.fromstring`` of the whole reply, at about 10 KB, 100 KB and 1 MB (CPU time,
best of several runs).

Issue 11's target: at 1 MB the checker takes at most 40x one ``fromstring``, and grows
linearly with the reply.

    python benchmarks/bench_xml.py [--runs 7]
"""

from __future__ import annotations

import argparse
import random

from lxml import etree
from timing import Row, best, fresh, interleaved

from formatbook_core import check, get_format

SENTENCES = [
    "The quarterly report shows revenue grew by 12% compared with last year.",
    "AT&amp;T and Verizon both expanded coverage in rural areas.",
    "If a &lt; b then the sorted order is preserved; otherwise we swap them.",
    "Caf\u00e9 owners in Z\u00fcrich reported a busy summer season \u2014 mostly tourists.",
    "Use the <code>--force</code> flag only when the lock file is stale.",
    "The model's reasoning: first list the constraints, then check each candidate.",
]


def reply(size: int, seed: int = 11) -> str:
    """An LLM-like XML reply of about ``size`` characters: reasoning, sections of items
    with attributes and prose, entities, a CDATA block, comments."""
    rng = random.Random(seed)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<response model="demo" version="2">\n']
    parts.append("  <reasoning>" + " ".join(rng.choice(SENTENCES) for _ in range(6)) + "</reasoning>\n")
    total = sum(map(len, parts))
    n = 0
    while total < size - 200:
        n += 1
        item = (
            f'  <item id="{n}" status="{rng.choice(["open", "done", "blocked"])}">\n'
            f"    <title>Item {n}: {rng.choice(SENTENCES)[:40]}</title>\n"
            f"    <body>{' '.join(rng.choice(SENTENCES) for _ in range(rng.randint(2, 6)))}</body>\n"
            + ("    <!-- checked -->\n" if n % 7 == 0 else "")
            + ("    <code><![CDATA[if (a < b && c) { return x; }]]></code>\n" if n % 11 == 0 else "")
            + "  </item>\n"
        )
        parts.append(item)
        total += len(item)
    parts.append("  <answer>See the items above.</answer>\n</response>\n")
    return "".join(parts)


def damaged(text: str) -> str:
    """The reply as models damage it: a bare ``&`` and ``<`` in text (``AT&T``, ``a < b``)."""
    return text.replace("AT&amp;T", "AT&T").replace("a &lt; b", "a < b")


def bench_rows(quick: bool = True, sizes: tuple[int, ...] | None = None) -> list[Row]:
    """The table's rows: ``is_valid`` and ``check()`` (goal ≤ 5× lxml ``fromstring``),
    ``heal`` and ``check()`` of the damaged reply (goal ≤ 10× lxml with ``recover=True`` on
    it), at 100 KB, 1 MB and 10 MB,
    and the strict checker in 4-character chunks (issue 11: ≤ 40× fromstring) up to 1 MB,
    interleaved."""
    fmt = get_format("xml")
    out = []
    strict = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    recover = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, recover=True)
    for size in sizes or ((100_000,) if quick else (100_000, 1_000_000, 10_000_000)):
        text = reply(size)
        bad = damaged(text)
        contenders = {
            "valid": lambda text=text: fmt.is_valid(fresh(text)),
            "peer": lambda text=text: etree.fromstring(text.encode(), strict),
            "heal": lambda bad=bad: fmt.heal(fresh(bad)),
            "recover": lambda bad=bad: etree.fromstring(bad.encode(), recover),
            "check": lambda text=text: check(fresh(text), "EXPECT XML"),
            "check bad": lambda bad=bad: check(fresh(bad), "EXPECT XML"),
        }
        if size <= 1_000_000:  # (10 MB in 4-character chunks would take the table a minute)
            contenders["stream"] = lambda text=text: _stream(fmt, text)
        t = interleaved(contenders, 3 if quick or size > 1_000_000 else 5 if size > 10_000 else 50)
        out.append(Row("XML is_valid", len(text), t["valid"], "lxml", t["peer"], goal=5))
        out.append(Row("XML heal (bare & and <)", len(bad), t["heal"], "lxml recover", t["recover"], goal=10))
        out.append(Row("XML valid check()", len(text), t["check"], "lxml", t["peer"], goal=5))
        out.append(
            Row("XML check() healing (bare & and <)", len(bad), t["check bad"], "lxml recover", t["recover"], goal=10)
        )
        if "stream" in t:
            out.append(Row("XML strict stream, 4-char chunks", len(text), t["stream"], "lxml", t["peer"], goal=40))
    return out


def _stream(fmt, text: str) -> None:
    checker = fmt.stream()
    feed = checker.feed
    for i in range(0, len(text), 4):
        if not feed(text[i : i + 4]):
            raise AssertionError("the checker refused a valid reply")
    if not checker.finish():
        raise AssertionError("finish() refused a valid reply")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    fmt = get_format("xml")
    print(f"XML streaming check, 4-character chunks, best of {args.runs} runs (CPU time)\n")
    print(f"{'size':>10} {'chunks':>9} {'fromstring':>12} {'checker':>11} {'ratio':>8} {'per chunk':>10}")
    rows = []
    for size in (10_000, 100_000, 1_000_000):
        text = reply(size)
        data = text.encode("utf-8")
        chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
        assert fmt.is_valid(text)

        def parse(data=data):
            etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))

        def stream(chunks=chunks):
            checker = fmt.stream()
            feed = checker.feed
            for chunk in chunks:
                if not feed(chunk):
                    raise AssertionError("the checker refused a valid reply")
            if not checker.finish():
                raise AssertionError("finish() refused a valid reply")

        lxml_time = best(parse, args.runs * 3)
        checker_time = best(stream, args.runs)
        rows.append((len(text), checker_time))
        print(
            f"{len(text):>10,} {len(chunks):>9,} {lxml_time * 1e3:>10.3f}ms {checker_time * 1e3:>9.2f}ms "
            f"{checker_time / lxml_time:>7.1f}x {checker_time / len(chunks) * 1e9:>8.0f}ns"
        )
    (small, t_small), (large, t_large) = rows[0], rows[-1]
    print(
        f"\ngrowth 10 KB -> 1 MB: size x{large / small:.0f}, checker time x{t_large / t_small:.0f} (linear = same factor)"
    )
    print("target: checker on 1 MB <= 40x one lxml.etree.fromstring")


if __name__ == "__main__":
    main()
