"""``CsvFormat``: the ``csv`` format (and, through its alias, ``tsv``), a thin adapter over
the modules beside it."""

from __future__ import annotations

import json
import threading
from typing import Any

from formatbook_core import Analysis, Healed, Option, Span, Violation
from formatbook_core.data_schema import SCHEMA_OPTIONS, DataFormat, build_model
from formatbook_core.limits import limits_from

from . import dialect
from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import values as _values
from .schema import MAX_VIOLATIONS, CsvSchema, load
from .stream import CsvChecker, RelaxedChecker
from .syntax import CsvError, Table, parse, split_line

# The last analysis of this thread, used once: the pipeline analyzes a payload and then
# heals it (heal analyzes it first), and heal confirms its text, which the pipeline then
# analyzes — the same string object each time. Taken by the next call whatever it asks,
# so that a value is handed out once and never shared.
_LAST = threading.local()

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
        the rows as dicts (typed by a JSON Schema; model instances for a pydantic model)."""
        cs = self._schema(schema, options)
        last = getattr(_LAST, "last", None)
        if last is not None and last[1] is cs and last[2] == options and (last[0] is value or last[0] == value):
            if not last[3].violations:
                _LAST.last = None  # a value is handed out once, never shared
            return last[3]  # the same text again, right after: read once
        analysis = self._analyze(value, cs, options)
        _LAST.last = (value, cs, dict(options), analysis)
        return analysis

    def _prime(self, text: str, cs: CsvSchema | None, options: dict[str, Any], analysis: Analysis) -> None:
        """Healing wrote ``text`` from records it checked: their analysis, for the next call."""
        _LAST.last = (text, cs, dict(options), analysis)

    def _analyze(self, value: str, cs: CsvSchema | None, options: dict[str, Any]) -> Analysis:
        if not isinstance(value, str):
            return Analysis(None, (Violation("csv.syntax", f"a CSV reply is text, not {type(value).__name__}"),))
        max_size = limits_from(options).max_size
        if len(value) > max_size:
            return Analysis(
                None, (Violation("csv.too_large", f"the CSV has more than {max_size:,} characters (max_size)"),)
            )
        delimiter = dialect.resolve(value, options)
        try:
            table = parse(value, delimiter, min_columns=1 if cs is not None else 2)
        except CsvError as err:
            path: tuple = ()
            if err.row:
                path = (err.row - 1,)
            return Analysis(None, (Violation(err.code, err.message, path=path, span=err.span),))
        records = table.records()
        if cs is None:
            return Analysis(records)
        header_end = table.starts[0] if table.starts else len(value)
        violations = cs.header_violations(table.header, Span(0, header_end))
        typed = [cs.typed(r) for r in records]
        if not violations:
            for i, (record, row) in enumerate(zip(records, typed, strict=False)):
                for v in cs.row_violations(i, record, row):
                    violations.append(_with_span(v, value, table))
                if len(violations) >= MAX_VIOLATIONS:
                    break
        if violations:
            return Analysis(typed, tuple(violations))
        if cs.model is not None:
            return _build_models(cs.model, typed, value, table)
        return Analysis(typed)

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

            return self._strict_checker(cs, options, verdict)

        def accepts(text: str) -> tuple[bool, Any]:
            return self._accepts(text, cs, options)

        return RelaxedChecker(accepts)

    def _strict_checker(self, schema: Any, options: dict[str, Any], verdict: Any) -> CsvChecker:
        return CsvChecker(dialect.option(options), 1 if schema is not None else 2, verdict)

    def _accepts(self, text: str, cs: CsvSchema | None, options: dict[str, Any]) -> tuple[bool, Any]:
        """What ``check()`` would make of ``text``: valid, healed, or a located part of it."""
        first_reason = None
        for span in [Span(0, len(text)), *self.locate(text, cs, **options)]:
            payload = text[span.start : span.end]
            try:
                healed = self.heal(payload, cs, **options).text
            except Exception as err:  # a HealError, or anything else: not accepted
                first_reason = first_reason or str(err)
                continue
            return True, self.extract_values(healed, cs, **options)
        return False, first_reason or "not CSV"

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Candidate payloads, best first (see :mod:`formatbook_csv.locate`)."""
        cs = self._schema(schema, options)
        return _locate.locate(reply, dialect.option(options), lambda text: self.is_valid(text, cs, **options))

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair what models write instead of CSV, following :data:`formatbook_csv.heal.PLAN`.
        A valid reply comes back unchanged; ``HealError`` when a repair is not certain."""
        cs = self._schema(schema, options)
        analysis = self.analyze(value, cs, **options)
        if analysis.ok:
            return Healed(value)
        delimiter = dialect.option(options)
        if delimiter == dialect.AUTO:
            delimiter = dialect.resolve(value, options)
        # Without a schema, and with the delimiter given, the healed text is written from
        # records that were checked as the strict reading checks them: its rows are the
        # value, and it is not read again (tests/plugins/csv/test_written.py compares).
        trusted = cs is None and dialect.option(options) != dialect.AUTO
        return _heal.heal(
            value,
            delimiter,
            cs,
            limits_from(options),
            lambda text: self.analyze(text, cs, **options),
            (lambda text, analysis: self._prime(text, cs, options, analysis)) if trusted else None,
        )

    # --- values ---------------------------------------------------------------------
    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """The non-blank data cells, row by row (the header is structure)."""
        if not isinstance(value, str):
            return []
        return _values.extract_values(value, dialect.resolve(value, options))

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The non-blank cells of the column named ``scope``. Raises ``ScopeNotFound``."""
        return _values.extract_scope(value, scope, dialect.resolve(value, options))

    def validate_scope(self, scope: str) -> str | None:
        if not scope.strip():
            return "a CSV scope is a column name, not blank"
        return None

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
