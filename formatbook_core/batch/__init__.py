"""Checking many replies: one entry point for the CLI's worker processes, Ray Data,
Spark, Hugging Face ``datasets`` and eval tools.

Everything here is plain and picklable, and parses each EXPECT text (and compiles its
schema) once per process, through a bounded cache keyed by the text::

    from formatbook_core.batch import check_rows, BatchChecker

    for record in check_rows([{"id": 1, "reply": '{"a": 1}'}], "EXPECT JSON schema.json"):
        record["ok"], record["verdict"], record["value"], record["violations"]

    # a row may carry its own expectations
    check_rows(rows, field="reply", expect_field="expect")

    # a table at a time: pyarrow.Table, pandas.DataFrame or a dict of lists in, the same
    # with the verdict columns added out (nested parts as JSON text)
    checker = BatchChecker("EXPECT JSON\\nEXPECT MAX 50 WORDS")
    table = checker(table)

A verdict record (:mod:`.record`) is ``CheckResult.to_dict()`` plus ``expectations``,
one entry per EXPECT line with its own ``ok``. Nothing a row holds raises: a row without
the reply gets the violation ``input.row`` (``input.jsonl`` in the CLI), bad
per-row expectations ``batch.expectations``, a plugin that raises ``batch.crashed``, a
check longer than the time limit ``batch.timeout`` (see :mod:`.guard` for how the limit
is kept).

Recipes (Ray Data, Spark ``mapInPandas``, ``datasets.map``, promptfoo, DeepEval) are in
the README's "Checking many replies" section and ``examples/batch/``.
"""

from __future__ import annotations

from .cache import ExpectationCache, cached_expectations, process_cache
from .columns import COLUMNS, BatchChecker, arrow_schema, flat_record, to_columns
from .core import check_one, check_row, check_rows
from .guard import ReplyTimeout, within
from .record import BAD_EXPECTATIONS, CRASHED, TIMEOUT, expectation_results, failure_record, verdict_record

__all__ = [
    "BAD_EXPECTATIONS",
    "COLUMNS",
    "CRASHED",
    "TIMEOUT",
    "BatchChecker",
    "ExpectationCache",
    "ReplyTimeout",
    "arrow_schema",
    "cached_expectations",
    "check_one",
    "check_row",
    "check_rows",
    "expectation_results",
    "failure_record",
    "flat_record",
    "process_cache",
    "to_columns",
    "verdict_record",
    "within",
]
