"""Shared contract and checks for the markdown plugin's tests."""

from __future__ import annotations

import re

from formatbook_markdown.contract.parse import parse_output_format_spec

#: The contract of issue 4.
CONTRACT = """## Output format
- Short answer — text (required)
- Reasoning — ordered list (required)
- Assumptions — list (optional)

Tables (only if needed):
- (Option, Cost, Risk — table)
- (Step, Owner — ordered table, by Owner)

Empty sections:
- If a section is empty, write `None`.
"""

SPEC = parse_output_format_spec(CONTRACT)

#: The same sections, but the contract declares no empty value.
STRICT_SPEC = parse_output_format_spec(
    """## Output format
- Short answer — text (required)
- Reasoning — ordered list (required)
- Assumptions — list (optional)

Empty sections:
- Empty sections are not allowed.
"""
)

_WORD = re.compile(r"[^\W_]+")  # "__Reasoning__" holds the word "reasoning"


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}  # renaming headings may change case


def assert_nothing_lost(reply: str, result, syntax: frozenset[str] = frozenset()) -> None:
    """Every word of the reply is in the repaired text or in what was set aside
    (``syntax``: words that are Markdown syntax, such as a fence's info string). Numbers
    may go only when items or a '#' column were renumbered (they are list syntax then)."""
    kept = result.repaired_md + "\n" + "\n".join(s.text for s in result.set_aside)
    missing = words(reply) - words(kept) - syntax
    if {"list_kind", "table_numbered"} & {r.kind for r in result.repairs}:
        missing = {w for w in missing if not w.isdigit()}
    assert not missing, f"lost words {sorted(missing)[:10]}"


def kinds(result) -> list[str]:
    return [r.kind for r in result.repairs]
