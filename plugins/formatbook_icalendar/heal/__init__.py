"""Healing iCalendar: the repair plan, and :func:`heal`, which runs it.

A valid text comes back unchanged. Otherwise the plan runs in order, each step one
module, each change a listed ``Repair`` whose span indexes the text given:

1. ``refuse``: not text, empty, or longer than ``max_size``: ``HealError``.
2. ``lines`` (:mod:`.lines`): line breaks to CRLF, blank lines and indentation removed,
   folds read, lines broken inside a value joined back, prose set aside.
3. ``zones`` (:mod:`.zones`): Windows zone names in ``TZID`` to IANA names.
4. ``dates`` (:mod:`.dates`): ISO 8601 dates and times to RFC 5545 form.
5. ``escape`` (:mod:`.escape`): ``,`` ``;`` ``\\`` and line breaks escaped in text values.
6. ``structure`` (:mod:`.structure`): bare components wrapped, components closed.
7. ``required`` (:mod:`.required`): ``VERSION``, ``PRODID``, ``UID``, ``DTSTAMP`` added.
8. ``write`` (:mod:`.output`): CRLF, lines over 75 octets folded.
9. ``confirm`` (:mod:`.output`): the result must be valid (schema included), else ``HealError``;
   its analysis comes back in ``Healed.analysis`` (the caller does not read the text again).

No value the reply gave is dropped or changed beyond its encoding: what cannot be
repaired that way (a missing ``DTSTART``, ``DTEND`` with ``DURATION``, an unknown zone) is
left for ``confirm`` to refuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from formatbook_core import Analysis, Healed, HealError, Violation
from formatbook_core.healing import Step, run_plan
from formatbook_core.limits import limits_from

from .. import validate
from . import dates, escape, lines, output, required, structure, zones
from .state import Healing

__all__ = ["PLAN", "Step", "heal"]


def _refuse(h: Healing) -> None:
    text = h.text
    if not isinstance(text, str):
        raise HealError("not text", [Violation("icalendar.syntax", f"not text: {type(text).__name__}")])
    max_size = limits_from(h.options).max_size
    if len(text) > max_size:
        raise HealError(
            "too large", [Violation("icalendar.too_large", f"the text is longer than {max_size} characters")]
        )
    if not text.strip():
        raise HealError("empty", [Violation("icalendar.empty", "no iCalendar content (the text is empty)")])
    surrogate = validate.SURROGATE.search(text)
    if surrogate is not None:
        raise HealError("not Unicode text", [Violation("icalendar.syntax", "a lone surrogate: not Unicode text")])


#: The repair plan, in the order the steps run.
PLAN: tuple[Step, ...] = (
    Step("refuse", _refuse),
    Step("lines", lines.read_lines),
    Step("zones", zones.windows_to_iana),
    Step("dates", dates.rewrite_dates),
    Step("escape", escape.escape_values),
    Step("structure", structure.balance),
    Step("required", required.add_required),
    Step("write", output.write),
    Step("confirm", output.confirm),
)


def heal(
    text: str,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
    *,
    analysis: Analysis | None = None,
) -> Healed:
    """``text`` repaired into a valid calendar by running :data:`PLAN`; valid input comes
    back unchanged. Raises ``HealError`` with the violations that say why not. The
    signature every format's healing has (:class:`formatbook_core.healing.Heal`);
    ``analysis``: ``text``'s, already made (else it is made here)."""
    options = dict(options or {})
    if isinstance(text, str):
        if analysis is None:
            limits = limits_from(options)
            # a text just judged is not read again to learn its verdict: invalid, it is
            # healed; valid, it comes back as it is, with no analysis (its value is never
            # remembered: a caller that wants it reads the text, as Healed.analysis says)
            known = validate.remembered(text, schema, limits.max_size, limits.max_depth)
            if known is None:
                analysis = validate.analyze(text, schema, limits.max_size, limits.max_depth)
            elif not known:
                return Healed(text)
        if analysis is not None and analysis.ok:
            return Healed(text, analysis=analysis)
    h = Healing(text, schema, options)
    run_plan(PLAN, h)
    if h.output == text:
        return Healed(text, analysis=h.analysis)
    # confirm's analysis, when it is the options' one: the caller does not read the text again
    return Healed(h.output, tuple(h.repairs), tuple(h.set_aside), h.analysis)
