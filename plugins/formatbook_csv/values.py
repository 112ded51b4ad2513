"""The data a CSV reply carries: its data cells, row by row, without the header (and
without cells of blanks only). Scopes are column names: ``IN "comment"`` counts the cells
of that column."""

from __future__ import annotations

from formatbook_core import ScopeNotFound

from .syntax import CsvError, Table, parse, table_bounds


def _table(text: str, delimiter: str) -> Table | None:
    """The table ``analyze`` reads: between the white space around it (``table_bounds``)."""
    lead, end = table_bounds(text)
    try:
        return parse(text[lead:end], delimiter, min_columns=1)
    except CsvError:
        return None


def extract_values(text: str, delimiter: str) -> list[str]:
    """The non-blank data cells of the valid CSV ``text`` (none when it is not valid)."""
    return table_values(_table(text, delimiter))


def extract_scope(text: str, column: str, delimiter: str) -> list[str]:
    """The non-blank cells of ``column``; ``ScopeNotFound`` when the header lacks it."""
    return table_scope(_table(text, delimiter), column)


def table_values(table: Table | None) -> list[str]:
    """The non-blank data cells of a table already read (none for ``None``)."""
    if table is None:
        return []
    return [cell for row in table.cells() for cell in row if cell.strip()]


def table_scope(table: Table | None, column: str) -> list[str]:
    """The non-blank cells of ``column`` in a table already read (``None``: the text was
    not valid CSV); ``ScopeNotFound`` when the header lacks it."""
    if table is None:
        raise ScopeNotFound(f"cannot find the column {column!r}: the text is not valid CSV")
    if column not in table.header:
        raise ScopeNotFound(f"the CSV has no column {column!r} (its columns: {', '.join(table.header)})")
    return [cell for cell in table.column(table.header.index(column)) if cell.strip()]
