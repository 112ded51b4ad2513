"""Step 1: set ``<think>`` blocks aside (also ``<thinking>``/``<reasoning>``; an unclosed
block runs to the end of the reply). Applies at every level."""

from __future__ import annotations

from formatbook_core import Reply, Span

from .state import RepairState


def set_think_aside(st: RepairState) -> None:
    """Take every ``<think>`` block out of the body and keep it as ``think``."""
    body = Reply.of(st.body)
    spans = body.think_blocks()
    if not spans:
        return
    # the step runs first, so the body is still the reply as received: spans are exact
    exact = body == st.original
    for sp in spans:
        block = body[sp.start : sp.end]
        st.think.append(block)
        st.keep("think", block, sp if exact else None)
    st.body = body.without_think()
    where = Span(spans[0].start, spans[-1].end) if exact else None
    st.repair("think_set_aside", f"set {len(spans)} <think> block(s) aside", where)
