"""Verifiable instructions: check() and StreamGuard with a mix of instructions, against the
one-off regular expressions a benchmark script would write (IFEval's reference checks).

Run: ``python benchmarks/bench_instructions.py`` (``--quick`` for fewer repeats).

An LLM-like reply (lower case, no commas, sections marked ``section n``, bullets,
*highlights*, [placeholders], paragraphs separated by ``***``, a postscript, ending with
"any other questions?") of about 1 KB and 100 KB, checked against twelve instructions at
once (eight counts, four kinds). Measured, best of several runs (CPU time):

- ``check(reply, mix)``: the full pipeline, every instruction judged;
- ``StreamGuard(mix)`` fed 16-character chunks, ``feed`` alone and with ``finish()``;
- the same twelve verdicts as one-off ``re``/``str`` calls (IFEval's patterns, no positions,
  no streaming): the floor a hand-written checker sets.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import Row, best, interleaved  # noqa: E402

from formatbook_core import StreamGuard, check, parse_expectations  # noqa: E402

_WORDS = (
    "the model returns a short answer and we check each data point as it streams from the server "
    "while keeping counts of words sentences and lines for the user"
).split()

MIX = """
EXPECT MAX 0 ","
EXPECT MIN 3 "data"
EXPECT MIN 3 BULLETS
EXPECT MIN 3 HIGHLIGHTS
EXPECT MIN 2 PLACEHOLDERS
EXPECT MAX 100000 CAPITAL WORDS
EXPECT MIN 2 PARAGRAPHS SEPARATED BY "***"
EXPECT MIN 2 SECTIONS MARKED "section"
EXPECT CASE lower
EXPECT NOT CONTAINS "delve"
EXPECT POSTSCRIPT "p.s."
EXPECT ENDS WITH "any other questions?"
"""


def reply_of(size: int, seed: int = 7) -> str:
    rng = random.Random(seed)

    def sentence(n: int) -> str:
        return " ".join(rng.choice(_WORDS) for _ in range(n)) + "."

    parts: list[str] = []
    total, n = 0, 0
    while total < size:
        n += 1
        block = (
            f"section {n}\n{sentence(12)} *{sentence(3)}* see [name{n}] and the data.\n"
            f"* {sentence(5)}\n* {sentence(4)}\n\n***\n\n"
        )
        parts.append(block)
        total += len(block)
    return "".join(parts) + "p.s. " + sentence(6) + "\nany other questions?"


def by_hand(text: str) -> bool:
    """The twelve verdicts as one-off calls (IFEval's patterns)."""
    return all(
        [
            not re.search(r"\,", text),
            len(re.findall("data", text, flags=re.IGNORECASE)) >= 3,
            len(re.findall(r"^\s*\*[^\*].*$", text, flags=re.MULTILINE))
            + len(re.findall(r"^\s*-.*$", text, flags=re.MULTILINE))
            >= 3,
            sum(1 for h in re.findall(r"\*[^\n\*]*\*", text) if h.strip("*").strip()) >= 3,
            len(re.findall(r"\[.*?\]", text)) >= 2,
            True,
            len(re.split(r"\s?\*\*\*\s?", text)) >= 2,
            len(re.split(r"\s?section\s?\d+\s?", text)) - 1 >= 2,
            text == text.lower(),
            not re.search(r"\bdelve\b", text, flags=re.IGNORECASE),
            bool(re.findall(r"\s*p\.\s?s\..*$", text.lower(), flags=re.MULTILINE)),
            text.strip().lower().endswith("any other questions?"),
        ]
    )


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's row: ``check`` of the instruction mix at 100 KB against IFEval's one-off
    ``re``/``str`` calls (reported; no goal in issue 29), interleaved."""
    exp = parse_expectations(MIX)
    text = reply_of(100_000)
    t = interleaved({"ours": lambda: check(text, exp), "peer": lambda: by_hand(text)}, 3 if quick else 7)
    return [Row("instruction mix check()", len(text), t["ours"], "IFEval re/str", t["peer"])]


def stream(exp: object, text: str, finish: bool) -> None:
    guard = StreamGuard(exp)  # type: ignore[arg-type]
    for i in range(0, len(text), 16):
        guard.feed(text[i : i + 16])
    if finish:
        guard.finish()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    exp = parse_expectations(MIX)
    for label, size in (("1 KB", 1_000), ("100 KB", 100_000)):
        text = reply_of(size)
        runs = 3 if args.quick else (30 if size < 10_000 else 7)
        result = check(text, exp)
        codes = sorted({v.code for v in result.violations})
        hand = best(lambda text=text: by_hand(text), runs)
        rows = [
            ("one-off re/str calls (IFEval's patterns)", hand),
            ("check(reply, mix)", best(lambda text=text: check(text, exp), runs)),
            ("StreamGuard, 16-char chunks, feed only", best(lambda text=text: stream(exp, text, False), runs)),
            ("StreamGuard, 16-char chunks, with finish()", best(lambda text=text: stream(exp, text, True), runs)),
        ]
        print(f"\n{label} ({len(text):,} characters; check: {'ok' if result.ok else codes})")
        print(f"{'':48} {'ms':>9} {'× one-off':>10}")
        for name, spent in rows:
            print(f"{name:48} {spent * 1000:9.2f} {spent / max(hand, 1e-9):10.1f}")


if __name__ == "__main__":
    main()
