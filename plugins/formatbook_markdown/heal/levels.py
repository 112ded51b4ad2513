"""Step 5: the spec's sections share one heading level.

The level is the one most section headings use (ties go to the shallower level). A
section heading at another level is moved to it, and the headings nested under it move
by the same amount (kept within 1..6), so its sub-headings stay its children. Only the
occurrences that count are moved (the shallowest of a repeated name); a deeper duplicate
that would end up at the common level or above (it was not nested under a section that
moved with it) goes one level below it, so it stays a sub-heading and the step is
idempotent. Applies from L1 on.
"""

from __future__ import annotations

from ..contract.names import normalize_section_name
from ..reply.blocks import scan
from ..reply.outline import section_level
from .state import RepairState, edit_lines


def normalize_levels(st: RepairState) -> None:
    """Move section headings (and what they hold) to the common level."""
    names = st.names
    if st.level < 1 or not names:
        return
    sc = scan(st.body)
    heads = sc.headings
    target = section_level(heads, set(names))
    by_name: dict[str, list[int]] = {}
    for idx, h in enumerate(heads):
        key = normalize_section_name(h.raw)
        if key in names:
            by_name.setdefault(key, []).append(idx)
    chosen: set[int] = set()
    for idxs in by_name.values():
        top = min(heads[i].level for i in idxs)
        chosen.update(i for i in idxs if heads[i].level == top)
    if all(heads[i].level == target for i in chosen):
        return  # then every deeper duplicate is below the target already
    edits = []
    stack: list[tuple[int, int]] = []  # (original level, delta) of enclosing headings
    for idx, h in enumerate(heads):
        while stack and stack[-1][0] >= h.level:
            stack.pop()
        if idx in chosen:
            delta = target - h.level
        else:
            delta = stack[-1][1] if stack else 0
            if h.level + delta <= target and normalize_section_name(h.raw) in names:
                # a deeper duplicate of a section name must stay deeper than the
                # occurrences that count, or it would count in the next pass
                delta = target + 1 - h.level
        stack.append((h.level, delta))
        if delta == 0:
            continue
        new_level = min(max(h.level + delta, 1), 6)
        if new_level == h.level:
            continue
        edits.append((h.line, h.end_line, f"{'#' * new_level} {h.raw}"))
        if idx in chosen:
            st.repair(
                "heading_level",
                f"moved the heading {h.raw!r} from level {h.level} to level {new_level}",
                sc.line_text(h.line),
            )
        else:
            st.repair(
                "heading_level",
                f"moved the sub-heading {h.raw!r} from level {h.level} to level {new_level} with its section",
                sc.line_text(h.line),
            )
    if edits:
        st.body = edit_lines(sc, edits)
