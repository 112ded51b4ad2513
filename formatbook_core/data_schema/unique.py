"""``uniqueItems`` in linear time, for the violation listing of pure-Python jsonschema.

jsonschema compares every item with every other when the items cannot be sorted (objects,
mixed types): an array of a thousand objects with one duplicate costs a million deep
comparisons (1.5 s for a 29 KB reply, 6 s at 60 KB). Here each item is turned into a
hashable canonical form once and the forms go into a set, so the cost is the size of the
array. The forms keep JSON Schema's equality: numbers compare by value (``1 == 1.0``),
``true`` and ``false`` are not numbers (``true != 1``), objects compare without regard
to the order of their keys, arrays item by item.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any


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
