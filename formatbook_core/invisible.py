"""Characters a reader cannot tell from nothing or from a space: the one definition.

A reply may hide such characters where they change how it is read (a zero-width space
before ``## Reasoning`` makes the line a paragraph, one before ``| Name | Age |`` makes
the row no table row), while a reader sees the heading or the table. Formats decide where
they remove them (listing the repair); this module says which characters they are: format
and control characters (``Cf``, ``Cc``: U+FEFF, U+200B, U+2060, NUL, DEL...), the other
Unicode default-ignorable characters (variation selectors, the combining grapheme joiner,
the Hangul fillers) and the space separators other than the ASCII space (U+00A0,
U+3000). The blanks and line breaks (space, tab, LF, CR) are not: they are the text's own
white space.
"""

from __future__ import annotations

import unicodedata

__all__ = ["invisible", "invisible_run"]

_BLANKS = " \t\n\r"
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


def invisible(ch: str) -> bool:
    """Whether the character ``ch`` shows nothing, or only a space (see the module doc)."""
    if ch in _BLANKS:
        return False
    if unicodedata.category(ch) in ("Cf", "Cc", "Zs"):
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def invisible_run(text: str, pos: int = 0, blanks: str = "") -> tuple[int, int]:
    """``(end, hidden)``: where the run of invisible characters (and of the characters of
    ``blanks`` among them) starting at ``pos`` ends, and how many invisible ones it holds."""
    end, hidden = pos, 0
    n = len(text)
    while end < n:
        ch = text[end]
        if ch in blanks:
            end += 1
        elif invisible(ch):
            end += 1
            hidden += 1
        else:
            break
    return end, hidden
