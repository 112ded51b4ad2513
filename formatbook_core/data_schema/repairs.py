"""Repairs that only a schema can justify, planned on a parsed value.

- ``"42"`` where the schema wants an integer or a number becomes ``42``;
- ``"true"``/``"false"`` where it wants a boolean becomes ``true``/``false``;
- ``36.0`` where it wants an integer (and not a number) becomes ``36`` (JSON Schema and
  pydantic's lax mode count it as an integer; the value's type changes, so it is listed);
- a lone object where it wants an array is wrapped in one, and so is a lone string,
  number or boolean that the array's items accept (``"x"`` for an array of strings);
- an enum value in the wrong case becomes the enum's spelling;
- a key that differs from a declared property only in case or in ``snake_case`` vs
  ``camelCase`` is renamed to the property.

Nothing is coerced without a schema saying so. :func:`plan` only decides: each
:class:`SchemaRepair` names the place (a path into the value), the kind and the new value;
a format applies them to its own text (at the values' source spans, so the rest of the
reply keeps its layout) and lists each one as a ``Repair``.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from ..pointers import local_target
from .patterns import search

_INTEGER = re.compile(r"\s*-?(?:0|[1-9][0-9]*)\s*")
_NUMBER = re.compile(r"\s*-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\s*")
_MAX_REF_HOPS = 64
_INT64 = 2.0**63
_JSON_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}

#: The message of each repair kind (a format adds where: `` at /path``).
MESSAGES = {
    "string_to_number": "turned a string holding a number into the number the schema asks for",
    "string_to_boolean": "turned a string holding true/false into the boolean the schema asks for",
    "float_to_integer": "turned a number written with a zero fraction into the integer the schema asks for",
    "wrapped_in_array": "wrapped a lone value in the array the schema asks for",
    "enum_case": "matched an enum value written in the wrong case",
    "renamed_key": "renamed a key to the schema's spelling of the property",
    "number_to_string": "quoted a number the schema asks to be a string, as written",
}


class SchemaRepair:
    """One planned repair: ``kind`` (a key of :data:`MESSAGES`), ``path`` (where, in the
    value as parsed), ``what`` (``"value"``: replace the value by ``value``, written
    ``text`` in JSON; ``"integer"``: the number as an integer; ``"key"``: rename the key
    at ``path`` to ``text``; ``"wrap"``: put the value in a one-item array; ``"string"``:
    quote the number as the reply wrote it, ``3.10`` as ``"3.10"``, never through its value)."""

    __slots__ = ("kind", "path", "what", "text", "value")

    def __init__(self, kind: str, path: tuple, what: str, text: str = "", value: Any = None):
        self.kind = kind
        self.path = path
        self.what = what
        self.text = text
        self.value = value

    def __repr__(self) -> str:
        return f"SchemaRepair({self.kind!r}, {self.path!r}, {self.what!r}, {self.text!r})"

    def describe(self) -> str:
        """The repair's message, with where: ``... at /a/0``."""
        return f"{MESSAGES[self.kind]} at /" + "/".join(str(p) for p in self.path)


def plan(value: Any, schema: Any) -> list[SchemaRepair]:
    """The schema-aware repairs ``value`` needs under ``schema`` (a JSON Schema dict)."""
    ops: list[SchemaRepair] = []
    if isinstance(schema, dict):
        _walk(value, schema, schema, (), ops, 0)
    # one repair per place: allOf and anyOf may ask for the same one twice
    unique = {(op.path, op.what): op for op in reversed(ops)}
    return [op for op in ops if unique[(op.path, op.what)] is op]


def integers_written_as_floats(value: Any, schema: Any) -> list[tuple]:
    """The paths where ``value`` holds ``36.0`` and ``schema`` asks for an integer: valid
    JSON Schema, but the value's type must change, so the change is a listed repair."""
    if not _has_integral_float(value):
        return []
    return [op.path for op in plan(value, schema) if op.kind == "float_to_integer"]


def _has_integral_float(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif _integral_float(item):
            return True
    return False


def _resolve(schema: Any, root: dict) -> Any:
    hops = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and hops < _MAX_REF_HOPS:
        ref = schema["$ref"]
        if not ref.startswith("#"):
            return schema  # a remote reference: nothing to heal against
        target = local_target(root, ref)
        if target is None:
            return {}
        if len(schema) > 1:  # siblings of $ref apply too (2019-09 and later)
            merged = {k: v for k, v in schema.items() if k != "$ref"}
            target = {**target, **merged} if isinstance(target, dict) else target
        schema = target
        hops += 1
    return schema


def _types(schema: dict) -> list[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    return []


def _fits(value: Any, types: list[str]) -> bool:
    return any(_JSON_TYPES[t](value) for t in types if t in _JSON_TYPES)


def _norm_key(key: str) -> str:
    return key.replace("_", "").replace("-", "").lower()


def _walk(value: Any, schema: Any, root: dict, path: tuple, ops: list[SchemaRepair], depth: int) -> None:
    schema = _resolve(schema, root)
    if not isinstance(schema, dict) or depth > 200:
        return
    for sub in schema.get("allOf", ()) or ():
        _walk(value, sub, root, path, ops, depth + 1)
    branches = (schema.get("anyOf") or []) + (schema.get("oneOf") or [])
    if branches:
        resolved = [_resolve(b, root) for b in branches]
        resolved = [b for b in resolved if isinstance(b, dict)]
        fitting = [b for b in resolved if not _types(b) or _fits(value, _types(b))]
        for b in fitting[:1] or resolved:
            before = len(ops)
            _walk(value, b, root, path, ops, depth + 1)
            if len(ops) > before or fitting:
                break
    types = _types(schema)
    if types and not _fits(value, types):
        coerced = _coerce(value, types, path)
        if coerced is not None:
            ops.append(coerced)
            return
        if "array" in types and _wrappable(value, schema, root):
            ops.append(SchemaRepair("wrapped_in_array", path, "wrap"))
            _walk_items([value], schema, root, path, ops, depth, wrapped=True)
            return
    if _integral_float(value) and "integer" in types and "number" not in types:
        ops.append(SchemaRepair("float_to_integer", path, "integer", "", int(value)))
        return
    enum = schema.get("enum")
    if isinstance(enum, list) and isinstance(value, str) and value not in enum:
        matches = [e for e in enum if isinstance(e, str) and e.casefold() == value.casefold()]
        if len(matches) == 1:
            ops.append(SchemaRepair("enum_case", path, "value", json.dumps(matches[0], ensure_ascii=False), matches[0]))
    if isinstance(value, dict):
        _walk_object(value, schema, root, path, ops, depth)
    elif isinstance(value, list):
        _walk_items(value, schema, root, path, ops, depth, wrapped=False)


def _integral_float(value: Any) -> bool:
    # beyond 64 bits the strict parser gives floats even for integers written as such
    return isinstance(value, float) and value.is_integer() and abs(value) < _INT64


def _wrappable(value: Any, schema: dict, root: dict) -> bool:
    """A lone object goes into the array asked for; a lone string, number or boolean
    only when the array's items take it (``null`` more likely means "none")."""
    if isinstance(value, dict):
        return True
    if value is None or isinstance(value, list):
        return False
    each = _resolve(schema.get("items"), root)
    types = _types(each) if isinstance(each, dict) else []
    return bool(types) and _fits(value, types)


def _coerce(value: Any, types: list[str], path: tuple) -> SchemaRepair | None:
    if "string" in types and isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return SchemaRepair("number_to_string", path, "string")  # the text as written: the format's
    if not isinstance(value, str):
        return None
    if "integer" in types and _INTEGER.fullmatch(value):
        return SchemaRepair("string_to_number", path, "value", str(int(value)), int(value))
    if "number" in types and _NUMBER.fullmatch(value):
        return SchemaRepair("string_to_number", path, "value", value.strip(), _number(value))
    if "boolean" in types and value.strip().lower() in ("true", "false"):
        return SchemaRepair("string_to_boolean", path, "value", value.strip().lower(), value.strip().lower() == "true")
    return None


def _number(text: str) -> int | float:
    text = text.strip()
    return int(text) if _INTEGER.fullmatch(text) else float(text)


def _walk_object(value: dict, schema: dict, root: dict, path: tuple, ops: list[SchemaRepair], depth: int) -> None:
    declared = schema.get("properties")
    props: dict[str, Any] = declared if isinstance(declared, dict) else {}
    declared = schema.get("patternProperties")
    patterns: dict[str, Any] = declared if isinstance(declared, dict) else {}
    by_norm: dict[str, list[str]] = {}
    for name in props:
        by_norm.setdefault(_norm_key(name), []).append(name)
    for key, item in value.items():
        target = key
        if key not in props and not any(search(p, key) for p in patterns):
            candidates = [p for p in by_norm.get(_norm_key(key), []) if p not in value]
            if len(candidates) == 1:
                target = candidates[0]
                ops.append(SchemaRepair("renamed_key", path + (key,), "key", target, target))
        sub = props.get(target)
        if sub is None:
            for pattern, psub in patterns.items():
                if search(pattern, key):
                    _walk(item, psub, root, path + (key,), ops, depth + 1)
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and not any(search(p, key) for p in patterns):
                _walk(item, extra, root, path + (key,), ops, depth + 1)
            continue
        _walk(item, sub, root, path + (key,), ops, depth + 1)


def _walk_items(
    items: list, schema: dict, root: dict, path: tuple, ops: list[SchemaRepair], depth: int, *, wrapped: bool
) -> None:
    prefix = schema.get("prefixItems")
    each = schema.get("items")
    if isinstance(each, list):  # draft-07 tuple form
        prefix, each = each, schema.get("additionalItems")
    prefix = prefix if isinstance(prefix, list) else []
    for i, item in enumerate(items):
        sub = prefix[i] if i < len(prefix) else each
        if sub is None or sub is True:
            continue
        # a wrapped object keeps its own path: the edits index the text as it was
        _walk(item, sub, root, path if wrapped else path + (i,), ops, depth + 1)
