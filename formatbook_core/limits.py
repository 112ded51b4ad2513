"""Size and depth limits: the one place the core and every plugin read them from.

Replies are untrusted, so every format refuses what is larger or deeper than these with a
violation, never a crash. A caller changes them per check with the options every format
accepts (``EXPECT JSON max_depth=50``, ``Expectations(options={"max_size": 10_000})``); a
plugin reads the effective values with :func:`limits_from`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

#: Replies longer than this many characters are refused with a violation, not parsed.
MAX_SIZE = 16 * 1024 * 1024
#: Containers (objects, lists, elements, sections) nested deeper than this are refused.
MAX_DEPTH = 1000
#: A schema or contract file named in an EXPECT line holding more bytes than this is
#: refused before it is read (the same 16 MiB as a reply; :mod:`formatbook_core.schema_files`).
MAX_SCHEMA_FILE_SIZE = 16 * 1024 * 1024


class Limits(NamedTuple):
    """The limits in force for one call."""

    max_size: int = MAX_SIZE
    max_depth: int = MAX_DEPTH


DEFAULT = Limits()


def limits_from(options: Mapping[str, Any] | None) -> Limits:
    """The limits the options ask for (``max_size``, ``max_depth``), else the defaults.

    The options were validated when the expectations were built; a value that is not a
    whole number > 0 (a direct call with a bad option) falls back to the default.
    """
    if not options:
        return DEFAULT
    size = options.get("max_size", MAX_SIZE)
    depth = options.get("max_depth", MAX_DEPTH)
    if not _positive(size):
        size = MAX_SIZE
    if not _positive(depth):
        depth = MAX_DEPTH
    if size == MAX_SIZE and depth == MAX_DEPTH:
        return DEFAULT
    return Limits(size, depth)


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
