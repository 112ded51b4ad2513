"""Repairs of bare words: Python literals (``True``, ``False``, ``None``), non-finite
numbers (``NaN``, ``Infinity``; JSON has no such value, so they become ``null``), the
JavaScript ``undefined``, and literals cut off by the end of the reply (``tr``)."""

from __future__ import annotations

# word -> (JSON literal, repair kind or None when already JSON)
LITERALS: dict[str, tuple[str, str | None]] = {
    "true": ("true", None),
    "false": ("false", None),
    "null": ("null", None),
    "True": ("true", "python_literal"),
    "False": ("false", "python_literal"),
    "None": ("null", "python_literal"),
    "NaN": ("null", "non_finite_number"),
    "Infinity": ("null", "non_finite_number"),
    "-Infinity": ("null", "non_finite_number"),
    "+Infinity": ("null", "non_finite_number"),
    "undefined": ("null", "undefined"),
}

MESSAGES = {
    "python_literal": "replaced a Python literal with its JSON spelling",
    "non_finite_number": "replaced a non-finite number (NaN/Infinity), which JSON cannot hold, with null",
    "undefined": "replaced JavaScript's undefined with null",
    "truncated_literal": "completed a literal cut off by the end of the reply",
    "literal_case": "wrote a literal in another case (TRUE, Null) in JSON's lower case",
}
_CASED = {"true", "false", "null"}


def lookup(word: str) -> tuple[str, str | None] | None:
    """``(JSON text, repair kind)`` for a known literal, else ``None``: ``true``, ``false``
    and ``null`` in any case (``TRUE``, ``Null``: one reading only) are known too."""
    known = LITERALS.get(word)
    if known is None and word.lower() in _CASED:
        return word.lower(), "literal_case"
    return known


def complete(prefix: str) -> str | None:
    """The JSON literal a word cut off at the end of the reply must have been, when every
    literal it could start means the same JSON value (``tr`` → ``true``, ``N`` → ``null``)."""
    meanings = {json for word, (json, _) in LITERALS.items() if word.startswith(prefix) and word != prefix}
    return meanings.pop() if len(meanings) == 1 else None
