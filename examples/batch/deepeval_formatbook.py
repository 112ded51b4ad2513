"""A DeepEval-style metric backed by formatbook.

DeepEval calls ``measure(test_case)`` (or ``a_measure``) on a test case with an
``actual_output`` and then reads ``score``, ``reason``, ``success`` and
``is_successful()``. This class has that shape without importing DeepEval, so it also
works as a plain scorer; to register it with DeepEval itself, subclass
``deepeval.metrics.BaseMetric`` and this class together::

    from deepeval.metrics import BaseMetric

    class FormatMetric(FormatbookMetric, BaseMetric):
        pass

    assert_test(test_case, [FormatMetric("EXPECT JSON\\nEXPECT MAX 40 WORDS")])

The score is the share of EXPECT lines met (0 for a healed reply with
``healed_passes=False``: see :mod:`formatbook_core.batch.grading`); the metric succeeds
when the reply meets them all (after healing) and the score reaches ``threshold``. The
file imports nothing but formatbook: import it from its folder, or copy it.
"""

from __future__ import annotations

from typing import Any

from formatbook_core.batch import check_one
from formatbook_core.batch.grading import grade


class FormatbookMetric:
    """Does ``actual_output`` meet the EXPECT lines?"""

    def __init__(self, expect: str, threshold: float = 1.0, *, healed_passes: bool = True) -> None:
        self.expect = expect
        self.threshold = threshold
        self.healed_passes = healed_passes
        self.score: float | None = None
        self.reason: str | None = None
        self.success: bool | None = None
        self.error: str | None = None
        self.record: dict[str, Any] | None = None
        self.evaluation_model = None  # DeepEval reads it; no model is involved here
        self.strict_mode = threshold >= 1.0
        self.async_mode = True
        self.include_reason = True

    @property
    def __name__(self) -> str:  # DeepEval names a metric by this attribute
        return "Formatbook"

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        """Grade ``test_case.actual_output``: sets ``score``, ``reason`` and ``success``."""
        record = check_one(getattr(test_case, "actual_output", None), self.expect)
        graded = grade(record, healed_passes=self.healed_passes)
        self.record = record
        self.score = graded.score
        self.reason = graded.reason
        self.success = graded.passed and graded.score >= self.threshold
        return graded.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)
