"""RFC 5545 / RFC 6350 content lines: the parts both RFCs define alike.

Both texts are sequences of physical lines ended by CRLF, long lines folded at 75 octets
(a line break followed by one space or tab continues the line), and text values escape
``\\``, ``,``, ``;`` and line breaks with a backslash. The plugins that read such texts
keep their own grammar of a logical line (names, parameters, groups differ) and share
this layer:

- :func:`physical_lines` — ``(start, end, break)`` for each physical line;
- :func:`octets` and :func:`fold` — write a logical line back, folded at 75 octets;
- :func:`split_unescaped` — a value split at a separator no backslash escapes;
- :func:`unescape_text` — a text value's escapes decoded;
- :func:`raw_backslashes` — whether a value's backslashes were written raw (a Windows
  path), so that none of them is an escape;
- :func:`is_fence_line` — a Markdown fence line, markup around the payload: a healer sets
  it aside, never reads it as the rest of a value broken by a line break;
- :func:`outside_think_blocks` — the lines outside ``<think>`` blocks, and the blocks that
  covered the others: a block between content lines is no part of a value either.

Everything here is a plain scan, linear in its input.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .reply import FENCE_LINE, Reply
from .results import Span

__all__ = [
    "CRLF",
    "FOLD_OCTETS",
    "fold",
    "is_fence_line",
    "outside_think_blocks",
    "octets",
    "physical_lines",
    "raw_backslashes",
    "split_unescaped",
    "unescape_text",
]

CRLF = "\r\n"
#: A line as the healers hold it: its start and end offsets first.
Line = TypeVar("Line", bound=tuple[Any, ...])
#: RFC 5545 3.1 and RFC 6350 3.2: lines SHOULD NOT be longer than this many octets,
#: line break excluded.
FOLD_OCTETS = 75


def physical_lines(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, break)`` for each physical line; ``break`` is ``"\\r\\n"``,
    ``"\\n"``, ``"\\r"`` or ``""`` (the last line, unterminated). A text ending with a
    break has no empty line after it."""
    out: list[tuple[int, int, str]] = []
    n = len(text)
    pos = 0
    find = text.find
    while pos < n:
        lf = find("\n", pos)
        cr = find("\r", pos, lf if lf >= 0 else n)
        if cr >= 0:
            if cr + 1 < n and text[cr + 1] == "\n":
                out.append((pos, cr, CRLF))
                pos = cr + 2
            else:
                out.append((pos, cr, "\r"))
                pos = cr + 1
        elif lf >= 0:
            out.append((pos, lf, "\n"))
            pos = lf + 1
        else:
            out.append((pos, n, ""))
            pos = n
    return out


def octets(text: str) -> int:
    """The length of ``text`` in UTF-8 octets (a lone surrogate counted as written)."""
    return len(text.encode("utf-8", "surrogatepass"))


def fold(line: str, limit: int = FOLD_OCTETS) -> str:
    """``line`` folded so that no physical line exceeds ``limit`` octets (a continuation
    line's leading space counted), never inside a UTF-8 character; CRLF and a space
    between the parts, none at the end."""
    if len(line) * 4 <= limit or octets(line) <= limit:
        return line
    out: list[str] = []
    start = 0
    size = 0
    room = limit
    for i, ch in enumerate(line):
        w = len(ch.encode("utf-8", "surrogatepass"))
        if size + w > room:
            out.append(line[start:i])
            start = i
            size = 0
            room = limit - 1  # the continuation's leading space
        size += w
    out.append(line[start:])
    return (CRLF + " ").join(out)


def split_unescaped(value: str, sep: str) -> list[str]:
    """``value`` split at each ``sep`` no backslash escapes (the escapes kept)."""
    parts: list[str] = []
    start = 0
    i = 0
    n = len(value)
    while i < n:
        ch = value[i]
        if ch == "\\":
            i += 2
            continue
        if ch == sep:
            parts.append(value[start:i])
            start = i + 1
        i += 1
    parts.append(value[start:])
    return parts


_UNESCAPE = {"n": "\n", "N": "\n", "\\": "\\", ",": ",", ";": ";"}


def unescape_text(value: str) -> str:
    """A text value with its backslash escapes decoded (``\\n`` newline, ``\\,``,
    ``\\;``, ``\\\\``); an unknown escape keeps its backslash."""
    if "\\" not in value:
        return value
    out: list[str] = []
    i = 0
    n = len(value)
    while i < n:
        j = value.find("\\", i)
        if j < 0 or j == n - 1:
            out.append(value[i:])
            break
        out.append(value[i:j])
        nxt = value[j + 1]
        out.append(_UNESCAPE.get(nxt, "\\" + nxt))
        i = j + 2
    return "".join(out)


def raw_backslashes(value: str, escapable: str = "\\;,nN") -> bool:
    """Some backslash in ``value`` escapes nothing (``C:\\Users``): the writer wrote
    backslashes as they are, so none of them is an escape (``\\notes`` is no newline)."""
    i = value.find("\\")
    while i >= 0:
        if i + 1 >= len(value) or value[i + 1] not in escapable:
            return True
        i = value.find("\\", i + 2)
    return False


def is_fence_line(line: str) -> bool:
    """``line`` (one logical line, no line break) is a Markdown fence line: up to three
    spaces, a run of three or more backticks or tildes, an info string or nothing
    (```` ``` ````, ```` ```ics ````, ``~~~``). No content line starts so, and a reply puts
    one around a payload, not inside a value."""
    return FENCE_LINE.match(line) is not None


def outside_think_blocks(text: str, lines: list[Line]) -> tuple[list[Line], list[Span]]:
    """``lines`` (``(start, end, ...)`` tuples into ``text``, in order) without those a
    ``<think>`` block covers whole, and the blocks that covered some, in order. One pass:
    a block that ends before a line's end covers no later line."""
    thinks = Reply.of(text).think_blocks()  # the caller's prepared reply, or one prepared here
    if not thinks:
        return lines, []
    kept: list[Line] = []
    covering: list[Span] = []
    at = 0
    for line in lines:
        start, end = line[0], line[1]
        while at < len(thinks) and thinks[at].end < end:
            at += 1
        if at < len(thinks) and thinks[at].start <= start:
            if not covering or covering[-1] != thinks[at]:
                covering.append(thinks[at])
            continue
        kept.append(line)
    return kept, covering
