"""Per-format facts the core's tests read, declared on each format's contract class.

A fact is a class attribute of a ``FormatContract`` subclass in
``tests/plugins/<format>/test_contract.py`` (``payload``, ``no_payload_code``,
``verdict_replies``...): a core test parametrizes over ``declared(attribute)`` instead of
holding a table keyed by format name, so a new format declares its facts in its own folder
and touches no core test.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

from formatbook_core.testing import FormatContract

_PLUGIN_TESTS = Path(__file__).resolve().parents[1] / "plugins"


@cache
def contract_classes() -> tuple[type[FormatContract], ...]:
    """Every contract class of the built-in formats' tests, in folder order."""
    found: list[type[FormatContract]] = []
    for path in sorted(_PLUGIN_TESTS.glob("*/test_contract.py")):
        module = importlib.import_module(f"tests.plugins.{path.parent.name}.test_contract")
        found += [
            c
            for c in vars(module).values()
            if isinstance(c, type) and issubclass(c, FormatContract) and c.__module__ == module.__name__
        ]
    return tuple(found)


def declared(attribute: str) -> dict[str, Any]:
    """Format name -> the fact ``attribute``, for every format whose contract class declares
    it itself (not by inheritance); the first such class of a format wins."""
    out: dict[str, Any] = {}
    for cls in contract_classes():
        if attribute in vars(cls) and cls.format is not None:
            out.setdefault(cls.format.name, vars(cls)[attribute])
    return out
