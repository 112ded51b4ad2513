"""``Repair`` objects made cheaply: healing one broken reply can list thousands of them,
and a frozen dataclass's ``__init__`` costs several times what the object needs.

``Repair`` and ``Span`` keep their public types; an instance made here is equal in every
way to one made by their constructors (checked once at import; if ``Repair`` ever changes
shape, the constructors are used instead).
"""

from __future__ import annotations

from formatbook_core import Repair, Span

__all__ = ["make"]

_new = object.__new__
_tuple_new = tuple.__new__


def _fast(kind: str, message: str, start: int, end: int) -> Repair:
    r = _new(Repair)
    d = r.__dict__
    d["kind"] = kind
    d["message"] = message
    d["span"] = _tuple_new(Span, (start, end))
    return r


def _slow(kind: str, message: str, start: int, end: int) -> Repair:  # pragma: no cover
    return Repair(kind, message, Span(start, end))


try:
    _probe = _fast("k", "m", 1, 2)
    _ok = (
        _probe == Repair("k", "m", Span(1, 2))
        and type(_probe.span) is Span
        and hash(_probe) == hash(Repair("k", "m", Span(1, 2)))
    )
except (AttributeError, TypeError):  # pragma: no cover - a Repair with __slots__
    _ok = False

#: ``make(kind, message, start, end)`` -> ``Repair(kind, message, Span(start, end))``
make = _fast if _ok else _slow
