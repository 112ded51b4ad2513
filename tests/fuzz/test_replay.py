"""Every repro the fuzzer saved in ``repros/`` is a test: a fixed bug's repro stays as a
regression test; a known open bug (``"xfail": "<reason>"`` in its file) runs as a strict
expected failure, so that its fix is noticed (then set ``"xfail": null``). A hang
(``time_limit`` set) runs in a subprocess, killed when it runs over."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from formatbook_core.fuzzing import PROPERTIES, Broken, Repro, load, load_all, replay

ROOT = Path(__file__).resolve().parents[2]
REPROS = Path(__file__).resolve().parent / "repros"


def _cases() -> list:
    cases = []
    for path, repro in load_all(REPROS):
        marks = [pytest.mark.xfail(strict=True, reason=repro.xfail)] if repro.xfail else []
        cases.append(pytest.param(path, marks=marks, id=path.stem))
    return cases


@pytest.mark.parametrize("path", _cases())
def test_repro(path: Path) -> None:
    repro = load(path)
    if repro.time_limit is None:
        try:
            replay(repro, ROOT)
        except Broken as broken:
            pytest.fail(f"{repro.property} on {repro.expect!r}: {broken.kind}\n{broken.detail}", pytrace=False)
        return
    # a hang may be stuck where no signal reaches it: a subprocess, killed after the limit
    code = (
        "import sys; from pathlib import Path; from formatbook_core.fuzzing import load, replay; "
        "replay(load(Path(sys.argv[1])), Path(sys.argv[2]))"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(path), str(ROOT)],
            capture_output=True,
            text=True,
            timeout=repro.time_limit * 2 + 10,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{repro.property} on {repro.expect!r} still hangs", pytrace=False)
    if done.returncode != 0:
        pytest.fail(f"{repro.property} on {repro.expect!r}:\n{done.stderr[-2000:]}", pytrace=False)


def test_replay_catches_a_broken_property(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay is honest: a repro whose property holds passes, one whose property
    breaks raises ``Broken``."""
    holds = Repro("text", "TEXT", "check_heal", "hello", 0, "", "")
    replay(holds, ROOT)

    def broken(target, text, seed):
        raise Broken("always", "a property that never holds")

    monkeypatch.setitem(PROPERTIES, "check_heal", broken)
    with pytest.raises(Broken):
        replay(holds, ROOT)
