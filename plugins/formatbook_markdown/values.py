"""The data a Markdown reply carries, without its syntax (what counts are made on).

Each block gives one value: a paragraph, a list item's paragraph, a table cell, the
content of a code block, a heading. Emphasis, code backticks, link targets, list
markers and table pipes are left out. With a spec: headings are structure and give
nothing, text before the first heading (the preamble) gives nothing, and a section
holding only the empty value gives nothing. Without a spec: every block, headings
included.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from .contract.names import normalize_section_name
from .reply.blocks import paused_gc, scan
from .reply.body import container_body
from .reply.outline import outline_for, relabelled
from .reply.sections import find_node, match_sections

_IMAGE = re.compile(r"!\[([^\[\]\n]*)\]\([^()\n]*\)")
_LINK = re.compile(r"\[([^\[\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)")
_REF_LINK = re.compile(r"\[([^\[\]\n]+)\]\[[^\[\]\n]*\]")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]*)>", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_MARKS = re.compile(r"\*+|~~|`+|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])")


def _drop_comments(text: str) -> str:
    """``text`` without ``<!-- ... -->`` comments (linear: an unclosed one ends the search)."""
    if "<!--" not in text:
        return text
    out: list[str] = []
    pos = 0
    while True:
        start = text.find("<!--", pos)
        if start < 0:
            break
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out.append(text[pos:start])
        pos = end + 3
    out.append(text[pos:])
    return "".join(out)


def strip_inline(md: str) -> str:
    """Inline Markdown without its syntax: images give their alt text, links their
    text, autolinks their address; tags, emphasis and strikethrough markers, code
    backticks and backslash escapes are dropped; line breaks become spaces. Regular
    expressions, not a full inline parse: linear and fast on megabytes (markdown-it's
    inline parser costs ~20 µs a character), at the price of odd cases (an ``*`` used
    as a multiplication sign disappears)."""
    if not md:
        return ""
    text = _IMAGE.sub(r"\1", md)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub("", _drop_comments(text))
    text = _ESCAPE.sub(lambda m: "\x00" + m.group(1), text)  # shield escaped marks
    text = _MARKS.sub("", text)
    text = text.replace("\x00", "")
    return _join_lines(text)


def _join_lines(text: str) -> str:
    """``text`` with each line break (and a hard break's ``\\`` or trailing spaces before
    it, the indentation after it) turned into one space. A scan: the regular expression
    ``(?:\\|  +)?\r?\n[ \t]*`` is quadratic on spaces inside a line."""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        if i:
            line = line.lstrip(" \t")
        if i < len(lines) - 1:
            if line.endswith("\r"):
                line = line[:-1]
            if line.endswith("\\"):
                line = line[:-1]
            elif line.endswith("  "):
                line = line.rstrip(" ")
        out.append(line)
    return " ".join(out)


def block_values(
    md: str,
    *,
    headings: bool = True,
    skip_lines: set[int] | None = None,
    only: list[tuple[int, int]] | None = None,
) -> list[str]:
    """One value per block of ``md`` (white-space-only values left out).

    ``headings``: include heading text. ``skip_lines``: blocks starting on these lines
    give nothing. ``only``: keep blocks starting in one of these line ranges (sorted,
    disjoint; one pass over the blocks whatever their number).
    """
    if not md.strip():
        return []
    sc = scan(md)
    # each inline token's text without its syntax, kept on the scan: the verbs of one
    # reply (values, scopes, a checker's finish) ask about the same scanned text
    stripped: dict[int, str] = sc.__dict__.setdefault("_stripped", {})
    out: list[str] = []
    skip_lines = skip_lines or set()
    for at, tok in enumerate(sc.tokens):
        kind = tok.type
        if kind == "heading_open":  # the scan's record of a heading holds its text
            if not headings:
                continue
        elif kind not in ("inline", "fence", "code_block"):
            continue
        line = tok.line
        if line is not None:
            if line in skip_lines:
                continue
            if only is not None and not _in_ranges(only, line):
                continue
        if kind in ("inline", "heading_open"):
            value = stripped.get(at)
            if value is None:
                value = stripped[at] = strip_inline(tok.content)
        else:
            value = tok.content
        if value.strip():
            out.append(value)
    return out


def _prepared(text: str, spec: Any):
    # labels written as headings: a label's paragraph is then split where the outline
    # splits it (a label mid-paragraph, the text after a label)
    body = relabelled(scan(container_body(text)), spec)
    sc = scan(body)
    outline = outline_for(sc, spec)
    return body, sc, outline


def extract_values(text: str, spec: Any = None) -> list[str]:
    """The values of a reply (inside its container when it is one fenced Markdown
    block): see the module docstring."""
    with paused_gc():  # see paused_gc: many acyclic objects
        return _extract_values(text, spec)


def _extract_values(text: str, spec: Any) -> list[str]:
    body, sc, outline = _prepared(text, spec)
    if spec is None or not getattr(spec, "sections", None):
        return block_values(body)
    skip: set[int] = set()
    first = min((n.line for n in outline.nodes), default=len(sc.lines))
    skip.update(range(0, first))  # the preamble
    for result in match_sections(sc, outline, spec, parse=False).values():
        if result.empty:
            for node in result.nodes:
                skip.update(range(node.body_line, node.end_line))
    return block_values(body, headings=False, skip_lines=skip)


def extract_scope(text: str, scope: str, spec: Any = None) -> list[str] | None:
    """The values of the section named ``scope`` (a spec section, else any heading),
    or ``None`` when the reply has no such section. A section holding only the empty
    value gives ``[]``, and so does an optional spec section the reply leaves out."""
    with paused_gc():  # see paused_gc: many acyclic objects
        return _extract_scope(text, scope, spec)


def _extract_scope(text: str, scope: str, spec: Any) -> list[str] | None:
    body, sc, outline = _prepared(text, spec)
    key = normalize_section_name(scope)
    if spec is not None:
        for name, result in match_sections(sc, outline, spec, parse=False).items():
            if normalize_section_name(name) == key:
                if result.empty:
                    return []
                return _values_of(body, result.nodes)
    nodes = find_node(outline, scope)
    if not nodes:
        # an optional section the reply leaves out has nothing to count
        optional = any(normalize_section_name(s.name) == key and not s.required for s in _sections(spec))
        return [] if optional else None
    return _values_of(body, nodes)


def _sections(spec: Any) -> list[Any]:
    return list(getattr(spec, "sections", None) or []) if spec is not None else []


def _values_of(body: str, nodes: list[Any]) -> list[str]:
    # the chosen occurrences of a name are disjoint and in document order
    return block_values(body, headings=False, only=[(n.body_line, n.end_line) for n in nodes])


def _in_ranges(ranges: list[tuple[int, int]], line: int) -> bool:
    at = bisect_right(ranges, (line, float("inf"))) - 1
    return at >= 0 and ranges[at][0] <= line < ranges[at][1]
