"""What one heal carries from step to step of the plan (see :mod:`formatbook_json.heal`)."""

from __future__ import annotations

from typing import Any

from formatbook_core import HealError, Repair, SetAside, Violation
from formatbook_core.data_schema import JsonSchema
from formatbook_core.healing import HealState
from formatbook_core.limits import Limits


class Healing(HealState):
    """The work in progress: ``text`` as repaired so far, its ``repairs`` and ``set_aside``
    text, the syntax ``edits`` made (to trace later spans back to the reply), and once the
    text is strict JSON (``strict``) its ``parsed`` value (the value of the text
    ``parsed_text``: a later step may edit the text). ``done_at``: where a strict
    parser found text after one complete value (the syntax walk starts there).
    ``heal_limit``: the longest text repaired (``strict.HEAL_MAX_SIZE`` unless the caller
    gave ``max_size``); ``broken``: an analysis already found the text not strict JSON."""

    __slots__ = (
        "original",
        "text",
        "schema",
        "limits",
        "strict",
        "parsed",
        "parsed_text",
        "done_at",
        "repairs",
        "set_aside",
        "edits",
        "heal_limit",
        "broken",
    )

    def __init__(self, text: Any, schema: JsonSchema | None, limits: Limits, heal_limit: int | None = None) -> None:
        self.original = text
        self.text = text
        self.schema = schema
        self.limits = limits
        self.strict = False
        self.parsed: Any = None
        self.parsed_text: str | None = None
        self.done_at: int | None = None
        self.repairs: list[Repair] = []
        self.set_aside: tuple[SetAside, ...] = ()
        self.edits: list[tuple[int, int, str]] = []
        self.heal_limit = heal_limit  # the longest text repaired (None: limits.max_size only)
        self.broken = False  # known not to be strict JSON (the pipeline's analysis said so)


def refused(violation: Violation) -> HealError:
    """The error that ends a heal, saying why."""
    return HealError(f"cannot heal JSON: {violation.message}", [violation])


def asks_for_array(schema: JsonSchema | None) -> bool:
    """Whether the schema asks for an array at the top (then values written one per line
    are its items, all of them: taking the first alone would drop the others)."""
    return schema is not None and "array" in schema.top_types
