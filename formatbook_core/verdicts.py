"""The verdict on the last text a format read, kept for callers that need only a verdict.

One reply meets a format several times with the same text: ``is_valid`` then ``validate``,
a stream's ``finish`` then the ``check`` of what it gathered, ``heal``'s first look before
it finds nothing to repair, the final confirmation of a repair. Where reading means a whole
library parse (icalendar, vobject: most of the cost of a check), reading an equal text
again is the largest cost left. :class:`LastVerdict` keeps the violations of the last text
read, with the limits and schema it was read under, and answers a *verdict-only* question
about an equal text from them.

Only violations are kept, never a value: a value (a parsed calendar, a card) is the
caller's to change, so a caller that needs one always gets a fresh reading. The text kept
is compared whole (``==``: the same object at once, else its length, then its characters),
so an answer is never about another text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

from .results import Analysis, Violation

__all__ = ["LastVerdict"]


class _Slot(threading.local):
    entry: tuple[object, Hashable, tuple[Violation, ...]] | None = None


class LastVerdict:
    """The violations found in the last text read (under a ``key``: limits, schema)."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last = _Slot()  # one per thread: threads never see each other's texts

    def violations(self, text: str, key: Hashable, read: Callable[[], Analysis]) -> tuple[Violation, ...]:
        """``read()``'s violations, answered without reading when ``text`` and ``key`` are
        those of the last reading."""
        last = self._last.entry
        if last is not None and last[1] == key and last[0] == text:
            found: tuple[Violation, ...] = last[2]
            return found
        return self.analysis(text, key, read).violations

    def analysis(self, text: str, key: Hashable, read: Callable[[], Analysis]) -> Analysis:
        """``read()`` (always a fresh reading: its value is the caller's), its verdict kept."""
        found = read()
        self._last.entry = (text, key, found.violations)
        return found
