"""No plugin hands state from one call to the next through a thread-local (issue 24): a
parse flows explicitly, in ``Analysis.document``, ``Located`` and ``Healed.analysis``.
(A lock is no cache: iCalendar's and the language detector's stay.)"""

from __future__ import annotations

import ast
from pathlib import Path

PLUGINS = Path(__file__).resolve().parents[2] / "plugins"


def test_no_plugin_module_creates_a_thread_local():
    found = []
    for path in sorted(PLUGINS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "local":
                found.append(f"{path.relative_to(PLUGINS)}:{node.lineno}")
    assert PLUGINS.is_dir() and not found, found
