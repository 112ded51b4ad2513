"""A CSV schema's columns as a grammar for constrained decoding (``CsvFormat.grammar``).

The header line is fixed: the declared columns, in the order declared, with the delimiter
asked for (``","`` when it is ``"auto"``). Then one data row or more, each with one field
per column, LF or CRLF line ends, one line break allowed at the end. A field is quoted
(``"..."``, a quote inside doubled) or unquoted (no quote, delimiter or line break, no
blank at its start, no white space at its end, so that nothing ``check()`` strips is part
of it). A required column's field is never empty (nor the last column's, when the
delimiter is a tab: ``check()`` would strip a tab ending the text); a column the JSON Schema types as an
integer, a number or a boolean holds one (or nothing, when the column may be empty);
an ``enum`` column one of its values. What a row schema asks beyond that (``minimum``,
``pattern``, ``maxLength``...) is in ``Grammar.left``: the checker judges it.

Without declared columns: a header of 2 to :data:`MAX_COLUMNS` plain names (up to four
words of ASCII letters, digits and ``_``), then rows of as many fields; that the names are
unique is left to the checker.
"""

from __future__ import annotations

import json
from typing import Any

from formatbook_core.grammars import Builder, Expr, Grammar, Ref, Rep, alt, chars, lit, opt, plus, seq, star
from formatbook_core.pointers import local_target

from . import dialect
from .schema import CsvSchema

#: White space ``str.isspace`` counts, besides the line breaks: no unquoted field ends with it.
_SPACES = " \t\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: Keywords of a column's schema the grammar says (the others are left to the checker).
_SAID = frozenset({"type", "enum", "const", "title", "description", "default", "examples", "$ref", "anyOf", "oneOf"})


#: Without declared columns, tables of 2 to this many columns (one alternative each).
MAX_COLUMNS = 24


def csv_grammar(cs: CsvSchema | None, options: dict[str, Any]) -> Grammar:
    """The grammar of CSV tables with ``cs``'s columns, or, without declared columns, of
    tables of 2 to :data:`MAX_COLUMNS` columns whose header cells are plain names."""
    delimiter = dialect.option(options)
    if delimiter == dialect.AUTO:
        delimiter = ","
    writer = _Writer(delimiter, cs)
    if cs is None or cs.columns is None:
        return writer.free_grammar()
    return writer.grammar()


class _Writer:
    def __init__(self, delimiter: str, cs: CsvSchema | None):
        self.d = delimiter
        self.cs = cs
        self.builder = Builder()
        js = cs.json if cs is not None else None
        self.root: Any = js.schema if js is not None and isinstance(js.schema, dict) else {}
        blanks = " " if delimiter == "\t" else " \t"
        stop = ('"\r\n', delimiter)
        middle = chars(*stop, negated=True)
        first = chars(*stop, blanks, negated=True)
        last = chars(*stop, _SPACES, negated=True)
        both = chars(*stop, blanks, _SPACES, negated=True)
        self.unquoted = self.builder.rule("unquoted", alt(both, seq(first, star(middle), last)), token=True)
        inside = alt(chars('"', negated=True), lit('""'))
        self.quoted = self.builder.rule("quoted", seq(lit('"'), star(inside), lit('"')), token=True)
        self.filled = self.builder.rule("filled", seq(lit('"'), plus(inside), lit('"')), token=True)

    def free_grammar(self) -> Grammar:
        """Header and rows of the same number of fields, 2 to :data:`MAX_COLUMNS`; a
        header cell is a plain name (up to four words of letters, digits and ``_``, the
        first letter or ``_``: never a sentence, a label or a number, see ``names.py``)."""
        letter = chars("A-Za-z_")
        word = seq(letter, Rep(chars("A-Za-z0-9_"), 0, 14))
        name = self.builder.rule("name", seq(word, Rep(seq(lit(" "), word), 0, 3)), token=True)
        field = self.builder.rule("field", opt(alt(self.unquoted, self.quoted)))
        last = self.builder.rule("last field", alt(self.unquoted, self.filled)) if self.d.isspace() else field
        eol = self.builder.rule("eol", seq(opt(lit("\r")), lit("\n")))
        tables = []
        for n in range(2, MAX_COLUMNS + 1):
            header = seq(name, Rep(seq(lit(self.d), name), n - 1, n - 1))
            row = self.builder.rule(
                f"row {n}", seq(field, Rep(seq(lit(self.d), field), n - 2, n - 2), lit(self.d), last)
            )
            tables.append(seq(header, eol, row, star(seq(eol, row)), opt(eol)))
        self.builder.leave("unique column names")
        if self.cs is not None:
            self.builder.leave("the row schema (no declared columns)")
        return self.builder.grammar(self.builder.rule("table", alt(*tables)))

    def grammar(self) -> Grammar:
        assert self.cs is not None and self.cs.columns is not None
        columns = self.cs.columns
        eol = seq(opt(lit("\r")), lit("\n"))
        header = lit(self.d.join(_written(name, self.d) for name in columns))
        # a white-space delimiter (tab) ending the text would be stripped with it by
        # check(): there the last column's field is never empty
        filled_last = self.d.isspace()
        cells = [
            self.cell(name, single=len(columns) == 1, filled=filled_last and i == len(columns) - 1)
            for i, name in enumerate(columns)
        ]
        row: Expr = cells[0]
        for cell in cells[1:]:
            row = seq(row, lit(self.d), cell)
        row_rule = self.builder.rule("row", row)
        table = seq(header, eol, row_rule, star(seq(eol, row_rule)), opt(eol))
        return self.builder.grammar(self.builder.rule("table", table))

    def cell(self, name: str, *, single: bool, filled: bool = False) -> Expr:
        """A field of column ``name`` (``single``: the only column, whose empty field
        would be a blank line, never a row: written ``""``; ``filled``: never empty)."""
        assert self.cs is not None
        schema = self._column_schema(name)
        required = name in self.cs.required or filled
        typed = self._typed(schema, name)
        if typed is not None:
            return typed if required else opt(typed) if not single else alt(typed, lit('""'))
        if required:
            return self.builder.rule(f"{name} cell", alt(self.unquoted, self.filled))
        if single:
            return self.builder.rule(f"{name} cell", alt(self.unquoted, self.quoted))
        return self.builder.rule(f"{name} cell", opt(alt(self.unquoted, self.quoted)))

    def _column_schema(self, name: str) -> Any:
        props = self.root.get("properties") if isinstance(self.root.get("properties"), dict) else {}
        schema = props.get(name, True)
        for _ in range(20):  # local references, as the column types are read
            if not (
                isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#")
            ):
                break
            schema = local_target(self.root, schema["$ref"])
        if isinstance(schema, dict):
            for key in schema:
                if key not in _SAID:
                    self.builder.leave(f"{key} (column {name})")
        return schema

    def _typed(self, schema: Any, name: str) -> Expr | None:
        """The field of a column whose schema fixes its values or types; ``None`` for text."""
        if isinstance(schema, dict) and ("enum" in schema or "const" in schema):
            values = schema["enum"] if "enum" in schema else [schema["const"]]
            written = [_cell_text(v) for v in values if v is not None]
            if not written or any(text is None for text in written):
                return None  # a value no cell spells (an object): the checker judges it
            return alt(*(lit(_written(text, self.d)) for text in written if text is not None))
        types = self.cs.types.get(name, ()) if self.cs is not None else ()
        if not types or "string" in types:
            return None
        pieces: list[Expr] = []
        if "integer" in types and "number" not in types:
            pieces.append(self._share_token("integer", seq(opt(lit("-")), plus(chars("0-9")))))
        if "number" in types:
            digits = plus(chars("0-9"))
            pieces.append(self._share_token("number", seq(opt(lit("-")), digits, opt(seq(lit("."), digits)))))
        if "boolean" in types:
            pieces.append(alt(lit("true"), lit("false")))
        return alt(*pieces) if pieces else None

    def _share_token(self, name: str, body: Expr) -> Expr:
        if name not in self.builder.rules:
            self.builder.define(name, body)
            self.builder.tokens.add(name)
        return Ref(name)


def _cell_text(value: Any) -> str | None:
    """How a cell writes ``value`` as the column typing reads it back (``None``: no cell can)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    return value if isinstance(value, str) and value else None


def _written(text: str, delimiter: str) -> str:
    """``text`` as a field: quoted when the strict reading needs it (a quote, the
    delimiter, a line break, a blank at its start, white space at its end)."""
    needs = (
        not text
        or any(c in text for c in ('"', delimiter, "\r", "\n"))
        or text[:1] in (" ", "\t")
        or text[-1:].isspace()
    )
    return '"' + text.replace('"', '""') + '"' if needs else text
