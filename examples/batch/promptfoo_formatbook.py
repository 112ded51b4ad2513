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
promptfoo's GradingResult: ``pass``, ``score`` (the share of EXPECT lines met, never at
odds with ``pass``: see :mod:`formatbook_core.batch.grading`) and ``reason`` (the verdict
and the first violations). A healed reply passes: the repairs are listed in the reason;
set ``config.healed_passes: false`` to fail it instead (it then scores 0).

promptfoo runs the file with the ``python`` it finds on the PATH, which seldom has
formatbook installed: point ``PROMPTFOO_PYTHON`` at the interpreter that has it, e.g.
``PROMPTFOO_PYTHON=.venv/bin/python npx promptfoo eval``. The file imports nothing but
formatbook, so promptfoo may load it from wherever it lies.
"""

from __future__ import annotations

from typing import Any

from formatbook_core.batch import check_one
from formatbook_core.batch.grading import grade


def get_assert(output: Any, context: dict[str, Any]) -> dict[str, Any]:
    """promptfoo's GradingResult for ``output``: ``pass``, ``score`` and ``reason``."""
    config = context.get("config") or {}
    expect = config.get("expect") or (context.get("vars") or {}).get("expect")
    if not expect:
        return {"pass": False, "score": 0.0, "reason": "formatbook: no EXPECT lines in config.expect or vars.expect"}
    reply = output if isinstance(output, (str, bytes)) or output is None else str(output)
    graded = grade(check_one(reply, expect), healed_passes=bool(config.get("healed_passes", True)))
    return {"pass": graded.passed, "score": graded.score, "reason": graded.reason}
