"""Plain numbers read as the schema asks: ``version: 3.10`` is ``"3.10"`` where a string is wanted.

YAML resolves an untagged plain scalar by a schema; the core schema reads ``3.10`` as the
float 3.1 and ``2134`` as an integer. Where the JSON Schema asks for a string there (and
no number), the writer's text is the only reading that fits: the value is the scalar as
written (``"3.10"``, not ``"3.1"``), with no violation and no repair. Quoted scalars and
tagged ones (``!!float 3.10``) keep their type. A violation that still names such a value
shows it as written (``3.10 is not of type 'integer'``, not ``3.1``).
"""

from __future__ import annotations

import copy
from typing import Any

from formatbook_core import Violation
from formatbook_core.data_schema import opening_as_written

from .loading import PLAIN, tag_of
from .values import nodes_at

__all__ = ["as_written", "shown_as_written"]


def _wants_text(expected: Any) -> bool:
    types = expected if isinstance(expected, list) else [expected]
    return "string" in types and "number" not in types and "integer" not in types


def _plain_number(node: Any, value: Any) -> bool:
    """``node`` is an untagged plain scalar that YAML's core schema read as a number."""
    from ruamel.yaml.nodes import ScalarNode  # noqa: PLC0415 - lazy: heavy

    return (
        isinstance(node, ScalarNode)
        and node.style is None
        and tag_of(node) == PLAIN
        and isinstance(value, (int, float))
        and not isinstance(value, bool)
    )


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple, new: Any) -> None:
    parent = _get(value, path[:-1])
    parent[path[-1]] = new


def as_written(roots: list[Any], many: bool, value: Any, violations: list[Violation]) -> tuple[Any, bool]:
    """``value`` with each plain number a ``schema.type`` violation wants as a string
    replaced by its text as written, and whether anything was replaced."""
    wanted = {v.path for v in violations if v.keyword == "type" and v.path and _wants_text(v.expected)}
    if not wanted or not roots:
        return value, False
    found = nodes_at(roots, wanted, many)
    out = None
    for path, (_, node) in found.items():
        if _plain_number(node, _get(value, path)):
            out = out if out is not None else copy.deepcopy(value)
            _set(out, path, node.value)
    return (out, True) if out is not None else (value, False)


def shown_as_written(roots: list[Any], many: bool, value: Any, violations: list[Violation]) -> list[Violation]:
    """``violations`` whose message opens with a plain number's value (``3.1 is not of
    type 'integer'``) opening with its text as written instead (``3.10 ...``)."""
    paths = {v.path for v in violations if v.path}
    if not paths or not roots:
        return violations
    found = nodes_at(roots, paths, many)
    out = []
    for v in violations:
        node = found.get(v.path, (None, None))[1]
        if node is not None and v.path in found:
            try:
                number = _get(value, v.path)
            except (KeyError, IndexError, TypeError):
                number = None
            if _plain_number(node, number):
                v = opening_as_written(v, number, node.value)
        out.append(v)
    return out
