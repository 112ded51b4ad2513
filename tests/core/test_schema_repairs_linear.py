"""Schema-aware repairs planned where the validator refused, in linear work (issue 30,
held out: nested ``anyOf``). Each planned repair was compared with every refused place:
``[1.5, 1.5, ...]`` under a nested ``anyOf`` (a violation and a repair per item) spent
2,000,000 comparisons on 2,000 items. Work is counted, never timed."""

from __future__ import annotations

from formatbook_core.data_schema.repairs import plan
from formatbook_core.fuzzing.pathological import count_steps

SCHEMA = {"type": "array", "items": {"type": "integer"}}


def _planned(n: int) -> int:
    refused = {(i,) for i in range(n)}
    return len(plan(["1"] * n, SCHEMA, refused))


def test_a_repair_is_planned_only_at_or_under_a_refused_place() -> None:
    assert _planned(5) == 5
    assert len(plan(["1", "2"], SCHEMA, {(1,)})) == 1
    assert len(plan(["1", "2"], SCHEMA, {()})) == 2  # the whole value refused: each item may be repaired
    assert plan(["1", "2"], SCHEMA, set()) == []


def test_repairs_at_many_refused_places_cost_linear_work() -> None:
    small = count_steps(_planned, 200)
    large = count_steps(_planned, 1_600, budget=20 * small)  # before: 64x
    assert large < 12 * small, (small, large)
