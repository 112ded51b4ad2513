"""The strictness level (Flex-MD's L0–L3): the ``level`` option as an int."""

from __future__ import annotations

import re
from typing import Any

_LEVEL_TEXT = re.compile(r"\s*[lL]?([0-3])\s*")


def parse_level(level: Any) -> int:
    """A strictness level as an int 0..3. Accepts ``0``..``3`` and the strings ``"0"``..
    ``"3"`` / ``"L0"``..``"L3"`` (as an ``EXPECT ... level=2`` option arrives); anything
    else (including ``True``) raises ``ValueError``."""
    if isinstance(level, bool):
        raise ValueError(f"level must be 0, 1, 2 or 3, not {level!r}")
    if isinstance(level, str):
        m = _LEVEL_TEXT.fullmatch(level)
        if m:
            return int(m.group(1))
    elif isinstance(level, int) and 0 <= level <= 3:
        return level
    raise ValueError(f"level must be 0, 1, 2 or 3, not {level!r}")
