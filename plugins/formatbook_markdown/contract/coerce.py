"""What a caller may give as a Markdown schema (contract text, a path, a plain
structure) turned into an :class:`OutputFormatSpec`: :func:`coerce_spec`."""

from __future__ import annotations

import os
import pathlib
from typing import Any

from formatbook_core import ExpectationError
from formatbook_core.schema_files import read_schema_bytes

from .model import SECTION_KIND_WORDS, TABLE_KIND_WORDS, OfsSection, OfsTable, OutputFormatSpec, SpecError
from .names import normalize_section_name
from .parse import has_word, item_body, parse_output_format_spec, parse_section_item, parse_table_item

_SPEC_KEYS = {
    "sections": "sections",
    "tables": "tables",
    "tables_optional": "tables_optional",
    "tablesoptional": "tables_optional",
    "empty_section_value": "empty_section_value",
    "emptysectionvalue": "empty_section_value",
    "title": "title",
    "section_order_matters": "section_order_matters",
    "sectionordermatters": "section_order_matters",
    "descriptor_type": "descriptor_type",
    "descriptortype": "descriptor_type",
    "format": "format",
}
_KIND_NAMES = {**SECTION_KIND_WORDS, "ordered_list": "ordered_list", "ordered-list": "ordered_list"}
_TABLE_KIND_NAMES = {**TABLE_KIND_WORDS, "ordered_table": "ordered_table", "ordered-table": "ordered_table"}


def _section_from(obj: Any, where: str) -> OfsSection:
    if isinstance(obj, OfsSection):
        return obj
    if isinstance(obj, str):
        body = item_body(obj)
        if not body:
            raise SpecError(f"{where}: a section needs a name")
        try:
            return parse_section_item(body, obj, 1)
        except SpecError as exc:
            raise SpecError(f"{where}: {exc}") from None
    if not isinstance(obj, dict):
        raise SpecError(f"{where}: a section is a dict or a string, not {type(obj).__name__}")
    unknown = set(obj) - {"name", "kind", "required", "optional", "hint"}
    if unknown:
        raise SpecError(f"{where}: unknown keys {sorted(map(str, unknown))}")
    name = obj.get("name")
    if not isinstance(name, str) or not has_word(name):
        raise SpecError(f"{where}.name: a section needs a name with a letter or digit")
    kind_in = obj.get("kind", "prose")
    kind = _KIND_NAMES.get(kind_in.strip().lower()) if isinstance(kind_in, str) else None
    if kind is None:
        raise SpecError(f"{where}.kind: unknown section kind {kind_in!r} (kinds: prose, list, ordered_list)")
    required = obj.get("required", True)
    if "optional" in obj:
        if not isinstance(obj["optional"], bool):
            raise SpecError(f"{where}.optional: expected true or false")
        required = not obj["optional"]
    if not isinstance(required, bool):
        raise SpecError(f"{where}.required: expected true or false, not {required!r}")
    hint = obj.get("hint")
    if hint is not None and not isinstance(hint, str):
        raise SpecError(f"{where}.hint: expected a string")
    return OfsSection(name=name.strip(), kind=kind, required=required, hint=hint)  # type: ignore[arg-type]


def _table_from(obj: Any, where: str) -> OfsTable:
    if isinstance(obj, OfsTable):
        return obj
    if isinstance(obj, str):
        body = item_body(obj)
        try:
            return parse_table_item(body, obj, 1)
        except SpecError as exc:
            raise SpecError(f"{where}: {exc}") from None
    if not isinstance(obj, dict):
        raise SpecError(f"{where}: a table is a dict or a string, not {type(obj).__name__}")
    unknown = set(obj) - {"columns", "kind", "by"}
    if unknown:
        raise SpecError(f"{where}: unknown keys {sorted(map(str, unknown))}")
    columns = obj.get("columns")
    if (
        not isinstance(columns, (list, tuple))
        or not columns
        or not all(isinstance(c, str) and c.strip() for c in columns)
    ):
        raise SpecError(f"{where}.columns: expected a non-empty list of column names")
    kind_in = obj.get("kind", "table")
    kind = _TABLE_KIND_NAMES.get(kind_in.strip().lower()) if isinstance(kind_in, str) else None
    if kind is None:
        raise SpecError(f"{where}.kind: unknown table kind {kind_in!r} (kinds: table, ordered_table)")
    by = obj.get("by")
    if by is not None and not isinstance(by, str):
        raise SpecError(f"{where}.by: expected a string")
    cols = [c.strip() for c in columns]
    if kind == "ordered_table" and cols[0] == "#":
        cols = cols[1:]
        if not cols:
            raise SpecError(f"{where}.columns: an ordered table needs columns besides '#'")
    return OfsTable(columns=cols, kind=kind, by=by)  # type: ignore[arg-type]


def _spec_from_structure(obj: Any) -> OutputFormatSpec:
    if isinstance(obj, (list, tuple)):
        obj = {"sections": list(obj)}
    values: dict[str, Any] = {}
    for key, value in obj.items():
        canon = _SPEC_KEYS.get(str(key).lower()) if isinstance(key, str) else None
        if canon is None:
            raise SpecError(
                f"unknown spec key {key!r} (keys: sections, tables, tables_optional, empty_section_value, title, section_order_matters)"
            )
        values[canon] = value
    sections_in = values.get("sections", [])
    if not isinstance(sections_in, (list, tuple)):
        raise SpecError("sections: expected a list")
    tables_in = values.get("tables", [])
    if not isinstance(tables_in, (list, tuple)):
        raise SpecError("tables: expected a list")
    sections = [_section_from(s, f"sections[{i}]") for i, s in enumerate(sections_in)]
    tables = [_table_from(t, f"tables[{i}]") for i, t in enumerate(tables_in)]
    if not sections and not tables:
        raise SpecError("the spec declares no section")
    seen: set[str] = set()
    for i, s in enumerate(sections):
        key = normalize_section_name(s.name)
        if key in seen:
            raise SpecError(f"sections[{i}]: section {s.name!r} is declared twice")
        seen.add(key)
    spec = OutputFormatSpec(sections=sections, tables=tables)
    for key in ("tables_optional", "section_order_matters"):
        if key in values:
            if not isinstance(values[key], bool):
                raise SpecError(f"{key}: expected true or false")
            setattr(spec, key, values[key])
    if "empty_section_value" in values:
        ev = values["empty_section_value"]
        if ev is not None and (not isinstance(ev, str) or not ev.strip()):
            raise SpecError("empty_section_value: expected a non-blank string or null")
        spec.empty_section_value = ev
    if "title" in values:
        if values["title"] is not None and not isinstance(values["title"], str):
            raise SpecError("title: expected a string")
        spec.title = values["title"]
    if values.get("descriptor_type", "output_format_spec") != "output_format_spec":
        raise SpecError("descriptor_type: expected 'output_format_spec'")
    if not isinstance(values.get("format", "markdown"), str) or values.get("format", "markdown").lower() != "markdown":
        raise SpecError("format: expected 'markdown'")
    return spec


def coerce_spec(obj: Any) -> OutputFormatSpec:
    """Turn what a caller gave as a Markdown schema into an :class:`OutputFormatSpec`.

    * an ``OutputFormatSpec``: returned as is;
    * ``str``: Markdown contract text — except that a single line naming an existing
      ``.md``/``.markdown``/``.txt`` file is read as that file;
    * ``pathlib.Path`` (any ``os.PathLike``): the file is read as UTF-8 (a BOM dropped);
    * ``dict``: ``{"sections": [...], "tables": [...], "tables_optional": bool,
      "empty_section_value": str | None, "title": str, "section_order_matters": bool}``
      (Flex-MD's camelCase keys work too); a section is a dict ``{"name", "kind",
      "required" | "optional", "hint"}`` or a section line (``"Short answer — text"``), a
      table a dict ``{"columns", "kind", "by"}`` or a table line;
    * ``list``/``tuple``: the sections alone.

    Anything else, and anything unreadable, raises :class:`SpecError` (never TypeError).
    """
    if isinstance(obj, OutputFormatSpec):
        return obj
    if isinstance(obj, str):
        candidate = obj.strip()
        if (
            candidate
            and "\n" not in candidate
            and len(candidate) < 4096
            and candidate.lower().endswith((".md", ".markdown", ".txt"))
            and not candidate.startswith(("-", "*", "+", "#"))
        ):
            try:
                if os.path.isfile(candidate):
                    return coerce_spec(pathlib.Path(candidate))
            except (OSError, ValueError):
                pass
        return parse_output_format_spec(obj)
    if isinstance(obj, os.PathLike):
        try:
            data = read_schema_bytes(obj, what="contract file")
        except SpecError:
            raise
        except ExpectationError as exc:  # a FIFO, a file over the size cap
            raise SpecError(str(exc)) from None
        except OSError as exc:
            raise SpecError(f"cannot read the contract file {os.fspath(obj)!r}: {exc.strerror or exc}") from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SpecError(f"the contract file {os.fspath(obj)!r} is not UTF-8 (byte offset {exc.start})") from None
        return parse_output_format_spec(text)
    if isinstance(obj, (dict, list, tuple)):
        try:
            return _spec_from_structure(obj)
        except RecursionError:
            raise SpecError("the spec structure is nested too deeply") from None
    raise SpecError(f"cannot read a Markdown spec from {type(obj).__name__}")


def load_spec(spec: Any) -> OutputFormatSpec | None:
    """``None`` stays ``None`` (no contract); anything else goes through
    :func:`coerce_spec` (which raises ``SpecError`` for what it cannot read)."""
    if spec is None:
        return None
    return coerce_spec(spec)
