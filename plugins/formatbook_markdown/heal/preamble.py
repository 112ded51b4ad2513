"""Step 6: text before the first heading is the *preamble*: set aside (kept in
``extracted.preamble`` and ``set_aside``), neither merged into a section nor dropped.
Applies from L1 on, when the spec declares sections."""

from __future__ import annotations

from ..reply.blocks import scan
from ..reply.outline import trim_blank
from .state import RepairState


def set_preamble_aside(st: RepairState) -> None:
    """Take the text before the first heading out of the body."""
    if st.level < 1 or not st.sections or not st.body.strip():
        return
    sc = scan(st.body)
    first = sc.headings[0].line if sc.headings else len(sc.lines)
    before = sc.slice(0, first)
    if not before.strip():
        return
    st.preamble = trim_blank(before.replace("\r\n", "\n").replace("\r", "\n"))
    st.keep("preamble", st.preamble)
    st.body = sc.slice(first, len(sc.lines))
    st.repair(
        "preamble_set_aside",
        f"set aside the preamble before the first heading ({len(st.preamble)} characters)",
        st.preamble,
    )
