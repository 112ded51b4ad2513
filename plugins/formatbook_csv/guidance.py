"""Prompt instructions for CSV: the delimiter, the columns and their types, in a few lines.

``["name", "age"]`` gives::

    Reply with CSV only: a header row, then one row per record, fields separated by commas.
    Columns, in this order: name, age
    Quote a field that holds a comma, a quote or a line break ("..."; a quote inside doubled: "").
"""

from __future__ import annotations

from typing import Any

from . import dialect
from .schema import CsvSchema

_SEPARATED = {",": "commas", "\t": "tabs", ";": "semicolons", "|": "pipes"}


def guidance(schema: CsvSchema | None, delimiter: str) -> str:
    sep = "commas" if delimiter == dialect.AUTO else _SEPARATED.get(delimiter, repr(delimiter))
    mark = "a comma" if delimiter in (",", dialect.AUTO) else f"a {dialect.name(delimiter)}"
    lines = [f"Reply with CSV only: a header row, then one row per record, fields separated by {sep}."]
    if schema is not None and schema.columns:
        lines.append("Columns, in this order: " + ", ".join(_column(schema, c) for c in schema.columns))
        if schema.required:
            lines.append("Never leave empty: " + ", ".join(c for c in schema.columns if c in schema.required))
    lines.append(f'Quote a field that holds {mark}, a quote or a line break ("..."; a quote inside doubled: "").')
    return "\n".join(lines)


def _column(schema: CsvSchema, column: str) -> str:
    types = [t for t in schema.types.get(column, ()) if t != "null"]
    enum = _enum(schema, column)
    if enum:
        return f"{column} (one of {'|'.join(enum)})"
    if types and types != ["string"]:
        return f"{column} ({' or '.join(types)})"
    return column


def _enum(schema: CsvSchema, column: str) -> list[str]:
    if schema.json is None or not isinstance(schema.json.schema, dict):
        return []
    props = schema.json.schema.get("properties") or {}
    sub: Any = props.get(column) if isinstance(props, dict) else None
    values = sub.get("enum") if isinstance(sub, dict) else None
    return [str(v) for v in values[:12]] if isinstance(values, list) else []
