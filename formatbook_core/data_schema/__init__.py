"""JSON Schema and pydantic models applied to parsed values, for every format whose value
is data: loading a schema once (:mod:`.loading`), what it may read (:mod:`.references`),
its patterns on a linear-time engine (:mod:`.patterns`), the repairs only a schema can
justify (:mod:`.repairs`), a violation's number shown as written (:mod:`.written`), a pydantic model built as the value (:mod:`.models`), and
:class:`DataFormat`, the base of such formats (:mod:`.data_format`). A format parses its
text, hands the value here, and maps paths back to its own text."""

from __future__ import annotations

from .data_format import SCHEMA_OPTIONS, DataFormat
from .loading import JsonSchema, is_model, load_schema
from .models import build_model, model_violations
from .repairs import MESSAGES as REPAIR_MESSAGES
from .repairs import SchemaRepair, plan, plan_refused
from .written import is_number, opening_as_written

__all__ = [
    "SCHEMA_OPTIONS",
    "DataFormat",
    "JsonSchema",
    "REPAIR_MESSAGES",
    "SchemaRepair",
    "build_model",
    "is_model",
    "is_number",
    "load_schema",
    "model_violations",
    "opening_as_written",
    "plan",
    "plan_refused",
]
