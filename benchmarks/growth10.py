"""Every format from 1 MB to 10 MB: CPU time, growth and memory per character, per operation.

Issue 29's goal: ``check``, ``heal`` and ``StreamGuard`` at most 12x the time for 10x the
text, in every format (iCalendar, Markdown L3 lists and tables and each format's
pathological inputs included). Issue 30's: ``check`` at most 50 bytes of memory per input
character on realistic shapes, 150 on pathological ones.

Each case (a shape, an operation, a size) runs in a process of its own (``nice``), so that
one case's memory peak, caches and collector state never reach another's: the process
builds the text, warms the operation up on a 10 KB text of the same shape (imports,
compiled patterns), then times one run (CPU time of the process, every thread counted) and
reads the resident-memory peak it added. At 1 MB it runs the operation again under
``tracemalloc`` (a new text object, so no cached analysis is met) for the peak of Python
allocations per character. ``check`` runs on the valid text, ``heal`` on the damaged one
(the valid one where a shape has no damage), the guard on the valid text fed in 64 KB
chunks (``--chunk``), ``finish()`` included; a stop is reported.

    python benchmarks/growth10.py [--only json,markdown] [--ops check,heal,guard]
        [--pathological] [--sizes 1000000,10000000] [--out results.jsonl] [--cpu-limit 300]

``--out`` keeps one JSON line per case and skips the cases it already holds (a long run
can be resumed). ``bench_rows`` (``scripts/dev.py bench``) measures the realistic check
rows only at 100 KB -> 1 MB with ``--quick``, 1 -> 10 MB without.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT), str(ROOT / "plugins")]

from bench_icalendar import damaged_calendar, valid_calendar  # noqa: E402
from bench_instructions import MIX, reply_of  # noqa: E402
from bench_vcard import book  # noqa: E402
from timing import Row, peak_rss_bytes, rss_bytes  # noqa: E402

from formatbook_core import HealError, StreamGuard, check, heal, parse_expectations  # noqa: E402
from formatbook_core.fuzzing.pathological import load_cases  # noqa: E402

#: the Markdown contract of the L3 shapes (sections of each kind, both kinds of table)
CONTRACT = HERE / "growth_contract.md"
BIG = "max_size=20000000"
GROWTH_GOAL = 12.0
MEMORY_GOAL = {"realistic": 50.0, "pathological": 150.0}


@dataclass(frozen=True)
class Shape:
    """A realistic reply: ``valid(n)`` and ``damaged(n)`` build about ``n`` characters."""

    fmt: str
    name: str
    expect: str
    valid: Callable[[int], str]
    damaged: Callable[[int], str] | None = None


def _repeat(head: str, unit: Callable[[int], str], tail: str = "") -> Callable[[int], str]:
    """A text of ``head``, ``unit(i)`` for i = 0, 1, ... to about ``n`` characters, ``tail``."""

    def make(n: int) -> str:
        parts, total, i = [head], len(head) + len(tail), 0
        while total < n:
            parts.append(unit(i))
            total += len(parts[-1])
            i += 1
        parts.append(tail)
        return "".join(parts)

    return make


def _json_valid(i: int) -> str:
    return f'{{"id": {i}, "name": "item {i}", "tags": ["a", "b"], "price": {i * 0.5}, "ok": true}},'


def _ical(valid: bool) -> Callable[[int], str]:
    def make(n: int) -> str:
        per = len(valid_calendar(100)) / 100
        return (valid_calendar if valid else damaged_calendar)(max(1, int(n / per)))

    return make


def _vcard(model_style: bool) -> Callable[[int], str]:
    def make(n: int) -> str:
        return book(n, model_style=model_style)

    return make


def _instructions(n: int) -> str:
    return reply_of(n)


_MD_WORDS = "the model writes a long answer while the guard keeps counts of words in each section".split()


def _md_sentence(i: int) -> str:
    rng = random.Random(i)
    return " ".join(rng.choice(_MD_WORDS) for _ in range(rng.randint(5, 12))).capitalize() + "."


def _md_lists(damaged: bool) -> Callable[[int], str]:
    """L3 list sections: an ordered list under Reasoning, a bullet list under Assumptions
    (damaged: ``*`` bullets where ``-`` is declared, ``-`` where numbers are)."""

    def make(n: int) -> str:
        half = n // 2
        ordered = _repeat("", lambda i: f"- {_md_sentence(i)}\n" if damaged else f"{i + 1}. {_md_sentence(i)}\n")
        bullets = _repeat("", lambda i: ("* " if damaged else "- ") + _md_sentence(i + 7) + "\n")
        return f"## Short answer\n\nYes.\n\n## Reasoning\n\n{ordered(half)}\n## Assumptions\n\n{bullets(half)}"

    return make


def _md_tables(damaged: bool) -> Callable[[int], str]:
    """L3 tables: a table of declared columns and an ordered table (damaged: the ordered
    table's ``#`` column missing)."""

    def make(n: int) -> str:
        half = n // 2
        plain = _repeat(
            "| Option | Cost | Risk |\n| --- | --- | --- |\n", lambda i: f"| option {i} | {i * 3} | low |\n"
        )
        if damaged:
            ordered = _repeat("| Step | Owner |\n| --- | --- |\n", lambda i: f"| step {i} | owner {i % 7} |\n")
        else:
            ordered = _repeat(
                "| # | Step | Owner |\n| --- | --- | --- |\n", lambda i: f"| {i + 1} | step {i} | owner {i % 7} |\n"
            )
        return f"## Short answer\n\nSee the tables.\n\n{plain(half)}\n{ordered(half)}\n## Reasoning\n\n1. It follows.\n"

    return make


L3 = f"EXPECT MARKDOWN {CONTRACT} level=3 {BIG}"

SHAPES: list[Shape] = [
    Shape(
        "json",
        "records",
        f"EXPECT JSON {BIG}",
        _repeat("[", _json_valid, '{"end": true}]'),
        _repeat("[", lambda i: f'{{"id": {i}, "tags": ["a", "b",],}},', "]"),
    ),
    Shape(
        "yaml",
        "items",
        f"EXPECT YAML {BIG}",
        _repeat("items:\n", lambda i: f"  - name: item {i}\n    note: fine {i}\n"),
        _repeat("items:\n", lambda i: f"  - name: item {i}\n    note: a: b\n"),
    ),
    Shape(
        "xml",
        "elements",
        f"EXPECT XML {BIG}",
        _repeat("<r>", lambda i: f'<i n="{i}">AT&amp;T {i} &lt; 5</i>', "</r>"),
        _repeat("<r>", lambda i: f'<i n="{i}">AT&T {i} < 5</i>', "</r>"),
    ),
    Shape(
        "html",
        "paragraphs",
        f"EXPECT HTML {BIG}",
        _repeat("<div>", lambda i: f"<p>para {i} <b>bold</b></p>", "</div>"),
        _repeat("<div>", lambda i: f"<p>para {i} <b>bold</b></p>"),
    ),
    Shape(
        "csv",
        "people",
        f"EXPECT CSV {BIG}",
        _repeat("name,age,city\n", lambda i: f"Ada {i},{i % 90},London\n"),
        _repeat("name, age, city\n", lambda i: f"Ada {i}, {i % 90}, London\n"),
    ),
    Shape(
        "markdown",
        "L1 list",
        f"EXPECT MARKDOWN {BIG}",
        _repeat("## Notes\n\n", lambda i: f"* item {i} of the list\n"),
    ),
    Shape("markdown", "L3 lists", L3, _md_lists(False), _md_lists(True)),
    Shape("markdown", "L3 tables", L3, _md_tables(False), _md_tables(True)),
    Shape("icalendar", "events", f"EXPECT ICALENDAR {BIG}", _ical(True), _ical(False)),
    Shape("vcard", "book", f"EXPECT VCARD {BIG}", _vcard(False), _vcard(True)),
    Shape(
        "text",
        "paragraphs",
        "EXPECT TEXT\nEXPECT MAX 100000000 WORDS\nEXPECT MAX 100000000 SENTENCES",
        _repeat("", lambda i: _md_sentence(i) + (" " if i % 5 else "\n\n")),
    ),
    Shape("instructions", "mix", MIX, _instructions),
]

PATHOLOGICAL_FORMATS = ("json", "yaml", "xml", "html", "csv", "markdown", "icalendar", "vcard", "text")


def _pathological_cases(fmt: str) -> list:
    return load_cases(ROOT / "tests" / "plugins" / fmt / "pathological.py")


def _scaled(make: Callable[[int], str], size: int, target: int) -> Callable[[int], str]:
    """``make`` of a case's parameter, scaled so the text is about ``target`` characters."""
    per = max(1, len(make(size * 4))) / (size * 4)
    return lambda n: make(max(1, int(n / per)))


# ---------------------------------------------------------------- one case, in its own process


def _operation(op: str, expect: str, chunk: int, strict: bool = False) -> Callable[[str], str]:
    """The operation as a function of the text, returning a word on its outcome."""
    exp = parse_expectations(expect)
    if op == "check":
        return lambda text: "ok" if check(text, exp).ok else f"failed: {check(text[:20_000], exp).violations[:1]}"

    if op == "heal":

        def do_heal(text: str) -> str:
            try:
                heal(text, exp)
            except HealError as e:
                return f"HealError {str(e)[:60]}"
            return "healed"

        return do_heal

    def do_guard(text: str) -> str:
        guard = StreamGuard(exp, strict=strict)
        for i in range(0, len(text), chunk):
            if not guard.feed(text[i : i + chunk]):
                return f"stopped at {i}"
        return "ok" if guard.finish().ok else "finish failed"

    return do_guard


def _case_text(kind: str, fmt: str, name: str, op: str, size: int) -> tuple[Callable[[int], str], str, bool]:
    if kind == "realistic":
        shape = next(s for s in SHAPES if s.fmt == fmt and s.name == name)
        make = shape.damaged if op == "heal" and shape.damaged else shape.valid
        return make, shape.expect, False
    case = next(c for c in _pathological_cases(fmt) if c.name == name)
    return _scaled(case.make, case.size, size), case.expect, case.strict


def run_one(kind: str, fmt: str, name: str, op: str, size: int, chunk: int) -> dict:
    """Time and memory of one case in this process (the child's work)."""
    make, expect, strict = _case_text(kind, fmt, name, op, size)
    fn = _operation(op, expect, chunk, strict)
    fn(make(10_000))  # warm-up: imports, compiled patterns, first-use caches
    text = make(size)
    gc.collect()
    before = rss_bytes()
    start = time.process_time()
    outcome = fn(text)
    cpu = time.process_time() - start
    out = {"chars": len(text), "cpu": cpu, "outcome": outcome, "rss_per_char": (peak_rss_bytes() - before) / len(text)}
    if size <= 2_000_000:
        text = make(size + size // 50)  # other content: no cache of any kind is met
        gc.collect()
        tracemalloc.start()
        fn(text)
        out["traced_per_char"] = tracemalloc.get_traced_memory()[1] / len(text)
        tracemalloc.stop()
    return out


# ---------------------------------------------------------------- the driver


def cases(only: set[str], ops: list[str], pathological: bool) -> list[tuple[str, str, str, str]]:
    """(kind, format, shape, op) of every case to run."""
    out = []
    for shape in SHAPES:
        if not only or shape.fmt in only:
            out += [("realistic", shape.fmt, shape.name, op) for op in ops]
    if pathological:
        for fmt in PATHOLOGICAL_FORMATS:
            if not only or fmt in only:
                out += [("pathological", fmt, c.name, op) for c in _pathological_cases(fmt) for op in ops]
    return out


def _child(kind: str, fmt: str, name: str, op: str, size: int, chunk: int, cpu_limit: int) -> dict:
    args = [sys.executable, __file__, "--one", json.dumps([kind, fmt, name, op, size, chunk])]

    def limit() -> None:
        os.nice(10)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    done = subprocess.run(args, capture_output=True, text=True, preexec_fn=limit)
    if done.returncode:
        why = "over the CPU limit" if done.returncode in (-9, -24, 152) else done.stderr.strip()[-300:]
        return {"error": why, "returncode": done.returncode}
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_all(todo, sizes, chunk, cpu_limit, out_path: Path | None, log=print) -> list[dict]:
    have: dict[tuple, dict] = {}
    if out_path and out_path.exists():
        for line in out_path.read_text().splitlines():
            kept = json.loads(line)
            have[tuple(kept["case"])] = kept
    results = []
    for kind, fmt, name, op in todo:
        key = (kind, fmt, name, op, chunk)
        if key in have:
            results.append(have[key])
            continue
        rec: dict = {"case": list(key)}
        for size in sizes:
            r = _child(kind, fmt, name, op, size, chunk, cpu_limit)
            rec[str(size)] = r
            if "error" in r:
                break
        results.append(rec)
        log(format_row(rec, sizes), flush=True)
        if out_path:
            with out_path.open("a") as f:
                f.write(json.dumps(rec) + "\n")
    return results


HEAD = (
    f"{'kind':12} {'format':12} {'shape':32} {'op':5} {'small':>9} {'large':>9} {'growth':>7} "
    f"{'B/char':>7} {'rss/ch':>7}  outcome"
)


def format_row(rec: dict, sizes) -> str:
    kind, fmt, name, op, _ = rec["case"]
    small, large = (rec.get(str(s), {}) for s in sizes)
    t = [f"{r['cpu']:.2f}s" if "cpu" in r else r.get("error", "—")[:9] for r in (small, large)]
    growth = large["cpu"] / max(small["cpu"], 1e-3) if "cpu" in small and "cpu" in large else None
    traced = small.get("traced_per_char")
    goal = MEMORY_GOAL[kind]
    marks = []
    if growth is not None and growth > GROWTH_GOAL:
        marks.append("OVER 12x")
    if op == "check" and traced is not None and traced > goal:
        marks.append(f"OVER {goal:.0f} B/char")
    if "error" in large or "error" in small:
        marks.append((large.get("error") or small.get("error"))[:80])
    outcome = large.get("outcome") or small.get("outcome") or ""
    rss = large.get("rss_per_char")
    return (
        f"{kind:12} {fmt:12} {name[:32]:32} {op:5} {t[0]:>9} {t[1]:>9} "
        f"{(f'{growth:.1f}x' if growth else '—'):>7} {(f'{traced:.0f}' if traced else '—'):>7} "
        f"{(f'{rss:.0f}' if rss is not None else '—'):>7}  {outcome[:40]} {' '.join(marks)}"
    )


def bench_rows(quick: bool = True) -> list[Row]:
    """``check`` of each realistic shape at ten times the size against the smaller one
    (goal ≤ 12×; quick: 100 KB -> 1 MB, else 1 MB -> 10 MB), each in its own process."""
    sizes = (100_000, 1_000_000) if quick else (1_000_000, 10_000_000)
    rows = []
    for rec in measure_all(cases(set(), ["check"], False), sizes, 65_536, 600, None, log=lambda *a, **k: None):
        small, large = (rec.get(str(s), {}) for s in sizes)
        if "cpu" in small and "cpu" in large:
            work = f"{rec['case'][1]} {rec['case'][2]} check growth x10"
            rows.append(
                Row(work, large["chars"], large["cpu"], f"same at {sizes[0] // 1000} KB", small["cpu"], goal=12)
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--only", default="", help="formats, comma-separated")
    parser.add_argument("--ops", default="check,heal,guard")
    parser.add_argument("--pathological", action="store_true", help="also each format's pathological cases")
    parser.add_argument("--no-realistic", action="store_true")
    parser.add_argument("--names", default="", help="only these shapes / case names, comma-separated")
    parser.add_argument("--sizes", default="1000000,10000000")
    parser.add_argument("--chunk", type=int, default=65_536, help="the guard's chunk, in characters")
    parser.add_argument("--cpu-limit", type=int, default=300, help="CPU seconds a case may take")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.one:
        kind, fmt, name, op, size, chunk = json.loads(args.one)
        print(json.dumps(run_one(kind, fmt, name, op, size, chunk)))
        return 0
    only = {f for f in args.only.split(",") if f}
    todo = cases(only, args.ops.split(","), args.pathological)
    if args.no_realistic:
        todo = [c for c in todo if c[0] != "realistic"]
    if args.names:
        names = set(args.names.split(","))
        todo = [c for c in todo if c[2] in names]
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"guard chunk {args.chunk} characters; CPU time; B/char: tracemalloc peak at the small size\n{HEAD}")
    measure_all(todo, sizes, args.chunk, args.cpu_limit, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
