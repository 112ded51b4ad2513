"""A promptfoo ``python`` assertion backed by formatbook.

In promptfooconfig.yaml::

    tests:
      - vars: {topic: Ada Lovelace}
        assert:
          - type: python
            value: file://examples/batch/promptfoo_formatbook.py
            config:
              expect: |
                EXPECT JSON schemas/person.json
                EXPECT MAX 80 WORDS

promptfoo calls ``get_assert(output, context)``; the EXPECT lines come from the
assertion's ``config.expect`` or else from the test's ``vars.expect``. The result is
promptfoo's GradingResult: ``pass``, ``score`` (the share of EXPECT lines met) and
``reason`` (the verdict and the first violations). A healed reply passes: the repairs
are listed in the reason; set ``config.healed_passes: false`` to fail it instead.
"""

from __future__ import annotations

from typing import Any

from formatbook_core.batch import check_one


def get_assert(output: Any, context: dict[str, Any]) -> dict[str, Any]:
    config = context.get("config") or {}
    expect = config.get("expect") or (context.get("vars") or {}).get("expect")
    if not expect:
        return {"pass": False, "score": 0.0, "reason": "formatbook: no EXPECT lines in config.expect or vars.expect"}
    reply = output if isinstance(output, (str, bytes)) or output is None else str(output)
    record = check_one(reply, expect)
    passed = record["ok"] and (config.get("healed_passes", True) or record["verdict"] != "healed")
    return {"pass": bool(passed), "score": score(record), "reason": reason(record)}


def score(record: dict[str, Any]) -> float:
    """The share of EXPECT lines met (a line not evaluated counts as not met)."""
    lines = record["expectations"]
    if not lines:
        return 1.0 if record["ok"] else 0.0
    return sum(1 for e in lines if e["ok"]) / len(lines)


def reason(record: dict[str, Any]) -> str:
    parts = [f"formatbook: {record['verdict']}"]
    if record["repairs"]:
        parts.append("repaired: " + "; ".join(r["kind"] for r in record["repairs"]))
    for v in record["violations"][:3]:
        parts.append(f"{v['code']}: {v['message']}")
    if len(record["violations"]) > 3:
        parts.append(f"and {len(record['violations']) - 3} more violations")
    return " | ".join(parts)
