"""The iCalendar schema: a small JSON-like mapping from component names to what the
reply must hold of them::

    {"VEVENT": {"min": 1, "max": 3, "required": ["SUMMARY", "DTSTART", "LOCATION"]}}

``min`` / ``max`` count the components of that name in the whole reply (every calendar);
``required`` lists properties each of them must have. Given as a dict, JSON text or the
path of a JSON file (read only when given as a path; relative to ``base_dir``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from formatbook_core import ExpectationError, Span, Violation
from formatbook_core.schema_files import read_schema_file

_KEYS = frozenset({"min", "max", "required"})


@dataclass(frozen=True)
class Rule:
    component: str
    min: int | None
    max: int | None
    required: tuple[str, ...]


@dataclass(frozen=True)
class CalendarSchema:
    """A loaded schema: one :class:`Rule` per component name."""

    rules: tuple[Rule, ...]
    source: Any = None

    def violations(self, tree: Any) -> list[Violation]:
        out: list[Violation] = []
        comps = [c for root in tree.roots for c in root.walk()]
        for rule in self.rules:
            found = [c for c in comps if c.name == rule.component]
            if rule.min is not None and len(found) < rule.min:
                out.append(
                    Violation(
                        "schema.min_components",
                        f"the reply has {len(found)} {rule.component} (at least {rule.min} expected)",
                        keyword="min",
                        expected=rule.min,
                    )
                )
            if rule.max is not None and len(found) > rule.max:
                extra = found[rule.max]
                out.append(
                    Violation(
                        "schema.max_components",
                        f"the reply has {len(found)} {rule.component} (at most {rule.max} expected)",
                        path=extra.path,
                        span=Span(extra.start, max(extra.end, extra.start)),
                        keyword="max",
                        expected=rule.max,
                    )
                )
            for comp in found:
                for prop in rule.required:
                    if not comp.get(prop):
                        out.append(
                            Violation(
                                "schema.required",
                                f"{comp.label} has no {prop} (the schema requires it)",
                                path=(*comp.path, prop),
                                span=Span(comp.start, max(comp.end, comp.start)),
                                keyword="required",
                                expected=prop,
                            )
                        )
        return out


def load_schema(schema: Any, base_dir: str | None = None) -> CalendarSchema | None:
    """A :class:`CalendarSchema` from a dict, JSON text or a JSON file; raises
    ``ExpectationError`` for anything else."""
    if schema is None or isinstance(schema, CalendarSchema):
        return schema
    source = schema
    if isinstance(schema, (str, Path)):
        text = str(schema).strip()
        if isinstance(schema, str) and text.startswith("{"):
            try:
                schema = json.loads(text)
            except ValueError as err:
                raise ExpectationError(f"the iCalendar schema is not JSON: {err}") from None
        else:
            path = Path(text)
            if base_dir and not path.is_absolute():
                path = Path(base_dir) / path
            try:
                schema = json.loads(read_schema_file(path, what="iCalendar schema"))
            except ExpectationError:
                raise  # a FIFO, a file over the size cap (an ExpectationError is a ValueError)
            except (OSError, ValueError) as err:
                raise ExpectationError(f"cannot read the iCalendar schema {text!r}: {err}") from None
    if not isinstance(schema, dict):
        raise ExpectationError(
            'an iCalendar schema maps component names to rules: {"VEVENT": {"min": 1, "required": ["SUMMARY"]}}'
        )
    rules = []
    for name, rule in schema.items():
        if not isinstance(name, str) or not name.strip():
            raise ExpectationError(f"iCalendar schema: {name!r} is no component name")
        if not isinstance(rule, dict):
            raise ExpectationError(f"iCalendar schema: the rule for {name} must be a mapping with min, max, required")
        unknown = set(rule) - _KEYS
        if unknown:
            raise ExpectationError(
                f"iCalendar schema: {name} has unknown keys {sorted(unknown)} (known: max, min, required)"
            )
        low, high = rule.get("min"), rule.get("max")
        for key, value in (("min", low), ("max", high)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise ExpectationError(f"iCalendar schema: {name}.{key} must be a whole number ≥ 0")
        if low is not None and high is not None and low > high:
            raise ExpectationError(f"iCalendar schema: {name} has min {low} > max {high}")
        required = rule.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) and r.strip() for r in required):
            raise ExpectationError(f"iCalendar schema: {name}.required must be a list of property names")
        rules.append(Rule(name.strip().upper(), low, high, tuple(r.strip().upper() for r in required)))
    return CalendarSchema(tuple(rules), source)
