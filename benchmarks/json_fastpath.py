"""Valid JSON replies on the fast path (issue 31): ``check(reply, EXPECT JSON + schema)``
against what a caller would do by hand, ``json.loads`` and one jsonschema-rs validation,
in one process, at 100 KB, 1 MB and 10 MB.

Shapes:

- ``scores``: the issue's trigger, an array of ``{"score": 877.0}`` records against a
  schema whose ``score`` is ``anyOf`` integer / number (valid: must pass, no repair);
- ``catalogue``: the catalogue reply of ``corpus.py`` against ``json_check.SCHEMA``;
- ``long digits``: records holding floats of 19 or more digits
  (``-0.00018278014303702307``), no schema, against ``json.loads`` alone.

    python benchmarks/json_fastpath.py [--runs 5] [--sizes 100KB,1MB,10MB]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))

import jsonschema_rs  # noqa: E402
from corpus import document as catalogue_document  # noqa: E402
from corpus import dump  # noqa: E402
from json_check import SCHEMA as CATALOGUE_SCHEMA  # noqa: E402
from timing import Row, best, interleaved  # noqa: E402

from formatbook_core import Expectations, check  # noqa: E402

SIZES = {"100KB": 100_000, "1MB": 1_000_000, "10MB": 10_000_000}

SCORES_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"score": {"anyOf": [{"type": "integer"}, {"type": "number"}]}},
        "required": ["score"],
    },
}


def scores(size: int) -> str:
    """An array of ``{"score": 877.0}`` records of about ``size`` characters."""
    rng = random.Random(31)
    parts = []
    used = 2
    while used < size:
        part = f'{{"score": {rng.randint(0, 999)}.0}}'
        parts.append(part)
        used += len(part) + 2
    return "[" + ", ".join(parts) + "]"


def long_digits(size: int) -> str:
    """Records with floats written with 19 or more digits, as numeric libraries print them."""
    rng = random.Random(19)
    items = []
    used = 2
    while used < size:
        item = {"x": -rng.random() / 1000, "y": rng.random(), "id": rng.randint(0, 10**6)}
        items.append(item)
        used += 80
    text = json.dumps(items)
    assert any(len(t) >= 21 for t in text.split()), "no long digit run"
    return text


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's rows: ``check`` of a valid catalogue reply under its schema against
    ``json.loads`` + one jsonschema-rs validation (goal ≤ 2×), interleaved."""
    expect = Expectations(format="json", schema=CATALOGUE_SCHEMA)
    validator = jsonschema_rs.validator_for(CATALOGUE_SCHEMA)
    out = []
    for size in (1_000, 100_000, 1_000_000) if quick else (1_000, 100_000, 1_000_000, 10_000_000):
        text = dump(catalogue_document(size))
        number = 100 if size < 10_000 else 1

        def by_hand(text: str = text) -> None:
            assert validator.is_valid(json.loads(text))

        t = interleaved({"ours": lambda text=text: check(text, expect), "peer": by_hand}, 5, number)
        out.append(
            Row("JSON valid check() with a schema", len(text), t["ours"], "loads+jsonschema_rs", t["peer"], goal=2)
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default=",".join(SIZES))
    args = parser.parse_args(argv)
    sizes = {name: SIZES[name] for name in args.sizes.split(",")}
    shapes: list[tuple[str, Callable[[int], str], Any]] = [
        ("scores", scores, SCORES_SCHEMA),
        ("catalogue", lambda n: dump(catalogue_document(n)), CATALOGUE_SCHEMA),
        ("long digits", long_digits, None),
    ]
    print(f"{'shape':>12} {'size':>6} {'loads+rs':>12} {'check':>12} {'ratio':>7}  verdict / repairs")
    for shape, make, schema in shapes:
        expect = Expectations(format="json", schema=schema)
        validator = jsonschema_rs.validator_for(schema) if schema is not None else None
        for name, size in sizes.items():
            text = make(size)
            runs = max(2, args.runs if size < 5_000_000 else args.runs // 2)
            result = check(text, expect)

            def by_hand(text: str = text, validator: Any = validator) -> None:
                value = json.loads(text)
                if validator is not None:
                    assert validator.is_valid(value)

            t_hand = best(by_hand, runs)
            t_check = best(lambda text=text, expect=expect: check(text, expect), runs)
            print(
                f"{shape:>12} {name:>6} {t_hand * 1e3:>10.2f}ms {t_check * 1e3:>10.2f}ms {t_check / t_hand:>6.2f}×"
                f"  {result.verdict} {[r.kind for r in result.repairs][:3]}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
