"""What a column name looks like: the rule that keeps prose from passing as CSV.

A paragraph of English with commas splits into "cells" too; what gives it away is the
header row. A header cell is a column name only when it is:

- not empty, with no blanks around it and no line break inside;
- free of the other candidate delimiters (``,`` ``;`` tab ``|``) unless quoted;
- short: at most :data:`MAX_NAME_CHARS` characters and :data:`MAX_NAME_WORDS` words;
- not a sentence or a clause: no sentence end inside it (``. `` ``! `` ``? ``), and it
  does not end with ``!``, ``?``, ``:`` or ``;``, nor with ``.`` unless it is one short
  word (``No.``, ``Qty.``);
- not a label with its value (``Name: Ada``: a colon and a space inside).

And a header row is not all numbers (``1,2,3`` is data without a header).
"""

from __future__ import annotations

MAX_NAME_CHARS = 64
MAX_NAME_WORDS = 6
_ENDS = ("!", "?", ":", ";", "\u2026")
_INSIDE = (". ", "! ", "? ", "\u2026 ")
_BLANKS = " \t\r\n\f\v\u00a0"
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
CANDIDATES = (",", "\t", ";", "|")


def others(delimiter: str) -> str:
    """The candidate delimiters other than ``delimiter``."""
    return "".join(c for c in CANDIDATES if c != delimiter)


def name_problem(cell: str, others: str = "") -> str | None:
    """Why ``cell`` is not a column name, or ``None`` when it can be one. ``others``: the
    delimiters other than the one in use, which an unquoted name may not hold (``a;b`` in
    a comma-separated header: which separates the fields cannot be told)."""
    stripped = cell.strip()
    if not stripped:
        return "an empty column name"
    if cell[0] in _BLANKS or cell[-1] in _BLANKS:
        return f"the column name {_show(cell)} has blanks around it"
    if "\n" in cell or "\r" in cell:
        return f"the column name {_show(cell)} holds a line break"
    for other in others:
        if other in cell:
            return f"the column name {_show(cell)} holds a {_DELIMITER_NAMES.get(other, repr(other))}, another delimiter: quote it"
    if len(cell) > MAX_NAME_CHARS:
        return f"{_show(cell)} is {len(cell)} characters long: text, not a column name (at most {MAX_NAME_CHARS})"
    words = cell.split()
    if len(words) > MAX_NAME_WORDS:
        return f"{_show(cell)} has {len(words)} words: a phrase, not a column name (at most {MAX_NAME_WORDS})"
    if any(mark in cell for mark in _INSIDE):
        return f"{_show(cell)} holds a sentence end: prose, not a column name"
    if ": " in cell:
        return f"{_show(cell)} is a label with its value (`Name: Ada`), not a column name"
    if cell.endswith(_ENDS) or (cell.endswith(".") and (len(words) > 1 or len(cell) > 6)):
        return f"{_show(cell)} ends like a sentence: prose, not a column name"
    return None


def is_number(cell: str) -> bool:
    """``cell`` is a plain number (``12``, ``-3.5``)."""
    text = cell.strip().lstrip("+-")
    if not text:
        return False
    whole, _, fraction = text.partition(".")
    return (whole.isdigit() or (not whole and fraction.isdigit())) and (not fraction or fraction.isdigit())


def header_problem(cells: list[str]) -> str | None:
    """Why a complete header row is not one (every cell a number), else ``None``."""
    if cells and all(is_number(c) for c in cells):
        return "the first row holds only numbers: data, not a header of column names"
    return None


def _show(cell: str) -> str:
    return repr(cell if len(cell) <= 40 else cell[:39] + "…")
