"""The harness's own parts: inputs are reproducible from their index, the shrinker finds
a minimal input, the time budget stops a runaway call, targets and seeds are read."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from formatbook_core.fuzzing import (
    PROPERTIES,
    InputTimeout,
    Repro,
    Settings,
    TargetSpec,
    collect_seeds,
    generate,
    load,
    read_targets,
    run,
    shrink,
    time_budget,
)

ROOT = Path(__file__).resolve().parents[2]


def test_input_is_a_function_of_seed_and_index() -> None:
    seeds = ['{"a": [1, 2]}', "## Short answer\n\nYes.\n"]
    first = [generate(seeds, 7, i) for i in range(200)]
    assert first == [generate(seeds, 7, i) for i in range(200)]
    assert first != [generate(seeds, 8, i) for i in range(200)]
    assert len(set(first)) > 100  # mutated, not the seeds over and over


def test_shrink_keeps_the_failure_and_drops_the_rest() -> None:
    text = "prose before {" + "x" * 50 + "<bad>" + "y" * 50 + "} and after"
    assert shrink(text, lambda s: "<bad>" in s) == "<bad>"
    # a failure that needs two distant characters keeps both, in order
    assert shrink("a" * 30 + "[" + "b" * 30 + "]" + "c" * 30, lambda s: "[" in s and "]" in s[s.find("[") :]) == "[]"


def test_time_budget_stops_a_runaway_call() -> None:
    with pytest.raises(InputTimeout), time_budget(0.05):
        while True:
            time.sleep(0.001)


def test_repro_survives_lone_surrogates_and_control_characters(tmp_path: Path) -> None:
    text = "\ud800\x00\r\n\u2028\udfff"
    path = Repro("json", "JSON", "contract", text, 3, "k", "d").save(tmp_path)
    again = load(path)
    assert again.text == text and again.seed == 3 and again.xfail is None


def test_targets_file_resolves_schemas_from_its_folder() -> None:
    specs = read_targets(ROOT / "tests" / "fuzz" / "targets.txt", ROOT)
    assert specs and all(s.base_dir == "tests/fuzz" for s in specs)
    built = [s.build(ROOT) for s in specs]
    assert {"json", "markdown"} <= {t.format for t in built}
    assert any(t.expectations.schema is not None for t in built if t.format == "json")


def test_seeds_start_with_the_samples(tmp_path: Path) -> None:
    (tmp_path / "one.json").write_bytes(b'{"x": "\xff"}')
    (tmp_path / "LICENSE").write_text("not a seed")

    class Fmt:
        samples = ("s1", "s2", "s1")

    assert collect_seeds([Fmt()], [tmp_path]) == ["s1", "s2", '{"x": "\ufffd"}']


def test_a_hang_is_reported_and_the_run_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A property call over its budget is saved as a hang with its input, and the worker
    is restarted on the next input (the properties reach the worker through fork)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the patched property reaches the worker only through fork")

    def slow_on_x(target, text, seed):
        if "x" in text:
            time.sleep(30)

    monkeypatch.setitem(PROPERTIES, "slow_on_x", slow_on_x)
    settings = Settings(
        root=ROOT,
        targets=[TargetSpec("TEXT")],
        seeds=["x"],
        seconds=60,
        inputs=4,
        budget=0.2,
        properties=("slow_on_x",),
    )
    report = run(settings, log=lambda line: None)
    assert report.inputs == 4
    assert [(r.property, r.kind) for r in report.repros] == [("slow_on_x", "hang: over 0.2 s")]
    assert "x" in report.repros[0].text and report.repros[0].time_limit == 0.2
