"""Saved repros: one JSON file per failure, replayed by the test suite.

A repro holds the input ``text``, the ``format`` and the EXPECT line (``expect``, its schema
resolved against ``base_dir``, relative to the project root), the ``property`` broken, the
``seed`` of its chunkings, the ``kind`` of failure and its ``detail`` (the exception or the
disagreement) when found, and ``xfail``: ``null`` once fixed (a regression test), else the
reason it is a known open bug (replayed as a strict expected failure). A hang has
``time_limit``: the seconds the property must finish in.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from .budget import time_budget
from .properties import PROPERTIES, Target


@dataclass
class Repro:
    format: str
    expect: str
    property: str
    text: str
    seed: int
    kind: str
    detail: str
    base_dir: str | None = None
    xfail: str | None = None
    time_limit: float | None = None
    found_by: str = ""

    def file_name(self) -> str:
        """``<format>-<property>-<hash>.json``: the same failure on the same input, one file."""
        digest = hashlib.sha1(
            f"{self.expect}\0{self.property}\0{self.text}".encode("utf-8", "surrogatepass")
        ).hexdigest()
        return f"{self.format}-{self.property}-{digest[:10]}.json"

    def save(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / self.file_name()
        # ensure_ascii: lone surrogates and control characters survive as escapes
        path.write_text(json.dumps(asdict(self), indent=2, ensure_ascii=True) + "\n", encoding="ascii")
        return path


def load(path: Path) -> Repro:
    """The repro saved in ``path``."""
    return Repro(**json.loads(path.read_text(encoding="ascii")))


def load_all(folder: Path) -> list[tuple[Path, Repro]]:
    """Every repro under ``folder``, sorted by file name."""
    return [(path, load(path)) for path in sorted(folder.glob("*.json"))]


def replay(repro: Repro, root: Path) -> None:
    """Run the repro's property (every property for ``"all"``) on its input; raises
    ``Broken`` while the bug is there, ``InputTimeout`` past a hang's ``time_limit``."""
    target = Target(repro.expect, root / repro.base_dir if repro.base_dir is not None else root)
    names = list(PROPERTIES) if repro.property == "all" else [repro.property]
    limit = repro.time_limit if repro.time_limit is not None else 0
    for name in names:
        if limit:
            with time_budget(limit):
                PROPERTIES[name](target, repro.text, repro.seed)
        else:
            PROPERTIES[name](target, repro.text, repro.seed)
