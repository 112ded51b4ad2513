"""The repair plan: nine deterministic, idempotent steps run in order on a reply (step 9's
table separators right after step 3: a broken separator changes the block structure
that the steps in between read).

``PLAN`` is the order, as data. Each step reads and changes a :class:`RepairState`,
records a ``Repair`` for every change, keeps what it takes out in ``set_aside`` and
records what it cannot fix as an ``Issue``. :func:`run_plan` runs them and assembles the
repaired text (the L2 container written around the body).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..outline import trim_blank
from .container import normalize_container
from .glued import split_glued_headings
from .headings import standardize_headings
from .kinds import convert_list_kinds
from .levels import normalize_levels
from .missing import fill_missing_sections
from .preamble import set_preamble_aside
from .state import Container, RepairState
from .table_fix import fix_table_separators, repair_tables
from .think import set_think_aside

Step = Callable[[RepairState], None]

#: The plan of issue 4, in order.
PLAN: tuple[Step, ...] = (
    set_think_aside,  # 1 <think> blocks set aside
    split_glued_headings,  # 2 "Yes. ## Reasoning" -> own line
    normalize_container,  # 3 unwrap / wrap / merge fences; outside set aside
    fix_table_separators,  # 9a separators (they decide what is a heading: run early)
    standardize_headings,  # 4 headings named as in the spec; bold labels -> headings
    normalize_levels,  # 5 one heading level for the sections
    set_preamble_aside,  # 6 text before the first heading set aside
    fill_missing_sections,  # 7 missing required sections filled with the empty value
    convert_list_kinds,  # 8 bullets/numbers as declared (L3)
    repair_tables,  # 9 table separators, '#' columns, empty sections
)

# a fence run at the start of a line; lines end at \n, \r\n or a lone \r (as markdown-it reads them)
_FENCE_RUN = re.compile(r"(?:^|(?<=\r)) {0,3}(`{3,}|~{3,})", re.MULTILINE)


def run_plan(reply: str, spec: Any, level: int, plan: tuple[Step, ...] = PLAN) -> tuple[RepairState, str]:
    """Run ``plan`` on ``reply``; return the final state and the repaired text (the reply
    itself, unchanged, when no step changed anything)."""
    st = RepairState(reply, spec, level, reply)
    for step in plan:
        step(st)
    if not st.repairs:
        return st, reply
    return st, assemble(st)


def assemble(st: RepairState) -> str:
    """The repaired text: the body (blank lines at both ends trimmed), inside a fenced
    container at L2+."""
    body = trim_blank(st.body)
    if st.container is None:
        return body + "\n" if body else ""
    opener, closer = st.container.opener, st.container.closer
    char = opener.lstrip()[:1] if opener else "`"
    longest = max((len(m.group(1)) for m in _FENCE_RUN.finditer(body) if m.group(1)[0] == char), default=0)
    if opener is None or closer is None or _marker_length(opener) <= longest:
        longest = max((len(m.group(1)) for m in _FENCE_RUN.finditer(body) if m.group(1)[0] == "`"), default=0)
        fence = "`" * max(3, longest + 1)
        opener, closer = f"{fence}markdown", fence
    return f"{opener}\n{body}\n{closer}\n" if body else f"{opener}\n{closer}\n"


def _marker_length(line: str) -> int:
    m = _FENCE_RUN.match(line)
    return len(m.group(1)) if m else 0


__all__ = ["PLAN", "RepairState", "Container", "Step", "run_plan", "assemble"]
