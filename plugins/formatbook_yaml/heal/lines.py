"""The line pass of healing: tabs used as indentation, stray document markers, plain
scalars that break the parse (quoted). One pass over the lines, edits listed with spans
into the text as received."""

from __future__ import annotations

import re

from .state import AFTER_LINES, Healing

# "key: value" or "- key: value" with a plain value: groups are the text up to the
# value, and the value (linear: the key holds no ": ", the value runs to the line end;
# the indent comes once, before the dashes: "(?:[ ]*-[ ]+)*" split the spaces between two
# dashes two ways each, 2**n tries on "- -  -  - ... b")
_KEY_VALUE = re.compile(r"([ ]*(?:-[ ]+)*(?:[^\s#:\-\"'\[\]{}&*!|>][^:\n]*?|-[^\s:][^:\n]*?)[ ]*:[ ]+)([^\n]*)")
_BLOCK_HEADER = re.compile(r"[^#]*:[ \t]*[|>][0-9+\-]*[ \t]*(?:#.*)?|[ \t]*-[ \t]+[|>][0-9+\-]*[ \t]*(?:#.*)?")
_RESERVED = "@`%"
_GLUED_HASH = re.compile(r" #[^\W_]")
TAB_WIDTH = 2


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _apostrophes_only(inner: str) -> bool:
    """Every ``'`` in ``inner`` sits between two letters: apostrophes (``it's``)."""
    at = inner.find("'")
    while at >= 0:
        if not (0 < at < len(inner) - 1 and inner[at - 1].isalpha() and inner[at + 1].isalpha()):
            return False
        at = inner.find("'", at + 1)
    return True


def _requote(value: str) -> str:
    """``value`` single-quoted; ``'it's broken'`` — a single-quoted value whose apostrophe
    was not doubled — keeps its quotes as quotes (the value is ``it's broken``)."""
    if len(value) > 2 and value[0] == value[-1] == "'" and _apostrophes_only(value[1:-1]):
        return _quote(value[1:-1])
    return _quote(value)


def _needs_quotes(value: str) -> bool:
    """A plain value that cannot be read as written: it holds ': ' (or ends with ':'),
    ' #' glued to text ("Issue #42"), starts with a reserved indicator or with a quoted
    part followed by more text ('"Hello" world'), or is Markdown emphasis read as an
    alias ("*important*")."""
    v = value.rstrip()
    if not v:
        return False
    first = v[0]
    if first in "\"'":
        end = _quote_end(v)
        rest = v[end:].strip() if end > 0 else ""
        return bool(rest) and not rest.startswith("#")
    if first in "[{|>&!#":
        return False
    if first in _RESERVED:
        return True
    if first == "*":
        return v.endswith("*") or " " in v
    if _GLUED_HASH.search(v):
        return True
    head = v.split(" #", 1)[0]
    return ": " in head or head.endswith(":") or head.startswith(("]", "}", ","))


def _quote_end(v: str) -> int:
    """The offset after the quoted scalar opening ``v`` (-1: not closed on the line)."""
    q = v[0]
    j = 1
    while j < len(v):
        if q == '"' and v[j] == "\\":
            j += 2
            continue
        if v[j] == q:
            if q == "'" and j + 1 < len(v) and v[j + 1] == "'":
                j += 2
                continue
            return j + 1
        j += 1
    return -1


def repair_lines(h: Healing) -> None:
    text = h.text
    edits: list[tuple[int, int, str]] = []
    pos = 0
    block_parent: int | None = None  # indent of the line that opened a block scalar
    lines = text.split("\n")
    content_after = [False] * (len(lines) + 1)
    for i in range(len(lines) - 1, -1, -1):
        stripped = lines[i].strip()
        content_after[i] = content_after[i + 1] or (
            bool(stripped) and not stripped.startswith("#") and stripped not in ("---", "...")
        )
    seen_content = False
    for i, line in enumerate(lines):
        start = pos
        pos += len(line) + 1
        body = line.rstrip("\r")
        stripped = body.strip()
        lead_len = len(body) - len(body.lstrip(" \t"))
        ind = len(body) - len(body.lstrip(" "))
        if block_parent is not None:
            if not stripped or (lead_len > block_parent and "\t" not in body[:lead_len]):
                continue
            if lead_len > block_parent:
                continue
            block_parent = None
        if stripped in ("---", "...") and body.startswith(stripped):
            stray = (stripped == "..." and not content_after[i + 1]) or (
                stripped == "---"
                and (not content_after[i + 1] or (not seen_content and i > 0 and _only_markers(lines[:i])))
            )
            if stray:
                h.repair("stray_marker", f"removed a stray document marker {stripped!r}", start, start + len(body))
                if not content_after[i + 1] and start > 0:  # at the end: its line break before it too
                    edits.append((start - 1, start + len(line), ""))
                else:
                    edits.append((start, min(pos, len(text)), ""))
            continue
        if stripped and not stripped.startswith("#"):
            seen_content = True
        shift = 0
        if "\t" in body[:lead_len] and stripped and not stripped.startswith("#"):
            fixed = body[:lead_len].replace("\t", " " * TAB_WIDTH)
            h.repair("tab_indentation", "replaced tabs used as indentation with spaces", start, start + lead_len)
            edits.append((start, start + lead_len, fixed))
            shift = len(fixed) - lead_len
            body = fixed + body[lead_len:]
            ind = len(fixed)
        m = _KEY_VALUE.fullmatch(body)
        if m is not None and _needs_quotes(m.group(2)):
            value = m.group(2).rstrip()
            vstart = start + m.start(2) - shift  # in the text as it was
            h.repair(
                "quoted_scalar",
                "quoted a plain value holding ': ' or a reserved indicator",
                vstart,
                vstart + len(value),
            )
            quoted = _requote(value)
            edits.append((vstart, vstart + len(value), quoted))
            body = m.group(1) + quoted
        if _BLOCK_HEADER.fullmatch(body):
            block_parent = ind
    h.edit(edits, ahead=AFTER_LINES)
    h.reread()


def _only_markers(lines: list[str]) -> bool:
    return all(
        not x.strip() or x.strip().startswith("#") or x.strip() in ("---", "...") or x.startswith("%") for x in lines
    )
