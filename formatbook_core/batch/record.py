"""Verdict records: one plain, picklable, JSON-ready dict a reply.

A record is ``CheckResult.to_dict()`` (``ok``, ``verdict``, ``format``, ``text``,
``value`` as JSON data, ``repairs``, ``violations``, ``set_aside``, ``counts``) plus
``expectations``: one entry per EXPECT line with its own ``ok`` (``None``: not evaluated,
because the reply failed its format before anything could be counted).
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from ..expectations import Expectations
from ..results import CheckResult, Violation
from ..serialising import dumps_json, fields_json, prepare_json
from ..tallying import raised_by

#: violation codes of the batch layer itself
CRASHED = "batch.crashed"
TIMEOUT = "batch.timeout"
BAD_EXPECTATIONS = "batch.expectations"
BAD_INPUT = "input.jsonl"


class VerdictRecord(dict[str, Any]):
    """A verdict record (a plain ``dict``) that knows whether ``json.dumps`` writes it as
    :func:`~formatbook_core.serialising.dumps_json` would: ``exact`` is true when it holds an
    ``ExactNumber`` (or data nested deeper than the C encoder goes)."""

    exact: bool = True


def verdict_record(result: CheckResult, expectations: Expectations | None = None) -> dict[str, Any]:
    """The record of one checked reply (``expectations``: what it was checked against).

    The same data as ``result.to_dict(attempts=False)`` (each value made JSON-ready once,
    as it does), then ``expectations``."""
    special = False

    def ready(value: Any) -> Any:
        nonlocal special
        data, odd = prepare_json(value)
        special = special or odd
        return data

    record = VerdictRecord(
        ok=result.ok,
        verdict=result.verdict,
        truncated=result.truncated,
        format=result.format,
        text=result.text,
        value=ready(result.value),
        repairs=[ready(fields_json(r)) for r in result.repairs],
        violations=[ready(fields_json(v)) for v in result.violations],
        set_aside=[ready(fields_json(a)) for a in result.set_aside],
        counts=dict(result.counts),
        expectations=expectation_results(result, expectations) if expectations is not None else [],
    )
    for extra in fields(result):  # a field CheckResult gains later (instruction results...) comes along
        if extra.name not in record and extra.name not in _NOT_RECORDED:
            record[extra.name] = ready(getattr(result, extra.name))
    record.exact = special
    return record


_NOT_RECORDED = {"reply", "attempts"}  # the reply is the caller's; attempts belong to ask()


def record_json(record: dict[str, Any], exact: bool = True) -> str:
    """One line of JSON for a record: ``json.dumps`` (C speed) unless ``exact`` says the
    record needs :func:`~formatbook_core.serialising.dumps_json`."""
    if exact:
        return dumps_json(record)
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def failure_record(code: str, message: str, *, format: str | None = None) -> dict[str, Any]:
    """The record of a reply that could not be checked: one violation says why."""
    return verdict_record(CheckResult(False, "", format=format, violations=[Violation(code, message)]))


def expectation_results(result: CheckResult, exp: Expectations) -> list[dict[str, Any]]:
    """Each EXPECT line and whether the reply met it."""
    out: list[dict[str, Any]] = []
    counted = [v for v in result.violations if v.code.startswith("count.")]
    if exp.format is not None:
        line = exp.source_line(-1) or f"EXPECT {exp.format.upper()}"
        own = [v for v in result.violations if not v.code.startswith("count.")]
        out.append({"expect": line, "ok": not own, "violations": [v.code for v in own]})
    for index, count in enumerate(exp.counts):
        entry: dict[str, Any] = {"expect": exp.source_line(index) or f"EXPECT {count.describe()}"}
        if count.key not in result.counts and not any(raised_by(v, count) for v in counted):
            entry.update(ok=None, count=None, violations=[])
        else:
            mine = [v.code for v in counted if raised_by(v, count)]
            entry.update(ok=not mine, count=result.counts.get(count.key), violations=mine)
        out.append(entry)
    return out
