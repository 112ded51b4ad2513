"""Property fuzzing of every registered format through the public API.

Run it (it needs no pytest)::

    python3 scripts/dev.py fuzz [--minutes N] [--format NAME] [--seed S] [--jobs J]
    python -m formatbook_core.fuzzing --minutes 60 --repros tests/fuzz/repros   # any plugin

Inputs start from every format's ``samples``, the conformance corpora
(``FORMATBOOK_CONFORMANCE_DIR``, default ``../shared/conformance``, read where they lie) and
extra folders of replies, and are mutated (:mod:`.mutate`: character and byte flips,
structural characters and tokens inserted, ranges deleted or repeated, truncation,
splicing two inputs, wrapping in prose, fences and ``<think>`` blocks). Input ``i`` of a
run is a pure function of the seed and ``i``: the same seed gives the same inputs.

Each input is checked against each target (``EXPECT <NAME>`` per format, plus the lines of
``--targets`` files) by the properties of :mod:`.properties`: the contract suite's
``check_robust`` at volume, check/heal agreement, heal idempotence, StreamGuard agreement
and never stopping what ``check`` accepts (with MAX limits at exactly what ``check``
counted, random chunkings). Each property call has a time budget; a hang is a failure
too. Every new kind of failure is shrunk (:mod:`.shrink`) and saved as a JSON repro
(:mod:`.repros`) that ``tests/fuzz/test_replay.py`` replays.
"""

from __future__ import annotations

from .budget import InputTimeout, time_budget
from .mutate import generate
from .properties import PROPERTIES, Broken, Target
from .repros import Repro, load, load_all, replay
from .runner import Report, Settings, TargetSpec, default_targets, read_targets, run
from .seeds import collect_seeds, conformance_dir
from .shrink import shrink

__all__ = [
    "PROPERTIES",
    "Broken",
    "InputTimeout",
    "Report",
    "Repro",
    "Settings",
    "Target",
    "TargetSpec",
    "collect_seeds",
    "conformance_dir",
    "default_targets",
    "generate",
    "load",
    "load_all",
    "read_targets",
    "replay",
    "run",
    "shrink",
    "time_budget",
]
