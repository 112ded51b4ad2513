"""Section names as they are matched: :func:`normalize_section_name`."""

from __future__ import annotations

import re

_WS = re.compile(r"\s+")
EMPHASIS = re.compile(r"^(\*{1,3}|_{1,3})(.+)\1$", re.DOTALL)
_NUMBERING = re.compile(r"^(?:\d{1,9}(?:\.\d{1,9})+\.?|\d{1,9}[.)])(?:\s+|$)")
_TRAILING = ":-–— \t"
# Bounded so that a pathological name (a megabyte of '*') costs linear time.
_MAX_NORMALIZE_ROUNDS = 8


def normalize_section_name(text: str) -> str:
    """The key section names are matched by: lower case, white space trimmed and
    collapsed, emphasis (``**x**``, ``*x*``, ``__x__``), a leading numbering (``1.``,
    ``3.2``, ``1)``) and trailing ``:`` and dashes removed. ``"## **1. Reasoning:**"``'s
    text ``"**1. Reasoning:**"`` gives ``"reasoning"``. Non-strings give ``""``."""
    if not isinstance(text, str):
        return ""
    name = _WS.sub(" ", text).strip()
    for _ in range(_MAX_NORMALIZE_ROUNDS):
        before = name
        name = name.rstrip(_TRAILING)
        m = EMPHASIS.match(name)
        if m and m.group(2).strip("*_ \t"):  # "***" alone is no emphasis
            name = m.group(2).strip()
        name = _NUMBERING.sub("", name, count=1).strip()
        if name == before:
            break
    return name.lower()
