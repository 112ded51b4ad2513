"""Patterns that match at every position: a run of characters, possibly empty (``[0-9]*``).

The scanners of several formats step through text with such runs (``i = RUN.match(text,
i).end()``). ``re.Pattern.match`` is typed ``Match | None``, and mypy cannot see that a run
never gives ``None``; :func:`run` compiles the pattern, checks that it matches the empty
string, and says so in its type, so that no scanner needs a check per call.
"""

from __future__ import annotations

import re
import sys
from typing import Protocol, cast

__all__ = ["Run", "run"]


class Run(Protocol):
    """A compiled pattern whose ``match`` always matches (the empty string at worst)."""

    @property
    def pattern(self) -> str: ...

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str]: ...

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None: ...


def run(pattern: str, flags: int = 0) -> Run:
    """``pattern`` compiled, as a :class:`Run`.

    The pattern must match the empty string with no condition on its surroundings (no
    anchor or lookaround outside an optional part): then it matches at every position.
    Raises ``ValueError`` for a pattern that does not match the empty string.
    """
    compiled = re.compile(pattern, flags)
    if compiled.match("") is None:
        raise ValueError(f"{pattern!r} does not match the empty string: it is no run")
    return cast(Run, compiled)  # what the check above established, which mypy cannot infer
