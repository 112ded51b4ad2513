"""hypothesis-jsonschema's ``from_schema``, usable with this Hypothesis.

hypothesis-jsonschema 0.23.1 draws object members with ``cu.many(...).more()``, which
Hypothesis 6.1xx replaced by a context manager iterated with ``for``; every object schema
then fails with ``AttributeError``. The shim below gives that one module the old
protocol on top of the new one (nothing else in Hypothesis is touched).
"""

from __future__ import annotations

import types
from typing import Any

from hypothesis.internal.conjecture import utils as _cu
from hypothesis_jsonschema import _from_schema
from hypothesis_jsonschema import from_schema as from_schema


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

__all__ = ["from_schema"]
