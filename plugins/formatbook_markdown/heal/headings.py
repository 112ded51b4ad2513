"""Step 4: headings naming a spec section are written with the spec's name (case,
trailing colon, emphasis and numbering dropped: ``## **1. reasoning:**`` becomes
``## Reasoning``); a setext heading that needs renaming becomes an ATX heading; a
paragraph whose first line is only a bold label naming a section (``**Reasoning:**``)
gets that line turned into a heading, at the level the other section headings use (and
so does each following line that is such a label too: see ``reply.blocks.label_lines``). Applies from L1 on."""

from __future__ import annotations

from ..contract.names import normalize_section_name
from ..reply.blocks import label_lines, scan
from ..reply.outline import section_level
from .state import RepairState, edit_lines


def standardize_headings(st: RepairState) -> None:
    """Turn bold labels into headings; rename section headings to the spec's names."""
    names = st.names
    if st.level < 1 or not names:
        return
    # labels first: the rest of a label's paragraph is read again on its own, which can
    # change what is a heading below it (a '<span>' line starting an HTML block that ends
    # a fence...); the headings are renamed as the converted text has them
    sc = scan(st.body)
    level = section_level(sc.headings, set(names))
    edits: list[tuple[int, int, str | None]] = []
    for line, label in label_lines(sc, set(names)):
        canonical = names[normalize_section_name(label)]
        edits.append((line, line + 1, f"{'#' * level} {canonical}"))
        st.repair(
            "heading_from_label",
            f"turned the bold label {sc.line_text(line).strip()!r} into the heading {canonical!r}",
            sc.line_text(line),
            canonical,
        )
    if edits:
        st.body = edit_lines(sc, edits)
        sc = scan(st.body)
    edits = []
    for h in sc.headings:
        canonical = names.get(normalize_section_name(h.raw))
        if canonical is None or h.raw == canonical:
            continue
        edits.append((h.line, h.end_line, f"{'#' * h.level} {canonical}"))
        st.repair("heading_renamed", f"renamed the heading {h.raw!r} to {canonical!r}", sc.line_text(h.line), canonical)
    if edits:
        st.body = edit_lines(sc, edits)
