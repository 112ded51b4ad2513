"""Prompt instructions from a JSON Schema: a compact TypeScript-like shape of the
expected value (field names, types, required fields, enums), frugal with tokens, then one
line per field the shape cannot say enough about: its description (a pydantic
``Field(description=...)``) and its constraints in words (length, pattern, date formats,
distinct items), named as a model reads a field (``address.city``, ``items[].sku``).

``{"type": "object", "properties": {"name": {"type": "string", "maxLength": 40,
"description": "Full name"}, "age": {"type": "integer"}}, "required": ["name"]}`` gives::

    Reply with a single JSON value only, shaped like:
    {"name": string, "age"?: integer}
    ("?" marks an optional field.)
    Fields:
    - name: Full name; at most 40 characters
"""

from __future__ import annotations

import json
from typing import Any

from formatbook_core.pointers import local_target

_PLAIN = "Reply with a single JSON value only."
_MAX_DEPTH = 8
_MAX_ENUM = 12
_MAX_NOTES = 24  # field lines at most: guidance stays short on a large schema
_MAX_DESCRIPTION = 160  # characters of a description kept
_FORMAT_WORDS = {
    "date": "a date as YYYY-MM-DD",
    "date-time": "a date and time in ISO 8601, e.g. 2024-05-01T09:30:00Z",
    "time": "a time as HH:MM:SS",
    "duration": "an ISO 8601 duration, e.g. P3D",
    "email": "an email address",
    "uri": "a full URL, e.g. https://example.org/",
    "url": "a full URL, e.g. https://example.org/",
    "uuid": "a UUID",
    "ipv4": "an IPv4 address",
    "ipv6": "an IPv6 address",
}


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
    root, _ = _resolve(schema, schema, set())
    if isinstance(root, dict) and root.get("additionalProperties") is False and root.get("properties"):
        text += "\nNo fields other than these."
    notes: list[str] = []
    _notes(schema, schema, "", 0, set(), notes)
    if notes:
        text += "\nFields:\n" + "\n".join(f"- {n}" for n in notes[:_MAX_NOTES])
        if len(notes) > _MAX_NOTES:  # the walk stops once it has more than enough
            text += "\n- (more fields: follow the shape above)"
    return text


def _notes(schema: Any, root: dict, name: str, depth: int, seen: set, out: list[str]) -> None:
    """One line per field with a description or a constraint the shape does not show."""
    if not isinstance(schema, dict) or depth > _MAX_DEPTH or len(out) > _MAX_NOTES:
        return
    outer_description = schema.get("description")
    schema, ref = _resolve(schema, root, seen)
    if ref is not None:
        if ref in seen:
            return
        seen = seen | {ref}
    if not isinstance(schema, dict):
        return
    options = [o for k in ("anyOf", "oneOf") for o in (schema.get(k) or ()) if isinstance(o, dict)]
    options = [o for o in options if o.get("type") != "null"]
    if name:
        # Optional[X] from pydantic is anyOf [X, null]: X's constraints are the field's
        single = _resolve(options[0], root, seen)[0] if len(options) == 1 else None
        words = _field_words(
            single if isinstance(single, dict) else schema, outer_description or schema.get("description")
        )
        if words:
            out.append(f"{name}: {words}")
    for option in options:
        _notes_inside(option, root, name, depth + 1, seen, out)
    props = schema.get("properties")
    if isinstance(props, dict):
        for key, sub in props.items():
            child = f"{name}.{key}" if name else str(key)
            _notes(sub, root, child, depth + 1, seen, out)
    items = schema.get("items")
    if isinstance(items, dict):
        _notes(items, root, f"{name}[]" if name else "[]", depth + 1, seen, out)


def _notes_inside(schema: dict, root: dict, name: str, depth: int, seen: set, out: list[str]) -> None:
    """The fields inside one option of an ``anyOf`` (the option itself is described by its field)."""
    target, ref = _resolve(schema, root, seen)
    if not isinstance(target, dict) or depth > _MAX_DEPTH or (ref is not None and ref in seen):
        return
    seen = seen | {ref} if ref is not None else seen
    props = target.get("properties")
    if isinstance(props, dict):
        for key, sub in props.items():
            _notes(sub, root, f"{name}.{key}" if name else str(key), depth + 1, seen, out)
    items = target.get("items")
    if isinstance(items, dict):
        _notes(items, root, f"{name}[]" if name else "[]", depth + 1, seen, out)


def _field_words(schema: dict, outer_description: Any) -> str:
    """The description and the constraints of one field, in words."""
    parts: list[str] = []
    description = outer_description if isinstance(outer_description, str) else schema.get("description")
    if isinstance(description, str) and description.strip():
        text = " ".join(description.split())
        if len(text) > _MAX_DESCRIPTION:
            text = text[: _MAX_DESCRIPTION - 1].rstrip() + "…"
        parts.append(text.rstrip("."))
    lo, hi = schema.get("minLength"), schema.get("maxLength")
    if isinstance(lo, int) or isinstance(hi, int):
        if lo == hi:
            parts.append(f"exactly {_chars(hi)}")
        elif isinstance(lo, int) and isinstance(hi, int):
            parts.append(f"{lo} to {hi} characters" if lo > 0 else f"at most {_chars(hi)}")
        elif isinstance(hi, int):
            parts.append(f"at most {_chars(hi)}")
        elif lo == 1:
            parts.append("not empty")
        elif lo:
            parts.append(f"at least {_chars(lo)}")
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _FORMAT_WORDS and fmt not in ("email", "uuid"):
        parts.append(_FORMAT_WORDS[fmt])
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and len(pattern) <= 80:
        parts.append(f"matching the regular expression {pattern}")
    if schema.get("uniqueItems") is True:
        parts.append("no item twice")
    multiple = schema.get("multipleOf")
    if isinstance(multiple, (int, float)) and not isinstance(multiple, bool):
        parts.append(f"a multiple of {multiple}")
    return "; ".join(parts)


def _resolve(schema: Any, root: dict, seen: set) -> tuple[Any, str | None]:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#"):
        return schema, None
    target = local_target(root, ref)
    return ({} if target is None else target), ref


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
        lo, hi = schema.get("minimum"), schema.get("maximum")
        above, below = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        if isinstance(above, bool) or isinstance(below, bool):  # draft 4: flags on minimum/maximum
            above = lo if above is True else None
            below = hi if below is True else None
            lo = None if above is not None else lo
            hi = None if below is not None else hi
        bounds = []
        if above is not None:
            bounds.append(f">{above}")
        if lo is not None or hi is not None:
            bounds.append(_range(lo, hi))
        if below is not None:
            bounds.append(f"<{below}")
        return f"{kind} ({', '.join(bounds)})" if bounds else kind
    return str(kind)


def _chars(n: Any) -> str:
    return "1 character" if n == 1 else f"{n} characters"


def _range(lo: Any, hi: Any) -> str:
    if lo is not None and hi is not None:
        return f"{lo}–{hi}"
    return f"≥{lo}" if lo is not None else f"≤{hi}"
