"""Step ``write``: the tree written out as HTML, what writing changed listed too."""

from __future__ import annotations

from typing import Any

from formatbook_core.results import make_repair

from ..parse import DOCUMENT, discard, parse
from ..serialize import Changes, serialize
from ..values import values_of


def step(state: Any) -> None:
    parsed = state.parsed
    changes = Changes()
    # white space around the whole is no part of the HTML (the text moved out of a table
    # may bring line breaks before it): left out, so that the output locates as a whole
    document = parsed.mode == DOCUMENT
    state.output = serialize(parsed.root, document, changes, max_size=state.max_size).strip(" \t\n\r\f")
    if changes.pre_newlines:
        # html5lib drops the newline after <pre> in some insertion modes only: keep the
        # writing whose text reads back as the tree holds it
        want = values_of(list(parsed.root.childNodes))
        again = parse(state.output, parsed.mode, keep=0)
        same = again.root is not None and values_of(list(again.root.childNodes)) == want
        discard(again)
        if not same:
            changes = Changes()
            state.output = serialize(parsed.root, document, changes, pre_newline=False, max_size=state.max_size).strip(
                " \t\n\r\f"
            )
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
    if changes.blank_lines:
        state.repairs.append(
            make_repair(
                "whitespace",
                f"{changes.blank_lines} run(s) of blank lines in text at the top level joined into one line break "
                "(HTML shows them as one space), so that the HTML reads as one block",
                0,
                length,
            )
        )
    if not state.repairs:  # (cannot happen: an invalid parse has an error) — never a silent change
        state.repairs.append(
            make_repair("recovered", "the HTML was rewritten as the HTML5 algorithm reads it", 0, length)
        )
