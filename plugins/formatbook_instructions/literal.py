"""A quoted literal (``","``, ``"data"``) as something to find in a reply.

formatbook's rule: case-insensitive; a literal of two or more characters that starts and
ends with a letter or digit matches whole words only (``"data"`` is not found in
``"database"``); a single character is found everywhere (``MAX 0 "e"`` is a lipogram);
occurrences do not overlap. IFEval's checker finds keywords as plain case-insensitive
substrings (``definition="ifeval"``) and forbidden words between ``\\b`` boundaries
(``mode="word"``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from formatbook_core.results import ExpectationError

DEFINITIONS = ("formatbook", "ifeval")

_ALNUM = r"[^\W_]"  # a letter or digit (str.isalnum), as re sees it


def check_definition(definition: str) -> str:
    if definition not in DEFINITIONS:
        raise ExpectationError(f"definition={definition!r}: the definitions are {', '.join(DEFINITIONS)}")
    return definition


class Literal:
    """Where a literal occurs in a text. ``mode``: ``"formatbook"`` (the rule above),
    ``"substring"`` (anywhere, case-insensitive: IFEval's keywords) or ``"word"``
    (between ``\\b`` boundaries, case-insensitive: IFEval's forbidden words)."""

    def __init__(self, text: str, mode: str = "formatbook"):
        if not isinstance(text, str) or text == "":
            raise ExpectationError(f"a literal is a non-empty string, not {text!r}")
        if mode not in ("formatbook", "substring", "word"):
            raise ExpectationError(f"unknown literal mode {mode!r}")
        self.text = text
        self.mode = mode
        self.pattern, self.whole = _compile(text, mode)
        self.raw = _raw(text)

    def find(self, text: str, start: int = 0) -> list[tuple[int, int]]:
        """Every occurrence (start, end), left to right, none overlapping."""
        return [m.span() for m in self.pattern.finditer(text, start)]

    def search(self, text: str, start: int = 0) -> tuple[int, int] | None:
        m = self.pattern.search(text, start)
        return m.span() if m else None

    def count(self, text: str) -> int:
        return sum(1 for _ in self.pattern.finditer(text))

    @property
    def context(self) -> int:
        """Characters of look-around beyond the literal itself a match depends on."""
        return 1 if self.whole else 0


@lru_cache(maxsize=256)
def _compile(text: str, mode: str) -> tuple[re.Pattern[str], bool]:
    body = re.escape(text)
    if mode == "word":
        return re.compile(rf"\b{body}\b", re.IGNORECASE), True
    whole = mode == "formatbook" and len(text) > 1 and text[0].isalnum() and text[-1].isalnum()
    if whole:
        body = rf"(?<!{_ALNUM}){body}(?!{_ALNUM})"
    return re.compile(body, re.IGNORECASE), whole


@lru_cache(maxsize=256)
def _raw(text: str) -> re.Pattern[str]:
    return re.compile(re.escape(text), re.IGNORECASE)


def settled_end(lit: Literal, text: str, start: int = 0) -> int:
    """The largest index ``i`` (searched from about ``start`` on) where counting ``lit`` is
    additive for every continuation: no occurrence straddles ``i`` — neither one in the
    text (overlapping ones included) nor one the text's end may begin (a suffix that is a
    prefix of the literal) — and, for whole words, the character before ``i`` is no letter
    or digit, so that the look-arounds on both sides agree. 0 when none is found; the cost
    is linear in ``len(text) - start`` times the literal's length."""
    if lit.mode == "word":
        return 0  # \b around a non-word character looks past the split: never settled early
    size = len(lit.text)
    length = len(text)
    high = length
    for j in range(max(0, length - size + 1), length):  # an occurrence the continuation may complete
        if _prefix(lit.text, length - j).fullmatch(text, j):
            high = j
            break
    low = max(1, start - size - 2)
    if high < low:
        return 0
    blocked: set[int] = set()
    pos = max(0, low - size + 1)
    while True:
        m = lit.raw.search(text, pos, high + size - 1)
        if m is None:
            break
        blocked.update(range(m.start() + 1, m.end()))
        pos = m.start() + 1
    for i in range(high, low - 1, -1):
        if i in blocked or (lit.whole and text[i - 1].isalnum()):
            continue
        return i
    return 0


@lru_cache(maxsize=1024)
def _prefix(text: str, size: int) -> re.Pattern[str]:
    return re.compile(re.escape(text[:size]), re.IGNORECASE)
