"""Size and depth limits: the one place the core and every plugin read them from.

Replies are untrusted, so every format refuses what is larger or deeper than these with a
violation, never a crash. The size limit is decided by the core, for every format, on the
reply as received (:func:`too_large`, before any locating or healing) and on the text
healing returns (a payload healed past ``max_size`` fails). A caller changes the limits per
check with the options every format accepts (``EXPECT JSON max_depth=50``,
``Expectations(options={"max_size": 10_000})``); a plugin reads the effective values with
:func:`limits_from`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .results import HealError, Violation

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


def too_large(length: int, max_size: int, *, healed: bool = False, stopped: bool = False) -> Violation | None:
    """``reply.too_large`` when ``length`` passes ``max_size``, else ``None``.

    Decided on the reply as received, before any work it would bound (a length, never a
    reading of the text), and again on the healed payload (``healed=True``, which the message
    says): a reply within the limit whose healing grows it past the limit fails, so that what
    ``heal`` returns is itself within the limit and ``heal(heal(x)) == heal(x)`` holds under
    any ``max_size``. ``stopped``: the heal was stopped at ``length`` characters, as soon as
    it passed the limit (:class:`~formatbook_core.healing.Written`).
    """
    if length <= max_size:
        return None
    what = "healing the payload made" if healed else "the reply has"
    when = " when it was stopped" if stopped else ""
    return Violation(
        "reply.too_large",
        f"{what} {length:,} characters{when}, more than the limit of {max_size:,} (max_size)",
        keyword="max_size",
        expected=max_size,
    )


def refuse_grown(length: int, max_size: int, *, stopped: bool = False) -> None:
    """Raise ``HealError`` with :func:`too_large`'s verdict on a healed text of ``length``.

    For a heal about to read its repaired text again (to confirm it parses): a text grown
    past the limit fails anyway (the pipeline checks every format's healed text), so it is
    refused first, with the core's code, without that reading. ``stopped``: a heal stopped
    while it wrote, as soon as its text passed the limit.
    """
    grown = too_large(length, max_size, healed=True, stopped=stopped)
    if grown is not None:
        raise HealError(f"cannot heal the text: {grown.message}", [grown])
