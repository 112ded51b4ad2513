"""The icalendar library's reading of a text, kept apart from its process-wide time-zone cache.

``Calendar.from_ical`` caches every ``VTIMEZONE`` it reads under its ``TZID`` in one
cache for the whole process (``icalendar.timezone.tzp``), computes the zone only when the
``TZID`` is not cached yet, and resolves later ``TZID`` parameters against it. Read as is,
one reply's verdict would hang on the replies read before it (a ``VTIMEZONE`` the library
cannot turn into a zone fails only the first time its ``TZID`` is seen), and every new
``TZID`` in an untrusted reply would stay in memory for good.

Each reading here starts from an empty cache, so it sees the tz database's zones and the
text's own ``VTIMEZONE`` components, nothing else, and the cache is given back as it was
afterwards. Readings are serialised by a lock; code of the caller that uses the library's
cache from another thread while a reply is read sees the empty one meanwhile.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

__all__ = ["from_ical"]

_LOCK = threading.Lock()
_CACHE = "_TZP__tz_cache"  # TZP's private cache dict (icalendar 6 and 7)


def from_ical(text: str) -> list[Any]:
    """``Calendar.from_ical(text, multiple=True)`` on a cache of its own; raises what the
    library raises."""
    from icalendar import Calendar  # noqa: PLC0415 - lazy: heavy
    from icalendar.timezone import tzp  # noqa: PLC0415 - lazy: heavy

    with _LOCK:
        kept = getattr(tzp, _CACHE, None)
        if isinstance(kept, dict):
            setattr(tzp, _CACHE, {})
        try:
            with warnings.catch_warnings():  # the library warns about guesses: the rules judge
                warnings.simplefilter("ignore")
                return Calendar.from_ical(text, multiple=True)
        finally:
            if isinstance(kept, dict):
                setattr(tzp, _CACHE, kept)
