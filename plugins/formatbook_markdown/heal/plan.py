"""The repair plan: deterministic, idempotent steps run in order on a reply (step 9's
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
from typing import Any, NamedTuple

from formatbook_core.reply import Reply

from ..reply.outline import trim_blank
from .container import normalize_container
from .glued import split_glued_headings
from .headings import standardize_headings
from .invisible import remove_invisible_before_headings
from .kinds import convert_list_kinds
from .levels import normalize_levels
from .missing import fill_missing_sections
from .order import check_section_order
from .preamble import set_preamble_aside
from .repeated import flag_repeated_sections
from .state import RepairState
from .table_fix import fix_table_separators, repair_tables
from .underlines import break_long_underlines

Step = Callable[[RepairState], None]


def set_notes_aside(st: RepairState) -> None:
    """Step 1: the notes (``<think>`` blocks; an unclosed one runs to the end of the reply)
    taken out of the body and kept, as the prepared reply sets them aside. Applies at
    every level."""
    text, repair, kept = Reply.of(st.body).set_notes_aside()
    if repair is None:
        return
    # the step runs first, so the body is still the reply as received: spans are exact
    exact = st.body == st.original
    for entry in kept:
        st.keep(entry.kind, entry.text, entry.span if exact else None)
    st.body = text
    st.repair(repair.kind, repair.message, repair.span if exact else None)


class PlanStep(NamedTuple):
    """One step of the plan: its ``number`` in issue 4's list, a short ``name`` and the
    function that ``run``s it (a step is called like that function)."""

    number: str
    name: str
    run: Step

    def __call__(self, st: RepairState) -> None:
        self.run(st)


#: The plan of issue 4, in the order the steps run.
PLAN: tuple[PlanStep, ...] = (
    PlanStep("1", "think blocks set aside", set_notes_aside),
    PlanStep("1b", "invisible characters before headings removed", remove_invisible_before_headings),
    PlanStep("2", "glued headings split", split_glued_headings),
    PlanStep("3", "one Markdown container", normalize_container),
    # separators decide what is a heading (a broken one makes a paragraph): run them early
    PlanStep("9a", "table separators fixed", fix_table_separators),
    # a long paragraph above --- is no heading: before the steps that read headings
    PlanStep("3b", "long paragraphs above an underline", break_long_underlines),
    PlanStep("4", "headings named as in the spec", standardize_headings),
    PlanStep("4b", "repeated sections flagged", flag_repeated_sections),
    PlanStep("5", "one heading level", normalize_levels),
    PlanStep("5b", "sections in the contract's order", check_section_order),
    PlanStep("6", "preamble set aside", set_preamble_aside),
    PlanStep("7", "missing sections filled", fill_missing_sections),
    PlanStep("8", "list kinds converted", convert_list_kinds),
    PlanStep("9", "tables and empty sections", repair_tables),
)

# a fence run at the start of a line; lines end at \n, \r\n or a lone \r (as markdown-it reads them).
# Not locating.FENCE_LINE: that one matches a line already split off, this one scans the body.
_FENCE_RUN = re.compile(r"(?:^|(?<=\r)) {0,3}(`{3,}|~{3,})", re.MULTILINE)


def run_plan(reply: str, spec: Any, level: int, plan: tuple[PlanStep, ...] = PLAN) -> tuple[RepairState, str]:
    """Run ``plan`` on ``reply``; return the final state and the repaired text (the reply
    itself, unchanged, when no step changed anything)."""
    st = RepairState(reply, spec, level, reply)
    for step in plan:
        step(st)
    st.release()
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


__all__ = ["PLAN", "PlanStep", "Step", "run_plan", "assemble"]
