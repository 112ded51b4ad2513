"""Matching a reply's headings to the spec's sections.

Names match after :func:`~..contract.names.normalize_section_name` (case, trailing ``:`` and dashes,
emphasis, leading numbering). A paragraph that is only a bold label naming a section is
read as a heading (see :func:`outline.build_outline`). A name appearing more than once:
the occurrences at the shallowest level win and, when there are several, their contents
are merged in document order (``\\n\\n`` between them); deeper occurrences stay children
of whatever they are nested in.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field
from typing import Any

from ..contract.names import normalize_line, normalize_section_name
from .blocks import Scan
from .lists import ParsedList, parse_list
from .outline import MdNode, MdOutline, body_text
from .tables import ParsedTable, parse_tables


@dataclass
class SectionResult:
    """One spec section found in a reply: its Markdown (``md``, the heading left out,
    sub-headings kept), the outline node it came from (``node_key``, ``node_level``; the
    first one when duplicates were merged), its parsed list (list and ordered-list
    sections, or any section holding a list) and its first table."""

    md: str
    node_key: str
    node_level: int
    list: ParsedList | None = None
    table: ParsedTable | None = None
    #: the section holds only the contract's empty value (it counts nothing)
    empty: bool = False
    #: every outline node merged into this section (internal)
    nodes: builtins.list[MdNode] = field(default_factory=builtins.list, repr=False)  # `list` is a field here

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: ``md``, ``empty``, the parsed ``list`` and ``table`` (``null``
        when there is none)."""
        return {
            "md": self.md,
            "empty": self.empty,
            "list": self.list.to_json() if self.list is not None else None,
            "table": self.table.to_json() if self.table is not None else None,
        }


def _unwrap(s: str) -> str | None:
    """``s`` without one pair of wrapping marks (backticks, or one to three ``*``/``_``),
    ``None`` when it has none. A scan: the regular expression ``(`+)(.*)\1`` is cubic on
    a run of backticks."""
    if not s or s[0] not in "`*_":
        return None
    mark = s[0]
    lead = len(s) - len(s.lstrip(mark))
    trail = len(s) - len(s.rstrip(mark))
    width = min(lead, trail, len(s) // 2, 3 if mark != "`" else len(s))
    return s[width : len(s) - width] if width else None


def is_empty_value(md: str, empty_value: str | None) -> bool:
    """``md`` says only the empty value: ``None``, ``None.``, ```None```, ``*None*``
    (case-insensitive). Always false when the contract declares no empty value."""
    if empty_value is None:
        return False
    s = md.strip()
    for _ in range(3):
        inner = _unwrap(s)
        if inner is None:
            break
        s = inner.strip()
    s = s.rstrip(".").strip()
    return s.lower() == empty_value.strip().lower()


def node_body(sc: Scan, node: MdNode) -> str:
    """The Markdown under ``node``'s heading down to the end of its subtree, trimmed (a
    first line indented by fewer than four spaces loses its indentation)."""
    body = body_text(sc, node, node.end_line)
    indent = len(body) - len(body.lstrip(" "))
    return body[indent:] if 0 < indent < 4 else body


def group_nodes(outline: MdOutline) -> dict[str, list[MdNode]]:
    """Every node of the outline by normalised title, in document order."""
    groups: dict[str, list[MdNode]] = {}
    for node in outline.walk():
        groups.setdefault(normalize_section_name(node.title), []).append(node)
    return groups


def chosen_nodes(nodes: list[MdNode]) -> list[MdNode]:
    """The occurrences that count: those at the shallowest level, in document order."""
    if not nodes:
        return []
    top = min(n.level for n in nodes)
    return [n for n in nodes if n.level == top]


def orphaned_duplicates(sc: Scan, outline: MdOutline, spec: Any) -> list[tuple[str, MdNode, int]]:
    """Occurrences of a spec section that lose to a shallower one and stand under no
    heading, with content: ``(spec name, node, level of the occurrences that count)``.
    Shallowest wins (a deeper duplicate stays a child of what it is in), but one that is
    in nothing would be in no section at all: what is written under it would be lost."""
    out: list[tuple[str, MdNode, int]] = []
    if spec is None:
        return out
    roots = {id(n) for n in outline.nodes}
    groups = group_nodes(outline)
    empty_value = getattr(spec, "empty_section_value", None)
    for section in spec.sections:
        nodes = groups.get(normalize_section_name(section.name), [])
        if len(nodes) < 2:
            continue
        top = min(n.level for n in nodes)
        for n in nodes:
            if n.level > top and id(n) in roots:
                body = node_body(sc, n)
                if body.strip() and not is_empty_value(body, empty_value):
                    out.append((section.name, n, top))
    return out


def match_sections(sc: Scan, outline: MdOutline, spec: Any, parse: bool = True) -> dict[str, SectionResult]:
    """The spec's sections present in the outline, by the spec's names (``parse``:
    also parse each section's list and table)."""
    out: dict[str, SectionResult] = {}
    if spec is None:
        return out
    groups = group_nodes(outline)
    empty_value = getattr(spec, "empty_section_value", None)
    for section in spec.sections:
        nodes = chosen_nodes(groups.get(normalize_section_name(section.name), []))
        if not nodes:
            continue
        md = "\n\n".join(b for b in (node_body(sc, n) for n in nodes) if b)
        empty = is_empty_value(md, empty_value)
        parsed_list = None if empty or not parse else parse_list(md)
        tables = [] if empty or not parse else parse_tables(md, _source(sc, nodes))
        out[section.name] = SectionResult(
            md,
            nodes[0].key,
            nodes[0].level,
            parsed_list,
            tables[0] if tables else None,
            empty,
            nodes,
        )
    return out


def _source(sc: Scan, nodes: list[MdNode]) -> tuple[Scan, int] | None:
    """Where a section's text (:func:`node_body` of its one node) reads ``sc``'s lines:
    from the first line under the heading that is not blank (the line before it when a
    label's text opens it). A guess :func:`.tables.parse_tables` checks line by line."""
    if len(nodes) != 1:
        return None
    node = nodes[0]
    if node.rest:
        return sc, node.body_line - 1
    line = node.body_line
    while line < min(node.end_line, len(sc.lines)) and not sc.line_text(line).strip():
        line += 1
    return sc, line


_NAME_END = re.compile(r":| [-–—] ")


def naming_line(texts: list[str], keys: set[str]) -> str | None:
    """The first line of ``texts`` that names a section (``keys``: normalised names) at
    its start: ``Short answer: Yes.``, ``**Short answer**``, ``- Short answer - yes``,
    ``> ## Short answer``, ``## Short answer (TL;DR)`` (emphasis, quote and heading marks,
    list markers and numbering ignored; the name alone, before a colon or a dash, or
    before more words). ``None`` when no line does."""
    for text in texts:
        for line in text.splitlines():
            bare = line.replace("*", "").replace("_", " ").strip().lstrip("#>-+ \t").strip()
            if not bare:
                continue
            head = _NAME_END.split(bare, maxsplit=1)[0]
            if normalize_line(head) in keys or _starts_with_name(normalize_line(bare), keys):
                return line.strip()
    return None


def _starts_with_name(norm: str, keys: set[str]) -> bool:
    """``norm`` (a normalised line) is a name of ``keys`` alone or followed by more words
    after a word boundary: ``short answer (tl;dr)``, ``short answer yes.``; not
    ``short answers``."""
    for key in keys:
        if norm.startswith(key) and (len(norm) == len(key) or not (norm[len(key)].isalnum() or norm[len(key)] == "_")):
            return True
    return False


def unnamed_roots(sc: Scan, outline: MdOutline, spec: Any) -> list[MdNode]:
    """The top-level headings of the outline that name no section of ``spec`` and hold
    text of their own, before any sub-heading (``## Answer`` over ``Yes.``): where a
    missing section's text may stand."""
    names = {normalize_section_name(s.name) for s in getattr(spec, "sections", ())}
    return [n for n in outline.nodes if normalize_section_name(n.title) not in names and n.content_md.strip()]


def find_node(outline: MdOutline, name: str) -> list[MdNode]:
    """The chosen occurrences of any heading named ``name`` (spec or not)."""
    return chosen_nodes(group_nodes(outline).get(normalize_section_name(name), []))
