"""Checking valid LLM-like JSON replies: formatbook's ``check`` (no schema) against one
``json.loads`` of the same text, and schema validation of a valid reply (formatbook's
compiled path) against jsonschema's pure-Python validator.

    python benchmarks/json_check.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from corpus import SIZES, reply  # noqa: E402
from jsonschema import Draft202012Validator  # noqa: E402
from timing import Row, best, interleaved  # noqa: E402

from formatbook_core import Expectations, check  # noqa: E402
from formatbook_json import JsonFormat  # noqa: E402

FMT = JsonFormat()

SCHEMA = {
    "type": "object",
    "required": ["title", "summary", "items"],
    "properties": {
        "title": {"type": "string"},
        "summary": {"type": "string", "minLength": 1},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "name", "price", "in_stock", "tags", "description"],
                "properties": {
                    "id": {"type": "integer", "minimum": 0},
                    "name": {"type": "string"},
                    "price": {"type": "number", "minimum": 0},
                    "in_stock": {"type": "boolean"},
                    "rating": {"type": ["integer", "null"], "minimum": 1, "maximum": 5},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "description": {"type": "string"},
                },
                "additionalProperties": False,
            },
        },
    },
}


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's rows: ``check(reply, EXPECT JSON)`` of a valid reply against one
    ``json.loads`` (goal: ≤ 10 µs at 1 KB, ≤ 1× at 100 KB and more), interleaved; the full
    run adds 10 MB and the other corpora of ``json_fastpath`` (records of scores, floats
    written with many digits) from 100 KB."""
    from json_fastpath import long_digits, scores  # noqa: PLC0415 - it imports this module

    plain = Expectations(format="json")
    out = []
    sizes = [1_000, 100_000] if quick else [1_000, 100_000, 1_000_000, 10_000_000]
    corpora = [("", reply)] if quick else [("", reply), (" (scores)", scores), (" (long digits)", long_digits)]
    for label, make in corpora:
        for size in sizes:
            if label and size < 10_000:
                continue
            text = make(size)
            number = 200 if size < 10_000 else 1
            t = interleaved(
                {"ours": lambda text=text: check(text, plain), "peer": lambda text=text: json.loads(text)},
                (5 if quick else 15) if size < 5_000_000 else 5,
                number,
            )
            small = size < 10_000
            out.append(
                Row(
                    "JSON valid check(), no schema" + label,
                    len(text),
                    t["ours"],
                    "json.loads",
                    t["peer"],
                    goal=None if small else 1,
                    max_seconds=10e-6 if small else None,
                )
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    plain = Expectations(format="json")
    with_schema = Expectations(format="json", schema=SCHEMA)
    print(f"{'size':>6} {'json.loads':>12} {'check':>12} {'ratio':>7} {'over':>10}   {'analyze':>12} {'ratio':>7}")
    for name, size in SIZES.items():
        text = reply(size)
        runs = args.runs * (20 if size < 10_000 else 1)
        assert check(text, plain).ok
        t_loads = best(lambda text=text: json.loads(text), runs)
        t_check = best(lambda text=text: check(text, plain), runs)
        t_an = best(lambda text=text: FMT.analyze(text), runs)
        print(
            f"{name:>6} {t_loads * 1e6:>10.1f}µs {t_check * 1e6:>10.1f}µs {t_check / t_loads:>6.2f}× {(t_check - t_loads) * 1e6:>8.1f}µs"
            f"   {t_an * 1e6:>10.1f}µs {t_an / t_loads:>6.2f}×"
        )
    print()
    print("schema validation of a valid reply (value already parsed)")
    py = Draft202012Validator(SCHEMA)
    loaded = FMT.load_schema(SCHEMA)
    print(f"{'size':>6} {'jsonschema':>12} {'formatbook':>12} {'speed-up':>9}   {'check+schema':>12}")
    for name, size in SIZES.items():
        text = reply(size)
        value = json.loads(text)
        assert loaded.is_valid(value) and py.is_valid(value)
        assert check(text, with_schema).ok
        runs = args.runs if size >= 10_000 else args.runs * 20
        t_py = best(lambda value=value: py.is_valid(value), max(2, runs // 2))
        t_fb = best(lambda value=value: loaded.violations(value), runs)
        t_check = best(lambda text=text: check(text, with_schema), runs)
        print(f"{name:>6} {t_py * 1e3:>10.3f}ms {t_fb * 1e3:>10.3f}ms {t_py / t_fb:>8.1f}×   {t_check * 1e3:>10.3f}ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
