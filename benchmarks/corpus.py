"""A generated corpus of LLM-like JSON replies (about 1 KB, 100 KB and 1 MB), valid and
broken in each way the JSON plugin heals (alone, and three combinations of several kinds:
``combo_*``), each with the value a reader intended.

``variants(size)`` yields ``(name, text, intended)``. Deterministic (seeded), so runs
compare like with like. Used by ``json_check.py`` and ``json_heal.py``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

SIZES = {"1KB": 1_000, "100KB": 100_000, "1MB": 1_000_000}

_WORDS = (
    "the model returns a concise answer with careful reasoning about every step of the task "
    "customer order shipping delayed warehouse refund policy applies within thirty days "
    "summary report quarterly revenue growth exceeded expectations across regions"
).split()


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def _item(rng: random.Random, i: int) -> dict[str, Any]:
    return {
        "id": i,
        "name": _sentence(rng, 3)[:-1],
        "price": round(rng.uniform(1, 500), 2),
        "in_stock": rng.random() < 0.7,
        "rating": None if rng.random() < 0.2 else rng.randint(1, 5),
        "tags": [rng.choice(_WORDS) for _ in range(3)],
        "description": _sentence(rng, 12),
    }


def document(size: int, seed: int = 7) -> dict[str, Any]:
    """A reply-like object of about ``size`` characters (pretty-printed)."""
    rng = random.Random(seed)
    doc: dict[str, Any] = {"title": "Catalogue answer", "summary": _sentence(rng, 20), "items": []}
    used = len(json.dumps(doc, indent=2))
    i = 0
    while used < size:
        item = _item(rng, i)
        doc["items"].append(item)
        used += len(json.dumps(item, indent=2)) + 8
        i += 1
    return doc


def dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _last_description(text: str) -> int:
    """Offset of the opening quote of the last description value."""
    return text.rindex('"description": ') + len('"description": ')


def variants(size: int) -> Iterator[tuple[str, str, Any]]:
    """``(variant, text, intended value)`` for every variant of a document of ``size``."""
    doc = document(size)
    text = dump(doc)
    yield "valid", text, doc
    yield "trailing_commas", re.sub(r"([^\[{,\s])(\n\s*[}\]])", r"\1,\2", text), doc
    yield (
        "single_quotes",
        re.sub(r'"((?:[^"\\]|\\.)*)"', lambda m: "'" + m.group(1).replace("'", "\\'") + "'", text),
        doc,
    )
    yield "smart_quotes", re.sub(r': "((?:[^"\\]|\\.)*)"', lambda m: ": \u201c" + m.group(1) + "\u201d", text), doc
    yield "unquoted_keys", re.sub(r'"(\w+)": ', r"\1: ", text), doc
    yield (
        "python_literals",
        re.sub(
            r": (true|false|null)\b",
            lambda m: ": " + {"true": "True", "false": "False", "null": "None"}[m.group(1)],
            text,
        ),
        doc,
    )
    yield "comments", re.sub(r'("id": \d+,)', r"\1 // the item id\n    /* checked */", text), doc
    raw = json.loads(text)
    for item in raw["items"]:
        item["description"] = item["description"].replace(" ", "\n", 1)
    yield "raw_newlines", re.sub(r"\\n", "\n", dump(raw)), raw
    quoted = json.loads(text)
    for item in quoted["items"]:
        item["description"] = 'He said "hi" to me. ' + item["description"]
    yield "inner_quotes", dump(quoted).replace('\\"', '"'), quoted
    yield "missing_brackets", text.rstrip()[:-1].rstrip()[:-1], doc  # the last "}" of an item and the root's
    yield "surplus_brackets", text + "}]", doc
    nan = json.loads(text)
    for item in nan["items"]:
        item["price"] = None
    yield "nan", re.sub(r'"price": [0-9.]+', '"price": NaN', text), nan
    cut_at = _last_description(text)
    desc = doc["items"][-1]["description"]
    keep = desc[: len(desc) // 2]
    if keep.endswith(" "):
        keep += "x"
    cut = json.loads(text)
    cut["items"][-1]["description"] = keep
    yield "truncated_string", text[: cut_at + 1 + len(keep)], cut
    dropped = json.loads(text)
    del dropped["items"][-1]["description"]
    yield "truncated_after_key", text[:cut_at], dropped
    yield "missing_commas", re.sub(r",\n", "\n", text), doc
    # several kinds of damage in one reply, as a careless model writes them
    python_like = re.sub(r'"((?:[^"\\]|\\.)*)"', lambda m: "'" + m.group(1).replace("'", "\\'") + "'", text)
    python_like = re.sub(
        r": (true|false|null)\b",
        lambda m: ": " + {"true": "True", "false": "False", "null": "None"}[m.group(1)],
        python_like,
    )
    yield "combo_python", re.sub(r"([^\[{,\s])(\n\s*[}\]])", r"\1,\2", python_like), doc
    sloppy = re.sub(r'"(\w+)": ', r"\1: ", text)
    sloppy = re.sub(r"(id: \d+,)", r"\1 // the item id", sloppy)
    sloppy = re.sub(r"([^\[{,\s])(\n\s*[}\]])", r"\1,\2", sloppy)
    yield "combo_sloppy_cut", sloppy.rstrip()[:-1].rstrip()[:-1].rstrip().rstrip(","), doc
    mixed = re.sub(r',\n(\s*)"tags"', r'\n\1"tags"', text)
    mixed = re.sub(r': "((?:[^"\\]|\\.)*)"', lambda m: ": \u201c" + m.group(1) + "\u201d", mixed)
    yield "combo_mixed", re.sub(r"([^\[{,\s])(\n\s*[}\]])", r"\1,\2", mixed), doc
    surrogate = json.loads(text)
    for item in surrogate["items"]:
        item["name"] += " \U0001f680"
    yield "surrogate_pairs", re.sub(r"([^\[{,\s])(\n\s*[}\]])", r"\1,\2", json.dumps(surrogate, indent=2)), surrogate


def reply(size: int) -> str:
    """A valid reply of about ``size`` characters."""
    return dump(document(size))
