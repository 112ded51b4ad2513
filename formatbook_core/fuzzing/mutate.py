"""The mutator: turns seeds into fuzz inputs, deterministically from ``(seed, index)``.

Input ``i`` of a run is a pure function of the run's seed, ``i`` and the seed pool, so a
worker that hangs or dies on an input is reported by its index alone and the input is
rebuilt from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..testing.inputs import STRUCTURAL

#: Multi-character pieces of structure the formats care about.
TOKENS = (
    "```",
    "```json\n",
    "```markdown\n",
    "~~~",
    "\n```\n",
    "<think>",
    "</think>",
    "<reasoning>",
    "## ",
    "\n## Short answer\n",
    "\n# ",
    "\n- ",
    "\n1. ",
    "\n| a | b |\n| --- | --- |\n",
    "**Answer:**",
    "\\u",
    "\\ud83d",
    '"',
    '":',
    "null",
    "true",
    "1e999",
    "-0.0",
    "//",
    "/*",
    "\r\n",
    "\r",
    "\u00a0",
    "\u2028",
    "\ufeff",
    "\x00",
    "    ",
    "\t",
    "> ",
    "<!--",
    "-->",
    "[",
    "{",
)
PROSE = ("Sure! Here it is:\n", "Here you go: ", "I think ", "\n\nHope it helps.", " Let me know!", "Note: ")
MAX_INPUT_CHARS = 8_000


def _pos(rng: random.Random, text: str) -> int:
    return rng.randint(0, len(text))


def _char(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.7:
        return rng.choice(STRUCTURAL)
    if pick < 0.9:
        return chr(rng.randint(0x80, 0x2FFF))
    return chr(rng.choice((0, 0xFFFD, 0xD800, 0xDFFF, 0x1F680, 0x200B, 0x0B, 0x0C, 0x85)))


def flip_char(rng: random.Random, text: str, other: str) -> str:
    if not text:
        return _char(rng)
    i = rng.randrange(len(text))
    return text[:i] + _char(rng) + text[i + 1 :]


def flip_byte(rng: random.Random, text: str, other: str) -> str:
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    if not data:
        return text
    i = rng.randrange(len(data))
    data[i] ^= 1 << rng.randrange(8)
    # surrogateescape: an undecodable byte becomes a lone surrogate, as a bad decoder would
    return data.decode("utf-8", "surrogateescape")


def insert_structural(rng: random.Random, text: str, other: str) -> str:
    i = _pos(rng, text)
    piece = "".join(_char(rng) for _ in range(rng.randint(1, 6)))
    return text[:i] + piece + text[i:]


def insert_token(rng: random.Random, text: str, other: str) -> str:
    i = _pos(rng, text)
    return text[:i] + rng.choice(TOKENS) * rng.choice((1, 1, 1, 2, 3)) + text[i:]


def delete_range(rng: random.Random, text: str, other: str) -> str:
    i = _pos(rng, text)
    j = min(len(text), i + rng.choice((1, 1, 2, 5, 20, 100)))
    return text[:i] + text[j:]


def truncate(rng: random.Random, text: str, other: str) -> str:
    return text[: _pos(rng, text)]


def repeat_range(rng: random.Random, text: str, other: str) -> str:
    i = _pos(rng, text)
    j = min(len(text), i + rng.randint(1, 12))
    return text[:i] + text[i:j] * rng.choice((2, 3, 10, 50, 300)) + text[j:]


def splice(rng: random.Random, text: str, other: str) -> str:
    return text[: _pos(rng, text)] + other[_pos(rng, other) :]


def wrap(rng: random.Random, text: str, other: str) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice(PROSE) + text + rng.choice(PROSE)
    if kind == 1:
        tag = rng.choice(("json", "markdown", "md", "", "JSON", "text"))
        return f"{rng.choice(PROSE)}```{tag}\n{text}\n```{rng.choice(PROSE)}"
    if kind == 2:
        return f"<think>\n{rng.choice(PROSE)}\n</think>\n{text}"
    if kind == 3:
        return f"<think>{text}"  # an unclosed think block
    if kind == 4:
        return f"~~~\n{text}\n~~~"
    return text + "\n" + text


MUTATIONS: tuple[Callable[[random.Random, str, str], str], ...] = (
    flip_char,
    flip_byte,
    insert_structural,
    insert_token,
    insert_token,
    delete_range,
    truncate,
    repeat_range,
    splice,
    wrap,
)


def generate(seeds: Sequence[str], run_seed: int, index: int) -> str:
    """Input ``index`` of the run ``run_seed``: a seed with one to four stacked mutations
    (one input in sixteen is left as it is, so that valid documents are checked too)."""
    rng = random.Random(run_seed * 1_000_003 + index)
    text = rng.choice(seeds)
    if rng.random() < 1 / 16:
        return text
    for _ in range(rng.choice((1, 1, 2, 2, 3, 4))):
        text = rng.choice(MUTATIONS)(rng, text, rng.choice(seeds))
    return text[:MAX_INPUT_CHARS]
