"""Healing YAML: the repair plan, and :func:`heal`, which runs it.

The plan is ordered data: each :class:`Step` is named and runs one module's function on
the :class:`~.state.Healing` in progress when its condition holds. Healing edits the text
in place — comments and layout survive, only the broken lines change — and lists every
edit as a ``Repair``. An edit that takes the text past ``max_size`` refuses the heal there
(the core's ``reply.too_large``, "when it was stopped") when no step still to run can
take enough back (:meth:`.state.Healing.edit`): the grown text is not read again.

1. ``refuse`` (:mod:`.state`): longer than ``max_size``: ``HealError``.
2. ``strict`` (:mod:`.state`): a valid text needs no syntax repair (a JSON reply is YAML
   1.2 already: valid as it is, no repair).
3. ``hashed_values`` (:mod:`.hashes`): ``color: #ff0000`` with nothing nested under it
   (YAML: a comment and no value) quoted, the writer's reading.
4. ``lines`` (:mod:`.lines`): one pass over the lines: tabs used as indentation, stray
   ``---``/``...`` markers, plain scalars holding ``: `` or starting with a reserved
   indicator (quoted).
5. ``indentation`` (:mod:`.indent`): an item or key out of line with its siblings is
   moved onto their column (its own children with it), line by line as the scanner of
   :mod:`formatbook_yaml.lines` finds them (at most :data:`.indent.MAX_ROUNDS`).
6. ``truncation`` (:mod:`.truncation`): a cut-off end: an open quoted string closed, open
   flow collections closed, else the incomplete last line dropped.
7. ``confirm`` (:mod:`.state`): the text must now read strictly, else ``HealError``.
8. ``schema`` (:mod:`.schema_aware`): repairs only a schema justifies (``"42"`` to
   ``42``, enum case, key spelling; ``yes``/``no``/``on``/``off`` where the schema asks
   for a boolean), edited at the values' spans.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from formatbook_core import Analysis, Healed
from formatbook_core.healing import Step, run_plan

from ..syntax import Reading
from . import hashes, indent, lines, schema_aware, state, truncation
from .state import Healing

__all__ = ["PLAN", "Step", "heal"]


def _broken(h: Healing) -> bool:
    return not h.valid


def _has_schema(h: Healing) -> bool:
    return h.schema is not None


#: The repair plan, in the order the steps run.
PLAN: tuple[Step, ...] = (
    Step("refuse", state.refuse),
    Step("strict", state.check),
    Step("hashed_values", hashes.quote_hashed_values, _broken),
    Step("lines", lines.repair_lines, _broken),
    Step("indentation", indent.repair_indentation, _broken),
    Step("truncation", truncation.repair_end, _broken),
    Step("confirm", state.confirm, _broken),
    Step("schema", schema_aware.repair_against_schema, _has_schema),
)


def heal(
    text: str,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
    *,
    analysis: Analysis | None = None,
) -> Healed:
    """``text`` repaired into valid YAML (and into what ``schema``, the loaded
    ``JsonSchema``, asks for, where a repair can tell) by running :data:`PLAN`. Valid
    input comes back unchanged. Raises ``HealError``. The signature every format's
    healing has (:class:`formatbook_core.healing.Heal`); ``analysis``: ``text``'s, whose
    strict reading (its ``document``) is then not made again."""
    from ..format import YamlFormat  # noqa: PLC0415 - the format imports this module

    fmt, options = YamlFormat(), dict(options or {})
    h = Healing(fmt, text, schema, options)
    if analysis is not None and isinstance(analysis.document, Reading):
        h.readings[text] = analysis.document
    run_plan(PLAN, h)
    if not h.repairs:
        return Healed(text)
    healed, read = _ends_as_given(fmt, text, h.text, options)
    if read is None and healed in h.readings:  # confirmed as it stands: its reading is known
        read = fmt.strict_read(healed, options, h.readings[healed])
    # the analysis analyze would give, for the pipeline (which then does not read it again)
    analysis = fmt.judged(read, schema, options) if read is not None else None
    return Healed(healed, tuple(h.repairs), analysis=analysis)


def _ends_as_given(fmt: Any, given: str, healed: str, options: dict[str, Any]) -> tuple[str, Analysis | None]:
    """``healed`` without the white space a removed line (a stray marker, a cut-off last
    line) left at an end where ``given`` had none, so that healing the result again
    changes nothing: a located payload never starts or ends with white space
    (``locating.strip_span``, ``str.isspace``), so healing's text must not either. That
    holds even where the white space is data (the last line break of a ``|`` block
    scalar, the kept ones of ``|+``): ``check()`` never reads it at a payload's end.
    Kept only when the text without it is not valid (leading white space may be the
    indentation of every line)."""
    if not given or not healed:
        return healed, None
    start = 0 if given[0].isspace() else len(healed) - len(healed.lstrip())
    end = len(healed) if given[-1].isspace() else len(healed.rstrip())
    if (start, end) == (0, len(healed)) or start >= end:
        return healed, None
    trimmed = healed[start:end]
    read = fmt.strict_read(trimmed, options)
    return (trimmed, read) if read.ok else (healed, None)
