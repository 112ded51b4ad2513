"""Step 3b: a long paragraph above ``---`` or ``===`` is a paragraph, not a heading.

CommonMark makes a paragraph followed by a ``---`` or ``===`` line a setext heading, all of
it, however long. Models write ``---`` under a paragraph as a separator: read as
CommonMark reads it, a 60-word answer becomes a 60-word heading and its section holds
nothing (and counts nothing). A paragraph of more than one line or more than
:data:`MAX_HEADING_WORDS` words is therefore never a setext heading: a blank line is put
before its underline, which becomes a thematic break (``===`` is written ``---``). Short
underlined paragraphs stay headings. Applies from L1 on, when the spec declares sections.
The streaming counts rely on the same rule (``stream_values.py``).
"""

from __future__ import annotations

from ..reply.blocks import scan
from .state import RepairState, edit_lines

#: A setext heading holds at most this many words (whitespace-separated) on one line.
MAX_HEADING_WORDS = 12


def is_heading_sized(lines: int, words: int) -> bool:
    """Whether a paragraph of ``lines`` lines and ``words`` words may be a setext heading."""
    return lines <= 1 and words <= MAX_HEADING_WORDS


def break_long_underlines(st: RepairState) -> None:
    """Turn the underline below each long paragraph into a thematic break."""
    if st.level < 1 or not st.sections:
        return
    sc = scan(st.body)
    edits: list[tuple[int, int, str | None]] = []
    for h in sc.headings:
        if not h.setext or h.label:
            continue
        text_lines = h.end_line - h.line - 1
        if is_heading_sized(text_lines, len(h.raw.split())):
            continue
        underline = h.end_line - 1
        edits.append((underline, underline + 1, "\n---"))
        st.repair(
            "underline_as_break",
            f"read the {sc.line_text(underline).strip()[:3]} line under a paragraph of "
            f"{len(h.raw.split())} words as a thematic break, not as a heading underline",
            sc.line_text(underline),
        )
    if edits:
        st.body = edit_lines(sc, edits)
