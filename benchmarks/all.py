"""Every benchmark's rows in one table: formatbook against the library a user would call.

    python benchmarks/all.py [--quick] [--only json,yaml]

(``python3 scripts/dev.py bench [--quick]`` runs this in the project's environment.) Each
benchmark module exposes ``bench_rows(quick)``; this runs them in turn and prints one
table — work, size, formatbook's time, the peer, its time, the ratio, the goal (issue 29's
ratios; a few absolute ones) and whether it is met. Times are the best of several runs,
ours and the peer's interleaved in one process: on a shared machine the ratios are the
figures, the times only their scale. ``--quick`` measures the sizes that finish in a few
minutes (mostly 100 KB); without it, up to 1 MB (10 MB where a goal is about growth).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the tree this script sits in, before any installed copy
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "plugins")]

from timing import Row, table  # noqa: E402

#: the benchmark modules, in the table's order
MODULES = (
    "json_check",
    "json_fastpath",
    "json_heal",
    "json_stream",
    "bench_guard",
    "bench_yaml",
    "bench_xml",
    "bench_csv",
    "bench_html",
    "bench_icalendar",
    "bench_vcard",
    "markdown_stream",
    "bench_instructions",
    "heal_growth",
    "growth10",
    "startup",
)


def _size(label: str) -> int:
    """'1KB' -> 1_000, '10MB' -> 10_000_000, '500' -> 500."""
    for unit, scale in (("MB", 1_000_000), ("KB", 1_000)):
        if label.upper().endswith(unit):
            return int(float(label[: -len(unit)]) * scale)
    return int(label)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the sizes that finish in a few minutes")
    parser.add_argument("--only", default="", help="comma-separated parts of module names to run")
    parser.add_argument(
        "--sizes", default="", help="reply sizes such as 1KB,100KB,1MB, for the benchmarks that take them"
    )
    args = parser.parse_args(argv)
    sizes = tuple(_size(s) for s in args.sizes.split(",") if s)
    wanted = [m for m in MODULES if not args.only or any(part in m for part in args.only.split(","))]
    rows: list[Row] = []
    failed = []
    start = time.perf_counter()
    for name in wanted:
        began = time.perf_counter()
        print(f"{name} ...", end=" ", file=sys.stderr, flush=True)
        try:
            module = importlib.import_module(name)
            takes_sizes = "sizes" in inspect.signature(module.bench_rows).parameters
            rows += (
                module.bench_rows(args.quick, sizes=sizes) if sizes and takes_sizes else module.bench_rows(args.quick)
            )
        except Exception:  # one benchmark's failure must not hide the others' rows
            failed.append(name)
            traceback.print_exc()
        print(f"{time.perf_counter() - began:.0f}s", file=sys.stderr, flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\nformatbook against its peers ({'quick' if args.quick else 'full'} sizes; best of several runs, "
        f"interleaved, CPU time; load {load:.1f}; {time.perf_counter() - start:.0f}s in all)\n"
    )
    print(table(rows))
    unmet = [r for r in rows if r.met is False]
    print(f"\n{len(rows)} rows, {sum(r.met is True for r in rows)} goals met, {len(unmet)} not met")
    if failed:
        print(f"failed to run: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
