"""``python -m formatbook_core.fuzzing``: fuzz every registered format (see the package
docstring)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..registry import default_registry
from .runner import Settings, default_targets, read_targets, run
from .seeds import collect_seeds, conformance_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m formatbook_core.fuzzing", description=__doc__)
    parser.add_argument("--minutes", type=float, default=1.0, help="how long to run (default 1)")
    parser.add_argument("--format", help="fuzz only this format")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed gives the same inputs")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per property call before it is a hang")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the project root (default: here)")
    parser.add_argument("--targets", type=Path, action="append", default=[], help="a file of extra EXPECT lines")
    parser.add_argument("--seeds", type=Path, action="append", default=[], help="a folder of extra seed replies")
    parser.add_argument("--repros", type=Path, help="save each failure here (default: only report it)")
    args = parser.parse_args(argv)

    root = args.root.resolve()
    registry = default_registry()
    if args.format is not None:
        args.format = registry.get(args.format).name
    targets = default_targets(args.format)
    for path in args.targets:
        targets += read_targets(path.resolve(), root, args.format)
    formats = [e.format for e in registry.formats() if args.format in (None, e.name)]
    folders = [conformance_dir(root), *args.seeds]
    seeds = collect_seeds(formats, folders)
    print(
        f"fuzzing {len(targets)} targets ({', '.join(t.expect for t in targets)}) from {len(seeds)} seeds "
        f"for {args.minutes:g} min, seed {args.seed}, {args.jobs} job(s)",
        flush=True,
    )
    settings = Settings(
        root=root,
        targets=targets,
        seeds=seeds,
        run_seed=args.seed,
        seconds=args.minutes * 60,
        jobs=args.jobs,
        budget=args.budget,
    )

    def save(repro):
        if args.repros is not None:
            print(f"    saved {repro.save(args.repros)}", flush=True)

    report = run(settings, on_repro=save, log=lambda line: print(line, flush=True))
    print(
        f"{report.inputs:,} inputs in {report.seconds:.0f} s: {report.rate:.0f} inputs/s; {len(report.repros)} failures"
    )
    return 1 if report.repros else 0


if __name__ == "__main__":
    sys.exit(main())
