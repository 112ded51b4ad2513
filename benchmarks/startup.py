"""What a fresh process pays before its first verdict, against ``python -c pass``.

Two figures, each the best of ``--runs`` fresh interpreters:

- the CPU time of ``from formatbook_core import check; check(json_reply, "EXPECT JSON")``
  (goal: ≤ 0.15 s), and of the bare interpreter;
- the wall time of ``formatbook check`` on one reply file (goal: ≤ 0.4 s on an idle machine),
  and of ``python -c pass``.

Run: ``python benchmarks/startup.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import Row  # noqa: E402

# an installed package has its bytecode compiled (pip compiles it); an editable install gets it
# on first import unless PYTHONDONTWRITEBYTECODE forbids it (some machines set it), in which
# case every fresh process would recompile and the figure would measure the compiler
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

FIRST_CHECK = "from formatbook_core import check; assert check('{\"answer\": \"Paris\"}', 'EXPECT JSON').ok"


def _child_cpu(code: str) -> float:
    """CPU seconds (user + system) a fresh interpreter spends running ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, env=_ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_ENV)
    return time.perf_counter() - start


def bench_rows(quick: bool = True) -> list[Row]:
    """The table's row: the CPU time of the first JSON ``check()`` in a fresh process
    (goal ≤ 0.15 s) against a bare interpreter, the two started in turn."""
    ours = bare = float("inf")
    for _ in range(3 if quick else 7):  # in turn: a busy spell slows both
        ours, bare = min(ours, _child_cpu(FIRST_CHECK)), min(bare, _child_cpu("pass"))
    return [Row("first JSON check() in a process (CPU)", 0, ours, "python -c pass", bare, max_seconds=0.15)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    cli = Path(sys.executable).with_name("formatbook")
    with tempfile.TemporaryDirectory() as folder:
        reply = Path(folder) / "reply.json"
        reply.write_text('{"answer": "Paris", "confidence": 0.92}\n')
        rows = [
            ("first check() of a JSON reply (CPU)", FIRST_CHECK, "pass", 0.15),
            ("`formatbook check` of one reply (wall)", [str(cli), "check", str(reply), "-e", "JSON"], None, 0.4),
        ]
        print(f"best of {runs} fresh processes, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f}\n")
        print(f"{'':42} {'formatbook':>11} {'python':>9} {'goal':>7}")
        for name, work, bare, goal in rows:
            if isinstance(work, str):
                ours = min(_child_cpu(work) for _ in range(runs))
                base = min(_child_cpu(bare or "pass") for _ in range(runs))
            else:
                ours = min(_wall(work) for _ in range(runs))
                base = min(_wall([sys.executable, "-c", "pass"]) for _ in range(runs))
            mark = "ok" if ours <= goal else "over"
            print(f"{name:42} {ours:10.3f}s {base:8.3f}s {goal:6.2f}s  {mark}")


if __name__ == "__main__":
    main()
