"""Lexing Flex-MD lines: frame headers (``[[type key=value]]``), ``@key:`` meta and
``@payload:name:`` lines, and fence lines."""

from __future__ import annotations

import re
from dataclasses import dataclass

from formatbook_core.reply import FENCE_LINE
from formatbook_core.runs import run

_HEADER_START = re.compile(r"^ {0,3}(?:(#{1,6})[ \t]+)?\[\[")
TYPE = re.compile(r"[A-Za-z_][\w.:-]*")
KEY = re.compile(r"[A-Za-z_][\w.-]*")
BARE_VALUE = re.compile(r"[^\s\"'\]]+(?:\](?!\])[^\s\"'\]]*)*")
_WS = run(r"[ \t]*")
META = re.compile(r"^@([A-Za-z_][\w.-]*):(?:[ \t]|$)")
PAYLOAD = re.compile(r"^@payload:name:[ \t]*")
_QUOTED_D = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_QUOTED_S = re.compile(r"'((?:[^'\\]|\\.)*)'", re.DOTALL)
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)


class HeaderError(Exception):
    """A line that starts like a frame header and is broken. ``strong`` when it holds a
    ``key=value`` pair (surely meant as a header, not a ``[[wiki link]]``)."""

    def __init__(self, code: str, message: str, strong: bool = True):
        super().__init__(message)
        self.code = code
        self.strong = strong


@dataclass
class Header:
    type: str
    attrs: list[tuple[str, str, bool]]  # key, value, quoted
    title: str | None


def read_header(line: str) -> Header | None:
    """The header on ``line``, ``None`` when the line is no header attempt; raises
    ``HeaderError`` for a line that starts like a header and is broken."""
    m = _HEADER_START.match(line)
    if m is None:
        return None
    heading = m.group(1) is not None
    pos = m.end()
    tm = TYPE.match(line, pos)
    if tm is None:
        return None  # "[[ ...", "[[1]]", a wiki link to nothing: not a frame attempt
    ftype = tm.group(0)
    pos = tm.end()
    attrs: list[tuple[str, str, bool]] = []
    n = len(line)
    while True:
        ws = _WS.match(line, pos)
        sep = ws.end() > pos
        pos = ws.end()
        if line.startswith("]]", pos):
            pos += 2
            break
        if pos >= n:
            raise HeaderError("unterminated_frame", f"frame header [[{ftype} ... has no closing ']]'")
        strong = bool(attrs) or "=" in line[pos:]
        if not sep:
            raise HeaderError(
                "bad_frame_header", f"unexpected {line[pos]!r} in the frame header at column {pos + 1}", strong
            )
        km = KEY.match(line, pos)
        if km is None or not line.startswith("=", km.end()):
            raise HeaderError("bad_frame_header", f"expected key=value in the frame header at column {pos + 1}", strong)
        key = km.group(0)
        pos = km.end() + 1
        if pos < n and line[pos] in "\"'":
            qm = (_QUOTED_D if line[pos] == '"' else _QUOTED_S).match(line, pos)
            if qm is None:
                raise HeaderError("unterminated_frame", f"unterminated quoted value for {key!r} in the frame header")
            attrs.append((key, _UNESCAPE.sub(r"\1", qm.group(1)), True))
            pos = qm.end()
        else:
            vm = BARE_VALUE.match(line, pos)
            value = vm.group(0) if vm else ""
            attrs.append((key, value, False))
            pos = vm.end() if vm else pos
    rest = line[pos:].strip()
    if heading:
        return Header(ftype, attrs, rest or None)
    if rest:
        return None  # "[[Page]] is a wiki link" in prose: not a frame header
    return Header(ftype, attrs, None)


def fence_open(line: str) -> tuple[str, int] | None:
    """``(marker char, length)`` when ``line`` opens a fence, else ``None``."""
    m = FENCE_LINE.match(line)
    if m is None:
        return None
    marker = m.group(2)
    if marker[0] == "`" and "`" in m.group(3):
        return None  # a backtick fence's info string holds no backtick (CommonMark)
    return marker[0], len(marker)


def fence_closes(line: str, char: str, length: int) -> bool:
    """``line`` closes a fence opened with ``length`` × ``char``."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(char))
    return run >= length and not stripped[run:].strip()


def fence_info(line: str) -> str | None:
    """The first word of an opening fence's info string (``None`` when empty)."""
    m = FENCE_LINE.match(line)
    info = m.group(3).strip().split(maxsplit=1) if m else []
    return info[0] if info else None
