"""Issue 30 (memory): check of a Markdown reply holds at most a bounded number of bytes
per character of the reply, whatever its shape. The scan once kept markdown-it's block
tokens (about 350 bytes each, three per heading line): 488 bytes per character for a reply
of 400,000 ``# h`` headings, 168 for the tables of an L3 reply."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

from formatbook_core import check, parse_expectations

#: a contract with a table and an ordered table, as the growth benchmark's L3 replies
CONTRACT = """## Output format
- Short answer — text (required)
- Reasoning — ordered list (required)

Tables (only if needed):
- (Option, Cost, Risk — table)
- (Step, Owner — ordered table, by Owner)
"""


def _tables(rows: int) -> str:
    plain = "".join(f"| option {i} | {i * 3} | low |\n" for i in range(rows))
    ordered = "".join(f"| {i + 1} | step {i} | owner {i % 7} |\n" for i in range(rows))
    return (
        "## Short answer\n\nSee the tables.\n\n| Option | Cost | Risk |\n| --- | --- | --- |\n"
        f"{plain}\n| # | Step | Owner |\n| --- | --- | --- |\n{ordered}\n## Reasoning\n\n1. It follows.\n"
    )


def _peak_per_char(text: str, expect: str) -> float:
    expectations = parse_expectations(expect)
    result = check(text[: len(text) // 10], expectations)  # imports, compiled patterns
    assert result.ok, result.violations
    gc.collect()
    tracemalloc.start()
    try:
        result = check(text, expectations)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.ok, result.violations
    return peak / len(text)


def test_checking_tables_costs_under_130_bytes_a_character(tmp_path: Path) -> None:
    # 5 KB of rows: 175 bytes a character when the scan kept markdown-it's tokens, 93
    # since (a cell's text, its row's cells and their parsed copies remain)
    contract = tmp_path / "contract.md"
    contract.write_text(CONTRACT, encoding="utf-8")
    text = _tables(100)
    assert 5_000 < len(text) < 6_000
    assert _peak_per_char(text, f"EXPECT MARKDOWN {contract} level=3") < 130


def test_checking_a_reply_of_headings_only_costs_under_200_bytes_a_character() -> None:
    # 4 KB of headings: 447 bytes a character when the scan kept markdown-it's tokens,
    # 145 since (a record, a Heading, an outline node and its key per line)
    text = "# h\n" * 1000
    assert _peak_per_char(text, "EXPECT MARKDOWN") < 200
