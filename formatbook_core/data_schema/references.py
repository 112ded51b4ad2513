"""What a JSON Schema refers to: the one policy for reading referenced schemas, and the
load-time walk that resolves every reference.

The rule: a schema reads nothing but itself. A ``$ref`` (``$dynamicRef``,
``$recursiveRef``) to another document, a relative ``$ref`` under an ``$id`` base, and a
``$schema`` that names no known draft are refused unless the caller set
``allow_fetch=True``; then only ``http``/``https`` URLs are fetched (by
:func:`formatbook_core.fetching.fetch`: at most ``MAX_SIZE`` characters each, and one
deadline for all the documents of a schema, a :class:`~formatbook_core.fetching.Budget`)
and at most :data:`MAX_DOCUMENTS` documents per schema.
``file:`` and every other scheme are always refused. Both validators (jsonschema-rs at
compile time, jsonschema while listing violations) read through one :class:`Retriever`,
so a document is fetched at most once.

:func:`check_references` runs when the schema is loaded: an unresolvable or refused
reference, and a loop of references that never descends into the value
(``{"allOf": [{"$ref": "#"}]}``, which would validate forever), are an
``ExpectationError`` then, not a failure of each reply.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urldefrag, urlsplit

from ..fetching import Budget, FetchError
from ..results import ExpectationError

#: At most this many documents are fetched for one schema (``allow_fetch=True``).
MAX_DOCUMENTS = 32
#: What a fetched JSON Schema document is asked for as.
ACCEPT = "application/schema+json, application/json"
#: A schema nested deeper than this (objects and arrays) is refused when loaded: the
#: validators recurse once (or more) per level.
MAX_SCHEMA_DEPTH = 128

_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_MANY = ("allOf", "anyOf", "oneOf")
_IN_PLACE_MAP = ("dependentSchemas", "dependencies")
_REFS = ("$ref", "$dynamicRef", "$recursiveRef")
_DESCEND_ONE = (
    "items",
    "additionalItems",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
_DESCEND_MANY = ("items", "prefixItems")
_DESCEND_MAP = ("properties", "patternProperties", "$defs", "definitions")


class RefusedReference(Exception):
    """A referenced document the policy does not let us read."""

    def __init__(self, uri: str, why: str):
        super().__init__(f"{uri}: {why}")
        self.uri = uri
        self.why = why


class Retriever:
    """Reads referenced documents under the policy above; ``refused`` lists the URIs it
    turned away (to name them in the error), ``documents`` what it read."""

    def __init__(self, allow_fetch: bool = False):
        self.allow_fetch = allow_fetch
        self.budget = Budget()  # one deadline for every document this schema fetches
        self.documents: dict[str, Any] = {}
        self.refused: list[str] = []

    def __call__(self, uri: str) -> Any:
        uri = urldefrag(uri)[0]
        if uri in self.documents:
            return self.documents[uri]
        scheme = urlsplit(uri).scheme.lower()
        if not self.allow_fetch:
            raise self._refuse(uri, "a schema reads nothing but itself unless allow_fetch=True")
        if scheme not in ("http", "https"):
            raise self._refuse(uri, "only http and https references are fetched, even with allow_fetch=True")
        if len(self.documents) >= MAX_DOCUMENTS:
            raise self._refuse(uri, f"a schema may fetch at most {MAX_DOCUMENTS} documents")
        try:
            document = json.loads(self.budget.fetch(uri, accept=ACCEPT))
        except FetchError as err:
            raise self._refuse(uri, err.why) from None
        except (ValueError, RecursionError) as err:
            raise self._refuse(uri, f"not JSON: {err}") from None
        self.documents[uri] = document
        return document

    def _refuse(self, uri: str, why: str) -> RefusedReference:
        self.refused.append(uri)
        return RefusedReference(uri, why)


def schema_depth_exceeds(schema: Any, limit: int = MAX_SCHEMA_DEPTH) -> bool:
    """Whether ``schema`` nests objects and arrays deeper than ``limit`` (no recursion)."""
    stack = [(schema, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def python_registry(retriever: Retriever) -> Any:
    """A ``referencing`` registry (with the drafts' meta-schemas) that reads through
    ``retriever``."""
    from jsonschema_specifications import REGISTRY  # noqa: PLC0415 - lazy: jsonschema's own dependency
    from referencing import Registry, Resource  # noqa: PLC0415 - lazy: jsonschema's own dependency
    from referencing.jsonschema import DRAFT202012  # noqa: PLC0415 - lazy: jsonschema's own dependency

    def retrieve(uri: str) -> Any:
        return Resource.from_contents(retriever(uri), default_specification=DRAFT202012)

    return REGISTRY.combine(Registry(retrieve=retrieve))  # type: ignore[call-arg]


def check_references(schema: Any, retriever: Retriever) -> None:
    """Resolve every reference in ``schema`` (and in what it refers to) through
    ``retriever``; raise ``ExpectationError`` for one that is refused or unresolvable, or
    for a loop of references that never descends into the value."""
    if not isinstance(schema, dict):
        return
    from referencing import Resource  # noqa: PLC0415 - lazy: jsonschema's own dependency
    from referencing.exceptions import Unresolvable  # noqa: PLC0415 - lazy: jsonschema's own dependency
    from referencing.jsonschema import DRAFT202012, specification_with  # noqa: PLC0415 - lazy: see above

    dialect = schema.get("$schema")
    if isinstance(dialect, str):
        try:
            specification_with(dialect)
        except Exception:  # a draft nobody knows: its meta-schema is a reference like any other
            _read(retriever, dialect, "$schema", "#")
    spec = specification_with(dialect, default=DRAFT202012) if isinstance(dialect, str) else DRAFT202012
    root = Resource.from_contents(schema, default_specification=spec)
    registry = python_registry(retriever).with_resource(root.id() or "", root)
    resolver = registry.resolver_with_root(root)

    where: dict[int, str] = {id(schema): "#"}
    in_place: dict[int, list[tuple[int, str]]] = {}
    keep: list[Any] = [schema]  # the nodes stay alive, so their ids stay theirs
    stack: list[tuple[Any, Any]] = [(schema, resolver)]
    seen = {id(schema)}

    def visit(child: Any, child_resolver: Any, location: str, parent: int | None, label: str) -> None:
        if not isinstance(child, dict):
            return
        if parent is not None:
            in_place.setdefault(parent, []).append((id(child), label))
        if id(child) not in seen:
            seen.add(id(child))
            keep.append(child)
            where[id(child)] = location
            stack.append((child, child_resolver))

    while stack:
        node, res = stack.pop()
        here = where[id(node)]
        node_id = id(node)
        for keyword in _REFS:
            ref = node.get(keyword)
            if not isinstance(ref, str):
                continue
            try:
                resolved = res.lookup(ref)
            except Unresolvable as err:
                refused = _refusal(err)
                if refused is not None:
                    raise _refused_error(refused, keyword, ref, here) from None
                raise ExpectationError(
                    f"the schema's {keyword} {ref!r} at {here} cannot be resolved: {_reason(err)}"
                ) from None
            visit(resolved.contents, resolved.resolver, f"{ref}", node_id, f"{here}/{keyword}")
        for keyword, value in node.items():
            if keyword in _IN_PLACE_ONE or keyword in _DESCEND_ONE:
                children = [(f"{here}/{keyword}", value)]
            elif keyword in _IN_PLACE_MANY or keyword in _DESCEND_MANY:
                children = (
                    [(f"{here}/{keyword}/{i}", v) for i, v in enumerate(value)] if isinstance(value, list) else []
                )
            elif keyword in _IN_PLACE_MAP or keyword in _DESCEND_MAP:
                children = [(f"{here}/{keyword}/{k}", v) for k, v in value.items()] if isinstance(value, dict) else []
            else:
                continue
            is_in_place = keyword in _IN_PLACE_ONE or keyword in _IN_PLACE_MANY or keyword in _IN_PLACE_MAP
            for location, child in children:
                if isinstance(child, dict):
                    sub = res.in_subresource(Resource.from_contents(child, default_specification=spec))
                    visit(child, sub, location, node_id if is_in_place else None, location)
    loop = _find_loop(in_place)
    if loop is not None:
        path = " → ".join(loop)
        raise ExpectationError(
            f"the schema applies itself to the same value without end ({path}): validating any value would never finish"
        )


def _read(retriever: Retriever, uri: str, keyword: str, here: str) -> None:
    try:
        retriever(uri)
    except RefusedReference as err:
        raise _refused_error(err, keyword, uri, here) from None


def _refusal(err: BaseException) -> RefusedReference | None:
    cause: BaseException | None = err
    while cause is not None:
        if isinstance(cause, RefusedReference):
            return cause
        cause = cause.__cause__ or cause.__context__
    return None


def _reason(err: Exception) -> str:
    text = str(err) or type(err).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def _refused_error(err: RefusedReference, keyword: str, ref: str, here: str) -> ExpectationError:
    return ExpectationError(
        f"the schema's {keyword} {ref!r} at {here} refers to {err.uri}, which is not read: {err.why}"
    )


def refused_error(retriever: Retriever, detail: str) -> ExpectationError:
    """The error for a reference the compiled validator asked for and ``retriever`` refused."""
    uri = retriever.refused[-1]
    return ExpectationError(
        f"the schema refers to {uri}, which is not read (a schema reads nothing but itself unless "
        f"allow_fetch=True, then only http/https URLs): {detail}"
    )


def _find_loop(edges: dict[int, list[tuple[int, str]]]) -> list[str] | None:
    """A cycle in the graph of in-place applications, as the labels of its edges."""
    state: dict[int, int] = {}  # 1: on the path, 2: done
    for start in list(edges):
        if state.get(start):
            continue
        path: list[tuple[int, str]] = []
        stack: list[tuple[int, int]] = [(start, 0)]
        state[start] = 1
        while stack:
            node, index = stack[-1]
            targets = edges.get(node, [])
            if index >= len(targets):
                stack.pop()
                state[node] = 2
                if path:
                    path.pop()
                continue
            stack[-1] = (node, index + 1)
            target, label = targets[index]
            if state.get(target) == 1:
                return [lbl for _, lbl in path] + [label]
            if not state.get(target):
                state[target] = 1
                path.append((target, label))
                stack.append((target, 0))
    return None
