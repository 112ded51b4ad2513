"""csv-spectrum (max-mapper/csv-spectrum): every CSV file parses to exactly its JSON (rows
as objects keyed by the header), and every prefix of every file is accepted by the strict
incremental checker, fed one character at a time."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from formatbook_core import check, get_format

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("FORMATBOOK_CONFORMANCE_DIR") or ROOT.parent / "shared" / "conformance") / "csv"


def _corpus() -> Path:
    if not (CORPUS / "csvs").is_dir():
        reason = f"csv-spectrum corpus not found at {CORPUS} (set FORMATBOOK_CONFORMANCE_DIR)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return CORPUS


def _names() -> list[str]:
    if not (CORPUS / "csvs").is_dir():
        return ["corpus-missing"]
    return sorted(p.stem for p in (CORPUS / "csvs").glob("*.csv"))


def _read(name: str) -> tuple[str, list]:
    corpus = _corpus()
    text = (corpus / "csvs" / f"{name}.csv").read_bytes().decode("utf-8")
    expected = json.loads((corpus / "json" / f"{name}.json").read_text(encoding="utf-8"))
    return text, expected


def test_the_corpus_has_its_eleven_files():
    _corpus()
    assert len(_names()) == 11


@pytest.mark.parametrize("name", _names())
def test_parses_to_its_json(name):
    text, expected = _read(name)
    fmt = get_format("csv")
    analysis = fmt.analyze(text)
    assert analysis.violations == ()
    assert analysis.value == expected
    result = check(text, "EXPECT CSV")
    assert result.verdict == "pass"
    assert result.value == expected


@pytest.mark.parametrize("name", _names())
def test_every_prefix_streams(name):
    text, _ = _read(name)
    fmt = get_format("csv")
    checker = fmt.stream(strict=True)
    for i, ch in enumerate(text):
        assert checker.feed(ch), (name, i)
        assert fmt.can_be_valid(text[: i + 1]), (name, i)
    assert checker.finish()
