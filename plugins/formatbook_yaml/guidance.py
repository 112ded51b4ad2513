"""Prompt instructions from a JSON Schema: the keys and their types, as a short YAML
outline, frugal with tokens.

``{"type": "object", "properties": {"name": {"type": "string"}, "tags": {"type":
"array", "items": {"type": "string"}}}, "required": ["name"]}`` gives::

    Reply with YAML only (a mapping), shaped like:
    name: string
    tags?: [string]
    ("?" marks an optional key; quote strings holding ": " or " #".)
"""

from __future__ import annotations

import json
from typing import Any

from formatbook_core.pointers import local_target

_PLAIN = 'Reply with YAML only: a mapping or a list, no prose around it. Quote strings holding ": " or " #".'
_MAX_DEPTH = 6
_MAX_ENUM = 12


def guidance(schema: dict | bool | None) -> str:
    """Instructions asking for YAML matching ``schema`` (or any YAML data without one)."""
    if not isinstance(schema, dict) or not schema:
        return _PLAIN
    root = _resolve(schema, schema)
    kind = "a list" if root.get("type") == "array" else "a mapping"
    lines = _outline(root, schema, 0, set())
    if not lines:
        return _PLAIN
    out = [f"Reply with YAML only ({kind}), shaped like:", *lines]
    note = '("?" marks an optional key; ' if any("?:" in line for line in lines) else "("
    out.append(note + 'quote strings holding ": " or " #".)')
    return "\n".join(out)


def _resolve(schema: Any, root: dict) -> dict:
    seen = 0
    while (
        isinstance(schema, dict)
        and isinstance(schema.get("$ref"), str)
        and schema["$ref"].startswith("#")
        and seen < 16
    ):
        target = local_target(root, schema["$ref"])
        schema = {} if target is None else target
        seen += 1
    return schema if isinstance(schema, dict) else {}


def _type(schema: dict, root: dict, depth: int) -> str:
    schema = _resolve(schema, root)
    if "enum" in schema and isinstance(schema["enum"], list):
        values = schema["enum"][:_MAX_ENUM]
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in values)
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    t = schema.get("type")
    if isinstance(t, list):
        return " | ".join(str(x) for x in t)
    if t == "array":
        items = schema.get("items")
        inner = _type(items, root, depth + 1) if isinstance(items, dict) and depth < _MAX_DEPTH else "any"
        return f"[{inner}]"
    if t == "object":
        return "mapping"
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(_type(s, root, depth + 1) for s in schema[key][:4] if isinstance(s, dict))
    return str(t) if isinstance(t, str) else "any"


def _outline(schema: dict, root: dict, depth: int, seen: set[int]) -> list[str]:
    schema = _resolve(schema, root)
    pad = "  " * depth
    if id(schema) in seen or depth > _MAX_DEPTH:
        return []
    seen = seen | {id(schema)}
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        items = _resolve(schema["items"], root)
        if items.get("type") == "object" and isinstance(items.get("properties"), dict):
            sub = _outline(items, root, depth + 1, seen)
            if sub:
                return [pad + "- " + sub[0].lstrip(), *sub[1:]]
        return [pad + "- " + _type(items, root, depth)]
    props = schema.get("properties")
    if not isinstance(props, dict):
        return []
    required = set(schema.get("required") or [])
    lines = []
    for name, sub in props.items():
        sub_r = _resolve(sub, root) if isinstance(sub, dict) else {}
        mark = "" if name in required else "?"
        if sub_r.get("type") == "object" and isinstance(sub_r.get("properties"), dict):
            lines.append(f"{pad}{name}{mark}:")
            lines.extend(_outline(sub_r, root, depth + 1, seen))
        elif sub_r.get("type") == "array" and isinstance(_resolve(sub_r.get("items"), root).get("properties"), dict):
            lines.append(f"{pad}{name}{mark}:")
            lines.extend(_outline(sub_r, root, depth + 1, seen))
        else:
            lines.append(f"{pad}{name}{mark}: {_type(sub_r, root, depth)}")
    return lines
