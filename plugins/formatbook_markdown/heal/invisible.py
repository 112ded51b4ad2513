"""Step 1b: invisible characters at the start of a line where a heading would stand are
removed (L1+).

``\\ufeff## Short answer`` is no heading for CommonMark: a byte-order mark, a zero-width
space (U+200B), a word joiner (U+2060), NUL, DEL or any other format or control character
before the ``#`` run makes the line a paragraph, so the section would be missing and
filled with the empty value while its text sits right there, set aside as preamble. A
reader sees a heading: the characters go (repair ``invisible_removed``), on lines whose
rest is an ATX heading or a bold label (``**Reasoning:**``). The same characters inside
the marker (``#\u200b# Short answer``, ``##\x00 Reasoning``, ``*\u200b*Reasoning:**``)
hide the heading alike, and go alike. Elsewhere (in the heading's text, in a paragraph)
they are text.

Invisible is what a reader cannot tell from nothing or from a space
(:mod:`formatbook_core.invisible`: format and control characters, the other Unicode
default-ignorable characters, the space separators other than the ASCII space), also
after indenting spaces (``"  \u200b## Reasoning"``).
Lines are split where markdown-it splits them (LF, CR, CRLF): ``str.splitlines`` also
splits at a vertical tab, a form feed or U+0085, and left ``"\x0b## Reasoning"`` whole.
"""

from __future__ import annotations

import re

from formatbook_core.invisible import invisible as _invisible

from .state import RepairState

# what stands after the invisible characters: an ATX heading or a bold label
_HEADING = re.compile(r" {0,3}(?:#{1,6}(?:[ \t\r\n]|$)|\*\*|__)")
# a line as markdown-it reads one: up to LF, CR or CRLF
_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)?")
_INDENT = " \t"
# the characters of a line's head: indent, and the marks of an ATX heading or bold label
_MARKS = " \t#*_"


def _indent(line: str) -> int:
    """Where ``line``'s text starts after its indenting blanks."""
    return len(line) - len(line.lstrip(_INDENT))


# the start of a line (as markdown-it splits them) whose first character after its
# indent and marks is not printable ASCII: the only lines that can hold an invisible
# character in their head (a head ending at one of '!' to '~' has none)
_CANDIDATE = re.compile(r"(?:^|(?<=\r))[ \t#*_]*[^\x21-\x7e \t\r\n]", re.MULTILINE)


def remove_invisible_before_headings(st: RepairState) -> None:
    """Drop the format and control characters that open a line before a heading, or
    stand inside its marker (between the ``#`` or ``*`` of its opening and the blank
    after it). Only the lines :data:`_CANDIDATE` finds are read (a reply of 400,000
    headings: every line was split off and read character by character, a twelfth of
    its check)."""
    if st.level < 1:
        return
    body = st.body
    pieces: list[str] = []
    pos = removed = 0
    for m in _CANDIDATE.finditer(body):
        start = m.start()
        line = _LINE.match(body, start).group()  # type: ignore[union-attr]  # (matches everywhere)
        n = 0  # the line's head: indent, marks and invisible characters, up to its text
        while n < len(line) and (line[n] in _MARKS or _invisible(line[n])):
            n += 1
        kept = "".join(ch for ch in line[:n] if ch in _MARKS)
        hidden = n - len(kept)
        if not hidden:
            continue
        cleaned = kept + line[n:]
        # a heading already (its text starts with the characters) stays as it is
        if _HEADING.match(cleaned, _indent(cleaned)) and not _HEADING.match(line, _indent(line)):
            pieces += [body[pos:start], cleaned]
            pos = start + len(line)
            removed += hidden
    if removed:
        st.body = "".join(pieces) + body[pos:]
        st.repair(
            "invisible_removed",
            f"removed {removed} invisible character(s) (format or control) before or inside a heading's marker",
        )
