"""Repairs that only a schema can justify, planned on a parsed value.

- ``"42"`` where the schema wants an integer or a number becomes ``42``;
- ``"true"``/``"false"`` where it wants a boolean becomes ``true``/``false``;
- ``36.0`` where it wants an integer (and not a number) becomes ``36`` (JSON Schema and
  pydantic's lax mode count it as an integer; the value's type changes, so it is listed);
- a lone object where it wants an array of objects is wrapped in one, and so is a lone
  string, number or boolean that the array's items accept (``"x"`` for an array of
  strings); one array only, never several to reach a deeper schema;
- an enum value in the wrong case becomes the enum's spelling;
- a key that differs from a declared property only in case or in ``snake_case`` vs
  ``camelCase`` is renamed to the property (never a key the schema requires as written).

Nothing is coerced without a schema saying so, and nothing the validator accepted is
touched: a repair is planned only at or under a place the validator refused (rule 1 of
issue 31: ``877.0`` under ``anyOf`` integer / number is valid and stays as written; a key
already spelled as a valid object has it is not renamed). :func:`plan_refused` asks the
validator and plans there; :func:`plan` only decides: each
:class:`SchemaRepair` names the place (a path into the value), the kind and the new value;
a format applies them to its own text (at the values' source spans, so the rest of the
reply keeps its layout) and lists each one as a ``Repair``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ..pointers import local_target
from .models import build_model
from .patterns import search

if TYPE_CHECKING:
    from .loading import JsonSchema

_INTEGER = re.compile(r"\s*-?(?:0|[1-9][0-9]*)\s*")
_NUMBER = re.compile(r"\s*-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\s*")
_MAX_REF_HOPS = 64
_SAME: Any = object()  # plan_refused: plan on the value validated
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


def plan(value: Any, schema: Any, refused: Collection[tuple] | None = None) -> list[SchemaRepair]:
    """The schema-aware repairs ``value`` needs under ``schema`` (a JSON Schema dict).

    ``refused``: the paths where a validator refused the value (its violations' paths);
    then only repairs at or under one of them are planned (a ``float_to_integer`` only at
    one of them: a dialect that counts ``36.0`` as an integer never refuses it). ``None``
    plans everywhere (for callers that validated nothing; prefer :func:`plan_refused`)."""
    ops: list[SchemaRepair] = []
    if isinstance(schema, dict):
        _walk(value, schema, schema, (), ops, 0)
    if refused is not None:
        ops = [op for op in ops if _where_refused(op, refused)]
    # one repair per place: allOf and anyOf may ask for the same one twice
    unique = {(op.path, op.what): op for op in reversed(ops)}
    return [op for op in ops if unique[(op.path, op.what)] is op]


def plan_refused(
    value: Any, schema: JsonSchema, planned: Any = _SAME, *, json_text: str | None = None
) -> list[SchemaRepair]:
    """The repairs :func:`plan` makes on ``value`` under the loaded ``schema``, only at
    the places its validator refused: none at all for a valid value (one validation,
    no walk in Python). ``planned``: the value to plan on when it differs from the one
    validated (YAML plans on a copy whose YAML 1.1 booleans read ``"true"``).
    ``json_text``: the value as JSON text, for a schema with a pydantic model, whose
    strict mode refuses what JSON Schema accepts (``36.0`` for an ``int``)."""
    violations = schema.violations(value)
    if not violations and schema.model is not None and json_text is not None:
        violations = build_model(schema.model, json_text)[1]
    if not violations:
        return []
    refused = {tuple(v.path) for v in violations}
    return plan(value if planned is _SAME else planned, schema.schema, refused)


def _where_refused(op: SchemaRepair, refused: Collection[tuple]) -> bool:
    path = op.path
    if op.kind == "float_to_integer":
        return path in refused
    # at or under a refused place: each prefix of the path looked up (each refused path
    # compared was a repair per place by a violation per place, quadratic)
    return any(path[:length] in refused for length in range(len(path) + 1))


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
    """A lone value goes into the array asked for when the array's items take it as it
    is: an object where the items are objects (or untyped), a string, number or boolean
    where their type fits (``null`` more likely means "none"). One level only: a value
    that would need more arrays around it to reach the schema's depth is not wrapped
    (re-nesting changes the value's shape; that is not a repair)."""
    if value is None or isinstance(value, list):
        return False
    each = _resolve(schema.get("items"), root)
    types = _types(each) if isinstance(each, dict) else []
    if isinstance(value, dict):
        return not types or "object" in types
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
    required = schema.get("required")
    named = set(required) if isinstance(required, list) else set()
    by_norm: dict[str, list[str]] = {}
    for name in props:
        by_norm.setdefault(_norm_key(name), []).append(name)
    for key, item in value.items():
        target = key
        # a key the schema requires under its own name is never renamed away
        if key not in props and key not in named and not any(search(p, key) for p in patterns):
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
