"""Refusing costs less than accepting: a 16 MB reply one character over ``max_size``
against the same reply exactly at the limit, in JSON, XML, YAML, CSV and Markdown.

Issue 30 ("Denial of service"): the size limit must be decided on the reply as received,
by the core for every format, before the locating and healing it bounds. Each format gets a
realistic valid reply of about ``--size`` characters; the columns are

* ``accept``: ``check()`` with ``max_size`` = the reply's length (the reply passes);
* ``refuse str`` / ``refuse bytes``: the same reply as ``str`` and as UTF-8 ``bytes`` with
  ``max_size`` one less (``reply.too_large``);
* ``grown`` (``--grown``): a damaged reply within the limit whose healing makes it longer
  than the limit (``reply.too_large`` after the repair: the ruling in docs/rules.md), and
  ``healed``: the same reply under a limit twice its length (healed and accepted: the work
  the refusal cost).

Every case runs in a fresh process (``--one``), so that its peak resident memory is its
own: the peak is measured from just before the call (``/proc/self/clear_refs``), CPU time
with ``process_time``. Refusals also report tracemalloc's peak (cheap for them: nothing
is read). Accepting 16 MB of YAML takes gigabytes (issue 30's memory item).

    python benchmarks/limits_first.py [--size 16000000] [--formats json,xml] [--grown] [--cases grown,healed]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "plugins")]

from timing import fresh, rss_bytes, seconds_label  # noqa: E402

from formatbook_core import check  # noqa: E402


def _repeat(head: str, item: Callable[[int], str], tail: str, size: int) -> str:
    """``head`` + items until about ``size`` characters + ``tail``."""
    parts, total, i = [head], len(head) + len(tail), 0
    while total < size:
        part = item(i)
        parts.append(part)
        total += len(part)
        i += 1
    parts.append(tail)
    return "".join(parts)


#: format -> (a valid reply of about n characters, a damaged one whose healing grows it)
SHAPES: dict[str, tuple[Callable[[int], str], Callable[[int], str] | None]] = {
    "json": (
        lambda n: _repeat(
            "[", lambda i: f'{{"id": {i}, "name": "Ada Lovelace", "tags": ["a", "b"]}},', '{"id": 0}]', n
        ),
        lambda n: _repeat("[", lambda i: f'{{id: {i}, name: "Ada", city: "London"}},', "{id: 0}]", n),  # keys quoted
    ),
    "xml": (
        lambda n: _repeat("<r>", lambda i: f'<i n="{i}"><name>Ada Lovelace</name><v>36</v></i>', "</r>", n),
        lambda n: _repeat("<r>", lambda i: f'<i n="{i}">AT&T {i} < 5 & 6</i>', "</r>", n),  # & and < escaped
    ),
    "yaml": (
        lambda n: _repeat("items:\n", lambda i: f"  - name: item {i} of the list\n    age: {i % 90}\n", "", n),
        lambda n: _repeat("items:\n", lambda i: f"  - note: a: b {i}\n", "", n),  # 'a: b' quoted
    ),
    "csv": (
        lambda n: _repeat("name,age,city\n", lambda i: f"Ada {i},{i % 90},London\n", "", n),
        lambda n: _repeat("name,note\n", lambda i: f'Ada {i},say "hi" now\n', "", n),  # the cell quoted
    ),
    "markdown": (
        lambda n: _repeat("# Notes\n\n## Items\n\n", lambda i: f"- item {i} of the list\n", "", n),
        None,  # Markdown without a contract is taken as written: healing does not grow it
    ),
}


def _clear_peak() -> None:
    """Reset this process's peak resident memory (VmHWM) to its present size (Linux)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _peak_kb() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def one(fmt: str, case: str, size: int) -> dict[str, object]:
    """Run one case in this process: its verdict, CPU seconds and memory."""
    valid, damaged = SHAPES[fmt]
    if case in ("grown", "healed") and damaged is None:
        return {"format": fmt, "case": case, "none": True}
    text = damaged(size) if case in ("grown", "healed") and damaged is not None else valid(size)
    limit = {"accept": len(text), "grown": len(text), "healed": 2 * len(text)}.get(case, len(text) - 1)
    reply: str | bytes = text.encode() if case == "refuse bytes" else fresh(text)
    expect = f"EXPECT {fmt.upper()} max_size={limit}"
    check("x", expect)  # imports and first-use compilation are not the case's cost
    traced = case.startswith("refuse")
    base = rss_bytes() // 1024
    _clear_peak()
    if traced:
        tracemalloc.start()
    start = time.process_time()
    result = check(reply, expect)
    seconds = time.process_time() - start
    traced_peak = tracemalloc.get_traced_memory()[1] if traced else None
    if traced:
        tracemalloc.stop()
    return {
        "format": fmt,
        "case": case,
        "chars": len(text),
        "ok": result.ok,
        "codes": [v.code for v in result.violations][:2],
        "seconds": seconds,
        "peak_mb": max(0, _peak_kb() - base) / 1024,
        "traced_mb": None if traced_peak is None else traced_peak / 2**20,
    }


def run(fmt: str, case: str, size: int, timeout: float) -> dict[str, object]:
    """:func:`one` in a fresh process (its own memory), or a note that it timed out."""
    cmd = [sys.executable, __file__, "--one", fmt, case, str(size)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return {"format": fmt, "case": case, "timeout": timeout}
    except subprocess.CalledProcessError as err:
        return {"format": fmt, "case": case, "error": err.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def cell(r: dict[str, object]) -> str:
    if "none" in r:
        return "—"
    if "timeout" in r:
        return f"> {r['timeout']:.0f}s"
    if "error" in r:
        return f"error {r['error']}"
    verdict = "ok" if r["ok"] else ",".join(r["codes"])  # type: ignore[arg-type]
    mem = f"{r['peak_mb']:.0f} MB RSS"
    if r["traced_mb"] is not None:
        mem += f", {r['traced_mb']:.2f} MB traced"
    return f"{seconds_label(float(r['seconds']))} ({mem}) {verdict}"  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=16_000_000)
    parser.add_argument("--formats", default=",".join(SHAPES))
    parser.add_argument("--grown", action="store_true", help="also time a reply healed past the limit, and within")
    parser.add_argument("--cases", help="the columns to run, e.g. 'refuse str,grown' (default: all)")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--one", nargs=3, metavar=("FORMAT", "CASE", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        fmt, case, size = args.one
        print(json.dumps(one(fmt, case, int(size))))
        return
    cases = ["accept", "refuse str", "refuse bytes"] + (["grown", "healed"] if args.grown else [])
    if args.cases:
        cases = [c for c in args.cases.split(",") if c]
    rows = [("format", "chars", *cases)]
    for fmt in args.formats.split(","):
        results = [run(fmt, case, args.size, args.timeout) for case in cases]
        chars = next((int(r["chars"]) for r in results if "chars" in r), args.size)  # type: ignore[call-overload]
        rows.append((fmt, f"{chars:,}", *(cell(r) for r in results)))
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)  # progress: the table comes last
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


if __name__ == "__main__":
    main()
