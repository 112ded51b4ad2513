"""Step 5b: a contract that says "in this order" (``section_order_matters``) is checked
in that order (L1+).

The guidance tells the model to write the sections in the contract's order; a reply that
writes them in another order breaks that contract. Moving sections around would rewrite
the reply's structure (and what sits between them), so it is an issue,
``markdown.section_order``, naming the first section out of place. A missing required
section counts where step 7 would add it, at the end (so ``## Reasoning`` alone, when
``Short answer`` comes first, is out of order once filled); a missing optional one does
not count.
"""

from __future__ import annotations

from itertools import pairwise

from ..reply.blocks import scan
from ..reply.outline import outline_for
from ..reply.sections import match_sections
from .state import RepairState


def check_section_order(st: RepairState) -> None:
    """Report the first section written before one the contract puts ahead of it."""
    if st.level < 1 or not st.sections or not getattr(st.spec, "section_order_matters", False):
        return
    sc = scan(st.body)
    found = match_sections(sc, outline_for(sc, st.spec), st.spec, parse=False)
    written = sorted((found[s.name].nodes[0].line, k, s.name) for k, s in enumerate(st.sections) if s.name in found)
    # step 7 appends the missing required sections at the end: they count there
    end = len(sc.lines)
    written += [(end, k, s.name) for k, s in enumerate(st.sections) if s.required and s.name not in found]
    for (_, k_before, before), (_, k, name) in pairwise(written):
        if k < k_before:
            st.issue(
                "markdown.section_order",
                f"the section {name!r} would come after {before!r}: the contract asks for its sections in order",
                name,
            )
            return
