"""Step 1b: invisible characters at the start of a line where a heading would stand are
removed (L1+).

``\\ufeff## Short answer`` is no heading for CommonMark: a byte-order mark, a zero-width
space (U+200B), a word joiner (U+2060), NUL, DEL or any other format or control character
before the ``#`` run makes the line a paragraph, so the section would be missing and
filled with the empty value while its text sits right there, set aside as preamble. A
reader sees a heading: the characters go (repair ``invisible_removed``), on lines whose
rest is an ATX heading or a bold label (``**Reasoning:**``). Elsewhere they are text.
"""

from __future__ import annotations

import re
import unicodedata

from .state import RepairState

# what stands after the invisible characters: an ATX heading or a bold label
_HEADING = re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|\*\*|__)")
_BREAKS = "\t\n\r"


def _invisible(ch: str) -> bool:
    return ch not in _BREAKS and unicodedata.category(ch) in ("Cf", "Cc")


def remove_invisible_before_headings(st: RepairState) -> None:
    """Drop the format and control characters that open a line before a heading."""
    if st.level < 1:
        return
    lines = st.body.splitlines(keepends=True)
    removed = 0
    for i, line in enumerate(lines):
        if not line or not _invisible(line[0]):
            continue
        n = 0
        while n < len(line) and _invisible(line[n]):
            n += 1
        if _HEADING.match(line, n):
            lines[i] = line[n:]
            removed += n
    if removed:
        st.body = "".join(lines)
        st.repair(
            "invisible_removed",
            f"removed {removed} invisible character(s) (format or control) before a heading at a line start",
        )
