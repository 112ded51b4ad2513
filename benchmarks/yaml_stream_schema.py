"""The strict YAML StreamGuard with a JSON Schema against the same guard without one.

Run: ``python benchmarks/yaml_stream_schema.py`` (add ``--quick`` for fewer repeats).

The LLM-like YAML reply of ``bench_yaml.py`` (a list of records: ids, titles, booleans,
scores, quoted notes, a nested owner, flow tags) is fed in 4- and 64-character chunks to
``StreamGuard(Expectations(format="yaml", schema=S), strict=True)`` and to the guard
without a schema, without ``finish()`` (the streaming cost only: ``finish()`` is the same
``check`` either way), at three sizes up to about 1 MB (linear: the time per MB stays
flat). ``S`` describes the document fully (types, required, ``additionalProperties:
false``, bounds), so that every key and settled value is judged by the core's
incremental schema checker (``formatbook_yaml.settle``). Best of several runs, CPU time.
The relaxed guard reads no schema while streaming (healing decides at the end).
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_yaml import llm_like_yaml  # noqa: E402
from json_stream_schema import guard_all  # noqa: E402
from timing import best  # noqa: E402

from formatbook_core import Expectations  # noqa: E402

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["status", "model", "items"],
    "additionalProperties": False,
    "properties": {
        "status": {"enum": ["ok", "error"]},
        "model": {"type": "string", "maxLength": 64},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "title", "done", "score", "note", "owner", "tags"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "integer", "minimum": 1},
                    "title": {"type": "string", "minLength": 1, "maxLength": 200},
                    "done": {"type": "boolean"},
                    "score": {"type": "number", "minimum": 0, "maximum": 100},
                    "note": {"type": "string"},
                    "owner": {
                        "type": "object",
                        "required": ["name"],
                        "additionalProperties": False,
                        "properties": {"name": {"enum": ["Ada", "Grace", "Linus"]}, "team": {"type": "string"}},
                    },
                    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
                },
            },
        },
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--size", type=int, default=1_000_000, help="the largest reply, in characters")
    args = parser.parse_args()
    repeat = 2 if args.quick else 3
    plain = Expectations(format="yaml")
    with_schema = Expectations(format="yaml", schema=SCHEMA)
    print(f"strict StreamGuard on YAML, best of {repeat} (CPU time)")
    for size in (args.size // 4, args.size // 2, args.size):
        text = llm_like_yaml(size)
        for step in (4, 64):
            chunks = [text[i : i + step] for i in range(0, len(text), step)]
            guard_all(chunks, with_schema, True)  # the schema passes the reply (and warms the caches)
            base = best(partial(guard_all, chunks, plain, True), repeat)
            schema = best(partial(guard_all, chunks, with_schema, True), repeat)
            per_mb = 1e6 / len(text)
            print(
                f"  {len(text):>9,} chars, {step:>2}-char chunks: no schema {base * per_mb:6.3f} s/MB"
                f"   schema {schema * per_mb:6.3f} s/MB   ratio {schema / base:4.2f}x"
            )


if __name__ == "__main__":
    main()
