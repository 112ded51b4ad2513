"""Healing XML: the repair plan, and :func:`heal`, which runs it.

The plan is ordered data: each :class:`Step` is named and runs one module's step on the
:class:`~.state.Healing` in progress. Healing edits the text in place (the layout
survives, only the broken bits change) and lists every edit as a ``Repair`` whose span
indexes the payload. It never invents content: what it cannot decide is a ``HealError``.

1. ``refuse`` (:mod:`.steps`): not text, or longer than ``max_size``: ``HealError``.
2. ``valid`` (:mod:`.steps`): a well-formed text needs no repair; against a schema it
   breaks, healing cannot help (``HealError`` with the schema's violations).
3. ``structure`` (:mod:`.structure`): one walk over the tolerant tokens repairs the
   declaration's place, closing tags (case, misnesting), truncation, several roots, and
   hands text to :mod:`.text` (``&``, ``<``, HTML entities) and start tags to
   :mod:`.tags` (quotes around attribute values).
4. ``confirm`` (:mod:`.steps`): the repaired text must be well-formed and satisfy the
   schema, else ``HealError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from formatbook_core import Analysis, Healed, HealError
from formatbook_core.healing import Step, run_plan
from formatbook_core.limits import limits_from
from formatbook_core.reply import Reply

from ..locate import markup_names
from . import steps, structure
from .state import Healing

__all__ = ["PLAN", "Step", "heal", "heal_escaping", "Escaped"]


def _not_done(h: Healing) -> bool:
    return not h.done


#: The repair plan, in the order the steps run.
PLAN: tuple[Step, ...] = (
    Step("refuse", steps.refuse),
    Step("valid", steps.settle_if_valid),
    Step("structure", structure.repair_structure, _not_done),
    Step("confirm", steps.confirm, _not_done),
)


def heal(
    text: str,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
    *,
    analysis: Analysis | None = None,
) -> Healed:
    """``text`` repaired into well-formed XML (see :data:`PLAN`); a valid text comes back
    unchanged. Raises ``HealError`` with the violations that say why it cannot. The
    signature every format's healing has (:class:`formatbook_core.healing.Heal`):
    ``schema`` is the loaded ``XmlSchema``; the ``root`` option (else a simple schema's
    root) names the element several top-level elements are wrapped in. ``analysis`` (the
    ``analyze`` of ``text`` with ``schema``, as the pipeline hands it on) spares the
    ``valid`` step reading the text again."""
    options = options or {}
    if analysis.__class__ is Escaped and schema is None:
        made = analysis.healed_for(text, options)
        if made is not None:
            return made
    wrapper = options.get("root") or (schema.root if schema is not None and schema.kind == "simple" else None) or "root"
    h = Healing(text, schema, limits_from(options), wrapper, analysis=analysis)
    run_plan(PLAN, h)
    return _answer(h, text, options)


def _answer(h: Healing, text: str, options: Mapping[str, Any]) -> Healed:
    """What :func:`heal` returns once its plan has run on ``h``."""
    if not h.repairs:
        return Healed(text)
    if h.out != text:  # ('\xa0<think>' healed to '<think></think>': check() would find no payload)
        Reply.of(h.out).refuse_healed_notes("xml", opening=True, markup=markup_names(options.get("root")))
    # the tree confirm built (well-formed, the schema satisfied): what analyze would give
    analysis = Analysis.passed(h.root, h.root) if h.root is not None else None
    return Healed.built(h.out, tuple(h.repairs), (), analysis)


def heal_escaping(text: str, options: Mapping[str, Any], analysis: Analysis) -> Healed | None:
    """``heal(text, None, options, analysis=analysis)`` when healing ``text`` takes the
    escaping-only path (:func:`.structure._escape_only`: escaping its text is all the walk
    would do), else ``None``: the walk's heal, or a ``HealError``, is left to :func:`heal`.
    ``analysis`` is the brief one of a text lxml refuses that holds no ``<!D`` (the
    ``valid`` step has nothing to settle there: not read again)."""
    wrapper = options.get("root") or "root"
    h = Healing(text, None, limits_from(options), wrapper, analysis=analysis)
    try:
        steps.refuse(h)
        steps.settle_if_valid(h)
        if h.done or not structure._escape_only(h):
            return None
        steps.confirm(h)
        return _answer(h, text, options) if h.repairs else None
    except HealError:
        return None


@dataclass(frozen=True)
class Escaped(Analysis):
    """The brief analysis of a payload lxml refuses, made while locating it, with the
    answer of :func:`heal_escaping` for it (``healed``), which :func:`heal` of the same
    text with the same options returns instead of healing again. ``healed`` is not part
    of the analysis (not compared, not shown)."""

    healed: Healed | None = field(default=None, compare=False, repr=False)
    text: str = field(default="", compare=False, repr=False)
    options: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def healed_for(self, text: str, options: Mapping[str, Any]) -> Healed | None:
        """``healed`` when it was made for ``text`` under ``options``, else ``None``."""
        if self.healed is None or text != self.text:
            return None
        same = options is self.options or (
            limits_from(options) == limits_from(self.options) and options.get("root") == self.options.get("root")
        )
        return self.healed if same else None
