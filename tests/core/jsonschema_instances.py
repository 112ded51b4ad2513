"""hypothesis-jsonschema's ``from_schema``, usable with this Hypothesis, drawing ECMA digits.

hypothesis-jsonschema 0.23.1 draws object members with ``cu.many(...).more()``, which
Hypothesis 6.1xx replaced by a context manager iterated with ``for``; every object schema
then fails with ``AttributeError``. The shim below gives that one module the old
protocol on top of the new one (nothing else in Hypothesis is touched).

It draws a pattern's ``\\d`` and ``\\w`` from Python's Unicode classes, which the schemas'
ECMA engine does not read: ``^n\\d+$`` drew ``"n\\u0661"`` and the tests threw three
values in four away with ``assume`` (``test_never_refuses_a_valid_value[0]`` of
test_prefix_schema_patterns.py kept 5 of 964 draws in 85 s). :func:`from_schema` draws
from a copy whose patterns spell those classes out in ASCII, as ECMA reads them; the
schema checked stays the one given, and every value drawn is still a valid one.
"""

from __future__ import annotations

import json
import types
from typing import Any

from hypothesis.internal.conjecture import utils as _cu
from hypothesis_jsonschema import _from_schema
from hypothesis_jsonschema import from_schema as _from_schema_of


class _Many:
    """``many`` with the old ``more()`` / ``reject()`` protocol."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._many = _cu.many(*args, **kwargs)
        self._many.__enter__()
        self._elements = iter(self._many)

    def more(self) -> bool:
        try:
            next(self._elements)
        except StopIteration:
            self._many.__exit__(None)
            return False
        return True

    def reject(self, why: str | None = None) -> None:
        self._many.reject(why)


if not hasattr(_cu.many, "more"):
    shim = types.SimpleNamespace(**{k: getattr(_cu, k) for k in dir(_cu) if not k.startswith("__")})
    shim.many = _Many
    _from_schema.cu = shim  # type: ignore[attr-defined]

_ECMA_CLASSES = {"d": "0-9", "w": "A-Za-z0-9_"}


def ecma_classes(pattern: str) -> str:
    """``pattern`` with ``\\d`` and ``\\w`` spelled as the ASCII classes ECMA 262 reads."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            spelled = _ECMA_CLASSES.get(nxt)
            out.append(c + nxt if spelled is None else spelled if in_class else f"[{spelled}]")
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            out.append(c)
            if pattern.startswith("^", i + 1):  # a class opening with "]" or "^]" keeps it
                out.append("^")
                i += 1
            if pattern.startswith("]", i + 1):
                out.append("]")
                i += 1
        elif c == "]" and in_class:
            in_class = False
            out.append(c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _ecma_schema(schema: Any) -> Any:
    """A copy of ``schema`` whose patterns (``pattern``, ``patternProperties``' names) are
    spelled by :func:`ecma_classes`."""
    if isinstance(schema, list):
        return [_ecma_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    copy: dict[str, Any] = {}
    for key, sub in schema.items():
        if key in ("const", "enum", "default", "examples"):  # values, not schemas
            copy[key] = sub
        elif key == "pattern" and isinstance(sub, str):
            copy[key] = ecma_classes(sub)
        elif key == "patternProperties" and isinstance(sub, dict):
            copy[key] = {ecma_classes(k): _ecma_schema(v) for k, v in sub.items()}
        elif key in ("properties", "definitions", "$defs", "dependentSchemas") and isinstance(sub, dict):
            copy[key] = {k: _ecma_schema(v) for k, v in sub.items()}
        else:
            copy[key] = _ecma_schema(sub)
    return copy


def from_schema(schema: Any, **kwargs: Any) -> Any:
    """hypothesis-jsonschema's strategy for ``schema``, its patterns read as ECMA reads them.

    Built once per schema (as written, key order included) and options: the tests draw
    from it in every example, and building it walks the schema and builds composite
    strategies, each reading its function's source (about 20 ms a schema)."""
    key = json.dumps([schema, kwargs], default=repr)
    if key not in _BUILT:
        _BUILT[key] = _from_schema_of(_ecma_schema(schema), **kwargs)
    return _BUILT[key]


_BUILT: dict[str, Any] = {}


__all__ = ["ecma_classes", "from_schema"]
