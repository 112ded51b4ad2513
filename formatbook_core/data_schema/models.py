"""A pydantic model as the final value: built once the JSON Schema passed, its errors
mapped to violations the same way for every data format."""

from __future__ import annotations

from typing import Any

from ..results import Violation


def build_model(model: Any, json_text: str, *, row: int | None = None) -> tuple[Any, tuple[Violation, ...]]:
    """The instance of ``model`` built from ``json_text`` and no violations, or ``None``
    and what pydantic found wrong.

    Built in strict JSON mode so that pydantic's own coercions cannot hide a repair
    (``"42"`` for an int must have been healed, and listed, before). ``row`` (0-based)
    is the table row the object stands for (CSV): messages then name it and paths start
    with it."""
    try:
        return model.model_validate_json(json_text, strict=True), ()
    except ValueError as err:
        return None, model_violations(model, err, row=row)


def model_violations(model: Any, err: ValueError, *, row: int | None = None) -> tuple[Violation, ...]:
    """pydantic's errors as violations ``schema.model.<type>``, their paths from pydantic's
    ``loc``; one ``schema.model`` violation when the error lists nothing."""
    errors = getattr(err, "errors", None)
    out = []
    for e in errors() if callable(errors) else ():
        loc = tuple(p for p in e.get("loc", ()) if isinstance(p, (str, int)))
        out.append(
            Violation(
                f"schema.model.{e.get('type', 'invalid')}",
                _where(row, loc) + f"{model.__name__}: {e.get('msg', 'invalid')}",
                path=loc if row is None else (row, *loc),
                keyword=e.get("type"),
            )
        )
    if out:
        return tuple(out)
    return (
        Violation("schema.model", _where(row, ()) + f"{model.__name__}: {err}", path=() if row is None else (row,)),
    )


def _where(row: int | None, loc: tuple[str | int, ...]) -> str:
    if row is None:
        return ""
    return f'row {row + 1}, column "{loc[0]}": ' if loc else f"row {row + 1}: "
