"""Step 1b: invisible characters at the start of a line where a heading would stand are
removed (L1+).

``\\ufeff## Short answer`` is no heading for CommonMark: a byte-order mark, a zero-width
space (U+200B), a word joiner (U+2060), NUL, DEL or any other format or control character
before the ``#`` run makes the line a paragraph, so the section would be missing and
filled with the empty value while its text sits right there, set aside as preamble. A
reader sees a heading: the characters go (repair ``invisible_removed``), on lines whose
rest is an ATX heading or a bold label (``**Reasoning:**``). Elsewhere they are text.

Invisible is what a reader cannot tell from nothing or from a space: format and control
characters, the other Unicode default-ignorable characters (variation selectors, the
combining grapheme joiner, the Hangul fillers) and the space separators other than the
ASCII space (U+00A0, U+3000), also after indenting spaces (``"  \u200b## Reasoning"``).
Lines are split where markdown-it splits them (LF, CR, CRLF): ``str.splitlines`` also
splits at a vertical tab, a form feed or U+0085, and left ``"\x0b## Reasoning"`` whole.
"""

from __future__ import annotations

import re
import unicodedata

from .state import RepairState

# what stands after the invisible characters: an ATX heading or a bold label
_HEADING = re.compile(r" {0,3}(?:#{1,6}(?:[ \t\r\n]|$)|\*\*|__)")
# a line as markdown-it reads one: up to LF, CR or CRLF
_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)?")
_INDENT = " \t"
_BREAKS = "\n\r"
# default-ignorable code points outside the categories Cf and Cc (Unicode's
# DerivedCoreProperties.txt): marks and letters that show nothing
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)


def _invisible(ch: str) -> bool:
    if ch in _INDENT or ch in _BREAKS:
        return False
    if unicodedata.category(ch) in ("Cf", "Cc", "Zs"):
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


# the start of a line (as markdown-it splits them) whose first character after the
# indentation is not printable ASCII: the only lines that can open with an invisible
# character (a line opening, after its indentation, with one of '!' to '~' has none)
_CANDIDATE = re.compile(r"(?:^|(?<=\r))[ \t]*[^\x21-\x7e \t\r\n]", re.MULTILINE)


def remove_invisible_before_headings(st: RepairState) -> None:
    """Drop the format and control characters that open a line before a heading. Only
    the lines :data:`_CANDIDATE` finds are read (a reply of 400,000 headings: every line
    was split off and read character by character, a twelfth of its check)."""
    if st.level < 1:
        return
    body = st.body
    pieces: list[str] = []
    pos = removed = 0
    for m in _CANDIDATE.finditer(body):
        start = m.start()
        line = _LINE.match(body, start).group()  # type: ignore[union-attr]  # (matches everywhere)
        n = 0
        while n < len(line) and (line[n] in _INDENT or _invisible(line[n])):
            n += 1
        hidden = sum(1 for ch in line[:n] if ch not in _INDENT)
        if hidden and _HEADING.match(line, n):
            pieces += [body[pos:start], "".join(ch for ch in line[:n] if ch in _INDENT), line[n:]]
            pos = start + len(line)
            removed += hidden
    if removed:
        st.body = "".join(pieces) + body[pos:]
        st.repair(
            "invisible_removed",
            f"removed {removed} invisible character(s) (format or control) before a heading at a line start",
        )
