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

The score is the share of EXPECT lines met; the metric succeeds when the reply meets
them all (after healing) and the score reaches ``threshold``.
"""

from __future__ import annotations

from typing import Any

from formatbook_core.batch import check_one

try:  # the same score and reason as the promptfoo assertion, beside this file
    from promptfoo_formatbook import reason as _reason
    from promptfoo_formatbook import score as _score
except ImportError:  # imported as a package module
    from .promptfoo_formatbook import reason as _reason  # type: ignore[no-redef]
    from .promptfoo_formatbook import score as _score  # type: ignore[no-redef]


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
        record = check_one(getattr(test_case, "actual_output", None), self.expect)
        self.record = record
        self.score = _score(record)
        self.reason = _reason(record)
        healed_ok = self.healed_passes or record["verdict"] != "healed"
        self.success = bool(record["ok"] and healed_ok and self.score >= self.threshold)
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)
