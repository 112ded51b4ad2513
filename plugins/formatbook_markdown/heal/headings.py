"""Step 4: headings naming a spec section are written with the spec's name (case,
trailing colon, emphasis and numbering dropped: ``## **1. reasoning:**`` becomes
``## Reasoning``); a setext heading that needs renaming becomes an ATX heading; a
paragraph line that is a bold label naming a section (``**Reasoning:**``, or
``**Short answer:** Yes.`` whose text goes on the next line) becomes a heading at the
level the other section headings use, and ``##Reasoning`` gets its space (which lines
count: ``reply.blocks.label_lines``). Applies from L1 on."""

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
    for lb in label_lines(sc, set(names)):
        canonical = names[normalize_section_name(lb.label)]
        heading = f"{'#' * (lb.level or level)} {canonical}"
        edits.append((lb.line, lb.line + 1, heading + ("\n" + lb.rest if lb.rest else "")))
        written = sc.line_text(lb.line)
        if lb.level is None:
            message = f"turned the bold label {written.strip()!r} into the heading {canonical!r}"
            if lb.rest:
                message += ", the text after it on a line of its own"
            st.repair("heading_from_label", message, written, canonical)
        else:
            st.repair("heading_renamed", f"wrote {written.strip()!r} as the heading {heading!r}", written, canonical)
    if edits:
        st.body = edit_lines(sc, edits)
        sc = scan(st.body)
    edits = []
    for h in sc.headings:
        named = names.get(normalize_section_name(h.raw))
        if named is None or h.raw == named:
            continue
        edits.append((h.line, h.end_line, f"{'#' * h.level} {named}"))
        st.repair("heading_renamed", f"renamed the heading {h.raw!r} to {named!r}", sc.line_text(h.line), named)
    if edits:
        st.body = edit_lines(sc, edits)
