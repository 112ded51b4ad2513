"""The violation listing of pure-Python jsonschema, within a bound decided before it runs.

Listing every violation is not deciding validity: jsonschema-rs tells "invalid" at once,
but the listing walks every failing branch of ``anyOf``/``oneOf``/``allOf`` and keeps the
errors of each as the context of the one it reports. Under a schema whose branches apply
the same subschema to the same value (an expression tree: ``anyOf`` of ``+`` and ``*``
nodes, each with ``args`` of expressions), the errors double at each level of the value:
a reply of 283 characters, 14 levels deep with a wrong leaf, took 38 s to check, and
jsonschema-rs's own listing is as exponential. A listing of many top-level errors also
held every error with its context until the end (5.9 KB a character of ``[1.5, 1.5,
...]`` under a nested ``anyOf``).

So the listing here

* counts its work: every keyword jsonschema calls spends one step of a :class:`Meter`
  (``BASE_STEPS`` plus ``STEPS_PER_NODE`` for each node of the value: a value invalid
  at every node of a usual schema takes a few steps a node); when they are spent, the
  listing stops where it is, keeps what it listed and says that it stopped
  (``schema.invalid``): the verdict is jsonschema-rs's, already given;
* turns each top-level error into a ``Violation`` as it comes, keeping only the most
  relevant one's error (and its context) to the end, and orders them as
  ``jsonschema.exceptions.best_match`` and ``relevance`` did on the whole list; the
  context of every other error is let go at once (its errors point to their parents:
  only the cyclic collector, paused while healing, would free them).

:func:`fans_out` tells a schema whose branches may apply to one value several times: its
listing by jsonschema-rs (which cannot be stopped) is not asked for a value too deep for
the Python listing.
"""

from __future__ import annotations

import heapq
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: Steps (keywords called) every listing may take, whatever the value's size.
BASE_STEPS = 10_000
#: Steps more for each node (object, array, scalar) of the value.
STEPS_PER_NODE = 64

_IN_PLACE_MANY = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("if", "then", "else", "not", "$ref", "$dynamicRef", "$recursiveRef")
_ITEMS = ("items", "prefixItems", "contains", "unevaluatedItems", "additionalItems")
_PROPERTIES = ("patternProperties", "additionalProperties", "unevaluatedProperties", "propertyNames")


class ListingCut(Exception):
    """The listing spent its steps (raised inside jsonschema's keywords, caught here)."""


class Meter(threading.local):
    """The steps left to the listing running on this thread (``None``: not counted)."""

    left: int | None = None


METER = Meter()


def metered(keyword: Callable[..., Any]) -> Callable[..., Any]:
    """``keyword`` (a jsonschema keyword function) spending one step of :data:`METER`."""

    def counted(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        left = METER.left
        if left is not None:
            if left <= 0:
                raise ListingCut
            METER.left = left - 1
        return keyword(validator, value, instance, schema)

    return counted


def steps_for(value: Any) -> int:
    """The steps a listing of ``value`` may take: ``BASE_STEPS`` plus ``STEPS_PER_NODE``
    for each node of the value (counted without recursion)."""
    nodes = 0
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        nodes += 1
        if isinstance(node, dict):
            extend(node.values())
        elif isinstance(node, list):
            extend(node)
    return BASE_STEPS + STEPS_PER_NODE * nodes


class Listing:
    """The violations of one listing, made as its errors come: ``ordered()`` gives them
    as ``[best_match] + sorted(the rest, key=relevance, reverse=True)`` gives the errors
    (``convert`` turns an error into a ``Violation``); ``cut`` tells a listing stopped."""

    def __init__(self, convert: Callable[[Any], Any]) -> None:
        from jsonschema.exceptions import relevance  # noqa: PLC0415 - lazy: heavy, listing only

        self.key = relevance
        self.convert = convert
        self.rest: list[tuple[int, Any, Any]] = []  # (arrival, key, violation) of each error but the best
        self.best: Any = None  # the most relevant error so far, kept whole (its context)
        self.best_key: Any = None
        self.best_at = 0
        self.count = 0
        self.cut = False

    def take(self, errors: Iterable[Any]) -> None:
        """Each error of ``errors``, until they end or the meter stops them."""
        key, convert, rest = self.key, self.convert, self.rest
        try:
            for error in errors:
                mine = key(error)
                at = self.count
                self.count += 1
                if self.best is None:
                    self.best, self.best_key, self.best_at = error, mine, at
                elif mine > self.best_key:  # as max(): the first of equals stays
                    rest.append((self.best_at, self.best_key, convert(self.best)))
                    _release(self.best)
                    self.best, self.best_key, self.best_at = error, mine, at
                else:
                    rest.append((at, mine, convert(error)))
                    _release(error)
        except ListingCut:
            self.cut = True

    def ordered(self) -> list[Any]:
        """The violations, the most relevant first (see the class doc)."""
        if self.best is None:
            return []
        found = _descend(self.best, self.key)
        rest = list(self.rest)
        if found is not self.best:  # best_match went into the context: the top error is listed too
            rest.append((self.best_at, self.best_key, self.convert(self.best)))
        rest.sort(key=_arrival)  # then sorted stably: equal keys keep the order they came in
        rest.sort(key=_relevance, reverse=True)
        return [self.convert(found), *(violation for _, _, violation in rest)]


def _release(error: Any) -> None:
    """Let ``error``'s context go now: each error of a context points back to its parent
    (which holds them in ``context`` and, as given, in its exception ``args``), so a tree
    of them is freed only by the cyclic collector, which a heal pauses (a listing of
    2,000 errors held 43 MB until the heal ended)."""
    stack = [error]
    while stack:
        node = stack.pop()
        context = node.context
        if context:
            stack.extend(context)
            node.context = []
        node.args = ()


def _arrival(entry: tuple[int, Any, Any]) -> int:
    return entry[0]


def _relevance(entry: tuple[int, Any, Any]) -> Any:
    return entry[1]


def _descend(best: Any, key: Callable[[Any], Any]) -> Any:
    """``jsonschema.exceptions.best_match``'s walk into the context of its ``max``."""
    while best.context:
        smallest = heapq.nsmallest(2, best.context, key=key)
        if len(smallest) == 2 and key(smallest[0]) == key(smallest[1]):  # noqa: PLR2004 - two compared
            return best
        best = smallest[0]
    return best


def fans_out(schemas: Iterable[Any]) -> bool:
    """Whether a schema applies two subschemas or more to one value, or to one child of
    it, anywhere (``anyOf`` of two branches, ``if`` and ``then``, a ``$ref`` beside
    ``allOf``, ``items`` beside ``contains``, ``patternProperties`` beside another
    keyword on properties): where a listing may visit a value once per path of branches."""
    for node in objects(schemas):
        in_place = sum(len(node[k]) for k in _IN_PLACE_MANY if isinstance(node.get(k), list))
        in_place += sum(1 for k in _IN_PLACE_ONE if k in node)
        in_place += len(node["dependentSchemas"]) if isinstance(node.get("dependentSchemas"), dict) else 0
        if in_place >= 2:  # noqa: PLR2004 - two applied to one value
            return True
        if sum(1 for k in _ITEMS if k in node) >= 2:  # noqa: PLR2004 - two applied to one item
            return True
        if "patternProperties" in node and ("properties" in node or sum(1 for k in _PROPERTIES if k in node) >= 2):  # noqa: PLR2004
            return True
    return False


def objects(schemas: Iterable[Any]) -> Iterator[dict]:
    """Every object of ``schemas`` (nested in objects and arrays), without recursion."""
    stack = list(schemas)
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
