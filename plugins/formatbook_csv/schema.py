"""Schemas for CSV: what the header and every row must hold.

Three forms, told apart when the schema is loaded:

- a list of column names (``["name", "age"]``): the header holds exactly these columns, in
  any order; cells may be empty;
- ``{"columns": [...], "required": [...]}``: the same, and the required columns have a
  non-empty cell in every row;
- a JSON Schema (a dict, a file, JSON text, a URL with ``allow_fetch``) or a pydantic model,
  applied to each row as an object (through :mod:`formatbook_core.data_schema`). Cells are
  *typed* by the schema before it is applied — ``"42"`` is the integer 42 where the column
  is an integer, ``"true"`` a boolean where it is a boolean, an empty cell is left out of
  the object unless the column takes a string (``""``) or null (``None``) — so that
  ``required`` says "not empty". Typing reads the CSV text, it does not repair it.

A file or JSON text holding a list or a ``{"columns": ...}`` object is the first or second
form. Violations name the data row (1-based) and the column; their ``path`` is
``(row index, column)`` into ``check().value``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from formatbook_core import ExpectationError, Span, Violation
from formatbook_core.data_schema import JsonSchema, is_model, load_schema
from formatbook_core.pointers import local_target
from formatbook_core.schema_files import read_schema_file, schema_path

_INTEGER = re.compile(r"[-+]?[0-9]+")
_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
#: At most this many row violations are listed (a broken column repeats in every row).
MAX_VIOLATIONS = 20
OMIT = object()


@dataclass(frozen=True)
class CsvSchema:
    """A loaded CSV schema: ``columns`` (declared, or ``None`` when the JSON Schema has no
    properties), ``required`` (columns whose cells may not be empty), ``exact`` (no other
    column allowed), ``types`` (column -> JSON types, for typing cells), ``json`` (the row
    schema, or ``None``)."""

    columns: tuple[str, ...] | None
    required: frozenset[str]
    exact: bool
    types: dict[str, tuple[str, ...]]
    json: JsonSchema | None = None

    @property
    def model(self) -> Any:
        return self.json.model if self.json is not None else None

    def may_be_empty(self, column: str) -> bool:
        """Whether a row may leave ``column`` empty (a ragged row is padded only then)."""
        return column not in self.required

    # --- typing -------------------------------------------------------------------
    def typed(self, record: dict[str, str]) -> dict[str, Any]:
        """The row as the schema reads it (see the module doc)."""
        if not self.types:
            return dict(record)
        out: dict[str, Any] = {}
        for key, cell in record.items():
            value = type_cell(cell, self.types.get(key, ()))
            if value is not OMIT:
                out[key] = value
        return out

    # --- checking -------------------------------------------------------------------
    def header_violations(self, header: list[str], span: Span) -> list[Violation]:
        out: list[Violation] = []
        if self.columns is None:
            return out
        missing = [c for c in self.columns if c not in header and (self.exact or c in self.required)]
        for column in missing:
            out.append(
                Violation(
                    "csv.missing_column",
                    f'the header has no column "{column}"',
                    path=(column,),
                    span=span,
                    keyword="columns",
                    expected=column,
                )
            )
        if self.exact:
            for column in header:
                if column not in self.columns:
                    out.append(
                        Violation(
                            "csv.unexpected_column",
                            f'the header has a column "{column}" the schema does not declare',
                            path=(column,),
                            span=span,
                            keyword="columns",
                            expected=list(self.columns),
                        )
                    )
        return out

    def row_violations(self, index: int, record: dict[str, str], typed: dict[str, Any]) -> list[Violation]:
        """The violations of data row ``index`` (0-based); paths are ``(index, column)``."""
        out: list[Violation] = []
        for name in self.required:
            if not record.get(name, "").strip() and name in record:
                out.append(_row_violation("csv.required", index, name, "empty, and the column is required"))
        if self.json is not None and not self.json.is_valid(typed):
            for v in self.json.violations(typed):
                column = v.path[0] if v.path else None
                if column is None and v.keyword == "required" and isinstance(v.expected, list):
                    missing = [c for c in v.expected if c not in typed]
                    column = missing[0] if missing else None
                    message = "empty or missing, and the schema requires it" if column else v.message
                else:
                    message = v.message
                out.append(
                    Violation(
                        v.code,
                        _where(index, column) + message,
                        path=(index, *([column] if column is not None else []), *v.path[1:]),
                        keyword=v.keyword,
                        expected=v.expected,
                    )
                )
        return out


def _where(index: int, column: Any) -> str:
    return f'row {index + 1}, column "{column}": ' if column is not None else f"row {index + 1}: "


def _row_violation(code: str, index: int, column: str, message: str) -> Violation:
    return Violation(code, _where(index, column) + message, path=(index, column), keyword="required")


def type_cell(cell: str, types: Iterable[str]) -> Any:
    """``cell`` as the JSON types of its column read it (``OMIT``: left out of the row)."""
    types = tuple(types)
    if not types:
        return cell
    text = cell.strip()
    if not text:
        if "string" in types:
            return cell
        return None if "null" in types else OMIT
    if "integer" in types and _INTEGER.fullmatch(text):
        return int(text)
    if "number" in types and _NUMBER.fullmatch(text):
        return int(text) if _INTEGER.fullmatch(text) else float(text)
    if "boolean" in types and text.lower() in ("true", "false"):
        return text.lower() == "true"
    return cell


# --- loading ---------------------------------------------------------------------------
def load(schema: Any, *, allow_fetch: bool = False, base_dir: Any = None) -> CsvSchema | None:
    """A :class:`CsvSchema` from any of the three forms; ``ExpectationError`` when unusable."""
    if schema is None or isinstance(schema, CsvSchema):
        return schema
    plain = _plain(schema, base_dir)
    if isinstance(plain, (list, tuple)):
        return _columns(list(plain), None)
    if isinstance(plain, dict) and "columns" in plain and not ({"type", "properties", "$schema"} & set(plain)):
        return _columns(plain["columns"], plain.get("required", []))
    js = load_schema(schema, allow_fetch=allow_fetch, base_dir=base_dir)
    if js is None:
        return None
    root = js.schema if isinstance(js.schema, dict) else {}
    props = root.get("properties") if isinstance(root.get("properties"), dict) else None
    listed = root.get("required")
    required = listed if isinstance(listed, list) else []
    types = {name: _types_of(sub, root) for name, sub in (props or {}).items()}
    exact = props is not None and root.get("additionalProperties") is False
    columns = tuple(props) if props is not None else None
    return CsvSchema(columns, frozenset(r for r in required if isinstance(r, str)), exact, types, js)


def _plain(schema: Any, base_dir: Any) -> Any:
    """The schema as JSON data when it is given as data, JSON text or a local file (to tell
    the column forms apart); ``None`` otherwise (a model, a URL: the JSON Schema loader's)."""
    if isinstance(schema, (list, tuple, dict)):
        return schema
    if is_model(schema) or not isinstance(schema, (str, os.PathLike)):
        return None
    text = os.fspath(schema).strip()
    if isinstance(schema, str) and text[:1] in ("[", "{"):
        try:
            return json.loads(text)
        except ValueError:
            raise ExpectationError(f"the CSV schema text is not valid JSON: {text[:60]!r}") from None
    if text.lower().startswith(("http://", "https://")):
        return None
    try:
        return json.loads(read_schema_file(schema_path(text, base_dir), encoding="utf-8-sig"))
    except ExpectationError:
        raise  # a FIFO, a file over the size cap: said once, here
    except (OSError, ValueError):
        return None  # the JSON Schema loader says what is wrong with it


def _columns(columns: Any, required: Any) -> CsvSchema:
    if not isinstance(columns, list) or not columns or not all(isinstance(c, str) and c for c in columns):
        raise ExpectationError("a CSV schema's columns are a non-empty list of column names")
    if len(set(columns)) != len(columns):
        raise ExpectationError("a CSV schema names a column twice")
    if required is None:
        required = []
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise ExpectationError('a CSV schema\'s "required" is a list of column names')
    unknown = [r for r in required if r not in columns]
    if unknown:
        raise ExpectationError(f"a CSV schema requires {unknown[0]!r}, which is not among its columns")
    return CsvSchema(tuple(columns), frozenset(required), True, {})


def _types_of(sub: Any, root: dict, depth: int = 0) -> tuple[str, ...]:
    """The JSON types a column's schema allows (through local ``$ref``, anyOf, oneOf)."""
    if not isinstance(sub, dict) or depth > 20:
        return ()
    ref = sub.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        return _types_of(local_target(root, ref), root, depth + 1)
    kind = sub.get("type")
    if isinstance(kind, str):
        return (kind,)
    if isinstance(kind, list):
        return tuple(k for k in kind if isinstance(k, str))
    out: list[str] = []
    for key in ("anyOf", "oneOf"):
        for branch in sub.get(key) or ():
            out += [t for t in _types_of(branch, root, depth + 1) if t not in out]
    if "enum" in sub and not out:
        values = sub["enum"] if isinstance(sub["enum"], list) else []
        for value in values:
            name = _json_type(value)
            if name not in out:
                out.append(name)
    return tuple(out)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"
