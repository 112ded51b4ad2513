"""Healing broken LLM-like JSON: formatbook vs json_repair, fast-json-repair and
partial-json-parser (truncated variants only), on the corpus of ``corpus.py``.

Prints, per size and variant: each tool's best time of several runs, json_repair's time
divided by formatbook's, and whether each recovered the intended value (✓/✗).

    python benchmarks/json_heal.py [--sizes 1KB,100KB,1MB] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))

from corpus import SIZES, variants  # noqa: E402
from timing import Row, best, interleaved  # noqa: E402

from formatbook_core import HealError  # noqa: E402
from formatbook_json import JsonFormat  # noqa: E402

FMT = JsonFormat()
_TRUNCATED = {"truncated_string", "truncated_after_key", "missing_brackets"}


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values (a NaN is never what was intended)."""
    if isinstance(a, float) and math.isnan(a):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return (type(a) is type(b) and a == b) or (
        isinstance(a, (int, float))
        and not isinstance(a, bool)
        and isinstance(b, (int, float))
        and not isinstance(b, bool)
        and a == b
    )


def formatbook(text: str) -> Any:
    return json.loads(FMT.heal(text).text)


def tools() -> dict[str, Callable[[str], Any]]:
    out: dict[str, Callable[[str], Any]] = {"formatbook": formatbook}
    try:
        import json_repair  # noqa: PLC0415 - optional: compared only when installed

        out["json_repair"] = lambda t: json_repair.loads(t)
    except ImportError:
        pass
    try:
        import fast_json_repair  # noqa: PLC0415 - optional: compared only when installed

        out["fast_json_repair"] = lambda t: fast_json_repair.loads(t)
    except ImportError:
        pass
    try:
        import partial_json_parser  # noqa: PLC0415 - optional: compared only when installed

        out["partial_json_parser"] = lambda t: partial_json_parser.loads(t)
    except ImportError:
        pass
    return out


def measure(fn: Callable[[str], Any], text: str, intended: Any, runs: int) -> tuple[float, bool]:
    try:
        ok = _same(fn(text), intended)
    except (HealError, Exception):
        ok = False

    def attempt() -> None:
        try:
            fn(text)
        except Exception:
            pass

    return best(attempt, runs), ok


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's rows: healing every broken variant, summed, against json_repair on the
    same variants (goal: 3× faster, ≤ 0.33×), and the worst single variant; runs interleaved."""
    import json_repair  # noqa: PLC0415 - the peer; a test extra

    out = []
    for size_name in ("1KB", "100KB") if quick else ("1KB", "100KB", "1MB"):
        number = 20 if SIZES[size_name] < 10_000 else 1
        total_fb = total_jr = 0.0
        worst = ("", 0.0, 1.0)
        size = 0
        for variant, text, _intended in variants(SIZES[size_name]):
            if variant in ("valid", "nan"):  # json_repair answers NaN with json.loads: no repair to compare
                continue
            size = max(size, len(text))
            t = interleaved(
                {"ours": lambda text=text: formatbook(text), "peer": lambda text=text: json_repair.loads(text)},
                3 if quick else 5,
                number,
            )
            total_fb += t["ours"]
            total_jr += t["peer"]
            if t["ours"] / t["peer"] > worst[1] / worst[2]:
                worst = (variant, t["ours"], t["peer"])
        out.append(Row("JSON heal, all variants summed", size, total_fb, "json_repair", total_jr, goal=1 / 3))
        out.append(Row("JSON heal, worst variant", size, worst[1], "json_repair", worst[2], goal=1 / 3, note=worst[0]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1KB,100KB,1MB")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    available = tools()
    names = list(available)
    header = f"{'size':>6} {'variant':<20}" + "".join(f"{n:>22}" for n in names) + f"{'jr/fb':>8}"
    print(header)
    print("-" * len(header))
    for size_name in args.sizes.split(","):
        size = SIZES[size_name]
        runs = args.runs if size < 1_000_000 else max(2, args.runs // 2)
        totals = dict.fromkeys(names, 0.0)
        nan_case = None
        for variant, text, intended in variants(size):
            cells = []
            times = {}
            for n in names:
                if n == "partial_json_parser" and variant not in _TRUNCATED and variant != "valid":
                    cells.append(f"{'—':>22}")
                    continue
                t, ok = measure(available[n], text, intended, runs)
                times[n] = t
                if variant != "valid":
                    totals[n] += t
                cells.append(f"{t * 1000:>12.3f} ms {'✓' if ok else '✗':>2}    ")
            if variant == "nan":
                nan_case = (text, intended, times["formatbook"])
            ratio = times.get("json_repair", math.nan) / times["formatbook"]
            print(f"{size_name:>6} {variant:<20}" + "".join(cells) + f"{ratio:>7.1f}×")
        if "json_repair" in available and nan_case is not None:
            # json_repair's default first tries json.loads, which accepts NaN: its "fast"
            # time on the nan variant is a wrong answer (float NaN). Its repair path:
            import json_repair  # noqa: PLC0415 - optional: compared only when installed

            text, intended, t_fb = nan_case
            t_jr, ok = measure(lambda t: json_repair.loads(t, skip_json_loads=True), text, intended, runs)
            print(
                f"{size_name:>6} {'nan, json_repair made to repair (skip_json_loads=True)':<56}"
                f"{t_jr * 1000:>10.3f} ms {'✓' if ok else '✗'}   jr/fb {t_jr / t_fb:.1f}×"
            )
        if "json_repair" in totals and totals["formatbook"]:
            print(
                f"{size_name:>6} {'all broken (sum)':<20}"
                + "".join(
                    f"{totals[n] * 1000:>15.3f} ms     " if n != "partial_json_parser" else f"{'—':>22}" for n in names
                )
                + f"{totals['json_repair'] / totals['formatbook']:>7.1f}×"
            )
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
