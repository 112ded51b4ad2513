"""CSV: checking, healing and streaming against what a user would otherwise do.

- check: ``check(reply, "EXPECT CSV")`` on a valid reply of ~1 KB, 100 KB, 1 MB against one
  ``list(csv.reader(...))`` (and ``pandas.read_csv`` when pandas is installed): linear?
- heal: each broken variant (the ways models break CSV) healed by ``check``, against
  ``csv.reader`` of the *valid* reply; ✓ when the rows that came back are the intended ones.
  Target (issue 10): healing a broken 100 KB reply costs at most 20× loading the valid one.
- stream: the strict incremental checker fed the 1 MB reply in 16-character chunks,
  against one load. Target: at most 40×, linear.

Run: ``python benchmarks/bench_csv.py [--runs N] [--sizes 1KB,100KB,1MB]``.
"""

from __future__ import annotations

import argparse
import csv
import io
import random

from timing import Row, best, fresh, interleaved

from formatbook_core import check, get_format

try:  # optional: the comparison users often reach for
    import pandas
except ImportError:  # pragma: no cover - pandas is not a dependency
    pandas = None

SIZES = {"1KB": 1_000, "100KB": 100_000, "1MB": 1_000_000}
WORDS = "fast friendly late broken great slow clean noisy cheap fair honest rude kind".split()


def rows(size: int, seed: int = 1) -> list[dict[str, str]]:
    """Review rows (id, product, rating, comment) of about ``size`` characters in all."""
    rng = random.Random(seed)
    out: list[dict[str, str]] = []
    total = 0
    while total < size:
        comment = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12)))
        if rng.random() < 0.2:
            comment += ", " + rng.choice(WORDS)
        if rng.random() < 0.05:
            comment = f'said "{rng.choice(WORDS)}" {rng.choice(WORDS)}'
        row = {
            "id": str(len(out) + 1),
            "product": rng.choice(["Desk", "Lamp", "Chair", "Sofa"]),
            "rating": str(rng.randint(1, 5)),
            "comment": comment,
        }
        out.append(row)
        total += sum(len(v) for v in row.values()) + 4
    return out


def write(records: list[dict[str, str]], delimiter: str = ",") -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    writer.writerow(list(records[0]))
    for r in records:
        writer.writerow(list(r.values()))
    return buf.getvalue()


def broken(records: list[dict[str, str]]) -> dict[str, str]:
    """The valid reply broken in the ways models break CSV (each healable to ``records``)."""
    valid = write(records)
    header = list(records[0])
    md = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n"
    md += "".join("| " + " | ".join(v.replace("|", "\\|") for v in r.values()) + " |\n" for r in records)
    lines = valid.split("\n")
    return {
        "spaces-after-commas": "\n".join(", ".join(_cells(line)) for line in lines),
        "semicolons": write(records, ";"),
        "markdown-table": md,
        "blank-lines": valid.replace("\n", "\n\n"),
        "fenced-with-prose": "Sure! Here is the CSV:\n\n```csv\n" + valid + "```\nAnything else?",
        "truncated": valid + "999,Desk,4",
        "unescaped-quotes": "\n".join(_bare_quotes(line) for line in lines),
    }


def _cells(line: str) -> list[str]:
    if not line:
        return []
    return [_q(c) for c in next(csv.reader([line]))]


def _q(cell: str) -> str:
    return '"' + cell.replace('"', '""') + '"' if ("," in cell or '"' in cell) else cell


def _bare_quotes(line: str) -> str:
    # 'said "x" y' written as "said "x" y" (the inner quotes not doubled)
    return line.replace('""', '"')


def load(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's rows: check of a valid reply (goal ≤ 2× csv.reader at ≥ 100 KB) and
    healing each broken variant (goal ≤ 5×), interleaved with csv.reader of the valid reply."""
    out = []
    runs = 3 if quick else 7
    for size in (100_000,) if quick else (100_000, 1_000_000):
        recs = rows(size)
        valid = write(recs)
        t = interleaved({"ours": lambda v=valid: check(fresh(v), "EXPECT CSV"), "peer": lambda v=valid: load(v)}, runs)
        out.append(Row("CSV valid check()", len(valid), t["ours"], "csv.reader", t["peer"], goal=2))
        worst = ("", 0.0, 1.0)
        for label, text in broken(recs).items():
            t = interleaved(
                {"ours": lambda text=text: check(fresh(text), "EXPECT CSV"), "peer": lambda v=valid: load(v)}, runs
            )
            if t["ours"] / t["peer"] > worst[1] / worst[2]:
                worst = (label, t["ours"], t["peer"])
        label, ours, peer = worst
        out.append(Row("CSV heal (worst variant)", len(valid), ours, "csv.reader", peer, goal=5, note=label))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="1KB,100KB,1MB")
    args = ap.parse_args()
    sizes = [s for s in args.sizes.split(",") if s in SIZES]
    fmt = get_format("csv")

    print("CSV check of a valid reply, best of", args.runs, "runs (CPU time)\n")
    print(f"{'size':>10} {'csv.reader':>11} {'pandas':>9} {'check()':>10} {'ratio':>7}")
    check_times = {}
    for name in sizes:
        recs = rows(SIZES[name])
        text = write(recs)
        assert check(text, "EXPECT CSV").value == recs
        base = best(lambda text=text: load(text), args.runs)
        pd = best(lambda text=text: pandas.read_csv(io.StringIO(text), dtype=str), args.runs) if pandas else None
        ours = best(lambda text=text: check(text, "EXPECT CSV"), args.runs)
        check_times[name] = (len(text), ours)
        pds = f"{pd * 1000:8.2f}ms" if pd is not None else "      n/a"
        print(f"{len(text):>10,} {base * 1000:9.2f}ms {pds} {ours * 1000:8.2f}ms {ours / base:6.1f}x")
    if len(check_times) > 1:
        (n0, t0), (n1, t1) = check_times[sizes[0]], check_times[sizes[-1]]
        print(
            f"growth {sizes[0]} -> {sizes[-1]}: size x{n1 / n0:.0f}, check time x{t1 / t0:.0f} (linear = same factor)"
        )

    print("\nHealing broken replies (check() heals), against csv.reader of the valid reply\n")
    print(f"{'size':>6} {'variant':<22} {'csv.reader':>11} {'heal':>10} {'ratio':>7}  value")
    for name in sizes:
        recs = rows(SIZES[name])
        valid = write(recs)
        base = best(lambda valid=valid: load(valid), args.runs)
        for label, text in broken(recs).items():
            result = check(text, "EXPECT CSV")
            expected = recs[:] if label != "truncated" else recs
            good = result.ok and result.value == expected
            ours = best(
                lambda text=text: check(text, "EXPECT CSV"), max(1, args.runs // 2 if name == "1MB" else args.runs)
            )
            print(
                f"{name:>6} {label:<22} {base * 1000:9.2f}ms {ours * 1000:8.2f}ms {ours / base:6.1f}x  {'✓' if good else '✗'}"
            )
    print("target: healing a broken 100 KB reply <= 20x csv.reader of the valid one")

    print("\nStrict streaming check, 16-character chunks (CPU time)\n")
    print(f"{'size':>10} {'chunks':>8} {'csv.reader':>11} {'checker':>10} {'ratio':>7}")
    stream_times = {}
    for name in sizes:
        text = write(rows(SIZES[name]))
        chunks = [text[i : i + 16] for i in range(0, len(text), 16)]

        def run(chunks: list[str] = chunks) -> None:
            checker = fmt.stream(strict=True)
            for c in chunks:
                checker.feed(c)
            assert checker.finish()

        base = best(lambda text=text: load(text), args.runs)
        ours = best(run, args.runs)
        stream_times[name] = (len(text), ours)
        pd = best(lambda text=text: pandas.read_csv(io.StringIO(text), dtype=str), args.runs) if pandas else None
        extra = f"  ({ours / pd:.1f}x pandas.read_csv)" if pd else ""
        print(
            f"{len(text):>10,} {len(chunks):>8,} {base * 1000:9.2f}ms {ours * 1000:8.2f}ms {ours / base:6.1f}x{extra}"
        )
    if len(stream_times) > 1:
        (n0, t0), (n1, t1) = stream_times[sizes[0]], stream_times[sizes[-1]]
        print(f"growth {sizes[0]} -> {sizes[-1]}: size x{n1 / n0:.0f}, checker time x{t1 / t0:.0f}")
    print("target: the streaming check of 1 MB <= 40x one load, linear")


if __name__ == "__main__":
    main()
