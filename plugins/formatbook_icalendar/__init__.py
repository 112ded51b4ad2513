"""The ``icalendar`` format: RFC 5545 iCalendar (aliases ``ical``, ``ics``).

Parsed by the ``icalendar`` library; validity follows RFC 5545's rules (see README.md).
"""

from __future__ import annotations

from formatbook_core import hookimpl

from .format import ICalendarFormat

__all__ = ["ICalendarFormat", "register_formats"]


@hookimpl
def register_formats(register):
    """Register the ``icalendar`` format."""
    register(ICalendarFormat())
