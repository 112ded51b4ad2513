"""A verdict record as an eval tool grades it: pass, a score in [0, 1], a reason.

promptfoo's assertion and DeepEval's metric (``examples/batch/``) grade alike through
:func:`grade`. The score is the share of EXPECT lines met, and it never contradicts the
verdict: a reply that passes scores 1.0, one that fails scores below 1.0. A healed reply
refused (``healed_passes=False``) scores 0.0: its lines were met only by the healed
reading, and that reading is the one refused; a failure that names no EXPECT line (an
empty reply, ``batch.crashed``) scores 0.0 too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Grade:
    """``passed``, ``score`` and ``reason`` of one verdict record."""

    passed: bool
    score: float
    reason: str


def grade(record: dict[str, Any], *, healed_passes: bool = True) -> Grade:
    """The grade of a verdict record (``check_one``'s); ``healed_passes=False`` fails a
    reply that met the expectations only once healed."""
    refused = record["ok"] and not healed_passes and record["verdict"] == "healed"
    passed = bool(record["ok"]) and not refused
    share = lines_met(record)
    score = 1.0 if passed else (0.0 if refused or share >= 1.0 else share)
    return Grade(passed, score, reason(record, refused=refused))


def lines_met(record: dict[str, Any]) -> float:
    """The share of EXPECT lines met (a line not evaluated counts as not met); without
    lines, 1.0 for a reply that passed and 0.0 for one that failed."""
    lines = record["expectations"]
    if not lines:
        return 1.0 if record["ok"] else 0.0
    return sum(1 for e in lines if e["ok"]) / len(lines)


def reason(record: dict[str, Any], *, refused: bool = False) -> str:
    """The verdict, the repairs made and the first three violations, in one line."""
    verdict = "fail (healed, and healed replies do not pass here)" if refused else record["verdict"]
    parts = [f"formatbook: {verdict}"]
    if record["repairs"]:
        parts.append("repaired: " + "; ".join(r["kind"] for r in record["repairs"]))
    for v in record["violations"][:3]:
        parts.append(f"{v['code']}: {v['message']}")
    if len(record["violations"]) > 3:
        parts.append(f"and {len(record['violations']) - 3} more violations")
    return " | ".join(parts)
