"""The schema step: repairs only a schema justifies, planned by
:func:`formatbook_core.data_schema.plan` on each typed row — an enum value in the wrong
case (``enum_case``) and a column name that differs from a declared property only in case
or ``snake_case``/``camelCase`` (``renamed_key``, made once in the header). Cells are
typed by the schema, so ``"42"`` needs no repair where an integer is wanted."""

from __future__ import annotations

from formatbook_core.data_schema import plan_refused

from .state import Healing

_KINDS = ("enum_case", "renamed_key")


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch not in " _-")


def rename_columns(h: Healing) -> None:
    """A column name that differs from exactly one declared column only in case, blanks,
    ``_`` or ``-`` (``First Name`` for ``first_name``) is renamed to it (``renamed_key``)."""
    schema = h.schema
    if schema is None or not schema.columns or not h.records:
        return
    head = h.records[0]
    declared = schema.columns
    for i, cell in enumerate(head.cells):
        if cell in declared:
            continue
        matches = [c for c in declared if _norm(c) == _norm(cell) and c not in head.cells]
        if len(matches) == 1:
            start = head.starts[i] if i < len(head.starts) else head.start
            h.repair(
                "renamed_key",
                f"renamed the column {cell!r} to {matches[0]!r}, as the schema spells it",
                start,
                start + len(cell),
            )
            head.cells[i] = matches[0]


def repair(h: Healing) -> None:
    rename_columns(h)
    schema = h.schema
    if schema is None or schema.json is None or not isinstance(schema.json.schema, dict):
        return
    head = h.records[0]
    header = head.cells
    renamed: dict[int, str] = {}
    changed = False
    for rec in h.records[1:]:
        record = dict(zip(header, rec.cells, strict=False))
        for op in plan_refused(schema.typed(record), schema.json):  # only where refused
            if op.kind not in _KINDS or len(op.path) != 1:
                continue
            column = op.path[0]
            if column not in header:
                continue
            i = header.index(column)
            if op.kind == "renamed_key":
                if i not in renamed:
                    renamed[i] = op.text
                    h.repair(
                        "renamed_key",
                        f"renamed the column {column!r} to {op.text!r}, as the schema spells it",
                        head.starts[i],
                        head.starts[i] + len(column),
                    )
                    changed = True
            elif isinstance(op.value, str):
                h.repair(
                    "enum_case",
                    f"wrote {rec.cells[i]!r} as the schema's {op.value!r} in column {column!r}",
                    rec.starts[i],
                    rec.starts[i] + len(rec.cells[i]),
                )
                rec.cells[i] = op.value
                changed = True
    for i, target in renamed.items():
        header[i] = target
    if changed:
        h.done = False
