"""The counting stage of a check: count what the expectations ask for, compare each count
with its limits, then let the instructions judge the checked text.

Only the units asked for are counted, on the values the format extracts (each value on its
own for a ``per="value"`` limit) or on the payload's text for units that read markup.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .expectations import Count, Expectations
from .results import Analysis, ScopeNotFound, Violation


class Tally(NamedTuple):
    """What the counting stage found: the ``counts`` asked for, by key, and the
    ``violations`` of the counts and instructions (empty when every one holds)."""

    counts: dict[str, int]
    violations: list[Violation]


def tally(
    exp: Expectations,
    fmt: Any,
    schema: Any,
    text: str,
    value: Any,
    offset: int | None = 0,
    analysis: Analysis | None = None,
) -> Tally:
    """Count what the expectations ask for in the checked ``text`` (parsed to ``value``)
    and compare; then the instructions judge the text (``offset``: where it starts in the
    reply, ``None`` when it was healed). ``analysis``: the format's analysis of ``text``,
    whose parse gives the values (``values_of`` / ``scope_of``): the text is not read
    again."""
    analysis = analysis if analysis is not None else Analysis(value)
    counts: dict[str, int] = {}
    violations = _counts(exp, fmt, schema, text, analysis, counts, offset) if exp.counts else []
    if exp.instructions:
        from .instructing import judge  # noqa: PLC0415 - only when instructions are asked for

        values = None
        if fmt is not None:  # the decoded values: CASE / CONTAINS judge what escapes spell too

            def values() -> list[str]:
                decoded = _strings(fmt.values_of(analysis, text, schema, **exp.options))
                return decoded + _keys(value)

        violations += judge(exp, text, offset, values)
    return Tally(counts, violations)


def _counts(
    exp: Expectations,
    fmt: Any,
    schema: Any,
    text: str,
    analysis: Analysis,
    counts: dict[str, int],
    offset: int | None,
) -> list[Violation]:
    """The violations of ``exp.counts`` on ``text``; each amount counted goes in ``counts``."""
    from .counting import count_values  # noqa: PLC0415 - counting (and regex) only when limits are asked for

    violations: list[Violation] = []
    values: list[str] | None = None
    for count in exp.counts:
        violation: Violation | None = None
        if count.key in counts:  # the same unit and scope under another limit: counted once
            amount = counts[count.key]
            violation = compare_count(count, amount)
        else:
            try:
                if fmt is not None and exp.unit_of(count).reads == "text":
                    scoped = [text] if text.strip() else []  # markup units count the payload
                elif count.scope is not None:
                    scoped = _strings(fmt.scope_of(analysis, text, count.scope, schema, **exp.options))
                elif fmt is None:
                    scoped = [text] if text.strip() else []
                else:
                    if values is None:
                        values = _strings(fmt.values_of(analysis, text, schema, **exp.options))
                    scoped = values
            except ScopeNotFound as exc:
                violations.append(
                    Violation(
                        "count.scope_missing",
                        f'{count.describe()}: the reply has no {fmt.scope_kind or "scope"} "{count.scope}" ({exc})',
                        keyword="scope",
                        expected=count.scope,
                    )
                )
                continue
            except Exception as exc:
                violations.append(plugin_failure(fmt, "extract_values", exc))
                continue
            unit = exp.unit_of(count)
            if count.per is not None:  # each value on its own: the first one off its limit
                amounts = []
                for each_value in scoped:
                    each = count_values(unit, [each_value], registry=exp.active_registry())
                    amounts.append(each)
                    if violation is None:
                        violation = compare_count(count, each, each_value)
                counts[count.key] = (
                    (min(amounts) if count.max is None and count.exactly is None else max(amounts)) if amounts else 0
                )
            else:
                amount = count_values(unit, scoped, registry=exp.active_registry())
                counts[count.key] = amount
                violation = compare_count(count, amount)
                if violation is not None and count.upper is not None and amount > count.upper:
                    from .instructing import where_counted  # noqa: PLC0415

                    whole = fmt is None or unit.reads == "text"
                    violation = where_counted(violation, unit, scoped, text if whole else None, offset)
        if violation is not None:
            violations.append(violation)
    return violations


def compare_count(count: Count, amount: int, value: str | None = None) -> Violation | None:
    """The violation of ``count`` by ``amount``, or ``None`` when it holds (``value``: the
    one value counted, for a ``per="value"`` limit)."""
    where = f' in "{count.scope}"' if count.scope is not None else ""
    if value is not None:
        shown = value if len(value) <= 40 else value[:39] + "…"
        where += f" in the value {shown!r}"
    if count.exactly is not None and amount != count.exactly:
        return Violation(
            "count.exactly",
            f"{count.amount(amount)}{where}, expected exactly {count.exactly}",
            keyword="exactly",
            expected=count.exactly,
        )
    if count.max is not None and amount > count.max:
        return Violation(
            "count.max",
            f"{count.amount(amount)}{where} {'exceeds' if amount == 1 else 'exceed'} the maximum of {count.max}",
            keyword="max",
            expected=count.max,
        )
    if count.min is not None and amount < count.min:
        return Violation(
            "count.min",
            f"{count.amount(amount)}{where} {'falls' if amount == 1 else 'fall'} short of the minimum of {count.min}",
            keyword="min",
            expected=count.min,
        )
    return None


def raised_by(v: Violation, count: Count) -> bool:
    """Whether the ``count.*`` violation ``v`` was raised by ``count``: its limit, and the
    amount, unit and scope its message opens with, as :func:`compare_count` writes them."""
    if v.code == "count.scope_missing":
        return count.scope is not None and v.expected == count.scope
    bound = {"max": count.max, "min": count.min, "exactly": count.exactly}.get(v.keyword or "")
    if bound is None or v.expected != bound:
        return False
    amount, _, _ = v.message.partition(" ")
    if not amount.isdigit():
        return False
    where = f' in "{count.scope}"' if count.scope is not None else ""
    head = f"{count.amount(int(amount))}{where}"
    if not v.message.startswith(head):
        return False
    after = v.message[len(head) :]
    if (count.per is not None) != after.startswith(" in the value"):
        return False
    return after.startswith((" exceed", " fall", ",", " in the value"))


def _keys(value: Any) -> list[str]:
    """The string keys of the mappings in a parsed value (JSON, YAML): decoded, as a key's
    escapes spell it. Iterative, and each container once: YAML aliases may share one
    (an alias bomb) or hold themselves."""
    keys: list[str] = []
    stack = [value]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, (dict, list, tuple)):
            if id(item) in seen:
                continue
            seen.add(id(item))
        if isinstance(item, dict):
            keys.extend(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return keys


def _strings(values: Any) -> list[str]:
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise TypeError(f"returned {type(values).__name__} {values!r:.60}, not a list of str")
    return list(values)


def plugin_failure(fmt: Any, method: str, exc: Exception) -> Violation:
    return Violation(
        "plugin.error",
        f"the {fmt.name} format's {method}() failed: {type(exc).__name__}: {exc}",
    )
