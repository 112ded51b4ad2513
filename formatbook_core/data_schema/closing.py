"""What a value still needs to satisfy its schema, from a :class:`.prefix.PrefixChecker`'s
state: the shortest value for a schema, and, for each container still open, the required
members or the items it lacks. A format's stream checker writes them in its own syntax
(JSON's ``closing()``) so that generation can close a reply within a token budget.

A hint, never a verdict: the value is the first of the schema's kinds that the keywords a
prefix judges accept (``type``, ``enum``/``const``, ``minLength``/``maxLength``,
``pattern``, the numeric bounds, ``required``, ``minItems``, ``prefixItems``/``items``),
built from the first alternative still alive; :data:`UNKNOWN` where none is found within
:data:`DEPTH` levels. ``finish()`` and ``check()`` judge what is written.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from . import prefix_values as pv
from .patterns import search
from .schema_nodes import ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, TRUE, Compiled, Node, kind_of

__all__ = ["UNKNOWN", "Open", "item_schema", "member_schema", "named_schemas", "shortest"]

#: No value was found (a ``pattern`` the filler misses, a recursion deeper than DEPTH).
UNKNOWN: Any = object()
#: Nested required members followed at most this deep.
DEPTH = 8
# the shortest text first; "" before 0, as a blank string is no word a MAX count counts
_ORDER = (STRING, NUMBER, NULL, BOOLEAN, ARRAY, OBJECT)


class Open:
    """One open container, innermost first: what it lacks before it may close."""

    __slots__ = ("kind", "missing", "members")

    def __init__(self, kind: str, missing: list[Any], members: int):
        self.kind = kind
        #: objects: ``(key, value)`` for each required member not written; arrays: items
        self.missing = missing
        self.members = members  # members or items written (or begun) so far


def shortest(compiled: Compiled, conj: tuple[Node, ...], depth: int = 0) -> Any:
    """The shortest value (as Python data) that ``conj`` (a conjunction of nodes) accepts
    by the keywords listed in the module doc; :data:`UNKNOWN` when none is found."""
    if depth > DEPTH:
        return UNKNOWN
    key = ("shortest", conj, depth)
    found = compiled.memo.get(key, compiled)
    if found is compiled:
        found = _shortest(compiled, conj, depth)
        if len(compiled.memo) < 65536:
            compiled.memo[key] = found
    return copy.deepcopy(found) if isinstance(found, (list, dict)) else found


def _shortest(compiled: Compiled, conj: tuple[Node, ...], depth: int) -> Any:
    options = compiled.alternatives(tuple(n for n in conj if n is not TRUE))
    for alt in options or ():
        if any(n.false for n in alt):
            continue
        for kind in _ORDER:
            if all(pv.admits(n, kind) for n in alt):
                value = _of_kind(compiled, alt, kind, depth)
                if value is not UNKNOWN:
                    return value
    return UNKNOWN


def _of_kind(compiled: Compiled, alt: tuple[Node, ...], kind: str, depth: int) -> Any:
    enums = [n.enum for n in alt if n.enum is not None]
    if enums:
        for member in enums[0]:
            if kind_of(member) == kind and all(any(_same(m, member) for m in e) for e in enums):
                return member if _fits(compiled, alt, member, depth) else UNKNOWN
        return UNKNOWN
    if kind == NUMBER:
        return _number(alt)
    if kind == STRING:
        return _string(alt)
    if kind == NULL:
        return None
    if kind == BOOLEAN:
        return False
    if kind == ARRAY:
        return _array(compiled, alt, depth)
    return _object(compiled, alt, depth)


def _fits(compiled: Compiled, alt: tuple[Node, ...], value: Any, depth: int) -> bool:
    """Whether the enum member ``value`` passes the other scalar keywords (containers: yes)."""
    if isinstance(value, str):
        return all(pv.string_final(n, value, len(value), False) is None for n in alt)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return all(pv.number_final(n, value) is None for n in alt)
    return True


def _number(alt: tuple[Node, ...]) -> Any:
    low = max((n.minimum for n in alt if n.minimum is not None), default=None)
    xlow = max((n.xminimum for n in alt if n.xminimum is not None), default=None)
    high = min((n.maximum for n in alt if n.maximum is not None), default=None)
    start = 0 if low is None or low <= 0 else math.ceil(low)
    if xlow is not None and start <= xlow:
        start = math.floor(xlow) + 1
    step = next((n.multiple for n in alt if isinstance(n.multiple, int) and n.multiple > 0), 1)
    start = -(-start // step) * step  # the first multiple at or above it
    for value in (start, *(() if high is None else (math.floor(high),))):
        if all(pv.number_final(n, value) is None for n in alt):
            return value
    return UNKNOWN


def _same(member: Any, value: Any) -> bool:
    return kind_of(member) == kind_of(value) and member == value


def _string(alt: tuple[Node, ...]) -> Any:
    length = max((n.min_len for n in alt if n.min_len is not None), default=0)
    for text in ("a" * length, "0" * length):
        if all(pv.string_final(n, text, len(text), False) is None for n in alt):
            return text
    return UNKNOWN


def _array(compiled: Compiled, alt: tuple[Node, ...], depth: int) -> Any:
    wanted = max((n.min_items for n in alt if n.min_items is not None), default=0)
    items = []
    for index in range(wanted):
        value = shortest(compiled, item_schema(alt, index), depth + 1)
        if value is UNKNOWN:
            return UNKNOWN
        items.append(value)
    return items


def item_schema(alt: tuple[Node, ...], index: int) -> tuple[Node, ...]:
    """The conjunction item ``index`` must satisfy under ``alt``."""
    conj: list[Node] = []
    for n in alt:
        if index < len(n.prefix):
            conj.append(n.prefix[index])
        elif isinstance(n.items, Node):
            conj.append(n.items)
    return tuple(conj)


def _object(compiled: Compiled, alt: tuple[Node, ...], depth: int) -> Any:
    out: dict[str, Any] = {}
    for key in dict.fromkeys(r for n in alt for r in n.required):
        value = shortest(compiled, member_schema(alt, key), depth + 1)
        if value is UNKNOWN:
            return UNKNOWN
        out[key] = value
    if any(n.min_props is not None and len(out) < n.min_props for n in alt):
        return UNKNOWN
    return out


def named_schemas(n: Node, key: str) -> list[Node]:
    """The schemas ``n`` gives the value of ``key`` by name: its property and the patterns
    the key matches (empty: ``additionalProperties`` decides)."""
    conj: list[Node] = []
    sub = n.props.get(key)
    if sub is not None:
        conj.append(sub)
    conj.extend(node for pattern, node in n.patterns if search(pattern, key))
    return conj


def member_schema(alt: tuple[Node, ...], key: str) -> tuple[Node, ...]:
    """The conjunction the value of ``key`` must satisfy under ``alt`` (its property, the
    patterns it matches, else ``additionalProperties``)."""
    conj: list[Node] = []
    for n in alt:
        named = named_schemas(n, key)
        conj.extend(named)
        if not named and isinstance(n.additional, Node):
            conj.append(n.additional)
    return tuple(conj)
