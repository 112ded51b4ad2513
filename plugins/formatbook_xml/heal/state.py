"""The healing in progress: the input, the output pieces and the repairs made so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from formatbook_core import HealError, Repair, Violation
from formatbook_core.healing import HealState
from formatbook_core.limits import Limits


@dataclass
class Healing(HealState):
    """``text`` is the payload as given; ``out`` the repaired text being written; every
    repair's span indexes ``text``. ``wrapper`` names the element several roots are
    wrapped in. ``done`` is set once a step has settled the answer (a valid text)."""

    text: str
    schema: Any
    limits: Limits
    wrapper: str
    out: str = ""
    repairs: list[Repair] = field(default_factory=list)
    done: bool = False
    root: Any = None  # the tree of ``out`` once confirmed (handed on: not parsed again)
    analysis: Any = None  # the caller's ``Analysis`` of ``text`` with ``schema``, if any


def fail(message: str, code: str = "xml.heal", start: int | None = None, end: int | None = None) -> HealError:
    """A ``HealError`` with one violation (to ``raise``)."""
    from formatbook_core import Span  # noqa: PLC0415 - local to keep this module's imports minimal

    span = Span(start, end if end is not None else start) if start is not None else None
    return HealError(f"cannot heal the XML: {message}", [Violation(code, message, span=span)])
