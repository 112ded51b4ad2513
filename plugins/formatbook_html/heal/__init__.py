"""Healing an HTML reply: the tree the HTML5 algorithm builds, written out again.

The plan, as ordered data (each step a module here):

1. ``refuse`` — what no parse can repair: Markdown or prose without an element, a limit
   passed (too deep, too complex), more than :data:`MAX_HEAL_ERRORS` errors.
2. ``recover`` — every parse error html5lib recovered from becomes a listed repair with
   its line and column (a closing tag dropped, misnested tags re-nested, text moved out
   of a table, a bare ``&`` escaped...), and every element the end of the reply left
   open (other than those whose end tag HTML lets one omit) a ``truncated_closed``
   repair of its own, naming where it was opened.
3. ``write`` — the tree serialised (:mod:`formatbook_html.serialize`): a document gets
   ``<!DOCTYPE html>``; forbidden characters are left out and broken comments mended,
   each listed.
4. ``recheck`` — the result is checked again (the schema included); still not valid is
   a ``HealError``.

A valid reply comes back unchanged with no repairs; the output is valid, so healing is
idempotent. Nothing is invented: text is never added, and what is dropped is listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from formatbook_core import Analysis, Healed, HealError, Repair
from formatbook_core.healing import HealState
from formatbook_core.limits import limits_from, refuse_grown

from . import recover, refuse, write

PLAN = (
    ("refuse", refuse.step),
    ("recover", recover.step),
    ("write", write.step),
)

#: More parse errors than this and the reply is not healed (a reply that broken is not
#: HTML with slips in it; the list of repairs would be longer than the reply's sense).
MAX_HEAL_ERRORS = 10_000


class State(HealState):
    """What the steps share: the text, its parse, the repairs so far and the output."""

    def __init__(self, text: str, parsed: Any, max_size: int):
        self.text = text
        self.parsed = parsed
        self.max_size = max_size  # the output is refused as soon as it passes it
        self.repairs: list[Repair] = []
        self.output = text


def heal(
    text: str,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
    *,
    analysis: Analysis | None = None,
) -> Healed:
    """Repair ``text`` following :data:`PLAN`. The signature every format's healing has
    (:class:`formatbook_core.healing.Heal`): ``schema`` is the loaded ``HtmlSchema``;
    ``analysis``: ``text``'s, already made (else it is made here)."""
    from ..format import HtmlFormat  # noqa: PLC0415 - a cycle of modules otherwise
    from ..parse import discard, parse  # noqa: PLC0415 - a cycle of modules otherwise

    fmt, options = HtmlFormat(), dict(options or {})
    analysis = analysis if analysis is not None else Analysis(None, tuple(fmt.validate(text, schema, **options)))
    if analysis.ok:
        return Healed(text)
    if analysis.violations[0].code in ("html.too_large", "html.schema"):
        raise HealError(f"cannot heal the HTML: {analysis.violations[0].message}", list(analysis.violations))
    parsed = parse(text, max_depth=fmt.depth(options), keep=MAX_HEAL_ERRORS, stop_after=MAX_HEAL_ERRORS + 1)
    max_size = limits_from(options).max_size
    state = State(text, parsed, max_size)
    try:
        for _name, step in PLAN:
            step(state)
    finally:
        discard(parsed)
    # white space at the text's ends is never payload (check() locates it stripped): text
    # the HTML5 algorithm moved before a table may bring some ('\u2028a' after a table)
    state.output = state.output.strip()
    fmt.prepare(state.output).refuse_healed_notes(fmt.name)  # check() would set one aside
    refuse_grown(len(state.output), max_size)  # the core's verdict, before a reading
    again = fmt.analyze(state.output, schema, **options)
    if not again.ok:
        raise HealError(
            f"cannot heal the HTML: after rewriting it, {again.violations[0].message}", list(again.violations)
        )
    return Healed(state.output, tuple(state.repairs), analysis=again)  # (the pipeline's next look)
