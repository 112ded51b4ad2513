"""``CsvFormat``: the ``csv`` format (and, through its alias, ``tsv``), a thin adapter over
the modules beside it."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from formatbook_core import Analysis, Healed, Located, Option, Span, Violation
from formatbook_core.collector import paused_gc
from formatbook_core.data_schema import SCHEMA_OPTIONS, DataFormat, build_model
from formatbook_core.limits import limits_from

from . import dialect
from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import values as _values
from .schema import MAX_VIOLATIONS, CsvSchema, load
from .stream import CsvChecker, RelaxedChecker
from .syntax import CsvError, Table, cut_short, parse, split_line, table_bounds

if TYPE_CHECKING:
    from formatbook_core.grammars import Grammar

_SAMPLES = (
    "name,age,city\nAda Lovelace,36,London\nAlan Turing,41,Wilmslow\n",
    'id,comment,score\r\n1,"Fast, friendly service",4.5\r\n2,"She said ""wow""",5\r\n',
    'product,notes\n"Desk lamp","Warm light;\ntwo brightness levels"\n"Chair",\n',
    "city,country,population\nZürich,Switzerland,421878\nSão Paulo,Brazil,12325232",
    'title,year,tags\n"The Quick, the Dead",2021,""\nDune,1965,"sci-fi, classic"\n',
)


class CsvFormat(DataFormat):
    """CSV (RFC 4180) with a header of column names. Schemas: a list of column names,
    ``{"columns": [...], "required": [...]}``, or a JSON Schema / pydantic model applied to
    each row. Options: ``delimiter`` (``","``; ``"auto"`` detects it), ``allow_fetch``,
    ``base_dir``, and the core's limits."""

    name = "csv"
    aliases = ()
    mime_types = ("text/csv", "text/tab-separated-values")
    scope_kind = "column name"
    description = "CSV (RFC 4180) with a header row; schemas name columns or type each row; scopes are columns."
    samples = _SAMPLES
    option_specs = (
        Option(
            "delimiter", str, ",", 'the field separator: one character, "tab", or "auto"', check=dialect.check_option
        ),
        *SCHEMA_OPTIONS,
    )
    schema_type = CsvSchema

    # --- schemas --------------------------------------------------------------------
    def load_schema(self, schema: Any, **options: Any) -> Any:
        """A :class:`~formatbook_csv.schema.CsvSchema` from any of its three forms."""
        return load(schema, allow_fetch=options.get("allow_fetch", False), base_dir=options.get("base_dir"))

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """The strict reading, then the schema on the header and each row; the value is
        the rows as dicts (typed by a JSON Schema; model instances for a pydantic model).
        The table read is the analysis's document."""
        return self._analyze(value, self._schema(schema, options), options)

    def _analyze(self, value: str, cs: CsvSchema | None, options: dict[str, Any], *, lexical: bool = False) -> Analysis:
        """``analyze`` with the schema loaded; ``lexical``: see :func:`~formatbook_csv.syntax.parse`."""
        if not isinstance(value, str):
            return Analysis(None, (Violation("csv.syntax", f"a CSV reply is text, not {type(value).__name__}"),))
        max_size = limits_from(options).max_size
        if len(value) > max_size:
            return Analysis(
                None, (Violation("csv.too_large", f"the CSV has more than {max_size:,} characters (max_size)"),)
            )
        lead, end = table_bounds(value)
        body = value[lead:end] if lead or end < len(value) else value
        delimiter = dialect.resolve(body, options)
        try:
            with paused_gc():  # a list a row and a dict a row, none in a cycle (see the collector)
                table = parse(body, delimiter, min_columns=1 if cs is not None else 2, lexical=lexical)
                records = table.records()
        except CsvError as err:
            path: tuple = ()
            if err.row:
                path = (err.row - 1,)
            span = Span(err.span.start + lead, err.span.end + lead)
            return Analysis(None, (Violation(err.code, err.message, path=path, span=span),))
        if lead:
            table.shift(lead)
            table.header_start = lead
        if cs is None:
            return Analysis(records, document=table)
        header_end = table.data_start
        violations = cs.header_violations(table.header, Span(lead, header_end))
        typed = [cs.typed(r) for r in records]
        if not violations:
            for i, (record, row) in enumerate(zip(records, typed, strict=False)):
                for v in cs.row_violations(i, record, row):
                    violations.append(_with_span(v, value, table))
                if len(violations) >= MAX_VIOLATIONS:
                    break
        if violations:
            return Analysis(typed, tuple(violations), document=table)
        if cs.model is not None:
            return replace(_build_models(cs.model, typed, value, table), document=table)
        return Analysis(typed, document=table)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """Whether some continuation of ``partial`` is strict CSV (the schema counts only
        for the number of columns: a schema lets a table have one)."""
        if not isinstance(partial, str):
            return False
        checker = self._strict_checker(schema, options, verdict=lambda text: None)
        return bool(checker.feed(partial))

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> CsvChecker | RelaxedChecker:
        """The incremental checker (see :mod:`formatbook_csv.stream`)."""
        cs = self._schema(schema, options)
        if strict:

            def verdict(text: str) -> str | None:
                analysis = self.analyze(text, cs, **options)
                return None if analysis.ok else analysis.violations[0].message

            return self._strict_checker(cs, options, verdict, judge=True)

        def accepts(text: str) -> tuple[bool, Any]:
            return self._accepts(text, cs, options)

        return RelaxedChecker(accepts)

    def _strict_checker(self, schema: Any, options: dict[str, Any], verdict: Any, *, judge: bool = False) -> CsvChecker:
        """The strict checker; ``judge``: ``schema`` (loaded) is judged while streaming too."""
        return CsvChecker(
            dialect.option(options), 1 if schema is not None else 2, verdict, schema=schema if judge else None
        )

    def _accepts(self, text: str, cs: CsvSchema | None, options: dict[str, Any]) -> tuple[bool, Any]:
        """What ``check()`` would make of ``text``: valid, healed, or a located part of it."""
        first_reason = None
        spans, analyses = self._located(text, cs, options)
        tried: set[Span] = set()
        for span in [Span(0, len(text)), *spans]:
            if span in tried:  # healing is deterministic: the same text fails again
                continue
            tried.add(span)
            payload = text[span.start : span.end]
            try:
                analysis = analyses.get(payload)  # locating read it already
                if analysis is None:
                    analysis = self._analyze(payload, cs, options)
                healed = _heal.heal(payload, cs, options, analysis=analysis)
            except Exception as err:  # a HealError, or anything else: not accepted
                first_reason = first_reason or str(err)
                continue
            return True, self.values_of(healed.analysis or Analysis(), healed.text, cs, **options)
        return False, first_reason or "not CSV"

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Candidate payloads, best first (see :mod:`formatbook_csv.locate`)."""
        return self._located(reply, schema, options)[0]

    def candidates(self, reply: str, schema: Any = None, **options: Any) -> list[Span | Located]:
        """``locate``'s spans; a payload locating analyzed carries that analysis."""
        spans, analyses = self._located(reply, schema, options)
        out: list[Span | Located] = []
        for span in spans:
            analysis = analyses.get(reply[span.start : span.end])
            out.append(span if analysis is None else Located(span, analysis))
        return out

    def _located(self, reply: str, schema: Any, options: dict[str, Any]) -> tuple[list[Span], dict[str, Analysis]]:
        """The spans, and the analysis (with the schema) of each text locating read."""
        cs = self._schema(schema, options)
        analyses: dict[str, Analysis] = {}

        def valid(text: str) -> bool:
            try:
                analysis = analyses[text] = self._cut_short(text, options) or self._analyze(text, cs, options)
            except Exception:  # as is_valid: a failure, never a crash
                return False
            return analysis.ok

        return _locate.locate(reply, dialect.option(options), valid), analyses

    def _cut_short(self, text: str, options: dict[str, Any]) -> Analysis | None:
        """A brief analysis (the verdict; ``analyze`` says the rest when asked) of a text
        whose last line is a row cut short (see :func:`~formatbook_csv.syntax.cut_short`),
        made without reading the rows before it: healing drops that row and reads the
        rest once. ``None`` for any other text."""
        if not isinstance(text, str) or len(text) > limits_from(options).max_size:
            return None
        lead, end = table_bounds(text)
        body = text[lead:end] if lead or end < len(text) else text
        found = cut_short(body, dialect.resolve(body, options))
        if found is None:
            return None
        start, count = found
        message = f"the last row has {count} field(s), fewer than the header: cut off?"
        span = Span(lead + start, lead + len(body))
        return Analysis(None, (Violation("csv.field_count", message, span=span),), brief=True)

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair what models write instead of CSV, following :data:`formatbook_csv.heal.PLAN`.
        A valid reply comes back unchanged; ``HealError`` when a repair is not certain."""
        return self.heal_analyzed(self.analyze(value, schema, **options), value, schema, **options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal``, starting from ``analysis`` (``text``'s) instead of reading it again."""
        return _heal.heal(text, self._schema(schema, options), options, analysis=analysis)

    # --- values ---------------------------------------------------------------------
    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """The non-blank data cells, row by row (the header is structure)."""
        if not isinstance(value, str):
            return []
        return _values.extract_values(value, dialect.resolve(value, options))

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The non-blank cells of the column named ``scope``. Raises ``ScopeNotFound``."""
        return _values.extract_scope(value, scope, dialect.resolve(value, options))

    def values_of(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_values``, from the table ``analyze`` read."""
        if isinstance(analysis.document, Table):
            return _values.table_values(analysis.document)
        return self.extract_values(text, schema, **options)

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_scope``, from the table ``analyze`` read."""
        if isinstance(analysis.document, Table):
            return _values.table_scope(analysis.document, scope)
        return self.extract_scope(text, scope, schema, **options)

    def validate_scope(self, scope: str) -> str | None:
        if not scope.strip():
            return "a CSV scope is a column name, not blank"
        return None

    def grammar(self, schema: Any = None, **options: Any) -> Grammar:
        """The declared columns as a grammar: the header fixed, rows with one field per
        column (see ``grammar.py``); ``ExportError`` without columns."""
        from .grammar import csv_grammar  # noqa: PLC0415 - an export, built when asked for

        return csv_grammar(self._schema(schema, options), options)

    def guidance(self, schema: Any = None, **options: Any) -> str:
        return _guidance.guidance(self._schema(schema, options), dialect.option(options))


def _cell_span(text: str, table: Table, index: int, column: Any) -> Span | None:
    if not (0 <= index < len(table.starts)) or column not in table.header:
        return None
    start = table.starts[index]
    try:
        cells, end, starts = split_line(text, start, table.delimiter, index + 1, [])
    except CsvError:
        return None
    i = table.header.index(column)
    if i >= len(starts):
        return None
    stop = starts[i + 1] - 1 if i + 1 < len(starts) else end
    while stop > starts[i] and text[stop - 1] in "\r\n":
        stop -= 1
    return Span(starts[i], stop)


def _with_span(v: Violation, text: str, table: Table) -> Violation:
    index = v.path[0] if v.path and isinstance(v.path[0], int) else None
    if index is None:
        return v
    column = v.path[1] if len(v.path) > 1 else None
    span = _cell_span(text, table, index, column)
    if span is None and index < len(table.starts):
        nxt = table.starts[index + 1] if index + 1 < len(table.starts) else len(text)
        span = Span(table.starts[index], nxt)
    return Violation(v.code, v.message, v.path, span, v.keyword, v.expected)


def _build_models(model: Any, typed: list[dict[str, Any]], text: str, table: Table) -> Analysis:
    """Each row as a model instance (see :func:`formatbook_core.data_schema.build_model`;
    the cells were typed by the schema already)."""
    out = []
    violations: list[Violation] = []
    for i, row in enumerate(typed):
        instance, found = build_model(model, json.dumps(row), row=i)
        if not found:
            out.append(instance)
            continue
        violations.extend(_with_span(v, text, table) for v in found)
        if len(violations) >= MAX_VIOLATIONS:
            break
    if violations:
        return Analysis(typed, tuple(violations))
    return Analysis(out)
