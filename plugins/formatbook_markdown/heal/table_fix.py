"""Step 9: tables and empty sections.

From L1 on: a table whose separator row has the wrong number of cells gets one cell per
header cell (existing alignments kept; this part runs right after step 3, see
:func:`fix_table_separators`); a section that is present but empty gets the
empty value written into it (repair kind ``"empty_value"``); a required table that is
absent (``tables_optional`` false) is an issue ``markdown.missing_table``.
At L3: every table must have the columns of a declared table (same names, any order,
case-insensitive; ``#`` ignored), else an issue ``markdown.table_columns``; an ordered
table gets a first ``#`` column numbered 1..N (added, moved first, or renumbered); when
its ``#`` cells hold text rather than numbers, renumbering would drop that text, so it is
an issue ``markdown.table_order`` instead.
"""

from __future__ import annotations

import re

from ..reply.blocks import scan
from ..reply.outline import outline_for
from ..reply.sections import match_sections
from ..reply.tables import TableBlock, find_tables, format_row, format_separator
from .state import RepairState, edit_lines

_NUMBER = re.compile(r"\d{1,9}\.?")


def _columns_key(cells: list[str]) -> frozenset[str]:
    return frozenset(c.strip().lower() for c in cells if c.strip() != "#")


def _declared(st: RepairState, block: TableBlock):
    key = _columns_key(block.header)
    for table in getattr(st.spec, "tables", None) or []:
        if _columns_key(table.columns) == key:
            return table
    return None


def fix_table_separators(st: RepairState) -> None:
    """Give each separator row as many cells as its header (L1+).

    Part of step 9, but run right after step 3: markdown-it reads a table with a broken
    separator as a paragraph (a setext heading when ``---`` follows), so the fix changes
    which headings the text has, and every step that reads headings must see the text
    as it will be."""
    if st.level < 1 or "|" not in st.body:
        return
    sc = scan(st.body)
    edits: list[tuple[int, int, str | None]] = []
    for block in find_tables(sc):
        if block.separator_ok:
            continue
        n = len(block.header)
        aligns = (block.aligns + ["---"] * n)[:n]
        edits.append((block.line + 1, block.line + 2, format_separator(aligns, block.outer_pipes)))
        st.repair(
            "table_separator",
            f"gave the separator row of the table {block.header!r} {n} cell(s) instead of {len(block.aligns)}",
            sc.line_text(block.line + 1),
        )
    if edits:
        st.body = edit_lines(sc, edits)


def repair_tables(st: RepairState) -> None:
    """Step 9: declared tables checked, ``#`` columns numbered, empty sections filled
    (separators were fixed by :func:`fix_table_separators`)."""
    if st.level < 1 or st.spec is None:
        return
    _check_declared(st)
    _fill_empty(st)


def _check_declared(st: RepairState) -> None:
    declared = list(getattr(st.spec, "tables", None) or [])
    sc = scan(st.body)
    blocks = find_tables(sc)
    if declared and not getattr(st.spec, "tables_optional", True):
        present = {_columns_key(b.header) for b in blocks}
        for table in declared:
            if _columns_key(table.columns) not in present:
                st.issue("markdown.missing_table", f"the required table ({', '.join(table.columns)}) is missing")
    if st.level < 3 or not declared:
        return
    edits: list[tuple[int, int, str | None]] = []
    for block in blocks:
        table = _declared(st, block)
        if table is None:
            wanted = " or ".join("(" + ", ".join(t.columns) + ")" for t in declared)
            st.issue(
                "markdown.table_columns",
                f"the table ({', '.join(block.header)}) does not have the declared columns {wanted}",
            )
            continue
        if table.kind != "ordered_table":
            continue
        header = list(block.header)
        rows = [list(r) for r in block.rows]
        width = len(header)
        rows = [(r + [""] * width)[:width] if len(r) < width else r for r in rows]
        if "#" in [h.strip() for h in header]:
            at = [h.strip() for h in header].index("#")
            if at != 0:
                header.insert(0, header.pop(at))
                rows = [[r.pop(at) if at < len(r) else ""] + r for r in rows]
        else:
            header.insert(0, "#")
            rows = [[""] + r for r in rows]
        texts = [r[0].strip() for r in rows if r[0].strip() and not _NUMBER.fullmatch(r[0].strip())]
        if texts:
            # renumbering would overwrite them: nothing is dropped silently
            st.issue(
                "markdown.table_order",
                f"the '#' column of the ordered table ({', '.join(table.columns)}) holds text ({texts[0]!r}), not numbers",
            )
            continue
        numbered = [[str(k)] + r[1:] for k, r in enumerate(rows, start=1)]
        if header == block.header and numbered == block.rows:
            continue
        aligns = ["---", *block.aligns[: len(header) - 1]]
        aligns = (aligns + ["---"] * len(header))[: len(header)]
        lines = [format_row(header), format_separator(aligns)] + [format_row(r) for r in numbered]
        edits.append((block.line, block.end_line, "\n".join(lines)))
        st.repair(
            "table_numbered",
            f"numbered the ordered table ({', '.join(table.columns)}) in a first '#' column 1..{len(rows)}",
            sc.line_text(block.line),
        )
    if edits:
        st.body = edit_lines(sc, edits)


def _fill_empty(st: RepairState) -> None:
    empty = st.empty_value
    if empty is None or not st.sections:
        return
    sc = scan(st.body)
    found = match_sections(sc, outline_for(sc, st.spec), st.spec, parse=False)
    edits: list[tuple[int, int, str | None]] = []
    for section in st.sections:
        result = found.get(section.name)
        if result is None or result.md.strip():
            continue
        node = result.nodes[0]
        heading = sc.slice(node.line, node.body_line).rstrip("\r\n")
        # a blank line after the value too: text right below would otherwise join its
        # paragraph (or turn it into a setext heading) and leave the section empty again
        follows = node.body_line < len(sc.lines) and sc.line_text(node.body_line).strip()
        edits.append((node.line, node.body_line, f"{heading}\n\n{empty}" + ("\n" if follows else "")))
        st.repair("empty_value", f"wrote {empty!r} into the empty section {section.name!r}", None, section.name)
    if edits:
        st.body = edit_lines(sc, edits)
