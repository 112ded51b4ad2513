"""Step 4b: a section written twice, the deeper occurrence under no heading.

Shallowest wins (Flex-MD 11.3) and a deeper duplicate stays a child of what it is in; one
that is in nothing (``## Short answer`` + text, later ``# Short answer``) would leave its
text in no section, and which of the two the reply meant is unclear: an issue
(``markdown.section_repeated``), never a silent loss. Read on the headings as written
(after step 4 names them, before step 5 moves them: a move may nest the duplicate under
another section, which hides the ambiguity without settling it). Applies from L1 on; the
streaming counts rely on it (``stream_values.py``).
"""

from __future__ import annotations

from ..reply.blocks import scan
from ..reply.outline import outline_for
from ..reply.sections import orphaned_duplicates
from .state import RepairState


def flag_repeated_sections(st: RepairState) -> None:
    """Record an issue for each repeated section whose deeper occurrence is in nothing."""
    if st.level < 1 or not st.sections:
        return
    sc = scan(st.body)
    for name, node, top in orphaned_duplicates(sc, outline_for(sc, st.spec), st.spec):
        st.issue(
            "markdown.section_repeated",
            f"the section {name!r} is written twice: at level {node.level} (line {node.line + 1} of the "
            f"Markdown) and at level {top}; the shallower one counts, and what is written under the "
            "other would belong to no section",
            name,
        )
