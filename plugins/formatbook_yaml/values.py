"""The data a YAML reply carries, without its structure: scalar values in document order,
as written (``1.50`` stays ``"1.50"``, ``yes`` stays ``"yes"``); keys, anchors, tags,
indicators and nulls left out, and whitespace-only values too. Scopes are JSON pointers
into the value (``/summary``, ``/items/0/name``; with ``documents="many"`` the first
token picks the document)."""

from __future__ import annotations

from typing import Any

from formatbook_core import ScopeNotFound
from formatbook_core.pointers import array_index, parse_pointer

from .loading import key_text, scalar, to_value


def node_values(root: Any) -> list[str]:
    """Scalar values under ``root`` (a composed node), in document order."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode  # noqa: PLC0415 - lazy: heavy

    out: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            stack.extend(v for _, v in reversed(node.value))
        elif isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))
        elif scalar(node) is not None and node.value.strip():
            out.append(node.value)
    return out


def find(roots: list[Any], pointer: str, many: bool) -> list[Any]:
    """The nodes the pointer names (the whole documents for ``""``); raises
    ``ScopeNotFound``."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode  # noqa: PLC0415 - lazy: heavy

    tokens = list(parse_pointer(pointer))
    if not tokens:
        return roots
    if many:
        first = tokens.pop(0)
        if not first.isdigit() or int(first) >= len(roots):
            raise ScopeNotFound(f"the YAML has no {pointer!r}: no document {first!r}")
        node = roots[int(first)]
    elif roots:
        node = roots[0]
    else:
        raise ScopeNotFound(f"the YAML has no {pointer!r}: no document")
    memo: dict[int, Any] = {}

    def build(n: Any) -> Any:
        if id(n) not in memo:
            memo[id(n)] = to_value(n)
        return memo[id(n)]

    for token in tokens:
        if isinstance(node, MappingNode):
            for k, v in node.value:
                if key_text(k, build) == token:
                    node = v
                    break
            else:
                raise ScopeNotFound(f"the YAML has no {pointer!r}: no key {token!r}")
        elif isinstance(node, SequenceNode):
            index = array_index(token, len(node.value))
            if index is None:
                raise ScopeNotFound(f"the YAML has no {pointer!r}: no item {token!r} in a list of {len(node.value)}")
            node = node.value[index]
        else:
            raise ScopeNotFound(f"the YAML has no {pointer!r}: {token!r} is inside a scalar")
    return [node]


def nodes_at(roots: list[Any], wanted: set[tuple], many: bool) -> dict[tuple, tuple[Any, Any]]:
    """For each path in ``wanted`` that leads to a node: (its key node or None, the node)."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode  # noqa: PLC0415 - lazy: heavy

    found: dict[tuple, tuple[Any, Any]] = {}
    memo: dict[int, Any] = {}

    def build(n: Any) -> Any:
        if id(n) not in memo:
            memo[id(n)] = to_value(n)
        return memo[id(n)]

    prefixes = {p[:i] for p in wanted for i in range(len(p) + 1)}
    stack: list[tuple[tuple, Any, Any]] = (
        [((i,), None, r) for i, r in enumerate(roots)] if many else [((), None, roots[0])]
    )
    while stack:
        path, key_node, node = stack.pop()
        if path in wanted:
            found[path] = (key_node, node)
        if isinstance(node, MappingNode):
            for k, v in node.value:
                sub = path + (key_text(k, build),)
                if sub in prefixes:
                    stack.append((sub, k, v))
        elif isinstance(node, SequenceNode):
            for i, v in enumerate(node.value):
                sub = path + (i,)
                if sub in prefixes:
                    stack.append((sub, None, v))
    return found
