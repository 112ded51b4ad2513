"""What a prefix of one value, and the whole value, tell a flat schema node (:mod:`.prefix`).

Each function judges one node and answers ``None`` (still possible) or a reason
``(keyword, message)``. ``lenient`` follows the schema-aware repairs healing makes
(:mod:`.repairs`): enum values compared without case, keys renamed to a property that
differs only in case, ``_`` or ``-``, strings that hold a number or a boolean.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from typing import Any

from .patterns import search
from .prefix_patterns import prefix_pattern
from .schema_nodes import BOOLEAN, NUMBER, STRING, Node, kind_of, norm_key

Reason = tuple[str, str]

# Texts healing turns into what the schema asks for (repairs._coerce), and their prefixes.
_INTEGER_TEXT = re.compile(r"\s*-?(?:0|[1-9][0-9]*)\s*")
_NUMBER_TEXT = re.compile(r"\s*-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\s*")
_INTEGER_PREFIX = re.compile(r"\s*(?:-?(?:0|[1-9][0-9]*)?|-?(?:0|[1-9][0-9]*)\s*)")
_NUMBER_PREFIX = re.compile(
    r"\s*(?:-|-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][+-]?[0-9]*)?"
    r"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\s*)?"
)
_WORDS = ("true", "false")
#: A coerced string longer than this is left to the end (its prefix check would cost its length).
COERCE_WATCH = 256


def _coercible_prefix(kinds: frozenset[str], text: str) -> bool:
    if len(text) > COERCE_WATCH:
        return True
    if "number" in kinds and _NUMBER_PREFIX.fullmatch(text):
        return True
    if "integer" in kinds and _INTEGER_PREFIX.fullmatch(text):
        return True
    if BOOLEAN in kinds:
        word = text.lstrip().lower()
        stripped = word.rstrip()
        if any(w.startswith(word) for w in _WORDS) or (stripped in _WORDS and not word[len(stripped) :].strip()):
            return True
    return False


def _coercible(kinds: frozenset[str], text: str) -> bool:
    if "number" in kinds and _NUMBER_TEXT.fullmatch(text):
        return True
    if "integer" in kinds and _INTEGER_TEXT.fullmatch(text):
        return True
    return BOOLEAN in kinds and text.strip().lower() in _WORDS


def _fold(text: str, lenient: bool) -> str:
    return text.casefold() if lenient else text


def string_prefix(node: Node, text: str | None, length: int, lenient: bool) -> Reason | None:
    """Can a string starting with ``text`` (``length`` characters; ``text`` is None when
    not kept) still satisfy ``node``?"""
    if node.coerce:
        if text is not None and not _coercible_prefix(node.coerce, text):
            return "type", f"a string that can never hold the {'/'.join(sorted(node.coerce))} the schema asks for"
        return None
    if node.max_len is not None and length > node.max_len:
        return "maxLength", f"a string longer than {node.max_len} characters"
    if node.enum is not None and text is not None:
        members = node.enum_folded if lenient else node.enum_strings
        folded = _fold(text, lenient)
        at = bisect_left(members, folded)  # the first member not below the text begins with it, if any does
        if at == len(members) or not members[at].startswith(folded):
            return node.enum_keyword, f"{text!r} begins no value the {node.enum_keyword} allows"
    return None


def string_final(node: Node, text: str | None, length: int, lenient: bool) -> Reason | None:
    """Does the whole string ``text`` satisfy ``node``'s string keywords?"""
    if node.coerce:
        if text is not None and len(text) <= COERCE_WATCH and not _coercible(node.coerce, text):
            return "type", f"{text!r} is not of type {'/'.join(sorted(node.coerce))}"
        return None
    early = string_prefix(node, text, length, lenient)
    if early is not None:
        return early
    if node.min_len is not None and length < node.min_len:
        return "minLength", f"a string shorter than {node.min_len} characters"
    if text is None:
        return None
    if node.enum is not None:
        members = node.enum_folded if lenient else node.enum_strings
        folded = _fold(text, lenient)
        at = bisect_left(members, folded)
        if at == len(members) or members[at] != folded:
            return node.enum_keyword, f"{text!r} is not one of the values the {node.enum_keyword} allows"
    if node.pattern is not None and not search(node.pattern, text):
        return "pattern", f"{text!r} does not match {node.pattern!r}"
    return None


def needs_text(node: Node) -> bool:
    """Whether judging a string under ``node`` needs its text (not only its length)."""
    return bool(node.coerce) or node.enum is not None or node.pattern is not None


def judges_prefix(node: Node) -> bool:
    """Whether a string's prefix can fail ``node``."""
    return bool(node.coerce) or node.enum is not None or node.max_len is not None


def judges_string(node: Node) -> bool:
    """Whether a string can fail ``node`` at all (by its text or its length)."""
    return judges_prefix(node) or node.pattern is not None or node.min_len is not None


def number_value(text: str) -> int | float | None:
    """The value of the strict JSON number ``text`` as the parser reads it (``None`` where
    that reading is not certain here: a very long integer, an overflow)."""
    try:
        if "." in text or "e" in text or "E" in text:
            value = float(text)
            return None if math.isinf(value) else value
        return int(text) if len(text) <= 18 else None
    except ValueError:
        return None


def number_final(node: Node, value: int | float) -> Reason | None:  # noqa: C901 - one check per keyword
    """Does the number ``value`` satisfy ``node``?"""
    if node.coerce or (node.types is not None and NUMBER not in node.types):
        return None  # a lenient stand-in (the number is quoted by healing): not judged here
    if node.integer and not (isinstance(value, int) or value.is_integer()):
        return "type", f"{value!r} is not of type 'integer'"
    if node.minimum is not None and value < node.minimum:
        return "minimum", f"{value!r} is less than the minimum of {node.minimum!r}"
    if node.xminimum is not None and value <= node.xminimum:
        return "exclusiveMinimum", f"{value!r} is less than or equal to the minimum of {node.xminimum!r}"
    if node.maximum is not None and value > node.maximum:
        return "maximum", f"{value!r} is greater than the maximum of {node.maximum!r}"
    if node.xmaximum is not None and value >= node.xmaximum:
        return "exclusiveMaximum", f"{value!r} is greater than or equal to the maximum of {node.xmaximum!r}"
    if node.multiple is not None and isinstance(node.multiple, int) and isinstance(value, int):
        if value % node.multiple:
            return "multipleOf", f"{value!r} is not a multiple of {node.multiple!r}"
    if node.enum is not None and not any(_same(m, value) for m in node.enum):
        return node.enum_keyword, f"{value!r} is not one of the values the {node.enum_keyword} allows"
    return None


def literal_final(node: Node, value: Any) -> Reason | None:
    """Does ``true``/``false``/``null`` satisfy ``node``'s enum or const?"""
    if node.enum is not None and not node.coerce and not any(_same(m, value) for m in node.enum):
        return node.enum_keyword, f"{value!r} is not one of the values the {node.enum_keyword} allows"
    return None


def _same(member: Any, value: Any) -> bool:
    kind = kind_of(value)
    return kind_of(member) == kind and member == value


def key_prefix(node: Node, text: str | None, lenient: bool, dead: frozenset[str] = frozenset()) -> Reason | None:
    """Can a key starting with ``text`` still be one ``node`` allows under
    ``additionalProperties: false``: one that begins a property's name, or that some
    ``patternProperties`` pattern may still match (``dead``: the patterns no continuation
    of the key can match, see :mod:`.prefix_patterns`)? ``text`` is ``None`` for a key
    longer than every property's name (as compared)."""
    if node.additional is not False:
        return None
    if node.patterns and not all(p in dead for p, _ in node.patterns):
        return None
    if text is not None:
        if any(name.startswith(text) for name in node.props):
            return None
        if lenient:
            if not text.isascii():
                return None  # case folding across scripts: left to the end
            folded = norm_key(text)
            if any(name.startswith(folded) for name in node.norm_props):
                return None
    begins = f"begins with {text!r}" if text is not None else "begins with a key this long"
    if node.patterns:
        return (
            "additionalProperties",
            f"no property the schema allows {begins}, and no pattern of its patternProperties can match it",
        )
    return "additionalProperties", f"no property the schema allows {begins}"


def decided_pattern(node: Node) -> str | None:
    """``node``'s ``pattern`` when a string's prefix may decide it (:mod:`.prefix_patterns`)."""
    if node.pattern is None or node.coerce or prefix_pattern(node.pattern) is None:
        return None
    return node.pattern


def kind_reason(node: Node, kind: str) -> Reason:
    """The reason a value of ``kind`` breaks ``node``'s type or enum."""
    if node.false:
        return "false", f"the schema allows no {kind} here"
    if node.types is not None and kind not in node.types:
        wanted = sorted(("integer" if t == NUMBER and node.integer else t) for t in node.types)
        return "type", f"{_a(kind)} where the schema asks for {' or '.join(wanted) or 'nothing'}"
    return node.enum_keyword, f"no {kind} is among the values the {node.enum_keyword} allows"


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def admits(node: Node, kind: str) -> bool:
    """Whether a value of ``kind`` may satisfy ``node``'s type, enum and ``false``."""
    if node.false or (node.types is not None and kind not in node.types):
        return False
    return node.enum is None or any(kind_of(m) == kind for m in node.enum)


__all__ = [
    "COERCE_WATCH",
    "STRING",
    "admits",
    "decided_pattern",
    "judges_prefix",
    "judges_string",
    "key_prefix",
    "kind_reason",
    "literal_final",
    "needs_text",
    "number_final",
    "number_value",
    "string_final",
    "string_prefix",
]
