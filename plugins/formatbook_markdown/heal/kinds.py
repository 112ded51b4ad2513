"""Step 8 (L3): list sections use ``-`` bullets and ordered-list sections numbered items
``N.``: a numbered item keeps the model's number (``3.``, ``4.`` stay; ``1)`` becomes
``1.``), a bullet is numbered after the item before it in its list (from ``1.``; markdown-it's
lists; adjacent ones that differ only by their markers count as one). Only a section's top-level items change — those that
both the indentation reading (``reply.lists.parse_list``) and markdown-it take as top-level
items (``2. x`` or ``    - x`` continuing a paragraph is text); nested items keep their
markers. When a marker changes width, the item's indented lines (markdown-it's extent; a
lazy line at column 0 stays) move with its content column; when a narrower marker would
pull the indented line after the item into it, the spaces after the marker take up the
change instead (``2. a`` becomes ``-  a``). A list section holding no list item at all
(and neither the empty value nor blank, when step 9 will write the empty value into it)
cannot be converted: an issue ``markdown.section_kind``."""

from __future__ import annotations

import re

from ..contract.names import normalize_section_name
from ..reply.blocks import Scan, scan
from ..reply.lists import item_match, parse_list
from ..reply.outline import outline_for
from ..reply.sections import match_sections
from .state import RepairState, edit_lines

_LIST_OPEN = ("bullet_list_open", "ordered_list_open")
_NUMBERED = re.compile(r"([0-9]{1,9})[.)]")
_LIST_CLOSE = ("bullet_list_close", "ordered_list_close")


def _items(sc: Scan) -> tuple[dict[int, int], dict[int, int]]:
    """For each line where markdown-it starts a top-level list item (in a list at the top
    level of the document): the item's end line, and the list it will belong to once
    converted. That is markdown-it's list, except that lists
    at the same depth with only blank lines between them are one: they differ only by
    their markers (``-`` then ``+``, ``1.`` then ``1)``), which conversion makes equal."""
    ends: dict[int, int] = {}
    groups: dict[int, int] = {}
    last: dict[int, tuple[int, int]] = {}  # token level -> (end line, group) of the last list closed there
    stack: list[tuple[int, int]] = []  # (group, end line) of the open lists
    count = 0
    for tok in sc.tokens:
        if tok.type in _LIST_OPEN and tok.line is not None:
            prev = last.get(tok.level)
            if prev is not None and not sc.slice(prev[0], tok.line).strip():
                group = prev[1]
            else:
                count += 1
                group = count
            stack.append((group, tok.end))
        elif tok.type in _LIST_CLOSE and stack:
            group, end = stack.pop()
            last[tok.level] = (end, group)
        elif tok.type == "list_item_open" and tok.line is not None and stack and tok.level == 1:
            ends.setdefault(tok.line, tok.end)
            groups.setdefault(tok.line, stack[-1][0])
    return ends, groups


def _absorbs(sc: Scan, after: int, column: int) -> bool:
    """The first non-blank line from ``after`` on is indented to ``column`` or more (so an
    item whose content starts at ``column`` would take it in)."""
    for j in range(after, len(sc.lines)):
        text = sc.line_text(j)
        if text.strip():
            return len(text) - len(text.lstrip(" ")) >= column
    return False


def convert_list_kinds(st: RepairState) -> None:
    """Convert list markers to the declared kinds."""
    if st.level < 3 or not st.sections:
        return
    sc = scan(st.body)
    outline = outline_for(sc, st.spec)
    found = match_sections(sc, outline, st.spec, parse=False)
    names = set(st.names)
    item_ends, groups = _items(sc)
    edits: list[tuple[int, int, str | None]] = []
    for section in st.sections:
        if section.kind not in ("list", "ordered_list") or section.name not in found:
            continue
        result = found[section.name]
        if result.empty or (not result.md.strip() and st.empty_value is not None):
            continue  # a blank section gets the empty value in step 9
        want_ordered = section.kind == "ordered_list"
        changed = 0
        any_items = False
        for node in result.nodes:
            # lines of nested spec sections belong to those sections
            excluded: set[int] = set()
            for child in node.walk():
                if child is not node and normalize_section_name(child.title) in names:
                    excluded.update(range(child.line, child.end_line))
            first, end = node.body_line, node.end_line
            parsed = parse_list(sc.slice(first, end))
            if parsed is None:
                continue
            counters: dict[int, int] = {}
            # only items that both readings take as top-level items: the indentation one
            # (parse_list, which the extraction uses) and markdown-it's ('2. x' continuing a
            # paragraph is text; '  - x' after a lazy line is nested): converting any other
            # would renumber real items or move an item in or out of a list
            roots = [it for it in parsed.items if first + it.line not in excluded and first + it.line in item_ends]
            any_items = any_items or bool(roots)
            for k, item in enumerate(roots):
                line_no = first + item.line
                group = groups[line_no]
                number = _NUMBERED.fullmatch(item.marker)
                # the model's numbers are kept (``3.``, ``4.`` go on a list begun earlier;
                # ``1)`` becomes ``1.``): a bullet is numbered after the item before it
                counters[group] = int(number.group(1)) if number else counters.get(group, 0) + 1
                marker = f"{counters[group]}." if want_ordered else "-"
                if item.marker == marker:
                    continue
                changed += 1
                line = sc.line_text(line_no)
                m = item_match(line)
                if m is None:
                    continue
                delta = len(marker) - len(item.marker)
                gap = line[m.end(2) : m.start(3)] if m.group(3) else ""
                if (
                    delta < 0
                    and _absorbs(sc, item_ends[line_no], m.end(2) + (len(gap) if 1 <= len(gap) <= 4 else 1) + delta)
                    and gap.strip(" ") == ""
                    and 1 <= len(gap) - delta <= 4
                ):
                    # a narrower marker would pull the indented line after the item into
                    # it: the spaces after the marker take up the change instead, so the
                    # content column stays where it was
                    edits.append(
                        (
                            line_no,
                            line_no + 1,
                            line[: m.start(2)] + marker + " " * (len(gap) - delta) + line[m.start(3) :],
                        )
                    )
                    continue
                edits.append((line_no, line_no + 1, line[: m.start(2)] + marker + line[m.end(2) :]))
                # the item's lines (markdown-it's extent) move with its content column; a
                # lazy continuation line at column 0 stays where it is
                stop = min(first + roots[k + 1].line if k + 1 < len(roots) else end, item_ends[line_no])
                for j in range(line_no + 1, stop):
                    text = sc.line_text(j)
                    if not text.strip() or j in excluded or not text[:1].isspace():
                        continue
                    if delta > 0:
                        edits.append((j, j + 1, " " * delta + text))
                    else:
                        cut = min(-delta, len(text) - len(text.lstrip(" ")))
                        if cut:
                            edits.append((j, j + 1, text[cut:]))
        if changed:
            kind = "numbered items" if want_ordered else "'-' bullets"
            st.repair("list_kind", f"converted {changed} item(s) of {section.name!r} to {kind}", None, section.name)
        elif not any_items:
            what = "a numbered list" if want_ordered else "a bulleted list"
            alt = f" (or {st.empty_value!r} when empty)" if st.empty_value is not None else ""
            st.issue("markdown.section_kind", f"the section {section.name!r} must be {what}{alt}", section.name)
    if edits:
        st.body = edit_lines(sc, edits)
