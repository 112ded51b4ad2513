"""vCards of the conformance corpora (py-vobject's ``test_files/`` in ``vobject/``, and any
other ``.vcf`` file under ``FORMATBOOK_CONFORMANCE_DIR``): each gets the answer listed
here, decided by reading the file, and none raises; every valid one (as it stands, or as
healed) streams through the strict checker one character at a time.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from formatbook_core import check, get_format
from formatbook_core.testing import check_robust

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("FORMATBOOK_CONFORMANCE_DIR") or ROOT.parent / "shared" / "conformance")
VCARD = get_format("vcard")

# The expected answer for each file (path under the corpus): the violation codes, or ()
# for valid; and why.
ANSWERS: dict[str, tuple[str, ...]] = {
    # A 3.0 card with VERSION, FN, N and a 3.0 GEO (float;float): complete, but its lines
    # end with LF alone where RFC 6350 §3.2 (and RFC 2425 §5.8.1) want CRLF. Heals to valid.
    "vobject/radicale-1587.vcf": ("vcard.line_break",),
}


def _corpus() -> Path:
    if not CORPUS.is_dir():
        reason = f"conformance corpora not found at {CORPUS} (set FORMATBOOK_CONFORMANCE_DIR)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return CORPUS


def _files() -> list[str]:
    if not CORPUS.is_dir():
        return ["<corpus missing>"]
    return sorted(str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.suffix.lower() == ".vcf")


def _text(name: str) -> str:
    return (_corpus() / name).read_bytes().decode("utf-8")


def test_every_vcf_file_has_an_answer():
    _corpus()
    assert set(_files()) == set(ANSWERS)


@pytest.mark.parametrize("name", _files())
def test_file_gets_its_answer(name):
    text = _text(name)
    check_robust(VCARD, text)  # nothing raises; the format's answers agree with each other
    codes = tuple(sorted({v.code for v in VCARD.validate(text)}))
    assert codes == tuple(sorted(ANSWERS[name]))


@pytest.mark.parametrize("name", _files())
def test_every_prefix_streams(name):
    """The document as it stands when valid, else as healed: every prefix is accepted by
    the strict checker (one character at a time: linear) and by can_be_valid."""
    text = _text(name)
    if not VCARD.is_valid(text):
        text = VCARD.heal(text).text
    checker = VCARD.stream(strict=True)
    for k, ch in enumerate(text):
        status = checker.feed(ch)
        assert status, f"prefix of {k + 1} characters rejected: {status.reason}"
    assert checker.finish()
    for cut in range(0, len(text) + 1, max(1, len(text) // 40)):
        assert VCARD.can_be_valid(text[:cut])


def test_radicale_heals_without_losing_a_field():
    text = _text("vobject/radicale-1587.vcf")
    result = check(text, "EXPECT VCARD")
    assert result.verdict == "healed"
    assert [r.kind for r in result.repairs] == ["line_break"]
    card = result.value
    assert card.fn.value == "Given Family"
    n = card.n.value
    assert (n.family, n.given, n.additional, n.prefix, n.suffix) == (
        "Family",
        "Given",
        "Additional",
        "Prefix",
        "Suffix",
    )
    assert card.geo.value == "37.386013;-122.082932"
    assert card.version.value == "3.0"
    # the strict checker fails at the first bare LF, right after BEGIN:VCARD
    status = VCARD.stream(strict=True).feed(text)
    assert not status and status.position == len("BEGIN:VCARD")
