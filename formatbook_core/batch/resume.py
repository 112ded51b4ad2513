"""Where an interrupted run stopped: the verdicts already in a JSONL output file.

Verdicts are written in input order, a whole line at a time, so an interrupted run
leaves the verdicts of a prefix of the input, and at most one last line cut short. That
line is cut off the file; the run goes on after the last row with a whole verdict.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


class ResumeError(Exception):
    """The output file is not one this command wrote."""


@dataclass
class Resumed:
    """What the output file holds: the last row's number and the verdicts by name."""

    last: int = 0
    rows: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    not_met: int = 0
    cut: int = 0  # bytes of a last line cut short, removed


def resume_point(path: str | Path) -> Resumed:
    """Read the verdicts in ``path`` (none when it does not exist), cut a partial last line."""
    done = Resumed()
    path = Path(path)
    if not path.exists():
        return done
    good_end = 0
    with open(path, "r+b") as f:
        for number, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):
                break  # the line the interruption cut short
            try:
                record = json.loads(raw)
                line, verdict, ok = int(record["line"]), str(record["verdict"]), bool(record["ok"])
            except (ValueError, KeyError, TypeError) as exc:
                raise ResumeError(f"{path} line {number} is not a verdict of this command ({exc})") from None
            if line <= done.last:
                raise ResumeError(f"{path} line {number}: row {line} comes after row {done.last}")
            done.last, done.rows = line, done.rows + 1
            done.totals[verdict] = done.totals.get(verdict, 0) + 1
            done.not_met += not ok
            good_end += len(raw)
        size = f.seek(0, 2)
        if size > good_end:
            done.cut = size - good_end
            f.truncate(good_end)
    return done
