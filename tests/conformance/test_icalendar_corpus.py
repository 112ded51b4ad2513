"""The icalendar and vobject corpora (``.ics`` files): every file gets an answer and
nothing raises; the violation codes of each are those committed in
``icalendar_expected.json`` (decided by reading the file, with a reason per file); the
strict incremental checker accepts every prefix of every valid file — also of the files
that are valid once their LF line breaks are written as CRLF, the one thing most of
these files lack.

Files are read as UTF-8 (a file that is not UTF-8 would be rejected before the format
sees it; none is). The BOM of ``bom_calendar.ics`` is kept: dropping it is the CLI's job.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from icalendar import Calendar

from formatbook_core import HealError, get_format

ROOT = Path(__file__).resolve().parents[2]
BASE = Path(os.environ.get("FORMATBOOK_CONFORMANCE_DIR") or ROOT.parent / "shared" / "conformance")
EXPECTED = json.loads((Path(__file__).with_name("icalendar_expected.json")).read_text(encoding="utf-8"))["files"]
FMT = get_format("icalendar")


def _corpus() -> Path:
    if not (BASE / "icalendar").is_dir():
        reason = f"icalendar corpus not found under {BASE} (set FORMATBOOK_CONFORMANCE_DIR)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return BASE


def _files() -> list[str]:
    if not (BASE / "icalendar").is_dir():
        return ["<corpus missing>"]
    found = [*sorted((BASE / "icalendar").rglob("*.ics")), *sorted((BASE / "vobject").glob("*.ics"))]
    return [str(p.relative_to(BASE)) for p in found]


def _text(name: str) -> str:
    return (_corpus() / name).read_bytes().decode("utf-8")


def test_every_file_has_an_expected_answer_and_every_answer_a_file():
    _corpus()
    assert set(_files()) == set(EXPECTED)
    assert all(entry["reason"].strip() for entry in EXPECTED.values())


@pytest.mark.parametrize("name", _files())
def test_the_answer_is_the_expected_one_and_nothing_raises(name):
    text = _text(name)
    analysis = FMT.analyze(text)
    assert sorted({v.code for v in analysis.violations}) == EXPECTED[name]["codes"], EXPECTED[name]["reason"]
    assert FMT.is_valid(text) == (not EXPECTED[name]["codes"])
    assert isinstance(FMT.can_be_valid(text), bool)
    assert isinstance(FMT.extract_values(text), list)
    assert FMT.locate(text)
    try:
        healed = FMT.heal(text, now="2025-01-01T00:00:00Z")
    except HealError as err:
        assert err.violations
    else:
        assert FMT.is_valid(healed.text)
    if not analysis.violations:
        assert isinstance(analysis.value, (Calendar, list))


def _valid_variants() -> list[tuple[str, bool]]:
    out = []
    for name in _files():
        if name in EXPECTED:
            codes = EXPECTED[name]["codes"]
            if not codes:
                out.append((name, False))
            elif codes == ["icalendar.line_ending"]:
                out.append((name, True))
    return out or [("<corpus missing>", False)]


@pytest.mark.parametrize(("name", "to_crlf"), _valid_variants())
def test_every_prefix_of_a_valid_file_streams(name, to_crlf):
    text = _text(name)
    if to_crlf:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    assert FMT.is_valid(text)
    checker = FMT.stream(strict=True)
    for i, ch in enumerate(text):
        status = checker.feed(ch)
        assert status, f"rejected at offset {i}: {status.reason}"
    assert checker.finish()
    for cut in range(0, len(text), max(1, len(text) // 25)):
        assert FMT.can_be_valid(text[:cut])
