"""A JSON Schema converted to the subset OpenAI's Structured Outputs accept with
``strict: true``, for the ``response_format`` of an OpenAI-compatible request.

Strict mode asks: an object at the root (not ``anyOf``); every object with
``additionalProperties: false`` and every property in ``required`` (an optional one is
made nullable); ``$ref`` to ``$defs`` (recursion allowed); ``anyOf``, ``enum``, ``const``;
and only these keywords by type — strings ``pattern`` and ``format`` (``date-time``,
``time``, ``date``, ``duration``, ``email``, ``hostname``, ``ipv4``, ``ipv6``, ``uuid``),
numbers ``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``,
``multipleOf``, arrays ``minItems``, ``maxItems`` (OpenAI's structured-outputs guide,
"Supported schemas"). Everything else is written into the ``description`` of the schema
that carried it, so the model still reads it, and listed in :attr:`Strict.lost`.

The reply is checked against the original schema, never the converted one: what the
conversion loses is judged there (``ask`` asks again with the violation).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..pointers import local_target
from ..results import ExportError
from .merging import merge

#: Keywords strict mode takes on every schema.
_STRUCTURE = frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const"})
_NOTES = frozenset({"title", "description"})
#: Keywords about the schema document, not the value: left out, nothing is lost.
_DROPPED = frozenset({"$schema", "$id", "$comment", "$anchor", "$defs", "definitions"})
#: Keywords strict mode takes, by type.
KEPT = {
    "string": frozenset({"pattern", "format"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "integer": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "array": frozenset({"minItems", "maxItems"}),
}
#: The string formats strict mode knows.
FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})
_SCALARS = ["string", "number", "boolean", "null"]
_NAME = re.compile(r"[^a-zA-Z0-9_-]+")


@dataclass
class Strict:
    """The converted ``schema`` and what it ``lost``: one line each, with its JSON pointer."""

    schema: dict[str, Any]
    lost: list[str] = field(default_factory=list)


def strict_schema(schema: Any) -> Strict:
    """``schema`` (a JSON Schema as a dict) in OpenAI's strict subset; ``ExportError``
    when strict mode cannot ask for it at all (no object at the root, a reference to
    another document)."""
    if not isinstance(schema, dict):
        raise ExportError("OpenAI's strict mode needs a JSON Schema object with an object at its root")
    converter = _Converter(schema)
    root = converter.root()
    return Strict(root, converter.lost)


def response_format(schema: Any, name: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """The ``response_format`` for ``schema`` (``None``: any JSON object, ``json_object``)
    and what strict mode lost."""
    if schema is None:
        return {"type": "json_object"}, []
    converted = strict_schema(schema)
    title = name or (schema.get("title") if isinstance(schema.get("title"), str) else None) or "reply"
    spelled = _NAME.sub("_", title).strip("_")[:64] or "reply"
    body = {"name": spelled, "strict": True, "schema": converted.schema}
    return {"type": "json_schema", "json_schema": body}, converted.lost


class _Converter:
    def __init__(self, root: dict[str, Any]):
        self.original = root
        self.lost: list[str] = []

    def root(self) -> dict[str, Any]:
        schema = self.original
        defs = {key: schema[key] for key in ("$defs", "definitions") if isinstance(schema.get(key), dict)}
        ref = schema.get("$ref")
        if isinstance(ref, str):  # a root that is a reference: the object it names, inline
            body = {k: v for k, v in schema.items() if k not in ("$ref", "$defs", "definitions")}
            schema = merge(body, self._target(ref), "#")
        if "allOf" in schema:
            schema = self._all(schema, "")
        out = self.convert({k: v for k, v in schema.items() if k not in defs}, "")
        if out.get("type") != "object":
            raise ExportError(
                "OpenAI's strict mode asks for an object at the root of the schema; this one "
                f"asks for {out.get('type') or 'anyOf'} (send the schema without structured=, or wrap it in an object)"
            )
        for key, group in defs.items():
            out[key] = {name: self.convert(sub, f"/{key}/{_escape(name)}") for name, sub in group.items()}
        return out

    def _target(self, ref: str) -> Any:
        if not ref.startswith("#"):
            raise ExportError(
                f"the JSON Schema refers to another document ({ref!r}): strict mode holds only the schema"
            )
        try:
            return local_target(self.original, ref)
        except Exception as exc:
            raise ExportError(f"cannot resolve $ref {ref!r}: {exc}") from None

    def _lose(self, where: str, what: str) -> None:
        self.lost.append(f"{where or '/'}: {what}")

    def _all(self, schema: dict[str, Any], where: str) -> dict[str, Any]:
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for member in schema["allOf"]:
            if isinstance(member, dict) and isinstance(member.get("$ref"), str):
                member = merge({k: v for k, v in member.items() if k != "$ref"}, self._target(member["$ref"]), where)
            merged = merge(merged, member, where or "/")
        self._lose(where, "allOf merged into one schema")
        return merged

    def convert(self, schema: Any, where: str) -> dict[str, Any]:
        """``schema`` in the strict subset (``where`` is its JSON pointer, for ``lost``)."""
        if schema is True or schema == {}:
            self._lose(where, "any value: sent as any string, number, boolean or null")
            return {"type": list(_SCALARS)}
        if not isinstance(schema, dict):
            raise ExportError(f"the JSON Schema at {where or '/'} accepts no value")
        if "allOf" in schema:
            schema = self._all(schema, where)
        if isinstance(schema.get("$ref"), str):
            return self._ref(schema, where)
        if "oneOf" in schema:
            schema = {**{k: v for k, v in schema.items() if k != "oneOf"}, "anyOf": schema["oneOf"]}
            self._lose(where, "oneOf sent as anyOf (the check still asks for exactly one)")
        if "anyOf" in schema:
            return self._any(schema, where)
        out: dict[str, Any] = {}
        kinds = _kinds(schema)
        kept = frozenset().union(*(KEPT.get(k, frozenset()) for k in kinds))
        notes: list[str] = []
        for key, value in schema.items():
            if key in _NOTES:
                out[key] = value
            elif key in _STRUCTURE and key not in ("properties", "required", "additionalProperties", "items"):
                out[key] = value
            elif key == "format" and "format" in kept and value not in FORMATS:
                notes.append(self._note(where, key, value))
            elif key in kept:
                out[key] = value
            elif key not in ("properties", "required", "additionalProperties", "items", *_DROPPED):
                notes.append(self._note(where, key, value))
        if "object" in kinds:
            self._object(schema, out, where)
        if "array" in kinds:
            self._array(schema, out, where, notes)
        if "type" not in out and "enum" not in out and "const" not in out:
            out["type"] = kinds if len(kinds) > 1 else kinds[0]
        _describe(out, notes)
        return out

    def _note(self, where: str, key: str, value: Any) -> str:
        text = f"{key}: {json.dumps(value, ensure_ascii=False, sort_keys=True)}"
        self._lose(where, f"{text} moved to the description")
        return text

    def _ref(self, schema: dict[str, Any], where: str) -> dict[str, Any]:
        ref = schema["$ref"]
        self._target(ref)  # a reference to another document is refused here
        out: dict[str, Any] = {"$ref": ref}
        notes = [self._note(where, k, v) for k, v in schema.items() if k not in ("$ref", *_NOTES, *_DROPPED)]
        if notes or "description" in schema:  # strict mode takes no keyword beside $ref: an anyOf carries them
            out = {"anyOf": [out]}
            _describe(out, [schema["description"], *notes] if "description" in schema else notes)
        return out

    def _any(self, schema: dict[str, Any], where: str) -> dict[str, Any]:
        constraints = _STRUCTURE.union(*KEPT.values())
        rest = {k: v for k, v in schema.items() if k != "anyOf" and k in constraints}
        branches = []
        for i, branch in enumerate(schema["anyOf"]):
            merged = merge(rest, branch, where) if rest and isinstance(branch, dict) else branch
            branches.append(self.convert(merged, f"{where}/anyOf/{i}"))
        out: dict[str, Any] = {k: schema[k] for k in _NOTES if k in schema}
        out["anyOf"] = branches
        skipped = ("anyOf", *constraints, *_NOTES, *_DROPPED)
        _describe(out, [self._note(where, k, v) for k, v in schema.items() if k not in skipped])
        return out

    def _object(self, schema: dict[str, Any], out: dict[str, Any], where: str) -> None:
        found = schema.get("properties")
        props: dict[str, Any] = found if isinstance(found, dict) else {}
        required = [r for r in schema.get("required", ()) if isinstance(r, str)]
        extra = schema.get("additionalProperties", True)
        declared = dict(props)
        for name in required:
            declared.setdefault(name, extra if isinstance(extra, dict) else True)
        if extra is not False and (not props or extra is not True):
            self._lose(where, "properties not declared (additionalProperties) cannot be written")
        converted = {}
        for name, sub in declared.items():
            at = f"{where}/properties/{_escape(name)}"
            value = self.convert(sub, at)
            if name not in required and not _takes_null(sub, self):
                value = _nullable(value)
                self._lose(at, "optional: sent as required and nullable (the check refuses null there)")
            converted[name] = value
        out["properties"] = converted
        out["required"] = list(converted)
        out["additionalProperties"] = False

    def _array(self, schema: dict[str, Any], out: dict[str, Any], where: str, notes: list[str]) -> None:
        items = schema.get("items", True)
        prefix = schema.get("prefixItems")
        if isinstance(items, list):  # draft 7's tuple form
            prefix, items = items, schema.get("additionalItems", True)
        if prefix:
            notes.append(self._note(where, "prefixItems", prefix))
            branches = [*prefix, *([items] if items is not False else [])]
            out["items"] = self.convert({"anyOf": branches}, f"{where}/items")
        else:
            out["items"] = self.convert(items, f"{where}/items")


def _kinds(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list) and kind:
        return [k for k in kind if isinstance(k, str)]
    if "enum" in schema or "const" in schema:
        values = schema["enum"] if "enum" in schema else [schema["const"]]
        return sorted({_type_of(v) for v in values})
    if any(k in schema for k in ("properties", "required", "additionalProperties")):
        return ["object"]
    if any(k in schema for k in ("items", "prefixItems", "minItems", "maxItems")):
        return ["array"]
    return ["object", "array", *_SCALARS]


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _takes_null(schema: Any, converter: _Converter, depth: int = 0) -> bool:
    """Whether the original ``schema`` lets the value be ``null`` (as far as it says so)."""
    if schema is True or schema == {} or depth > 32:
        return True
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if "enum" in schema:
        return None in schema["enum"]
    if "const" in schema:
        return schema["const"] is None
    if isinstance(schema.get("$ref"), str):
        return _takes_null(converter._target(schema["$ref"]), converter, depth + 1)
    branches = [*schema.get("anyOf", ()), *schema.get("oneOf", ())]
    return any(_takes_null(b, converter, depth + 1) for b in branches)


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str) and "enum" not in schema and "const" not in schema:
        return {**schema, "type": [kind, "null"]}
    if isinstance(kind, list) and "enum" not in schema and "const" not in schema:
        return {**schema, "type": [*kind, "null"]}
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}


def _describe(out: dict[str, Any], notes: list[str]) -> None:
    if notes:
        text = "; ".join(notes)
        out["description"] = f"{out['description']} ({text})" if out.get("description") else text


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")
