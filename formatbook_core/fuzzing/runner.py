"""Running a fuzz campaign: workers in subprocesses, each input under a time budget, every
new kind of failure shrunk and saved as a repro.

A worker runs inputs ``start, start + jobs, start + 2*jobs...`` of the run and writes the
index it is on into shared memory. Each property call runs under ``signal.setitimer``;
when it fires the worker reports a hang and exits. When even that does not stop it (a
regex stuck in C), the parent sees the index stop moving, kills the worker, and saves the
hang itself. Either way the worker is restarted after the input.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .budget import InputTimeout, time_budget
from .mutate import generate
from .properties import PROPERTIES, Broken, Target
from .repros import Repro
from .shrink import shrink


@dataclass
class TargetSpec:
    """A target as it crosses to a worker: the EXPECT line and its base folder."""

    expect: str
    base_dir: str | None = None

    def build(self, root: Path) -> Target:
        return Target(self.expect, root / self.base_dir if self.base_dir is not None else root)


@dataclass
class Settings:
    root: Path
    targets: list[TargetSpec]
    seeds: list[str]
    run_seed: int = 0
    seconds: float = 60.0
    jobs: int = 1
    budget: float = 10.0  # seconds per property call
    properties: tuple[str, ...] = tuple(PROPERTIES)
    shrink_attempts: int = 2_000
    inputs: int | None = None  # stop after inputs 0..inputs-1 (a deterministic pass), else at the deadline


@dataclass
class Report:
    inputs: int = 0
    seconds: float = 0.0
    repros: list[Repro] = field(default_factory=list)
    seen: set[tuple[str, str, str]] = field(default_factory=set)  # (expect, property, kind)

    @property
    def rate(self) -> float:
        return self.inputs / self.seconds if self.seconds else 0.0

    def add(self, repro: Repro) -> bool:
        key = (repro.expect, repro.property, repro.kind)
        if key in self.seen:
            return False
        self.seen.add(key)
        self.repros.append(repro)
        return True


def _failure(prop: Callable[[Target, str, int], None], target: Target, text: str, seed: int, budget: float):
    """The ``Broken`` the property raises on ``text`` (None when it holds or runs out of time)."""
    try:
        with time_budget(budget):
            prop(target, text, seed)
    except Broken as broken:
        return broken
    except InputTimeout:
        return None
    return None


def _repro(settings: Settings, spec: TargetSpec, target: Target, name: str, text: str, index: int) -> Repro:
    return Repro(
        format=target.format,
        expect=spec.expect,
        base_dir=spec.base_dir,
        property=name,
        text=text,
        seed=index,
        kind="",
        detail="",
        found_by=f"fuzz --seed {settings.run_seed}, input {index}",
    )


def _worker(settings: Settings, start: int, conn: Any, current: Any) -> None:
    targets = [spec.build(settings.root) for spec in settings.targets]
    shrunk: set[tuple[str, str, str]] = set()
    index = start
    done = 0
    deadline = time.monotonic() + settings.seconds
    while time.monotonic() < deadline and (settings.inputs is None or index < settings.inputs):
        current.value = index
        slot = index % len(targets)
        target, spec = targets[slot], settings.targets[slot]
        text = generate(settings.seeds, settings.run_seed, index)
        for name in settings.properties:
            prop = PROPERTIES[name]
            try:
                with time_budget(settings.budget):
                    prop(target, text, index)
            except Broken as broken:
                key = (spec.expect, name, broken.kind)
                if key in shrunk:
                    continue
                shrunk.add(key)

                def same(candidate: str, prop=prop, kind=broken.kind, target=target, index=index) -> bool:
                    found = _failure(prop, target, candidate, index, settings.budget)
                    return found is not None and found.kind == kind

                small = shrink(text, same, settings.shrink_attempts)
                final = _failure(prop, target, small, index, settings.budget) or broken
                repro = _repro(settings, spec, target, name, small, index)
                repro.kind, repro.detail = final.kind, final.detail
                conn.send(("failure", repro))
            except InputTimeout:
                repro = _repro(settings, spec, target, name, text, index)
                repro.kind = f"hang: over {settings.budget:g} s"
                repro.detail = f"{name} did not finish in {settings.budget:g} s on a {len(text)}-character input"
                repro.time_limit = settings.budget
                conn.send(("hang", repro))
                conn.send(("progress", done + 1))
                conn.send(("restart", None))
                return
        done += 1
        index += settings.jobs
        if done % 50 == 0:
            conn.send(("progress", 50))
            done = 0
    conn.send(("progress", done))
    conn.send(("end", None))


def run(
    settings: Settings, on_repro: Callable[[Repro], None] | None = None, log: Callable[[str], None] = print
) -> Report:
    """Fuzz for ``settings.seconds``; every new kind of failure is passed to ``on_repro``."""
    methods = multiprocessing.get_all_start_methods()
    ctx: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    report = Report()
    began = time.monotonic()
    deadline = began + settings.seconds
    stall = settings.budget * len(settings.properties) + 30  # the parent's last resort

    def start(first: int) -> dict[str, Any]:
        remaining = max(1.0, deadline - time.monotonic())
        parent, child = ctx.Pipe()
        current = ctx.Value("q", first)
        job = dict(settings.__dict__, seconds=remaining)
        proc = ctx.Process(target=_worker, args=(Settings(**job), first, child, current), daemon=True)
        proc.start()
        return {"proc": proc, "conn": parent, "current": current, "seen": first, "moved": time.monotonic()}

    def record(repro: Repro) -> None:
        if report.add(repro):
            log(f"  {repro.property} on {repro.expect!r}: {repro.kind} ({len(repro.text)} chars)")
            if on_repro is not None:
                on_repro(repro)

    workers = [start(j) for j in range(settings.jobs)]
    last_log = began
    while workers:
        for w in list(workers):
            ended = ""
            try:
                while w["conn"].poll(0.05):
                    what, payload = w["conn"].recv()
                    if what == "progress":
                        report.inputs += payload
                    elif what in ("end", "restart"):
                        ended = what
                    else:
                        record(payload)
            except (EOFError, OSError):
                pass  # the worker is gone: judged below
            now = time.monotonic()
            index = w["current"].value
            if index != w["seen"]:
                w["seen"], w["moved"] = index, now
            alive = w["proc"].is_alive()
            if ended == "end" or (not alive and now >= deadline):
                w["proc"].join()
                workers.remove(w)
            elif ended == "restart" or not alive or now - w["moved"] > stall:
                # after a hang the worker exits; one stuck past its own alarm (a regex in C)
                # is killed, one that died is a crash: the input at `index` is the culprit
                if alive and ended != "restart":
                    w["proc"].kill()
                    record(_stopped(settings, index, "hang: not interruptible", "stopped moving and was killed"))
                elif not alive and ended != "restart":
                    code = w["proc"].exitcode
                    record(_stopped(settings, index, f"crash: exit code {code}", f"died with exit code {code}"))
                w["proc"].join()
                workers.remove(w)
                if now < deadline:
                    workers.append(start(index + settings.jobs))
        if time.monotonic() - last_log > 30:
            last_log = time.monotonic()
            elapsed = last_log - began
            log(f"  {report.inputs:,} inputs in {elapsed:.0f} s ({report.inputs / elapsed:.0f}/s)")
    report.seconds = time.monotonic() - began
    return report


def _stopped(settings: Settings, index: int, kind: str, what: str) -> Repro:
    slot = index % len(settings.targets)
    spec = settings.targets[slot]
    target = spec.build(settings.root)
    text = generate(settings.seeds, settings.run_seed, index)
    repro = _repro(settings, spec, target, "all", text, index)
    repro.kind = kind
    repro.detail = f"the worker {what} on a {len(text)}-character input"
    repro.time_limit = settings.budget * len(settings.properties)
    return repro


def default_targets(format_name: str | None = None) -> list[TargetSpec]:
    """One target per registered format (``EXPECT <NAME>``), or only ``format_name``'s."""
    from ..registry import default_registry  # noqa: PLC0415 - the registry loads every plugin

    names = sorted(f.name for f in default_registry().formats())
    return [TargetSpec(name.upper()) for name in names if format_name in (None, name)]


def read_targets(path: Path, root: Path, format_name: str | None = None) -> list[TargetSpec]:
    """The ``EXPECT`` lines of a targets file (``#`` comments), schemas resolved against its
    folder; only ``format_name``'s when given."""
    base = str(path.parent.resolve().relative_to(root.resolve()))
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        expect = line.removeprefix("EXPECT ").strip()
        spec = TargetSpec(expect, base)
        if format_name is None or spec.build(root).format == format_name:
            out.append(spec)
    return out
