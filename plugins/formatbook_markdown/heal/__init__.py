"""detect → repair → enforce: the repair plan and what it reports.

``plan`` the nine steps in order, as data, and :func:`~.plan.run_plan` · ``state`` what
the steps share · one module per step: ``think`` (1), ``glued`` (2), ``container`` (3),
``headings`` (4), ``levels`` (5), ``preamble`` (6), ``missing`` (7), ``kinds`` (8),
``table_fix`` (9) · ``issues`` what the plan cannot repair · ``envelope`` the Issues
Envelope · ``enforce`` :func:`~.enforce.enforce_flex_md`, ``validate_output``,
``extract_output`` · :func:`heal` the entry point, with the signature every format's healing has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from formatbook_core import Analysis, Healed, HealError


def heal(
    text: str,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
    *,
    analysis: Analysis | None = None,
) -> Healed:
    """The repaired reply with its repairs and what was set aside; ``HealError`` when the
    plan leaves issues (a missing section without empty value...). The signature every
    format's healing has (:class:`formatbook_core.healing.Heal`): ``schema`` is the
    contract; ``analysis`` is not needed (the plan's result for a text is kept)."""
    from ..format import MarkdownFormat  # noqa: PLC0415 - the format imports this module

    result, problem = MarkdownFormat()._enforce(text, schema, dict(options or {}))
    if problem is not None:
        raise HealError(problem.message, [problem])
    if not result.ok:
        violations = [i.to_violation() for i in result.issues]
        raise HealError(f"cannot repair the Markdown reply: {violations[0].message}", violations)
    return Healed(result.repaired_md, tuple(result.repairs), tuple(result.set_aside))
