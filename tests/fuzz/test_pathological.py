"""The pathological-input suite: every case of every plugin's ``pathological.py`` (under
``tests/plugins/<format>/``) runs at two sizes, ``n`` and ``8n``, in a subprocess (one per
format, or per part of a costly one); ``check``, ``heal`` and a ``StreamGuard`` fed in
small chunks must grow about linearly (at most ``GROWTH_LIMIT`` times the steps for 8
times the input). Work is counted (Python calls and lines), never timed: the verdict is
the same on a loaded machine. The subprocess's CPU-time limit only keeps a hang inside C
code from stalling the suite. A known super-linear case carries its reason in ``xfail``
and runs as a non-strict expected failure until its fix is merged. Quadratics planted in
the core and in a plugin show that the sizes still catch them."""

from __future__ import annotations

import inspect
import json
import os
import resource
import subprocess
import sys
import sysconfig
import textwrap
from collections.abc import Callable, Sequence
from configparser import ConfigParser
from functools import cache
from pathlib import Path

import pytest

import formatbook_icalendar.tree as tree
import formatbook_icalendar.validate as validate
from formatbook_core import reply
from formatbook_core.fuzzing.pathological import (
    FACTOR,
    GROWTH_LIMIT,
    STEP_FLOOR,
    Case,
    OverBudget,
    count_steps,
    growth_failures,
    load_cases,
    measure,
)
from formatbook_core.spans import Span

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted((ROOT / "tests" / "plugins").glob("*/pathological.py"))
# CPU seconds for one subprocess: a guard against a hang inside C code, where no step is
# counted; CPU time, not wall time, so that a loaded machine does not trip it
MODULE_CPU_LIMIT = 900
# the formats whose cases cost the most (html and iCalendar: about 10 s of CPU each, the
# others 1-8 s) run in two subprocesses, each a group of its own (tests/conftest.py), so
# that the two xdist workers share them: the cases named here (about half the format's
# steps, counted) in the second, the others in the first
SECOND_PART = {
    "html": ("reconstructed-bold", "misnested", "table-voodoo", "paragraphs"),
    "icalendar": ("nested-unclosed-calendars", "many-sibling-components"),
}


@cache
def results(module: Path, names: tuple[str, ...]) -> dict[str, dict]:
    """The cases ``names`` of ``module`` measured in one subprocess (a hang cannot stall
    the suite)."""
    command = [sys.executable, "-m", "formatbook_core.fuzzing.pathological", str(module), *names]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # set order, hence steps, the same every run
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, preexec_fn=_limit_cpu)
    return {line["name"]: line for line in map(json.loads, done.stdout.splitlines())}


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (MODULE_CPU_LIMIT, MODULE_CPU_LIMIT))


def _cases() -> list:
    params = []
    for module in MODULES:
        fmt = module.parent.name
        cases = load_cases(module)
        second = SECOND_PART.get(fmt, ())
        for case in cases:
            part = 2 if case.name in second else 1
            names = tuple(c.name for c in cases if (c.name in second) == (part == 2))
            # the id starts with the format (and its part): tests/conftest.py sends the cases
            # of a part to one xdist worker, as ``results`` measures them in one subprocess
            group = f"{fmt}.{part}" if second else fmt
            marks = [pytest.mark.xfail(strict=False, reason=case.xfail)] if case.xfail else []
            params.append(pytest.param(module, names, case.name, marks=marks, id=f"{group}-{case.name}"))
    return params


def test_every_format_contributes_cases() -> None:
    assert {m.parent.name for m in MODULES} >= {"json", "markdown", "text"}


def test_the_second_parts_name_cases_of_their_format() -> None:
    """A case renamed or removed would leave its part lighter without a word."""
    for fmt, names in SECOND_PART.items():
        assert set(names) <= {c.name for c in load_cases(ROOT / "tests" / "plugins" / fmt / "pathological.py")}


@pytest.mark.parametrize(("module", "names", "name"), _cases())
def test_growth_is_about_linear(module: Path, names: tuple[str, ...], name: str) -> None:
    measured = results(module, names).get(name)
    if measured is None:
        pytest.fail(f"{name}: no answer within the module's {MODULE_CPU_LIMIT} CPU seconds (a hang?)", pytrace=False)
    problems = growth_failures(measured)
    assert not problems, f"{module.parent.name} {name} grows faster than linearly: " + "; ".join(problems)


def test_growth_check_catches_quadratic_work() -> None:
    """The verdict is honest: quadratic growth fails, linear growth and a few steps pass."""
    assert growth_failures(
        {"check": [100_000, 6_400_000], "heal": [100_000, 1_200_001, "stopped"], "guard": "over budget"}
    ) == [
        "check: 100,000 steps at n, 6,400,000 at 8n (64.0x)",
        "heal: 100,000 steps at n, over 1,200,001 at 8n (over 12.0x)",
        "guard ran over 60,000,000 steps at n",
    ]
    assert growth_failures({"check": [100_000, 900_000], "heal": [10, 19_000], "guard": [200_000, 1_600_000]}) == []


def test_steps_are_counted_not_timed() -> None:
    """A quadratic loop costs about 64 times the steps at 8 times the size, the same every run."""

    def pairs(n: int) -> None:
        for i in range(n):
            for _ in range(i):
                pass

    small, large = count_steps(pairs, 100), count_steps(pairs, 800)
    assert (small, large) == (count_steps(pairs, 100), count_steps(pairs, 800))
    assert large > GROWTH_LIMIT * small


def _growth(run: Callable[[int], object], n: int) -> list[str]:
    """The growth check's verdict on ``run`` at ``n`` and ``FACTOR * n``, for every operation
    (the large run stopped past ``GROWTH_LIMIT`` times the small one, as ``measure`` does)."""
    small = count_steps(run, n)
    cap = max(int(GROWTH_LIMIT * small), STEP_FLOOR)
    try:
        steps: list[int | str] = [small, count_steps(run, FACTOR * n, budget=cap)]
    except OverBudget:
        steps = [small, cap + 1, "stopped"]
    return growth_failures(dict.fromkeys(("check", "heal", "guard"), steps))


def test_a_loop_inside_a_library_counts_its_lines() -> None:
    """A quadratic loop that calls no Python function, in a file of the standard library's
    directory (as html5lib's scans of its open elements are in site-packages), still fails
    the check: every line a library runs is a step, not only its calls."""
    source = "def pairs(n):\n    for i in range(n):\n        for _ in range(i):\n            pass\n"
    namespace: dict[str, object] = {"__name__": "standin"}
    exec(compile(source, str(Path(sysconfig.get_paths()["stdlib"]) / "standin.py"), "exec"), namespace)
    pairs = namespace["pairs"]
    assert callable(pairs)
    assert len(_growth(pairs, 100)) == 3


def test_repeated_calls_into_a_library_parser_fail() -> None:
    """Re-parsing a growing prefix with a parser written in Python (configparser) is
    quadratic and fails the check; parsing the whole document once is linear and passes."""
    lines = ["[section]\n"] + [f"key{i} = {i}\n" for i in range(FACTOR * 80)]

    def every_prefix(n: int) -> None:
        for i in range(n + 1):
            ConfigParser().read_string("".join(lines[:i]))

    def once(n: int) -> None:
        ConfigParser().read_string("".join(lines[:n]))

    assert len(_growth(every_prefix, 40)) == 3
    assert _growth(once, 80) == []  # 2,370 steps at 40 lines: under the floor at 8n


def _case(fmt: str, name: str) -> Case:
    """The case ``name`` of ``fmt``'s pathological.py, at the size the suite runs it."""
    return next(c for c in load_cases(ROOT / "tests" / "plugins" / fmt / "pathological.py") if c.name == name)


def test_a_quadratic_planted_in_the_core_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan c463b8b removed, put back: the think block holding a fence found by reading
    every block for every fence. JSON's think-blocks-and-fences, at the size the suite runs
    it, fails; the suite's own run of the case (bisection) passes."""

    def containing(spans: Sequence[Span], pos: int) -> Span | None:
        return next((s for s in spans if s.start <= pos < s.end), None)

    def overlaps_any(spans: Sequence[Span], start: int, end: int) -> bool:
        return any(s.start < end and start < s.end for s in spans)

    monkeypatch.setattr(reply, "containing", containing)
    monkeypatch.setattr(reply, "overlaps_any", overlaps_any)
    assert growth_failures(measure(_case("json", "think-blocks-and-fences"), operations=("check",)))


def test_a_quadratic_planted_in_a_plugin_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31 put back: iCalendar's read_tree giving each component its index by counting
    its earlier siblings at every BEGIN. many-sibling-components, at the size the suite runs
    it, fails (at 62 components instead of 220 it would pass: 10.4x)."""
    linear = "index = held.get(name, 0)"
    source = textwrap.dedent(inspect.getsource(tree.read_tree))
    assert linear in source, "read_tree changed: plant issue 31's count again"
    namespace = dict(vars(tree))
    exec(
        compile(source.replace(linear, "index = sum(1 for c in siblings if c.name == name)"), tree.__file__, "exec"),
        namespace,
    )
    monkeypatch.setattr(validate, "read_tree", namespace["read_tree"])
    assert growth_failures(measure(_case("icalendar", "many-sibling-components"), operations=("check",)))
