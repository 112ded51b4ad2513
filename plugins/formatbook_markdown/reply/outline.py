"""The outline tree: headings of any level (ATX and setext) nested by level.

A heading of level L becomes a child of the nearest previous heading with a level < L,
otherwise a root (Flex-MD spec §6.1). Only top-level headings count: a ``#`` line inside a
code fence, a list item or a block quote is no heading (markdown-it decides).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..contract.names import normalize_section_name
from .blocks import Heading, Scan, label_lines, scan, with_labels


@dataclass(slots=True)
class MdNode:
    """One heading and what lies under it.

    ``title`` is the heading text as written (emphasis kept); ``content_md`` the Markdown
    between the heading and its first child heading; ``children`` the nested headings.
    ``key`` (a slug, unique in the outline) and the line/offset fields are internal: they
    are never rendered. ``line`` is the heading's first line, ``body_line`` the first line
    after it, ``end_line`` the end (exclusive) of the whole subtree; ``start``/``end`` the
    same subtree as offsets. ``label`` marks a paragraph line read as a heading (a bold
    label, ``##Name``), ``rest`` the text after a bold label on its line.
    """

    title: str
    level: int
    key: str
    content_md: str
    children: list[MdNode] = field(default_factory=list)
    line: int = 0
    body_line: int = 0
    end_line: int = 0
    start: int = 0
    end: int = 0
    label: bool = False
    id: str | None = None
    #: a bold label's text after it on its line: the first line of the content
    rest: str = ""

    def walk(self):
        """This node and every descendant, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: ``title``, ``level``, ``content_md`` and ``children``."""
        return {
            "title": self.title,
            "level": self.level,
            "content_md": self.content_md,
            "children": [c.to_json() for c in self.children],
        }


@dataclass
class MdOutline:
    """The outline of a document: root ``nodes`` and the ``preamble`` (text before the
    first heading, trimmed)."""

    nodes: list[MdNode]
    preamble: str = ""
    type: str = "md_outline"

    def walk(self):
        """Every node, in document order."""
        for node in self.nodes:
            yield from node.walk()

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: the ``preamble`` and the root ``nodes``."""
        return {"preamble": self.preamble, "nodes": [n.to_json() for n in self.nodes]}


_SLUG = re.compile(r"[^\w]+")


def trim_blank(text: str) -> str:
    """``text`` without leading and trailing blank lines and trailing white space (the
    first line's indentation is kept: it can be meaningful)."""
    lines = text.split("\n")
    first, last = 0, len(lines)
    while first < last and not lines[first].strip():
        first += 1
    while last > first and not lines[last - 1].strip():
        last -= 1
    return "\n".join(lines[first:last]).rstrip()


def _slug(title: str) -> str:
    return _SLUG.sub("-", normalize_section_name(title)).strip("-") or "section"


def outline_from(sc: Scan, heads: list[Heading]) -> MdOutline:
    """Build the tree from a scan and a list of headings (real ones and bold labels)."""
    total = len(sc.lines)
    roots: list[MdNode] = []
    stack: list[MdNode] = []
    seen: dict[str, int] = {}
    nodes: list[MdNode] = []
    for h in heads:
        base = _slug(h.raw)
        seen[base] = seen.get(base, 0) + 1
        key = base if seen[base] == 1 else f"{base}-{seen[base]}"
        node = MdNode(h.raw, h.level, key, "", line=h.line, body_line=h.end_line, label=h.label, rest=h.rest)
        nodes.append(node)
        while stack and stack[-1].level >= h.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    # a node's own content runs to the next heading; its subtree to the next heading of
    # the same or a shallower level
    open_nodes: list[MdNode] = []
    for idx, node in enumerate(nodes):
        nxt = nodes[idx + 1].line if idx + 1 < len(nodes) else total
        node.content_md = body_text(sc, node, nxt)
        while open_nodes and open_nodes[-1].level >= node.level:
            _close(sc, open_nodes.pop(), node.line)
        open_nodes.append(node)
    for node in open_nodes:
        _close(sc, node, total)
    first = heads[0].line if heads else total
    preamble = trim_blank(sc.slice(0, first).replace("\r\n", "\n").replace("\r", "\n"))
    return MdOutline(roots, preamble)


def body_text(sc: Scan, node: MdNode, end_line: int) -> str:
    """What lies under ``node``'s heading down to ``end_line``, trimmed: the text after a
    bold label on its line first, then the lines below."""
    if node.body_line >= end_line and not node.rest:
        return ""  # a heading right above the next (what trim_blank makes of nothing)
    below = sc.slice(node.body_line, end_line).replace("\r\n", "\n").replace("\r", "\n")
    return trim_blank(node.rest + "\n" + below if node.rest else below)


def _close(sc: Scan, node: MdNode, end: int) -> None:
    node.end_line = end
    node.start = sc.offset(node.line)
    node.end = sc.offset(end) if end < len(sc.lines) else len(sc.text)


def build_outline(md: str, spec: Any = None) -> MdOutline:
    """The outline tree of ``md``.

    With a ``spec`` (an ``OutputFormatSpec``), a paragraph that is only a bold label
    naming one of its sections (``**Reasoning:**``) is read as a heading, at the level
    most of the spec's headings use (2 when none is present). Non-strings give an empty
    outline.
    """
    if not isinstance(md, str):
        return MdOutline([])
    sc = scan(md)
    return outline_from(sc, spec_headings(sc, spec))


def outline_for(sc: Scan, spec: Any) -> MdOutline:
    """The outline of a scan read with ``spec`` (bold labels naming its sections are
    headings); cached on the scan, since the repair steps ask for it repeatedly."""
    cache = sc.__dict__.setdefault("_outlines", {})
    hit = cache.get(id(spec))
    if hit is not None and hit[0] is spec:
        return hit[1]
    outline = outline_from(sc, spec_headings(sc, spec))
    cache[id(spec)] = (spec, outline)
    return outline


def spec_headings(sc: Scan, spec: Any) -> list[Heading]:
    """The headings of ``sc``, plus bold labels naming sections of ``spec``."""
    if spec is None or not getattr(spec, "sections", None):
        return list(sc.headings)
    names = {normalize_section_name(s.name) for s in spec.sections}
    return with_labels(sc, names, section_level(sc.headings, names))


def relabelled(sc: Scan, spec: Any) -> str:
    """``sc``'s text with every label naming a section of ``spec`` written as an ATX
    heading (the text after a bold label on the next line), as the repair step writes
    them, so that block-level readings (counts) see the sections the outline sees."""
    if spec is None or not getattr(spec, "sections", None):
        return sc.text
    names = {normalize_section_name(s.name) for s in spec.sections}
    labels = label_lines(sc, names)
    if not labels:
        return sc.text
    level = section_level(sc.headings, names)
    pieces: list[str] = []
    pos = 0
    for lb in labels:
        ln = sc.lines[lb.line]
        pieces.append(sc.text[pos : ln.start])
        pieces.append(f"{'#' * (lb.level or level)} {lb.label}" + ("\n" + lb.rest if lb.rest else ""))
        pos = ln.end
    pieces.append(sc.text[pos:])
    return "".join(pieces)


def section_level(heads: list[Heading], names: set[str]) -> int:
    """The heading level the spec's sections use: the most common level among the
    headings that count (for each section name the occurrences at its shallowest level,
    as :func:`sections.chosen_nodes` reads them; bold labels left out), ties to the
    shallower level; 2 when no heading names a section. Deeper duplicates do not vote:
    they are sub-headings, and letting them vote would move the target each time the
    sections are moved to it."""
    top: dict[str, int] = {}
    for h in heads:
        if h.label:
            continue
        key = normalize_section_name(h.raw)
        if key in names:
            top[key] = min(top.get(key, 7), h.level)
    counts: dict[int, int] = {}
    for h in heads:
        if not h.label and top.get(normalize_section_name(h.raw)) == h.level:
            counts[h.level] = counts.get(h.level, 0) + 1
    if not counts:
        return 2
    return min(counts, key=lambda lv: (-counts[lv], lv))


def render_outline(outline: MdOutline) -> str:
    """Markdown for ``outline``: the preamble, then each heading (ATX, at its level) with
    its content and children. Keys, ids and offsets are never written."""
    if not isinstance(outline, MdOutline):
        return ""
    parts: list[str] = []
    if outline.preamble:
        parts.append(outline.preamble)

    def emit(node: MdNode) -> None:
        level = min(max(node.level, 1), 6)
        parts.append(f"{'#' * level} {node.title}".rstrip())
        if node.content_md:
            parts.append(node.content_md)
        for child in node.children:
            emit(child)

    for node in outline.nodes:
        emit(node)
    return "\n\n".join(parts) + ("\n" if parts else "")
