"""Section names as they are matched: :func:`normalize_section_name`."""

from __future__ import annotations

import functools
import re
import unicodedata

_WS = re.compile(r"\s+")
EMPHASIS = re.compile(r"^(\*{1,3}|_{1,3})(.+)\1$", re.DOTALL)
_NUMBERING = re.compile(r"^(?:\d{1,9}(?:\.\d{1,9})+\.?|\d{1,9}[.)])(?:\s+|$)")
_TRAILING = ":-–— \t"
# Bounded so that a pathological name (a megabyte of '*') costs linear time.
_MAX_NORMALIZE_ROUNDS = 8


#: Categories of the marks that decorate a heading around its name: emoji and other
#: symbols (So, Sk), format characters (Cf: the zero-width joiner, U+FEFF), the
#: variation selectors and combining marks that follow an emoji (Mn, Me).
_DECORATION = frozenset({"So", "Sk", "Cf", "Mn", "Me", "Co"})


def _undecorated(name: str) -> str:
    """``name`` without emoji and other symbols at either end (``📝 Short answer``,
    ``🧠 Reasoning ✅``): decoration, not part of the name."""
    start, end = 0, len(name)
    while start < end and (name[start].isspace() or unicodedata.category(name[start]) in _DECORATION):
        start += 1
    while end > start and (name[end - 1].isspace() or unicodedata.category(name[end - 1]) in _DECORATION):
        end -= 1
    return name[start:end]


def normalize_section_name(text: str) -> str:
    """The key section names are matched by: lower case, white space trimmed and
    collapsed, emphasis (``**x**``, ``*x*``, ``__x__``), a leading numbering (``1.``,
    ``3.2``, ``1)``), emoji and other symbols at either end (``📝 Short answer``) and
    trailing ``:`` and dashes removed. ``"## **1. Reasoning:**"``'s
    text ``"**1. Reasoning:**"`` gives ``"reasoning"``. Non-strings give ``""``."""
    if not isinstance(text, str):
        return ""
    if len(text) <= _MEMO_LENGTH:
        return _normalized(text)
    return _normalize(text)


def normalize_line(text: str) -> str:
    """:func:`normalize_section_name` without its memo: for text read once, such as every
    line of a reply asked whether it names a section. Through the memo, such lines took
    its 4,096 places (800 KB of lines and names kept alive, 8 bytes a character of a
    100 KB reply) and pushed out the names that recur."""
    return _normalize(text) if isinstance(text, str) else ""


# A reply's headings repeat (and each is normalised by several steps): short names are
# worked out once. The function is pure; the memo holds at most 4,096 names of 200
# characters.
_MEMO_LENGTH = 200


@functools.lru_cache(maxsize=4096)
def _normalized(text: str) -> str:
    return _normalize(text)


def _normalize(text: str) -> str:
    name = _WS.sub(" ", text).strip()
    for _ in range(_MAX_NORMALIZE_ROUNDS):
        before = name
        name = _undecorated(name.rstrip(_TRAILING))
        m = EMPHASIS.match(name)
        if m and m.group(2).strip("*_ \t"):  # "***" alone is no emphasis
            name = m.group(2).strip()
        name = _NUMBERING.sub("", name, count=1).strip()
        if name == before:
            break
    return name.lower()
