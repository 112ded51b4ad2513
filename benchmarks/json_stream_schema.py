"""StreamGuard with a JSON Schema against the same guard without one, over a 1 MB reply.

Run: ``python benchmarks/json_stream_schema.py`` (add ``--quick`` for fewer repeats).

The LLM-like JSON reply of ``json_stream.py`` (about 1 MB: items with ids, titles, tags,
scores, nested reviewers and steps) is fed in 4-character chunks, as ``ask`` feeds a
streamed reply, to ``StreamGuard(Expectations(format="json", schema=S))`` and to
``StreamGuard(Expectations(format="json"))``, relaxed and strict, without ``finish()``
(the streaming cost only: ``finish()`` is the same ``check`` either way). ``S`` describes
the document fully (types, required, ``additionalProperties: false``, an enum, bounds),
so that every key and value is judged by the incremental schema checker
(:mod:`formatbook_core.data_schema.prefix`). Every figure is the best of several runs, in
CPU time. Goal (issue 26): the schema costs at most 2x the guard without it.

A second schema, ``PATTERN_SCHEMA``, adds patterns to the same document: anchored
``pattern`` on the model, titles, summaries and reviewer names (decided on the string's
prefix by :mod:`formatbook_core.data_schema.prefix_patterns`), a searched one on quotes
(judged at the string's end), and steps whose keys are admitted by ``patternProperties``
under ``additionalProperties: false`` (each key's prefix run through its patterns).
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from json_stream import _WORDS, best, llm_like_json  # noqa: E402

from formatbook_core import Expectations, StreamGuard  # noqa: E402

_STEP = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}, "text": {"type": "string"}}}
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
                "required": ["id", "title", "summary", "tags", "score", "approved", "reviewer", "steps"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "integer", "minimum": 1},
                    "title": {"type": "string", "minLength": 1},
                    "summary": {"type": "string"},
                    "tags": {"type": "array", "items": {"enum": sorted(set(_WORDS))}, "maxItems": 8},
                    "score": {"type": "number", "minimum": 0, "maximum": 100},
                    "approved": {"type": "boolean"},
                    "reviewer": {
                        "anyOf": [
                            {"type": "null"},
                            {
                                "type": "object",
                                "properties": {"name": {"type": "string"}, "quote": {"type": "string"}},
                                "required": ["name"],
                            },
                        ]
                    },
                    "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
                },
            },
        },
    },
    "$defs": {"step": _STEP},
}


def _with_patterns(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with patterns on the strings and ``patternProperties`` on the steps."""
    out = copy.deepcopy(schema)
    out["properties"]["model"]["pattern"] = "^[a-z0-9-]+$"
    item = out["properties"]["items"]["items"]["properties"]
    item["title"]["pattern"] = "^[A-Z][a-z ]*\\.$"
    item["summary"]["pattern"] = "^([A-Z][a-z ]*\\. ?)+$"
    reviewer = item["reviewer"]["anyOf"][1]["properties"]
    reviewer["name"]["pattern"] = "^[A-Z][a-z]* [a-z]+$"
    reviewer["quote"]["pattern"] = "\u201d$"
    out["$defs"]["step"] = {
        "type": "object",
        "patternProperties": {"^n$": {"type": "integer", "minimum": 0}, "^te?xt$": {"type": "string"}},
        "additionalProperties": False,
    }
    return out


PATTERN_SCHEMA = _with_patterns(SCHEMA)


def guard_all(chunks: list[str], expectations: Expectations, strict: bool) -> None:
    guard = StreamGuard(expectations, strict=strict)
    feed = guard.feed
    for chunk in chunks:
        if not feed(chunk).ok:  # .ok, not bool(): StreamStatus.__bool__ is a Python call
            raise AssertionError(f"the guard stopped a reply that passes: {feed(chunk).reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--size", type=int, default=1_000_000, help="reply size in characters")
    args = parser.parse_args()
    repeat = 2 if args.quick else 4
    text = llm_like_json(args.size)
    chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
    plain = Expectations(format="json")
    print(f"StreamGuard over {len(text):,} characters in 4-character chunks, best of {repeat} (CPU time)")
    for label, schema in (("schema", SCHEMA), ("patterns", PATTERN_SCHEMA)):
        with_schema = Expectations(format="json", schema=schema)
        guard_all(chunks, with_schema, True)  # the schema passes the reply (and warms the caches)
        for strict in (False, True):
            base = best(lambda strict=strict: guard_all(chunks, plain, strict), repeat)
            took = best(lambda strict=strict, e=with_schema: guard_all(chunks, e, strict), repeat)
            mode = "strict " if strict else "relaxed"
            print(
                f"  {label:8} {mode}: no schema {base:6.3f} s   schema {took:6.3f} s"
                f"   ratio {took / base:4.2f}x (goal <= 2x)"
            )


if __name__ == "__main__":
    main()
