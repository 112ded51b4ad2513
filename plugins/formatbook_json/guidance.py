"""Prompt instructions from a JSON Schema: a compact TypeScript-like shape of the
expected value (field names, types, required fields, enums), frugal with tokens.

``{"type": "object", "properties": {"name": {"type": "string"}, "age": {"type":
"integer"}}, "required": ["name"]}`` gives::

    Reply with a single JSON value only, shaped like:
    {"name": string, "age"?: integer}
    ("?" marks an optional field.)
"""

from __future__ import annotations

import json
from typing import Any

_PLAIN = "Reply with a single JSON value only."
_MAX_DEPTH = 8
_MAX_ENUM = 12


def guidance(schema: dict | bool | None) -> str:
    """Instructions asking for JSON matching ``schema`` (or any JSON without one)."""
    if not isinstance(schema, dict) or not schema:
        return _PLAIN
    shape = _shape(schema, schema, 0, set())
    if shape == "any":
        return _PLAIN
    text = f"Reply with a single JSON value only, shaped like:\n{shape}"
    if '"?:' in shape:
        text += '\n("?" marks an optional field.)'
    return text


def _resolve(schema: Any, root: dict, seen: set) -> tuple[Any, str | None]:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#"):
        return schema, None
    target: Any = root
    for part in ref[1:].lstrip("/").split("/") if ref not in ("#", "#/") else []:
        target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
    return target, ref


def _shape(schema: Any, root: dict, depth: int, seen: set) -> str:
    if schema is True or schema == {}:
        return "any"
    if not isinstance(schema, dict):
        return "nothing"
    schema, ref = _resolve(schema, root, seen)
    if ref is not None:
        if ref in seen or depth > _MAX_DEPTH:
            return ref.rsplit("/", 1)[-1]  # a recursive type: name it instead of expanding it
        seen = seen | {ref}
    if not isinstance(schema, dict):
        return "any"
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        shown = "|".join(json.dumps(e, ensure_ascii=False) for e in enum[:_MAX_ENUM])
        return shown + ("|…" if len(enum) > _MAX_ENUM else "")
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            return " | ".join(dict.fromkeys(_shape(o, root, depth + 1, seen) for o in options))
    parts = schema.get("allOf")
    if isinstance(parts, list) and parts and not schema.get("type") and not schema.get("properties"):
        return " & ".join(_shape(p, root, depth + 1, seen) for p in parts)
    types = schema.get("type")
    if isinstance(types, list):
        return " | ".join(_typed(dict(schema, type=t), root, depth, seen) for t in types)
    if types is None:
        if "properties" in schema:
            types = "object"
        elif "items" in schema or "prefixItems" in schema:
            types = "array"
        else:
            return "any"
    return _typed(dict(schema, type=types), root, depth, seen)


def _typed(schema: dict, root: dict, depth: int, seen: set) -> str:
    kind = schema["type"]
    if kind == "object":
        props = schema.get("properties")
        if not isinstance(props, dict) or not props:
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and depth < _MAX_DEPTH:
                return "{[key: string]: " + _shape(extra, root, depth + 1, seen) + "}"
            return "object"
        if depth >= _MAX_DEPTH:
            return "object"
        required = set(schema.get("required") or ())
        fields = []
        for name, sub in props.items():
            mark = "" if name in required else "?"
            fields.append(f"{json.dumps(name, ensure_ascii=False)}{mark}: {_shape(sub, root, depth + 1, seen)}")
        return "{" + ", ".join(fields) + "}"
    if kind == "array":
        items = schema.get("prefixItems") or (schema.get("items") if isinstance(schema.get("items"), list) else None)
        if isinstance(items, list):
            return "[" + ", ".join(_shape(i, root, depth + 1, seen) for i in items) + "]"
        item = schema.get("items")
        inner = _shape(item, root, depth + 1, seen) if isinstance(item, dict) and depth < _MAX_DEPTH else "any"
        text = f"{inner}[]" if " " not in inner and "|" not in inner else f"({inner})[]"
        lo, hi = schema.get("minItems"), schema.get("maxItems")
        if lo is not None or hi is not None:
            text += f" ({_range(lo, hi)} items)"
        return text
    if kind == "string":
        fmt = schema.get("format")
        return f"string ({fmt})" if isinstance(fmt, str) else "string"
    if kind in ("integer", "number"):
        lo = schema.get("minimum", schema.get("exclusiveMinimum"))
        hi = schema.get("maximum", schema.get("exclusiveMaximum"))
        return f"{kind} ({_range(lo, hi)})" if lo is not None or hi is not None else kind
    return str(kind)


def _range(lo: Any, hi: Any) -> str:
    if lo is not None and hi is not None:
        return f"{lo}–{hi}"
    return f"≥{lo}" if lo is not None else f"≤{hi}"
