"""The short, derandomised fuzz pass CI runs: the first inputs of a fixed seed over every
target, every property. A failure fails the test unless a saved repro marks that kind of
failure as a known open bug. Deselect it with ``-m "not fuzz"``; run a long one with
``python3 scripts/dev.py fuzz --minutes 60`` (tests/fuzz/README.md)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from formatbook_core.fuzzing import Settings, collect_seeds, conformance_dir, default_targets, read_targets, run
from formatbook_core.fuzzing import load_all as load_repros
from formatbook_core.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

SEED = 2026
INPUTS = 2_500  # about 10 s of CPU: 3.7 ms an input (five properties), ~140 per target


@pytest.mark.fuzz
def test_short_fuzz_pass() -> None:
    targets = default_targets() + read_targets(HERE / "targets.txt", ROOT)
    formats = [entry.format for entry in default_registry().formats()]
    seeds = collect_seeds(formats, [conformance_dir(ROOT), ROOT / "examples" / "replies"])
    settings = Settings(
        root=ROOT,
        targets=targets,
        seeds=seeds,
        run_seed=SEED,
        seconds=math.inf,  # the pass ends after INPUTS inputs, however loaded the machine
        inputs=INPUTS,
        budget=30,
        shrink_attempts=0,  # nothing is saved here: a new failure is reproduced by a long run
    )
    report = run(settings, log=lambda line: None)
    assert report.inputs == INPUTS, f"the pass ran {report.inputs} of {INPUTS} inputs"
    known = {(r.expect, r.property, r.kind) for _, r in load_repros(HERE / "repros") if r.xfail}
    new = [r for r in report.repros if (r.expect, r.property, r.kind) not in known]
    assert not new, "the short fuzz pass found failures no repro knows:\n" + "\n".join(
        f"- {r.property} on {r.expect!r}: {r.kind} ({r.found_by}; text {r.text[:200]!r})\n  {r.detail[:500]}"
        for r in new
    )
