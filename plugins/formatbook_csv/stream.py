"""The incremental checkers.

:class:`CsvChecker` (``strict=True``) follows the strict grammar of :mod:`.syntax` one
chunk at a time: the quote state, the field count of the row, the header's names and
count. It fails as soon as the text shows an error — a row with more fields than the
header fails at its extra delimiter, a header cell that is prose when the cell closes, a
quote inside an unquoted field at the quote — and never on a prefix of a valid document.
Runs of plain characters are skipped with one anchored regular expression or
``str.find``, so ``feed`` costs time in proportion to its chunk. It reports each data cell
as a settled value when the cell closes (and, for ``IN "column"`` scopes, the cell with
its column). ``finish()`` gives ``is_valid``'s verdict (the schema included): the text is
kept and read once more at the end.

:class:`RelaxedChecker` (``strict=False``) follows what healing accepts: prose may come
before the table, a Markdown table may stand for it, so nothing is known to be broken
before the end; it reports no values while streaming and heals the text at ``finish()``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from formatbook_core import Span, StreamStatus
from formatbook_core.data_schema.prefix import PrefixChecker
from formatbook_core.results import ok_status
from formatbook_core.runs import Run, run
from formatbook_core.textlog import TextLog

from . import dialect
from .names import header_problem, name_problem, others
from .schema import OMIT, CsvSchema, type_cell

_START, _UNQUOTED, _QUOTED, _QUOTE, _CR, _TRAIL = range(6)
_RUNS: dict[str, Run] = {}


def _run(delimiter: str) -> Run:
    pattern = _RUNS.get(delimiter)
    if pattern is None:
        pattern = run(rf'[^{re.escape(delimiter)}"\r\n]*')
        _RUNS[delimiter] = pattern
    return pattern


class CsvChecker:
    """The strict incremental checker (see the module doc)."""

    def __init__(
        self, delimiter: str, min_columns: int, verdict: Callable[[str], str | None], *, schema: CsvSchema | None = None
    ):
        self._schema = schema
        # each data row is judged as an object by the core's schema checker, cell by cell
        self._row_template = PrefixChecker(schema.json) if schema is not None and schema.json is not None else None
        self._row_check: PrefixChecker | None = None
        self._delimiter = None if delimiter == dialect.AUTO else delimiter
        self._min_columns = min_columns
        self._verdict = verdict
        self._parts = TextLog()
        self._pending: list[str] = []  # the header line while the delimiter is detected
        self._scan = [False, True]  # detection: inside quotes, at a field start
        self._fed = 0
        self._state = _START
        self._row = 0  # 0: the header
        self._fields = 0  # fields closed in the current row
        self._row_empty = True
        self._cell: list[str] = []
        self._cell_quoted = False
        self._header: list[str] = []
        self._names: set[str] = set()
        self._failed: StreamStatus | None = None
        self._trail_reason = ""
        self._trail_at = 0
        self._values: list[str] = []
        self._scoped: list[tuple[str, str]] = []

    # --- the protocol -------------------------------------------------------------
    def scope_key(self, scope: str) -> str | None:
        """Cells are reported with their column's name: a scope is a column."""
        return scope

    def copy(self) -> CsvChecker:
        clone = CsvChecker.__new__(CsvChecker)
        clone.__dict__.update(self.__dict__)
        clone._parts = self._parts.copy()
        clone._pending = list(self._pending)
        clone._scan = list(self._scan)
        clone._cell = list(self._cell)
        clone._header = list(self._header)
        clone._names = set(self._names)
        clone._row_check = self._row_check.copy() if self._row_check is not None else None
        clone._values = []
        clone._scoped = []
        return clone

    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        self._parts.append(chunk)
        if self._delimiter is None:
            chunk = self._detect(chunk)
            if self._delimiter is None:
                return ok_status()
        failure = self._consume(chunk)
        if self._failed is not None:
            return self._failed
        if failure is not None:
            return failure
        return self._status()

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        if self._delimiter is None:
            self._delimiter = dialect.detect("".join(self._pending))
            failure = self._consume("".join(self._pending))
            self._pending = []
            if failure is not None:
                return failure
        at = self._fed
        if self._state == _QUOTED:
            return self._fail("a quoted field is never closed", at)
        if self._state == _CR:
            # a carriage return that ends the text is white space around the payload (what
            # check() strips): the row it ends is complete
            failure = self._end_row(at)
            if failure is not None:
                return failure
            self._state = _TRAIL
        if not self._row_empty and self._state != _TRAIL:
            failure = self._close_field(at) or self._end_row(at)
            if failure is not None:
                return failure
        if self._failed is not None:  # a step that failed before another ran (``a or b``)
            return self._failed
        if self._row < 2:
            return self._fail("a header and no data row: CSV data has at least one row", at)
        problem = self._verdict(self._parts.text())
        if problem is not None:
            return self._fail(problem, at)
        return self._status(complete=True)

    # --- internals ----------------------------------------------------------------
    def _status(self, complete: bool = False) -> StreamStatus:
        if not self._values:
            return ok_status(complete=complete)
        values, scoped = tuple(self._values), tuple(self._scoped)
        self._values, self._scoped = [], []
        return StreamStatus(True, complete=complete, values=values, scoped=scoped)

    def _fail(self, reason: str, position: int) -> StreamStatus:
        # the first failure stands: a failure is falsy, so ``a or b`` on two steps that may
        # fail runs the second after the first failed
        if self._failed is None:
            self._failed = StreamStatus(False, reason, position)
        return self._failed

    def _detect(self, chunk: str) -> str:
        """Hold the header line until it ends (read as :func:`.dialect.header_line_end`
        reads it); then decide the delimiter and give back everything held."""
        quoted, at_start = self._scan
        search = dialect.QUOTE_OR_BREAK.search
        i, n = 0, len(chunk)
        while i < n:  # from quote to quote: what lies between is looked at by the engine
            if quoted:
                q = chunk.find('"', i)
                if q < 0:
                    break
                quoted = False
                at_start = True  # a doubled quote reopens: an escaped quote
                i = q + 1
                continue
            m = search(chunk, i)
            j = n if m is None else m.start()
            if j > i:
                at_start = chunk[j - 1] in dialect.CANDIDATES
            if j == n:
                break
            if chunk[j] != '"':
                held = "".join(self._pending)
                self._pending = []
                self._delimiter = dialect.detect(held + chunk[:j])
                return held + chunk
            if at_start:  # a quote opens a field only at its start
                quoted = True
            i = j + 1
        self._scan = [quoted, at_start]
        self._pending.append(chunk)
        return chunk

    def _consume(self, text: str) -> StatusOrNone:  # noqa: C901 - RFC 4180 automaton, one hot loop
        d = self._delimiter
        assert d is not None
        run = _run(d).match
        blank = " " if d == "\t" else " \t"
        base = self._fed
        self._fed += len(text)
        i = 0
        n = len(text)
        state = self._state
        while i < n:
            ch = text[i]
            if state == _START:
                if ch == '"':
                    state = _QUOTED
                    self._cell_quoted = True
                    self._row_empty = False
                    i += 1
                    continue
                if ch == d:
                    self._row_empty = False
                    f = self._close_field(base + i) or self._after_delimiter(base + i)
                    if f is not None:
                        return f
                    i += 1
                    continue
                if self._row_empty and self._row == 0 and ch.isspace():
                    i += 1  # white space before the header: around the payload, as check() sets it
                    continue
                if self._row_empty and ch in "\r\n ":
                    state = self._trail("a blank line is no row", base + i)
                    i += 1
                    continue
                if ch == "\n" or ch == "\r":
                    f = self._close_field(base + i)
                    if f is not None:
                        return f
                    if ch == "\r":
                        state = _CR
                    else:
                        f = self._end_row(base + i)
                        if f is not None:
                            return f
                    i += 1
                    continue
                if ch in blank:
                    f = None if self._row_empty else self._close_field(base + i) or self._end_row(base + i)
                    if f is not None:
                        return f
                    state = self._trail("a field starts with a blank: quote the field to keep it", base + i)
                    i += 1
                    continue
                state = _UNQUOTED
                self._row_empty = False
                continue
            if state == _UNQUOTED:
                m = run(text, i)
                j = m.end()
                if j > i:
                    self._cell.append(text[i:j])
                    i = j
                    if i >= n:
                        break
                ch = text[i]
                if ch == '"':
                    return self._fail("a quote inside an unquoted field", base + i)
                f = self._close_field(base + i)
                if f is not None:
                    return f
                if ch == d:
                    f = self._after_delimiter(base + i)
                    if f is not None:
                        return f
                    state = _START
                elif ch == "\r":
                    state = _CR
                else:
                    f = self._end_row(base + i)
                    if f is not None:
                        return f
                    state = _START
                i += 1
                continue
            if state == _QUOTED:
                q = text.find('"', i)
                if q < 0:
                    self._cell.append(text[i:])
                    i = n
                    break
                self._cell.append(text[i:q])
                state = _QUOTE
                i = q + 1
                continue
            if state == _QUOTE:
                if ch == '"':
                    self._cell.append('"')
                    state = _QUOTED
                    i += 1
                    continue
                if ch != d and ch != "\n" and ch != "\r":
                    if not ch.isspace():
                        return self._fail(
                            "text after a closing quote (a quote inside a field must be doubled)", base + i
                        )
                    f = self._close_field(base + i) or self._end_row(base + i)
                    if f is not None:
                        return f
                    state = self._trail("text after a closing quote", base + i)
                    i += 1
                    continue
                f = self._close_field(base + i)
                if f is not None:
                    return f
                if ch == d:
                    f = self._after_delimiter(base + i)
                    if f is not None:
                        return f
                    state = _START
                elif ch == "\r":
                    state = _CR
                else:
                    f = self._end_row(base + i)
                    if f is not None:
                        return f
                    state = _START
                i += 1
                continue
            if state == _TRAIL:  # only white space may follow (what check() strips)
                if not ch.isspace():
                    return self._fail(self._trail_reason, self._trail_at)
                i += 1
                continue
            # _CR: a line feed must follow
            if ch != "\n":
                if not ch.isspace():
                    return self._fail("a carriage return alone is no line end", max(base + i - 1, 0))
                f = self._end_row(base + i)
                if f is not None:
                    return f
                state = self._trail("a carriage return alone is no line end", max(base + i - 1, 0))
                i += 1
                continue
            f = self._end_row(base + i)
            if f is not None:
                return f
            state = _START
            i += 1
        self._state = state
        return None

    def _trail(self, reason: str, at: int) -> int:
        """White space where the strict grammar allows none: an error unless only white
        space follows to the end (which ``check()`` sets aside around the payload)."""
        self._trail_reason = reason
        self._trail_at = at
        return _TRAIL

    def _close_field(self, at: int) -> StatusOrNone:
        value = "".join(self._cell) if self._cell else ""
        self._cell = []
        quoted, self._cell_quoted = self._cell_quoted, False
        if self._row == 0:
            assert self._delimiter is not None
            problem = name_problem(value, "" if quoted else others(self._delimiter))
            if problem is None and value in self._names:
                problem = f"the column {value!r} appears twice"
            if problem is None:
                problem = self._unexpected(value)
            if problem is not None:
                return self._fail(problem, at)
            self._names.add(value)
            self._header.append(value)
        else:
            if value.strip():
                self._values.append(value)
                self._scoped.append((self._header[self._fields], value))
            if self._schema is not None:
                problem = self._judge_cell(self._header[self._fields], value)
                if problem is not None:
                    return self._fail(problem, at)
        self._fields += 1
        return None

    def _unexpected(self, name: str) -> str | None:
        """A header cell the schema's columns leave no room for (an exact set of columns)."""
        schema = self._schema
        if schema is None or schema.columns is None or not schema.exact or name in schema.columns:
            return None
        return f'the header has a column "{name}" the schema does not declare'

    def _judge_cell(self, column: str, cell: str) -> str | None:
        """The cell as the schema judges it: not empty in a required column, and typed as
        the schema reads it, fed to the row's schema checker."""
        assert self._schema is not None
        if column in self._schema.required and not cell.strip():
            return f'row {self._row}, column "{column}": empty, and the column is required'
        if self._row_template is None:
            return None
        check = self._row_check
        if check is None:
            check = self._row_check = self._row_template.copy()
            check.start_object()
        typed = type_cell(cell, self._schema.types.get(column, ()))
        if typed is not OMIT:
            check.start_key()
            check.key(column)
            check.end_key()
            check.value(typed)
        return None if check.alive else f"row {self._row}: {check.reason}"

    def _after_delimiter(self, at: int) -> StatusOrNone:
        if self._row > 0 and self._fields >= len(self._header):
            return self._fail(
                f"row {self._row} has more fields than the header's {len(self._header)} (at this delimiter)", at
            )
        return None

    def _end_row(self, at: int) -> StatusOrNone:
        if self._row == 0:
            problem = header_problem(self._header)
            if problem is None and self._schema is not None:
                missing = self._schema.header_violations(self._header, Span(0, 0))
                problem = missing[0].message if missing else None
            if problem is not None:
                return self._fail(problem, at)
            if len(self._header) < self._min_columns:
                return self._fail(
                    f"the header has {len(self._header)} column; CSV data has at least {self._min_columns}", at
                )
        elif self._fields != len(self._header):
            return self._fail(f"row {self._row} has {self._fields} fields where the header has {len(self._header)}", at)
        elif self._row_check is not None:
            check, self._row_check = self._row_check, None
            if not check.end_object():
                return self._fail(f"row {self._row}: {check.reason}", at)
        self._row += 1
        self._fields = 0
        self._row_empty = True
        return None


StatusOrNone = StreamStatus | None


class RelaxedChecker:
    """The relaxed checker (see the module doc): truthy while streaming, the text healed
    at ``finish()``."""

    def __init__(self, accepts: Callable[[str], tuple[bool, Any]]):
        self._accepts = accepts
        self._parts = TextLog()
        self._fed = 0

    def feed(self, chunk: str) -> StreamStatus:
        self._parts.append(chunk)
        self._fed += len(chunk)
        return ok_status()

    def copy(self) -> RelaxedChecker:
        clone = RelaxedChecker(self._accepts)
        clone._parts = self._parts.copy()
        clone._fed = self._fed
        return clone

    def finish(self) -> StreamStatus:
        text = self._parts.text()
        ok, detail = self._accepts(text)
        if not ok:
            return StreamStatus(False, detail, len(text))
        return ok_status(tuple(detail), "", True)
