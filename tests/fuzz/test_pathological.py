"""The pathological-input suite: every case of every plugin's ``pathological.py`` (under
``tests/plugins/<format>/``) runs at two sizes, ``n`` and ``8n``, in a subprocess with a
time limit; ``check``, ``heal`` and a ``StreamGuard`` fed in small chunks must grow about
linearly (at most ``GROWTH_LIMIT`` times the work for 8 times the input). A known
super-linear case carries its reason in ``xfail`` and runs as a non-strict expected failure
until its fix is merged."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from formatbook_core.fuzzing.pathological import growth_failures, load_cases

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted((ROOT / "tests" / "plugins").glob("*/pathological.py"))
CASE_LIMIT = 20  # seconds per operation and case before it counts as a hang
MODULE_LIMIT = 150  # seconds for one format's whole module


@cache
def results(module: Path) -> dict[str, dict]:
    """Every case of ``module`` measured in one subprocess (a hang cannot stall the suite)."""
    command = [sys.executable, "-m", "formatbook_core.fuzzing.pathological", str(module), str(CASE_LIMIT)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=MODULE_LIMIT, cwd=ROOT)
        out = done.stdout
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
    return {line["name"]: line for line in map(json.loads, out.splitlines())}


def _cases() -> list:
    params = []
    for module in MODULES:
        fmt = module.parent.name
        for case in load_cases(module):
            marks = [pytest.mark.xfail(strict=False, reason=case.xfail)] if case.xfail else []
            params.append(pytest.param(module, case.name, marks=marks, id=f"{fmt}-{case.name}"))
    return params


def test_every_format_contributes_cases() -> None:
    assert {m.parent.name for m in MODULES} >= {"json", "markdown", "text"}


@pytest.mark.parametrize(("module", "name"), _cases())
def test_growth_is_about_linear(module: Path, name: str) -> None:
    measured = results(module).get(name)
    if measured is None:
        pytest.fail(f"{name}: no answer within the module's {MODULE_LIMIT} s (a hang?)", pytrace=False)
    problems = growth_failures(measured)
    assert not problems, f"{module.parent.name} {name} grows faster than linearly: " + "; ".join(problems)


def test_growth_check_catches_quadratic_work() -> None:
    """The verdict is honest: quadratic growth fails, linear growth and noise-level times pass."""
    assert growth_failures({"check": [0.1, 6.4], "heal": [0.1, 0.8], "guard": "timeout"}) == [
        "check: 0.100 s at n, 6.400 s at 8n (64.0x)",
        "guard ran over its time limit",
    ]
    assert growth_failures({"check": [0.1, 0.9], "heal": [0.0001, 0.1], "guard": [0.2, 1.6]}) == []
