"""Step ``refuse``: what healing cannot repair is a ``HealError`` with the violations."""

from __future__ import annotations

from typing import Any

from formatbook_core import HealError, Violation

from ..verdict import content_violations, syntax_violations


def step(state: Any) -> None:
    parsed = state.parsed
    length = len(state.text)
    if parsed.limit is not None:
        raise HealError(f"cannot heal the HTML: {parsed.limit.message}", syntax_violations(parsed, length)[:1])
    if parsed.stopped:
        raise HealError(
            "cannot heal the HTML: it has more parse errors than can be repaired",
            [Violation("html.syntax", "too many parse errors to repair", keyword="more-errors")],
        )
    if parsed.start_tags == 0:
        found = content_violations(parsed, length)
        raise HealError(f"cannot heal the HTML: {found[0].message}", found)
