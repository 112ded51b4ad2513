"""Healing CSV: the repair plan, and :func:`heal`, which runs it.

The plan is ordered data: each :class:`Step` is named and runs one module's function on
the :class:`~.state.Healing` in progress. A reply that needs healing is read tolerantly
into records (each cell with where it was), fixed record by record, and written back as
strict CSV — cells keep their quoting, records their line ends — with every change a
``Repair`` whose span indexes the payload. When a repair is not certain (a row whose split
is ambiguous, prose where the header should be) healing raises ``HealError`` with a
violation saying so: never a plausible table with the wrong data.

Before the plan, :mod:`.stretch` heals the common damage (blank lines, blanks after
delimiters, another delimiter, a last row cut short, quotes not doubled) line by line as
text, with no record a row, and answers only where the plan would answer the same; else
the plan runs:

1. ``refuse``: not text, or longer than ``max_size``.
2. ``read``: a Markdown table is read as one (:mod:`.markdown_table`, its alignment row
   dropped, invisible characters before it removed); otherwise the delimiter is chosen from the header line (:mod:`.delimiters`)
   and the text read tolerantly (:mod:`.reader`).
3. ``notes``: blanks, stray quotes, lone carriage returns, blank lines, as repairs (their
   place among the repairs fixed here; made in ``confirm``, once the records are let go).
4. ``header``: blanks around names, an empty last column; prose is refused (:mod:`.rows`).
5. ``rows``: mixed delimiters, truncated last row, ragged and over-long rows.
6. ``schema``: enum case, column names spelled as the schema spells them.
7. ``write``: the records as strict CSV; then it must read strictly (``confirm``) — with a
   schema, or a detected delimiter, it is read again; otherwise the records written are
   the value (the writer quotes what the strict reading needs quoted; a test compares).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import islice
from operator import attrgetter
from typing import Any

from formatbook_core import Analysis, Healed, HealError, Violation
from formatbook_core.healing import Step, run_plan
from formatbook_core.limits import limits_from, refuse_grown

from .. import dialect
from ..syntax import Table
from . import delimiters, markdown_table, schema_aware, stretch
from . import rows as rows_step
from .state import Healing

__all__ = ["PLAN", "Step", "heal"]


def _refuse(h: Healing) -> None:
    if not isinstance(h.text, str):
        raise HealError("cannot heal CSV: the reply is not text", [Violation("csv.syntax", "the reply is not text")])
    if len(h.text) > h.limits.max_size:
        raise h.fail("csv.too_large", f"the CSV has more than {h.limits.max_size:,} characters (max_size)")


def _read(h: Healing) -> None:
    start = markdown_table.table_start(h.text)
    if start is not None:
        h.records, align, h.blank = markdown_table.read(h.text, start)
        h.table = True
        hidden = markdown_table.hidden_before(h.text, start)
        if hidden:
            h.repair(
                "invisible_removed",
                f"removed {hidden} invisible character(s) (format or control) before the Markdown table",
                0,
                start,
            )
        if h.records:
            h.repair("markdown_table", "converted a Markdown table into CSV", h.records[0].start, h.records[-1].end)
        h.repair("alignment_row", "dropped the Markdown table's alignment row", *align)
        if h.records:
            head = h.records[0]
            names = markdown_table.plain_names(head.cells)
            if names != head.cells:
                h.repair(
                    "header_emphasis",
                    "dropped the emphasis around header names (**Name** is Name)",
                    head.start,
                    head.end,
                )
                head.cells = names
        return
    delimiters.choose(h)


def _confirm(h: Healing) -> None:
    assert h.out is not None
    refuse_grown(len(h.out), h.limits.max_size)  # the core's verdict, before a table is built
    if h.trusted:  # written from checked records: they are the value, and the table read
        header = h.records[0].cells
        rows = list(map(attrgetter("cells"), islice(h.records, 1, None)))
        h.records = []  # the records' cells are the rows: the rest (112 bytes a row) let go first
        rows_step.listed_notes(h)  # the notes' repairs, made once the records are gone
        if not set(map(len, rows)) <= {len(header)}:  # the rows step made every row the header's width
            raise ValueError("a healed row has another field count than the header")
        # the table keeps the rows' dicts only (the cells' lists let go: 14 bytes a character
        # of ``1,2`` rows)
        records = Table(list(header), rows).records()
        del rows
        table = Table(list(header), None, delimiter=h.delimiter, records=records)
        h.analysis = Analysis(records, document=table)
        return
    rows_step.listed_notes(h)
    analysis = h.analysis = h.analyze(h.out)
    if analysis.violations:
        first = analysis.violations[0]
        raise HealError(f"cannot heal the CSV: {first.message}", list(analysis.violations))


#: The repair plan, in the order the steps run.
PLAN: tuple[Step, ...] = (
    Step("refuse", _refuse),
    Step("read", _read),
    Step("notes", rows_step.place_notes),
    Step("header", rows_step.header),
    Step("rows", rows_step.rows),
    Step("schema", schema_aware.repair),
    Step("write", rows_step.write_out),
    Step("confirm", _confirm),
)


def heal(
    text: str,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
    *,
    analysis: Analysis | None = None,
) -> Healed:
    """``text`` healed into strict CSV written with the ``delimiter`` option (detected
    from the text for ``auto``; see the module doc). The signature every format's
    healing has (:class:`formatbook_core.healing.Heal`): ``schema`` is the loaded
    ``CsvSchema``; ``analysis``: ``text``'s strict reading with the schema, already made
    (else it is made here). The ``Healed`` carries the healed text's analysis.
    ``HealError`` when the text cannot be healed with certainty."""
    from ..format import CsvFormat  # noqa: PLC0415 - the format imports this module

    fmt, options = CsvFormat(), dict(options or {})
    if analysis is None:
        analysis = fmt._analyze(text, schema, options)
    if analysis.ok:
        return Healed(text)
    delimiter = dialect.option(options)
    if delimiter == dialect.AUTO:
        delimiter = dialect.resolve(text, options)
    # Without a schema, and with the delimiter given, the healed text is written from
    # records that were checked as the strict reading checks them: its rows are the
    # value, and it is not read again (tests/plugins/csv/test_written.py compares).
    trusted = schema is None and dialect.option(options) != dialect.AUTO

    def analyze(written: str, *, lexical: bool = False) -> Analysis:
        return fmt._analyze(written, schema, options, lexical=lexical)

    h = Healing(text, delimiter, schema, limits_from(options), analyze)
    h.trusted = trusted
    if not stretch.heal(h):  # the common damage healed line by line as text, else the plan
        run_plan(PLAN, h)
    if h.out == text and not h.repairs:
        return Healed(text)
    if not h.repairs:  # written differently but nothing to list: the reply was not healable
        raise HealError("cannot heal the CSV", list(analyze(text).violations))
    return Healed(h.out or text, tuple(h.repairs), analysis=h.analysis if h.out else None)
