"""Generated YAML texts for comparing the fast reading with the full one: documents of the
shapes replies have (mappings, lists, flow collections, every scalar style, comments,
markers, CRLF), and the same texts damaged by a random edit. Seeded: the same texts on
every run."""

from __future__ import annotations

import random

_PLAIN = (
    "Ada", "ok", "hello world", "Zürich", "São Paulo", "東京", "a:b", "a#b", "x - y", "3.10", "2134",
    "02134", "0777", "-007", "1_000", "0x1F", "0o17", "0b101", "1e3", "1E-3", "-.5", "+1", ".5", "1.", "-0",
    ".inf", "-.Inf", ".NaN", "yes", "no", "on", "off", "Yes", "true", "True", "TRUE", "false", "False",
    "null", "Null", "NULL", "~", "2024-01-05", "2001-12-14t21:59:43.10-05:00", "12:30:45", "1:20", "!x",
    "@x", "`x", "%x", "?x", ":x", "-x", "x:", "a: b", "a #b", "a # c", "it's", 'say "hi"', "1,2", "[x",
    "x]", "{x", "x}", "*x", "&x", "|x", ">x", "😀", "a\u00a0b", "x" * 300, "9" * 30, "1" + "0" * 4100,
)  # fmt: skip
_QUOTED = (
    '"a: b"', "'a: b'", '"\\u00e9\\x41\\t\\n"', '"\\/"', '"\\N\\_\\L\\P"', "'it''s'", '""', "''",
    '"line\n  two"', "'line\n\n  three'", '"esc \\" q"', '"\\U0001F600"', '"\\e\\a\\0"', '"a\\\n  b"',
)  # fmt: skip
_KEYS = ("name", "age", "1", "true", "null", "a b", "Key", "x-y", "über", "'q k'", '"dq"', "? ", "k:v", "_")


def _scalar(rng: random.Random, indent: int) -> str:
    r = rng.random()
    if r < 0.55:
        return rng.choice(_PLAIN)
    if r < 0.75:
        return rng.choice(_QUOTED).replace("\n", "\n" + " " * (indent + 2))
    if r < 0.85:
        pad = " " * (indent + 2)
        header = rng.choice(["|", ">", "|-", ">-", "|+", ">+", "|2", "|-1"])
        lines = rng.choice(
            [["line one", "line two"], ["a", "", "b"], ["code:", "  nested", "back"], ["", "lead"], ["x", "  "]]
        )
        return header + "".join("\n" + (pad + ln if ln.strip() else ln) for ln in lines)
    if r < 0.95:
        return _flow(rng, 0)
    return rng.choice(["", "# comment", "&a x", "*a", "!!str 1", "! 12", "!thing v", "!!int 0777"])


def _flow(rng: random.Random, depth: int) -> str:
    n = rng.randint(0, 3)
    if rng.random() < 0.5 or depth > 2:
        items = [_flow(rng, depth + 1) if rng.random() < 0.2 else rng.choice(_PLAIN[:40]) for _ in range(n)]
        return "[" + ", ".join(items) + "]"
    pairs = [f"{rng.choice(_KEYS[:6])}{i}: {rng.choice(_PLAIN[:40])}" for i in range(n)]
    return "{" + ", ".join(pairs) + "}"


def _block(rng: random.Random, indent: int, depth: int) -> str:
    pad = " " * indent
    out = []
    if rng.random() < 0.5 or depth > 3:
        for i in range(rng.randint(1, 4)):
            key = rng.choice(_KEYS)
            key = key if key.startswith(("'", '"', "?")) else f"{key}{i}"
            if rng.random() < 0.3 and depth < 3:
                out.append(f"{pad}{key}:\n{_block(rng, indent + rng.choice([2, 4]), depth + 1)}")
            elif rng.random() < 0.1 and depth < 3:
                out.append(f"{pad}{key}:\n{_block(rng, indent, depth + 1)}")  # a list at the key's column
            else:
                out.append(f"{pad}{key}: {_scalar(rng, indent)}".rstrip(" ") + "\n")
    else:
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.3 and depth < 3:
                inner = _block(rng, indent + 2, depth + 1)
                out.append(f"{pad}- {inner[indent + 2 :]}")
            else:
                out.append(f"{pad}- {_scalar(rng, indent)}".rstrip(" ") + "\n")
    if rng.random() < 0.1:
        out.insert(rng.randrange(len(out) + 1), f"{pad}# a comment\n")
    return "".join(out)


def document(rng: random.Random) -> str:
    """One generated text: a block or flow document, sometimes framed or CRLF."""
    body = _block(rng, 0, 0) if rng.random() < 0.9 else _flow(rng, 0) + "\n"
    r = rng.random()
    if r < 0.1:
        body = "---\n" + body
    elif r < 0.15:
        body = "---\n" + body + "...\n"
    elif r < 0.2:
        body = body + "---\n" + _block(rng, 0, 1)
    if rng.random() < 0.1:
        body = body.replace("\n", "\r\n")
    if rng.random() < 0.2:
        body = body.rstrip("\n")
    return body


def damaged(rng: random.Random, text: str) -> str:
    """``text`` with one random edit: a character dropped, doubled or replaced."""
    if not text:
        return text
    k = rng.randrange(len(text))
    op = rng.random()
    if op < 0.3:
        return text[:k] + text[k + 1 :]
    if op < 0.5:
        return text[:k] + text[k] + text[k:]
    return text[:k] + rng.choice(" \n:-#'\"[]{},?&*!|>\t.") + text[k + 1 :]


def texts(seed: int, n: int) -> list[str]:
    """``n`` generated texts (about one in three damaged)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text = document(rng)
        out.append(damaged(rng, text) if rng.random() < 0.35 else text)
    return out
