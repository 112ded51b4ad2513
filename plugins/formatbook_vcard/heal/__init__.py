"""Healing a vCard: the repair plan, and :func:`heal`, which runs it.

The plan is ordered data: each :class:`Step` is named and runs one module's function on
the :class:`~.state.Healing` in progress. Every change is a listed ``Repair`` whose span
indexes the payload; nothing the reply gave is lost or altered beyond its encoding (a cut
last line and prose between cards are set aside, kept in ``Healed.set_aside``).

1. ``lines`` (:mod:`.lines`): fences, line breaks to CRLF, blank lines, a uniform
   indentation; folded lines unfolded.
2. ``join`` (:mod:`.lines`): each line parsed (``TEL;CELL:`` read as ``TEL;TYPE=CELL:``);
   a line that is no property inside a card continues the one before it (broken without a
   fold), outside a card it is prose, set aside.
3. ``cards`` (:mod:`.structure`): cards told apart and closed (a card cut off by the end
   of the payload is closed, its cut last line dropped).
4. ``version``, ``values``, ``names`` (:mod:`.properties`), card by card: VERSION added
   (3.0 unless the card uses what only 4.0 has), spelled 3.0/4.0, first in 4.0; text values
   escaped; 4.0 dates in basic form; FN from N or ORG, N from FN (3.0).
5. ``write``, ``confirm`` (:mod:`.write`): written with CRLF, lines over 75 octets folded,
   then checked: still invalid (an e-mail address that is none, say) is a ``HealError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from formatbook_core import Analysis, Healed, HealError, Violation
from formatbook_core.healing import Step, run_plan
from formatbook_core.limits import limits_from

from ..analysis import verdict
from . import lines, properties, structure, write
from .state import Healing

__all__ = ["PLAN", "Step", "heal"]


def _per_card(step: Callable[..., None]) -> Callable[[Healing], None]:
    def run(h: Healing) -> None:
        for index, card in enumerate(h.cards):
            step(h, card, index)

    return run


def _nothing_found(h: Healing) -> None:
    if not h.records:
        found = h.problems or [Violation("vcard.empty", "no vCard: the text holds no content line")]
        raise HealError(f"no vCard in the text: {found[0].message}", found)


#: The repair plan, in the order the steps run.
PLAN: tuple[Step, ...] = (
    Step("lines", lines.split_lines),
    Step("join", lines.join_broken),
    Step("found", _nothing_found),
    Step("cards", structure.build_cards),
    Step("version", _per_card(properties.fix_version)),
    Step("values", _per_card(properties.fix_values)),
    Step("names", _per_card(properties.fix_names)),
    Step("write", write.write),
    Step("confirm", write.confirm),
)


def heal(
    text: str,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
    *,
    analysis: Analysis | None = None,
) -> Healed:
    """``text`` repaired into valid vCard by running :data:`PLAN`; valid input comes back
    unchanged. Raises ``HealError`` with the violations that say why it cannot be healed.
    The signature every format's healing has (:class:`formatbook_core.healing.Heal`;
    vCard has no schema); ``analysis``: ``text``'s, already made (else it is made here)."""
    if not isinstance(text, str):
        raise HealError("not text", [Violation("vcard.syntax", f"not text: {type(text).__name__}")])
    max_size = limits_from(options).max_size
    # the verdict alone: a valid text comes back as it is, its value unread
    found = analysis.violations if analysis is not None else verdict(text, max_size)
    if not found:
        return Healed(text)
    if any(v.code == "vcard.too_large" for v in found):
        raise HealError(found[0].message, list(found))
    h = Healing(text, max_size, problems=list(found))
    run_plan(PLAN, h)
    # the analysis confirm made: the pipeline does not read the healed text again
    return Healed(h.out, tuple(h.repairs), tuple(h.set_aside), h.analysis)
