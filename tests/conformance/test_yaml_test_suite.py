"""yaml-test-suite (``$FORMATBOOK_CONFORMANCE_DIR/yaml``): one folder per case (or per
sub-case); a case with an ``error`` file is invalid, else valid, and where ``in.json``
exists its value (a stream of JSON documents) equals ours. Read with ``root="any"`` and
``documents="many"``. Every disagreement is listed below with its reason; the test fails
on any other, and on a listed one that now agrees (so the list stays true). Also: every
prefix of every valid case is accepted by the strict incremental checker (soundness).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from formatbook_core import get_format

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("FORMATBOOK_CONFORMANCE_DIR") or ROOT.parent / "shared" / "conformance") / "yaml"
OPTIONS = {"root": "any", "documents": "many"}
FMT = get_format("yaml")

_FLOW_COLON = "ruamel's parser refuses a ':' value indicator on the line after a flow key (or adjacent to a JSON-like key) in flow context"
_BLOCK_INDENT = "ruamel's scanner refuses a block scalar whose first lines are blank lines more indented than the content (allowed by YAML 1.2)"
_EMPTY_NODE = "ruamel's parser refuses an empty node before a document end or a ':' (allowed by YAML 1.2)"
_QUESTION = (
    "ruamel's parser reads '?x' in a flow collection as an explicit key where YAML 1.2 reads a plain scalar: "
    "refused (yaml.ambiguous) rather than give a wrong value"
)
_RUAMEL_VALUE = "ruamel's scanner gives a different value (a bug of ruamel): "

#: case -> why we disagree with the suite.
KNOWN: dict[str, str] = {
    "4MUZ/00": _FLOW_COLON,
    "4MUZ/01": _FLOW_COLON,
    "4MUZ/02": _FLOW_COLON,
    "5MUD": _FLOW_COLON,
    "9SA2": _FLOW_COLON,
    "K3WX": _FLOW_COLON,
    "NJ66": _FLOW_COLON,
    "UT92": _FLOW_COLON,
    "VJP3/01": _FLOW_COLON,
    "CFD4": _FLOW_COLON,
    "WZ62": "ruamel's parser refuses an empty flow node with only a tag (!!str) before ',' or '}'",
    "9MMW": "ruamel's parser refuses a single-pair implicit mapping with a quoted key inside a flow sequence",
    "4QFQ": _BLOCK_INDENT,
    "DWX9": _BLOCK_INDENT,
    "R4YG": _BLOCK_INDENT,
    "T26H": _BLOCK_INDENT,
    "HWV9": _EMPTY_NODE,
    "M7A3": _EMPTY_NODE,
    "QT73": _EMPTY_NODE,
    "BEC7": "ruamel refuses a %YAML 1.3 directive (YAML 1.2 says to go on with a warning)",
    "AB8U": "'- sequence entry' continuing a plain scalar under '- single multiline': YAML 1.2 reads more text, "
    "a writer means a list item out of line; refused as ambiguous (yaml.ambiguous) rather than give a wrong value",
    "652Z": _QUESTION,
    "HM87/01": _QUESTION,
    "JEF9/02": _RUAMEL_VALUE + "keep chomping (|+) of a block scalar with only blank lines loses the line break",
    "L24T/01": _RUAMEL_VALUE + "keep chomping (|+) keeps a trailing line of spaces wrongly",
}


def _cases() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    out = []
    for d in sorted(CORPUS.iterdir()):
        if not d.is_dir() or d.name in ("name", "tags"):
            continue
        if (d / "in.yaml").exists():
            out.append(d)
        else:
            out.extend(s for s in sorted(d.iterdir()) if (s / "in.yaml").exists())
    return out


CASES = _cases()
pytestmark = pytest.mark.skipif(
    not CASES, reason=f"yaml-test-suite not found at {CORPUS} (set FORMATBOOK_CONFORMANCE_DIR)"
)


def _json_stream(text: str) -> list:
    decoder = json.JSONDecoder()
    out, i = [], 0
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text):
            return out
        value, i = decoder.raw_decode(text, i)
        out.append(value)


def _name(case: Path) -> str:
    return str(case.relative_to(CORPUS))


def _agrees(case: Path) -> tuple[bool, str]:
    text = (case / "in.yaml").read_bytes().decode("utf-8")
    expect_valid = not (case / "error").exists()
    analysis = FMT.analyze(text, None, **OPTIONS)
    if analysis.ok != expect_valid:
        return False, f"valid={analysis.ok}, suite says {expect_valid}: {analysis.violations[:1]}"
    if analysis.ok and (case / "in.json").exists():
        expected = _json_stream((case / "in.json").read_text(encoding="utf-8"))
        if analysis.value != expected:
            return False, f"value {analysis.value!r} != {expected!r}"
    return True, ""


@pytest.mark.parametrize("case", CASES, ids=_name)
def test_case(case: Path) -> None:
    ok, why = _agrees(case)
    name = _name(case)
    if name in KNOWN:
        assert not ok, f"{name} now agrees with the suite: remove it from KNOWN"
    else:
        assert ok, f"{name}: {why}"


def test_agreement_at_least_90_percent() -> None:
    assert len(KNOWN) <= 0.10 * len(CASES), f"{len(KNOWN)} disagreements of {len(CASES)}"
    assert all(any(_name(c) == k for c in CASES) for k in KNOWN)


@pytest.mark.parametrize("case", [c for c in CASES if not (c / "error").exists()], ids=_name)
def test_every_prefix_of_a_valid_case_streams(case: Path) -> None:
    text = (case / "in.yaml").read_bytes().decode("utf-8")
    if not FMT.is_valid(text, None, **OPTIONS):
        pytest.skip("a listed disagreement: not valid for us")
    checker = FMT.stream(None, strict=True, **OPTIONS)
    for i, ch in enumerate(text):
        status = checker.feed(ch)
        assert status, f"prefix {text[: i + 1]!r} refused: {status.reason}"
    assert checker.finish()
    for cut in range(0, len(text) + 1, max(1, len(text) // 7)):
        assert FMT.can_be_valid(text[:cut], None, **OPTIONS)
