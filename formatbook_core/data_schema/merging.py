"""Two JSON Schemas that both apply, written as one: what ``allOf`` and the siblings of
``anyOf`` / ``$ref`` mean, for the exports that cannot say ``allOf`` (a grammar, OpenAI's
strict mode). The merge is shallow: ``properties`` and ``required`` are joined, ``type``
intersected, any other keyword of the second schema wins (the checker, which reads the
original schema, judges what the merge drops)."""

from __future__ import annotations

from typing import Any

from ..results import ExportError

TYPES = ("object", "array", "string", "number", "integer", "boolean", "null")


def merge(base: dict[str, Any], extra: Any, where: str) -> dict[str, Any]:
    """``base`` and ``extra`` as one schema; ``ExportError`` when no value can satisfy
    both as far as the merge sees (``false``, types that exclude each other)."""
    if extra is True:
        return base
    if not isinstance(extra, dict):
        raise ExportError(f"the JSON Schema at {where} accepts no value")
    out = dict(base)
    for key, value in extra.items():
        if key == "properties" and isinstance(out.get(key), dict) and isinstance(value, dict):
            props = dict(out[key])
            for name, sub in value.items():
                props[name] = merge(props[name], sub, where) if isinstance(props.get(name), dict) else sub
            out[key] = props
        elif key == "required" and isinstance(out.get(key), list) and isinstance(value, list):
            out[key] = out[key] + [r for r in value if r not in out[key]]
        elif key == "type" and key in out:
            mine = {out[key]} if isinstance(out[key], str) else set(out[key])
            theirs = {value} if isinstance(value, str) else set(value)
            both = [t for t in TYPES if _allows(mine, t) and _allows(theirs, t)]
            if not both:
                raise ExportError(f"the JSON Schema at {where} asks for types that exclude each other")
            out[key] = both[0] if len(both) == 1 else both
        else:
            out[key] = value
    return out


def _allows(types: set[str], kind: str) -> bool:
    return kind in types or (kind == "integer" and "number" in types)
