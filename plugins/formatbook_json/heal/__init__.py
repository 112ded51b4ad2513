"""Healing JSON: the repair plan, and :func:`heal`, which runs it.

The plan is ordered data: each :class:`Step` is named, runs one module's step function
on the :class:`~.state.Healing` in progress, and may run only when its condition holds.
Healing edits the payload in place — the layout of the reply survives, only the broken
bits change — and lists every edit as a ``Repair`` whose span indexes the payload.

1. ``refuse`` (:mod:`.strict`): not text, or longer than ``max_size``: ``HealError``.
   ``too_long`` (:mod:`.strict`): the ``memory`` refusal below, decided first when the
   pipeline's analysis already found the text is not strict JSON (no parse before it).
2. ``strict`` (:mod:`.strict`): strict JSON is parsed once and needs no syntax repair.
   ``memory`` (:mod:`.strict`): text to repair longer than :data:`.strict.HEAL_MAX_SIZE`
   is refused, unless the caller gave ``max_size`` (healing could take too much memory).
   ``think``, ``fence`` (:mod:`.strict`): a think block, or a fence line outside a
   string, inside the payload is refused (``json.think_inside``, ``json.fence_inside``).
3. ``syntax`` (:mod:`.structure`): one walk over the tokens repairs structure (commas,
   colons, brackets, bare keys, a cut-off end) and hands each token to its family:
   :mod:`.strings`, :mod:`formatbook_json.numbers`, :mod:`.literals`. Stretches already strict
   (:mod:`.runs`) or broken the common way at every token (:mod:`.tolerant`) are taken
   whole by one regular expression; tests check they give what the walk gives.
4. ``confirm`` (:mod:`.strict`): the repaired text must parse strictly.
5. ``schema`` (:mod:`.schema_aware`): repairs only a schema justifies (``"42"`` to ``42``
   where it wants a number, enum case, key spelling, a lone value wrapped in an array).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from formatbook_core import Analysis, Healed
from formatbook_core.collector import paused_gc
from formatbook_core.healing import Step, run_plan
from formatbook_core.limits import limits_from

from . import schema_aware, strict, structure
from .state import Healing

__all__ = ["PLAN", "Step", "heal"]


def _not_strict_yet(h: Healing) -> bool:
    return not h.strict


def _has_schema(h: Healing) -> bool:
    return h.schema is not None


def _known_broken(h: Healing) -> bool:
    return h.broken


#: The repair plan, in the order the steps run.
PLAN: tuple[Step, ...] = (
    Step("refuse", strict.refuse),
    Step("too_long", strict.refuse_long, _known_broken),
    Step("strict", strict.parse_if_strict),
    Step("memory", strict.refuse_long, _not_strict_yet),
    Step("notes", strict.refuse_notes, _not_strict_yet),
    Step("fence", strict.refuse_fence, _not_strict_yet),
    Step("syntax", structure.repair_syntax, _not_strict_yet),
    Step("confirm", strict.confirm, _not_strict_yet),
    Step("schema", schema_aware.repair_against_schema, _has_schema),
)


def heal(
    text: str,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
    *,
    analysis: Analysis | None = None,
) -> Healed:
    """``text`` repaired into strict JSON (and into what ``schema``, the loaded
    ``JsonSchema``, asks for, where a repair can tell), by running :data:`PLAN`. Valid
    input comes back unchanged. Raises ``HealError`` with the violations that say why it
    cannot be healed. Unless the options give the size limit (``max_size``), text longer
    than :data:`.strict.HEAL_MAX_SIZE` is refused: healing it could take too much memory.
    The ``Healed`` carries the healed text's analysis, judged from the value healing
    parsed it to (not parsed again). The signature every format's healing has
    (:class:`formatbook_core.healing.Heal`); ``analysis``, when it found the text is not
    strict JSON, lets a text too long to heal be refused before any parse (else the
    ``strict`` step parses the text once)."""
    options = dict(options or {})
    h = Healing(text, schema, limits_from(options), None if "max_size" in options else strict.HEAL_MAX_SIZE)
    h.broken = analysis is not None and strict.not_strict(analysis)
    # one repair and edit per token of a badly broken reply, alive until the answer
    # (formatbook_core.collector): the collector waits until healing is done
    with paused_gc():
        run_plan(PLAN, h)
    if not h.repairs:
        return Healed(text)
    # the value confirmed is the healed text's unless the schema step edited it since
    # the value confirmed is the healed text's unless the schema step edited it since
    if not (h.strict and h.parsed_text is h.text):
        judged = None
    elif schema is None:
        judged = Analysis.passed(h.parsed, h.parsed)  # as _judged answers without a schema, without the call
    else:
        judged = _format()._judged(h.text, h.parsed, schema, options)
    return Healed.built(h.text, tuple(h.repairs), h.set_aside, judged)


@cache
def _format() -> Any:
    """The JSON format, which judges the healed value (imported on first use: the format
    imports this module; kept, since an import in a function costs a microsecond a call)."""
    from ..format import JsonFormat  # noqa: PLC0415 - see above

    return JsonFormat()
