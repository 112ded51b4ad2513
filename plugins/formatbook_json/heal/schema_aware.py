"""The schema step of healing: the repairs only a schema can justify (planned on the parsed
value by :mod:`formatbook_core.data_schema.repairs`), applied as edits of the text at the
values' source spans, so the rest of the text (layout, numbers as written) is left as it
was; each is a listed repair."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from formatbook_core import Repair, Span
from formatbook_core import edits as _edits
from formatbook_core.data_schema import SchemaRepair, plan_refused

from ..values import source_spans
from .state import Healing


def repair_against_schema(h: Healing) -> None:
    """The plan's schema step: make the repairs ``h.schema`` asks for on the strict JSON
    ``h.text``, only where its validator refused the value; their spans index the reply (traced back through the syntax edits)."""
    assert h.schema is not None  # the plan runs this step only with a schema (_has_schema)
    ops = plan_refused(h.parsed, h.schema, json_text=h.text)  # none for a value the validators accept
    if not ops:
        return
    written = _written(h) if any(op.what == "string" for op in ops) else None
    h.text, repairs = apply(h.text, ops, written)
    if h.edits:
        offsets = _edits.OffsetMap(h.edits)
        repairs = [_traced_back(r, offsets) for r in repairs]
    h.repairs.extend(repairs)


def _traced_back(r: Repair, offsets: _edits.OffsetMap) -> Repair:
    assert r.span is not None  # apply() gives every repair its span
    start = offsets.back(r.span.start)
    return Repair(r.kind, r.message, Span(start, max(start, offsets.back_end(r.span.end))))


def _written(h: Healing) -> Any:
    """How the reply wrote the text at a span of ``h.text`` (through the syntax edits:
    ``02134``, which the syntax step made ``2134``, is ``02134`` again)."""
    if not h.edits:
        return lambda span: h.text[span.start : span.end]
    offsets = _edits.OffsetMap(h.edits)
    original = h.original

    def written(span: Span) -> str:
        start = offsets.back(span.start)
        return original[start : max(start, offsets.back_end(span.end))]

    return written


def apply(text: str, ops: list[SchemaRepair], written: Any = None) -> tuple[str, list[Repair]]:
    """Make the planned repairs on the valid JSON ``text``; spans index ``text``.
    ``written`` gives the reply's own text at a span (a number quoted as written)."""
    if not ops:
        return text, []
    spans = source_spans(text, {op.path for op in ops})
    edits: list[tuple[int, int, str]] = []
    repairs: list[Repair] = []
    for op in ops:
        found = spans.get(op.path)
        if found is None:
            continue
        key_span, value_span = found
        if op.what == "value":
            edits.append((value_span.start, value_span.end, op.text))
            span = value_span
        elif op.what == "integer":
            written = text[value_span.start : value_span.end]
            edits.append((value_span.start, value_span.end, _integer_text(written)))
            span = value_span
        elif op.what == "key" and key_span is not None:
            edits.append((key_span.start, key_span.end, json.dumps(op.text, ensure_ascii=False)))
            span = key_span
        elif op.what == "string":
            source = written(value_span) if written is not None else text[value_span.start : value_span.end]
            edits.append((value_span.start, value_span.end, json.dumps(source.strip(), ensure_ascii=False)))
            span = value_span
        elif op.what == "wrap":
            edits.append((value_span.start, value_span.start, "["))
            edits.append((value_span.end, value_span.end, "]"))
            span = value_span
        else:
            continue
        repairs.append(Repair(op.kind, op.describe(), span))
    return _edits.apply(text, edits), repairs


def _integer_text(written: str) -> str:
    """The integer a number written ``36.0`` or ``1e23`` holds, exactly as written (not
    through a float, which would turn ``1e23`` into ``99999999999999991611392``)."""
    return str(int(Decimal(written.strip()).to_integral_value()))
