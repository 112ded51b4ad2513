"""Where fuzz inputs start from: each format's samples, the conformance corpora and any
extra folders of replies. Files are read where they lie, never copied."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..definition import FormatDefinition

# Seeds longer than this are cut: volume comes from many small inputs, and the
# pathological suite covers size.
MAX_SEED_CHARS = 4_000
_SKIP_DIRS = {"name", "tags"}  # the YAML suite's symbolic-link indexes
_SUFFIXES = {".json", ".yaml", ".yml", ".csv", ".ics", ".vcf", ".md", ".txt", ".toml", ".xml", ""}


def conformance_dir(root: Path) -> Path:
    """``FORMATBOOK_CONFORMANCE_DIR``, or ``../shared/conformance`` seen from ``root``."""
    configured = os.environ.get("FORMATBOOK_CONFORMANCE_DIR")
    return Path(configured) if configured else root.parent / "shared" / "conformance"


def read_folder(folder: Path) -> list[str]:
    """Every text-like file under ``folder`` (sorted, so a seed run is reproducible), decoded
    as UTF-8 with undecodable bytes replaced, cut to ``MAX_SEED_CHARS``."""
    if not folder.is_dir():
        return []
    out: list[str] = []
    for path in sorted(folder.rglob("*")):
        if any(part in _SKIP_DIRS for part in path.relative_to(folder).parts[:-1]):
            continue
        if path.is_symlink() or not path.is_file() or path.suffix.lower() not in _SUFFIXES:
            continue
        if path.name.upper().startswith(("LICENSE", "README")):
            continue
        try:
            data = path.read_bytes()[: MAX_SEED_CHARS * 4]
        except OSError:
            continue
        out.append(data.decode("utf-8", errors="replace")[:MAX_SEED_CHARS])
    return out


def collect_seeds(formats: Iterable[FormatDefinition], folders: Sequence[Path]) -> list[str]:
    """The samples of every format first, then the files of ``folders``; duplicates once."""
    seen: set[str] = set()
    seeds: list[str] = []
    for fmt in formats:
        for sample in fmt.samples or ():
            if sample not in seen:
                seen.add(sample)
                seeds.append(sample)
    for folder in folders:
        for text in read_folder(folder):
            if text not in seen:
                seen.add(text)
                seeds.append(text)
    return seeds or [""]
