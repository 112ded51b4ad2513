"""Lists nested by indentation: bullets ``-`` ``*`` ``+``, numbers ``1.`` and ``1)``.

Models indent nested items by 2, 3 or 4 spaces whatever the marker width, so nesting
follows indentation alone (an item indented more than the previous item is its child),
not CommonMark's content-column rule. Lines inside code fences are never items.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .blocks import code_lines_of, scan

_ITEM = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$")
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")


@dataclass
class ListItem:
    """One item: its ``text`` (inline Markdown, continuation lines joined by a space),
    ``index`` (the number of an ordered item), ``children``; ``marker`` (``-``, ``+``,
    ``1.``, ``2)``...), ``line`` (relative to the parsed text), ``indent`` and ``list_id``
    (which run of items it belongs to) are for the repair plan."""

    text: str
    index: int | None = None
    children: list[ListItem] = field(default_factory=list)
    marker: str = "-"
    line: int = 0
    indent: int = 0
    list_id: int = 0

    @property
    def ordered(self) -> bool:
        return self.marker[0].isdigit()

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: ``text``, ``marker``, ``index`` (``null`` for a bullet) and
        ``children``."""
        return {
            "text": self.text,
            "marker": self.marker,
            "index": self.index,
            "children": [c.to_json() for c in self.children],
        }


@dataclass
class ParsedList:
    """The items of a section's lists; ``ordered`` when every top-level item is numbered."""

    items: list[ListItem]
    ordered: bool
    kind: str = "list"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: ``ordered`` and the ``items`` tree."""
        return {"ordered": self.ordered, "items": [i.to_json() for i in self.items]}


def _indent(ws: str) -> int:
    return len(ws.expandtabs(4))


def item_match(line: str) -> re.Match[str] | None:
    """The list-item match of ``line`` (not a thematic break such as ``- - -``)."""
    if _BREAK.match(line):
        return None
    return _ITEM.match(line)


def parse_list(md: str) -> ParsedList | None:
    """Every list item of ``md`` as a tree, or ``None`` when it holds no list item."""
    if not isinstance(md, str) or not md:
        return None
    read = code_lines_of(md)
    if read is None:
        sc = scan(md)
        read = sc.lines, sc.code_lines
    lines, code_lines = read
    roots: list[ListItem] = []
    stack: list[ListItem] = []
    list_id = 0
    in_list = False
    blank_before = False
    for i in range(len(lines)):
        line = lines.text(md, i)
        if i in code_lines:
            blank_before = False
            continue
        if not line.strip():
            blank_before = True
            continue
        m = item_match(line)
        if m is not None:
            indent = _indent(m.group(1))
            marker = m.group(2)
            item = ListItem(
                (m.group(3) or "").strip(),
                int(marker[:-1]) if marker[0].isdigit() else None,
                marker=marker,
                line=i,
                indent=indent,
            )
            while stack and stack[-1].indent >= indent:
                stack.pop()
            if stack:
                item.list_id = stack[-1].list_id
                stack[-1].children.append(item)
            else:
                if not in_list:
                    list_id += 1
                item.list_id = list_id
                roots.append(item)
            stack.append(item)
            in_list = True
            blank_before = False
            continue
        indent = _indent(line[: len(line) - len(line.lstrip())])
        if stack and (indent > stack[-1].indent or not blank_before) and not line.lstrip().startswith(("#", "|", ">")):
            # a continuation line (indented, or lazy right after the item)
            stack[-1].text = f"{stack[-1].text} {line.strip()}".strip()
        elif stack and indent > 0 and indent > stack[0].indent:
            pass  # indented content of an item (a quote, a table): not item text
        else:
            stack = []
            in_list = False
        blank_before = False
    if not roots:
        return None
    return ParsedList(roots, all(item.ordered for item in roots))
