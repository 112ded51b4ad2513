"""Step ``escape``: text values escaped as RFC 5545 3.3.11 wants — ``,`` and ``;`` as
``\\,`` and ``\\;``, a backslash that escapes nothing as ``\\\\``, a line break as
``\\n``. In ``CATEGORIES`` and ``RESOURCES`` commas separate the items and stay.

A value where one backslash escapes nothing (``C:\\Users\\ada\\notes.txt``) was written
with its backslashes raw: none of them is an escape, so ``\\notes`` is no line break and
every backslash is doubled (the vCard plugin reads such values the same way)."""

from __future__ import annotations

from formatbook_core.contentlines import raw_backslashes

from .. import rules
from ..contentlines import ContentLine
from .state import Healing

_ESCAPABLE = frozenset("\\;,nN")


def escape_text(value: str, is_list: bool) -> str:
    raw = raw_backslashes(value)  # the same escapes as _ESCAPABLE
    out: list[str] = []
    k = 0
    n = len(value)
    while k < n:
        ch = value[k]
        if ch == "\\":
            if not raw and k + 1 < n and value[k + 1] in _ESCAPABLE:
                out.append(value[k : k + 2])
                k += 2
                continue
            out.append("\\\\")
        elif ch == ";":
            out.append("\\;")
        elif ch == "," and not is_list:
            out.append("\\,")
        elif ch == "\r":
            pass  # the CR of a CRLF inside a value: the LF that follows becomes \n
        elif ch == "\n":
            out.append("\\n")
        else:
            out.append(ch)
        k += 1
    return "".join(out)


def escape_values(h: Healing) -> None:
    for line in h.lines:
        parts = line.parts
        if parts is None or not (parts.name in rules.TEXT or parts.name in rules.TEXT_LISTS):
            continue
        is_list = parts.name in rules.TEXT_LISTS
        if rules.text_problem(parts.value, is_list) is None and "\n" not in parts.value:
            continue
        line.set(ContentLine(parts.name, parts.params, escape_text(parts.value, is_list)))
        h.repair("escaped", f"special characters in {parts.name} escaped", line.start, line.end)
