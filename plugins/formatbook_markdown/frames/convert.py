"""Values in Flex-MD text: meta values (as strings, inferred or by a schema) and
payloads (JSON, a table, or raw text)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .model import FlexPayload

INT = re.compile(r"^-?(?:0|[1-9][0-9]*)$")
FLOAT = re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$")


def _schema_type(spec: Any) -> str:
    if spec in (str, "string", "str"):
        return "string"
    if spec in (int, "integer", "int"):
        return "integer"
    if spec in (float, "number", "float"):
        return "number"
    if spec in (bool, "boolean", "bool"):
        return "boolean"
    if spec in (None, type(None), "null", "none"):
        return "null"
    if spec in (list, "array", "list", "string[]"):
        return "array"
    return "string"


def _split_array(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _infer(value: str) -> Any:
    if value == "true":
        return True
    if value == "false":
        return False
    if value == "null":
        return None
    if len(value) < 400:  # int() refuses very long digit strings; they stay text
        if INT.match(value):
            return int(value)
        if FLOAT.match(value):
            number = float(value)
            if math.isfinite(number):
                return number
    return value


def convert_meta(key: str, raw: str, quoted: bool, mode: str, schema: dict | None, array_keys: tuple[str, ...]) -> Any:
    """A meta value read from its text ``raw`` (see the parser's docstring for the modes)."""
    if quoted:
        return raw
    value = raw.strip()
    if value.startswith('"') and value.endswith('"') and len(value) >= 2:
        try:
            decoded = json.loads(value)
        except (ValueError, RecursionError):
            decoded = None
        if isinstance(decoded, str):
            return decoded
    wanted = _schema_type(schema[key]) if mode == "schema" and schema and key in schema else None
    if key in array_keys and wanted in (None, "array"):
        return _split_array(value)
    if wanted is not None:
        return _convert_to(value, wanted)
    if mode == "infer":
        return _infer(value)
    return value


def _convert_to(value: str, wanted: str) -> Any:
    if wanted == "array":
        return _split_array(value)
    if wanted == "boolean":
        return {"true": True, "false": False}.get(value.lower(), value)
    if wanted == "null":
        return None if value.lower() in ("null", "") else value
    if wanted in ("integer", "number") and len(value) < 400:
        try:
            return int(value) if wanted == "integer" else _number(value)
        except ValueError:
            return value
    return value


def _number(value: str) -> int | float:
    if INT.match(value.strip()):
        return int(value)
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(value)
    return number


def _parse_table(raw: str) -> tuple[Any, str | None]:
    rows = [line.strip() for line in raw.split("\n") if line.strip()]
    if len(rows) < 2 or not re.fullmatch(r"\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?", rows[1]):
        return None, "a table needs a header row and a separator row (| --- |)"

    def cells(row: str) -> list[str]:
        if row.startswith("|"):
            row = row[1:]
        if row.endswith("|") and not row.endswith("\\|"):
            row = row[:-1]
        return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]

    return {"columns": cells(rows[0]), "rows": [cells(r) for r in rows[2:]]}, None


def read_payload(lang: str | None, raw: str) -> FlexPayload:
    """The payload of a block in language ``lang``: parsed JSON, a table, or ``raw``."""
    if lang is not None and lang.lower() == "json":
        try:
            return FlexPayload(lang, raw, json.loads(raw))
        except json.JSONDecodeError as exc:
            return FlexPayload(lang, raw, None, f"{exc.msg} at line {exc.lineno} column {exc.colno}")
        except (ValueError, RecursionError) as exc:
            return FlexPayload(lang, raw, None, str(exc) or type(exc).__name__)
    if lang is not None and lang.lower() == "table":
        value, error = _parse_table(raw)
        return FlexPayload(lang, raw, value, error)
    return FlexPayload(lang, raw, raw)
