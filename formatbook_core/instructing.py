"""Instructions in the check pipeline: each judges the checked text, and a count that
passed its MAX says where the extra units are.

What an instruction judges is the checked text (``CheckResult.text``): without a format the reply (a
``<think>`` block opening it set aside), with one the located payload (healed if need be).
Violation spans are moved to offsets into the reply; when the text was healed they are
dropped (an offset into healed text is no offset into the reply).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .kinds import declared, line_col
from .results import Span, Violation

#: positions listed in a count's violation; the rest are "…"
SHOWN = 5


def judge(exp: Any, text: str, offset: int | None, values: Callable[[], list[str]] | None = None) -> list[Violation]:
    """The violations of ``exp.instructions`` on the checked ``text``, spans moved into the reply.

    ``values`` (with a format) gives the payload's decoded values. An instruction whose
    ``also_values`` is ``"nowhere"`` (CASE, NOT CONTAINS) is judged on them too: a value
    written with escapes (JSON's ``"\\u0041"``, an HTML entity) must not hide a capital or
    a forbidden word. ``"somewhere"`` (CONTAINS) passes when the values hold what the text
    spells with escapes.
    """
    violations: list[Violation] = []
    decoded: str | None = None
    for instruction in exp.instructions:
        try:
            found = _check(instruction, text)
            mode = declared(instruction, "also_values")
            if values is not None and mode in ("nowhere", "somewhere") and (not found) == (mode == "nowhere"):
                if decoded is None:
                    decoded = "\n".join(values())
                in_values = _check(instruction, decoded)
                if mode == "somewhere" and not in_values:
                    found = []
                elif mode == "nowhere" and in_values:
                    found = [
                        replace(v, message=f"in the decoded values (escaped in the text): {v.message}", span=None)
                        for v in in_values
                    ]
        except Exception as exc:  # a plugin bug is reported like every plugin failure
            found = [
                Violation(
                    "plugin.error", f"the instruction {_describe(instruction)} failed: {type(exc).__name__}: {exc}"
                )
            ]
        for violation in found:
            if violation.span is not None:
                violation = violation.shift(offset) if offset is not None else replace(violation, span=None)
            violations.append(violation)
    return violations


def _check(instruction: Any, text: str) -> list[Violation]:
    found = list(instruction.check(text))
    if not all(isinstance(v, Violation) for v in found):
        raise TypeError("check() returned something that is not a Violation")
    return found


def where_counted(
    violation: Violation, unit: Any, values: list[str], text: str | None, offset: int | None
) -> Violation:
    """``violation`` (a count over its MAX) with where the units are, when the unit can
    find them (``find(text) -> [(start, end), ...]``): ``line 2 col 14, line 5 col 3, …``
    in the checked ``text`` (no format), else the values that hold them."""
    find = unit.find
    if not callable(find):
        return violation
    try:
        if text is not None:
            spots = list(find(text))
            if not spots:
                return violation
            shown = ", ".join(line_col(text, start) for start, _ in spots[:SHOWN])
            more = ", …" if len(spots) > SHOWN else ""
            span = Span(spots[0][0], spots[0][1])
            if offset is not None:
                span = span.shift(offset)
            return replace(
                violation, message=f"{violation.message}: {shown}{more}", span=span if offset is not None else None
            )
        holding = [v for v in values if find(v)]
    except Exception:  # where is a courtesy: the count itself stands
        return violation
    if not holding:
        return violation
    quoted = ", ".join(repr(v if len(v) <= 40 else v[:39] + "…") for v in holding[:SHOWN])
    more = ", …" if len(holding) > SHOWN else ""
    return replace(violation, message=f"{violation.message}: the values {quoted}{more}")


def _describe(instruction: Any) -> str:
    try:
        return str(instruction.describe())
    except Exception:
        return type(instruction).__name__
