"""``uniqueItems`` in linear time, for the violation listing of pure-Python jsonschema, and
for jsonschema-rs where its own check is quadratic.

jsonschema compares every item with every other when the items cannot be sorted (objects,
mixed types): an array of a thousand objects with one duplicate costs a million deep
comparisons (1.5 s for a 29 KB reply, 6 s at 60 KB). Here each item is turned into a
hashable canonical form once and the forms go into a set, so the cost is the size of the
array. The forms keep JSON Schema's equality: numbers compare by value (``1 == 1.0``),
``true`` and ``false`` are not numbers (``true != 1``), objects compare without regard
to the order of their keys, arrays item by item.

jsonschema-rs hashes the items too, but a number with no exact double (an integer beyond
2**53, a ``Decimal`` beyond a double's range) hashes as its nearest double: distinct
integers near 10**30 all fall in one bucket and are compared pairwise (4,000 of them took
9 s). :func:`inexact_numbers` tells a value holding such numbers (jsonschema-rs walks it);
the schema's validator is then compiled with :class:`LinearUniqueItems` in place of the
keyword (a Python keyword costs a conversion of each array it sees: only then).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..collector import paused_gc

#: the integers a double holds exactly (and beyond which jsonschema-rs's hashing collides)
_EXACT = 2**53


def canonical(value: Any) -> Any:
    """A hashable form of a JSON value: two values are equal under JSON Schema exactly
    when their forms are equal. Raises ``TypeError`` for a value of no JSON type that
    cannot be hashed."""
    if isinstance(value, bool):  # before numbers: True == 1 in Python, not in JSON Schema
        return ("b", value)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, Mapping):
        return ("o", frozenset((key, canonical(item)) for key, item in value.items()))
    if isinstance(value, Sequence):  # str was taken above
        return ("a", tuple(canonical(item) for item in value))
    if value is None:
        return ("z",)
    hash(value)  # numbers (int, float, Decimal: equal values hash alike) and other scalars
    return ("n", value)


def first_duplicate(items: Sequence[Any]) -> tuple[int, int] | None:
    """The indexes of the first item equal to an earlier one and of that earlier one, or
    ``None`` when all items differ (JSON Schema equality, linear in the array's size)."""
    seen: dict[Any, int] = {}
    # a form per item and per value inside it, none in a cycle, all alive until the end:
    # the cyclic collector waits (it walked them all again, 16x the time for 10x the items)
    with paused_gc():
        for index, item in enumerate(items):
            earlier = seen.setdefault(canonical(item), index)
            if earlier != index:
                return earlier, index
    return None


def _unique_items(validator: Any, wanted: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError  # noqa: PLC0415 - lazy: heavy, listing only

    if not wanted or not validator.is_type(instance, "array"):
        return
    try:
        pair = first_duplicate(instance)
    except TypeError:  # an item of no JSON type that cannot be hashed: jsonschema's own check
        from jsonschema._utils import uniq  # noqa: PLC0415 - lazy: heavy, listing only

        if not uniq(instance):
            yield ValidationError(f"{instance!r} has non-unique elements")
        return
    if pair is not None:
        earlier, index = pair
        yield ValidationError(f"items {earlier} and {index} are equal: the array has non-unique elements")


KEYWORDS = {"uniqueItems": _unique_items}


@functools.cache
def _inexact_finder() -> Any:
    import jsonschema_rs  # noqa: PLC0415 - lazy: compiled only when a schema is used

    # fails on an integer (or integral number) beyond what a double holds exactly, at any depth
    return jsonschema_rs.validator_for(
        {
            "$defs": {
                "v": {
                    "if": {"type": "integer"},
                    "then": {"maximum": _EXACT, "minimum": -_EXACT},
                    "items": {"$ref": "#/$defs/v"},
                    "additionalProperties": {"$ref": "#/$defs/v"},
                }
            },
            "$ref": "#/$defs/v",
        }
    )


def inexact_numbers(value: Any) -> bool:
    """Whether ``value`` holds a number that no double holds exactly (an integer beyond
    2**53, a ``Decimal``), at any depth: where jsonschema-rs's ``uniqueItems`` is
    quadratic. A value it cannot walk (too deep) is taken to hold one."""
    try:
        return not _inexact_finder().is_valid(value)
    except Exception:
        return True


def uses_unique_items(schema: Any) -> bool:
    """Whether ``uniqueItems: true`` stands anywhere in ``schema`` (no recursion)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("uniqueItems") is True:
                return True
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return False


class LinearUniqueItems:
    """jsonschema-rs's custom keyword for ``uniqueItems``: :func:`first_duplicate`."""

    def __init__(self, parent_schema: Any, value: Any, schema_path: Any) -> None:
        self.wanted = value is True

    def validate(self, instance: Any) -> None:
        if not self.wanted or not isinstance(instance, list) or len(instance) < 2:
            return
        try:
            pair = first_duplicate(instance)
        except TypeError:  # no JSON value: jsonschema-rs gave it, so it cannot be
            return
        if pair is not None:
            earlier, index = pair
            raise ValueError(f"items {earlier} and {index} are equal: the array has non-unique elements")
