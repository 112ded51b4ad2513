"""The plan's checking steps: refuse what cannot be healed, settle a valid text, confirm
the repaired one."""

from __future__ import annotations

from formatbook_core import HealError
from formatbook_core.limits import refuse_grown

from ..syntax import check_syntax
from .state import Healing, fail


def refuse(h: Healing) -> None:
    if not isinstance(h.text, str):
        raise fail(f"an XML reply is text, not {type(h.text).__name__}")
    if len(h.text) > h.limits.max_size:
        raise fail(f"the text is longer than {h.limits.max_size:,} characters (max_size)", "xml.too_large")


def _schema_violations(h: Healing, root: object, text: str) -> list:
    if h.schema is None:
        return []
    return h.schema.violations(root, text)


def settle_if_valid(h: Healing) -> None:
    """A well-formed text is left as it is (healing cannot mend a schema violation). The
    text's analysis, when the caller made one (``analyze`` with the same schema), answers
    without reading the text again."""
    if h.analysis is not None:
        root, violations = h.analysis.document, list(h.analysis.violations)
    else:  # only the verdict and a DOCTYPE refusal count here: explain=False
        root, violations = check_syntax(h.text, h.limits, explain=False)
        if root is not None:
            violations = _schema_violations(h, root, h.text)
    if root is None:
        if any(v.code == "xml.doctype" for v in violations):
            raise HealError(f"cannot heal the XML: {violations[0].message}", violations)
        return
    if violations:  # the schema's
        raise HealError(f"cannot heal the XML: {violations[0].message}", violations)
    h.out = h.text
    h.done = True


def confirm(h: Healing) -> None:
    """The repaired text must be well-formed and satisfy the schema; one grown past
    ``max_size`` is refused before it is read (the core's verdict)."""
    refuse_grown(len(h.out), h.limits.max_size)
    root = h.root  # the structure step may have read ``out`` already (well-formed)
    if root is None:
        root, violations = check_syntax(h.out, h.limits)
        if root is None:
            raise HealError(f"cannot heal the XML: {violations[0].message}", [_no_span(v) for v in violations])
    problems = _schema_violations(h, root, h.out)
    if problems:
        raise HealError(f"cannot heal the XML: {problems[0].message}", [_no_span(v) for v in problems])
    h.root = root


def _no_span(v):  # offsets into the repaired text do not index the payload
    from dataclasses import replace  # noqa: PLC0415 - only on failure

    return replace(v, span=None)
