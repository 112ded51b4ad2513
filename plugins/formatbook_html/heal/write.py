"""Step ``write``: the tree written out as HTML, what writing changed listed too."""

from __future__ import annotations

from typing import Any

from formatbook_core.results import make_repair

from ..parse import DOCUMENT
from ..serialize import Changes, serialize


def step(state: Any) -> None:
    parsed = state.parsed
    changes = Changes()
    state.output = serialize(parsed.root, parsed.mode == DOCUMENT, changes)
    length = len(state.text)
    if changes.invalid_chars:
        state.repairs.append(
            make_repair(
                "invalid_character",
                f"{changes.invalid_chars} character(s) HTML forbids (control characters, noncharacters) left out",
                0,
                length,
            )
        )
    if changes.comments:
        state.repairs.append(
            make_repair(
                "comment_mended", f"{changes.comments} comment(s) holding '--' mended so that they parse", 0, length
            )
        )
    if not state.repairs:  # (cannot happen: an invalid parse has an error) — never a silent change
        state.repairs.append(
            make_repair("recovered", "the HTML was rewritten as the HTML5 algorithm reads it", 0, length)
        )
