"""A violation about a number shows the number as the reply wrote it.

JSON Schema's messages open with the parsed value's ``repr`` (``3.1 is not of type
'integer'``); the reply wrote ``3.10``, or ``1e400`` (a ``Decimal('1E+400')``), or
``1.5e-400`` (``0.0``). A message that names a value the reply never wrote misleads the
person reading it and the model asked to fix it. Each data format maps a violation's path
to the number's text in its payload; this module rewrites the message's opening, and
only that: a message that does not open with the value's ``repr`` is left as it is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from formatbook_core.results import Violation

__all__ = ["is_number", "opening_as_written"]


def is_number(value: Any) -> bool:
    """``value`` is a number a parser read (``int``, ``float``, ``Decimal``), not a ``bool``."""
    from decimal import Decimal  # noqa: PLC0415 - only when a violation names a value

    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def opening_as_written(violation: Violation, value: Any, written: str) -> Violation:
    """``violation`` with its message opening with ``written`` (the number ``value`` as
    the reply wrote it) instead of ``repr(value)``; unchanged when the message opens
    otherwise or the two read the same."""
    shown = repr(value)
    message = violation.message
    if written == shown or not message.startswith(shown + " "):
        return violation
    return replace(violation, message=written + message[len(shown) :])
