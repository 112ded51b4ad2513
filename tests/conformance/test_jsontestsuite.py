"""JSONTestSuite (nst/JSONTestSuite, test_parsing/): every y_ file valid, every n_ file
invalid, the answer for every i_ file chosen and listed here; every prefix of every y_
document accepted by the strict incremental checker.

Files are bytes: they are decoded as UTF-8 strictly, and a file that is not UTF-8 is
rejected at that step, before the JSON format sees it. A UTF-8 byte order mark is kept
by the decoding (``"utf-8"``, not ``"utf-8-sig"``) and is then not JSON: dropping a BOM is
the CLI's job, the format takes ``str``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from formatbook_json.stream import JsonChecker, can_be_valid
from formatbook_json.syntax import JsonSyntaxError, is_valid_json, parse_strict

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("FORMATBOOK_CONFORMANCE_DIR") or ROOT.parent / "shared" / "conformance") / "json"

# The answer for each implementation-defined file, and why.
I_ANSWERS: dict[str, bool] = {
    # Numbers beyond a double's range or precision: the grammar allows them; accepted.
    "i_number_double_huge_neg_exp.json": True,
    # An exponent of 10**17 or more on a non-zero mantissa has no exact value: refused.
    "i_number_huge_exp.json": False,
    "i_number_neg_int_huge_exp.json": True,
    "i_number_pos_double_huge_exp.json": True,
    "i_number_real_neg_overflow.json": True,
    "i_number_real_pos_overflow.json": True,
    "i_number_real_underflow.json": True,
    "i_number_too_big_neg_int.json": True,
    "i_number_too_big_pos_int.json": True,
    "i_number_very_big_negative_int.json": True,
    # Lone or mismatched surrogate escapes: rejected (not Unicode text; see incremental.py).
    "i_object_key_lone_2nd_surrogate.json": False,
    "i_string_1st_surrogate_but_2nd_missing.json": False,
    "i_string_1st_valid_surrogate_2nd_invalid.json": False,
    "i_string_incomplete_surrogate_and_escape_valid.json": False,
    "i_string_incomplete_surrogate_pair.json": False,
    "i_string_incomplete_surrogates_escape_valid.json": False,
    "i_string_invalid_lonely_surrogate.json": False,
    "i_string_invalid_surrogate.json": False,
    "i_string_inverted_surrogates_U+1D11E.json": False,
    "i_string_lone_second_surrogate.json": False,
    # Not UTF-8: rejected when decoded.
    "i_string_UTF-16LE_with_BOM.json": False,
    "i_string_UTF-8_invalid_sequence.json": False,
    "i_string_UTF8_surrogate_U+D800.json": False,
    "i_string_invalid_utf-8.json": False,
    "i_string_iso_latin_1.json": False,
    "i_string_lone_utf8_continuation_byte.json": False,
    "i_string_not_in_unicode_range.json": False,
    "i_string_overlong_sequence_2_bytes.json": False,
    "i_string_overlong_sequence_6_bytes.json": False,
    "i_string_overlong_sequence_6_bytes_null.json": False,
    "i_string_truncated-utf-8.json": False,
    # UTF-16 without a BOM happens to be valid UTF-8 (NUL bytes), and NUL is not JSON.
    "i_string_utf16BE_no_BOM.json": False,
    "i_string_utf16LE_no_BOM.json": False,
    # 500 levels is within the default limit of 1000.
    "i_structure_500_nested_arrays.json": True,
    # The BOM stays in the decoded text (see the module doc) and is not JSON.
    "i_structure_UTF-8_BOM_empty_object.json": False,
}


def _corpus() -> Path:
    if not CORPUS.is_dir():
        reason = f"JSONTestSuite corpus not found at {CORPUS} (set FORMATBOOK_CONFORMANCE_DIR)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return CORPUS


def _files(prefix: str) -> list[str]:
    if not CORPUS.is_dir():
        return ["<corpus missing>"]
    return sorted(p.name for p in CORPUS.glob(f"{prefix}*.json"))


def _decode(name: str) -> str | None:
    """The file's text, or None when it is not UTF-8."""
    data = (_corpus() / name).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _accepts(text: str | None) -> bool:
    return text is not None and is_valid_json(text)


def _checker_accepts(text: str) -> bool:
    checker = JsonChecker()
    return bool(checker.feed(text)) and bool(checker.finish())


@pytest.mark.parametrize("name", _files("y_"))
def test_y_files_are_valid(name):
    text = _decode(name)
    assert text is not None, "a y_ file must be UTF-8"
    assert _accepts(text)
    parse_strict(text)  # and parses without raising
    assert _checker_accepts(text)


@pytest.mark.parametrize("name", _files("n_"))
def test_n_files_are_invalid(name):
    text = _decode(name)
    if text is None:
        return  # rejected when decoded
    assert not _accepts(text)
    with pytest.raises(JsonSyntaxError) as info:
        parse_strict(text)
    assert 0 <= info.value.offset <= len(text)
    assert not _checker_accepts(text)
    # The parser and the checker name the same place.
    checker = JsonChecker()
    status = checker.feed(text)
    status = status if not status else checker.finish()
    assert status.position == info.value.offset


@pytest.mark.parametrize("name", _files("i_"))
def test_i_files_get_the_listed_answer(name):
    text = _decode(name)
    assert name in I_ANSWERS, f"no answer chosen for {name}"
    assert _accepts(text) is I_ANSWERS[name]
    if text is not None:
        assert _checker_accepts(text) is I_ANSWERS[name]


def test_every_i_answer_names_a_file():
    _corpus()  # skipped with the reason when the corpus is missing (a failure under CI)
    present = set(_files("i_"))
    assert set(I_ANSWERS) == present


@pytest.mark.parametrize("name", _files("y_"))
def test_every_prefix_of_a_y_document_is_accepted(name):
    text = _decode(name)
    checker = JsonChecker()
    for k, ch in enumerate(text):  # one character at a time: linear
        status = checker.feed(ch)
        assert status, f"prefix of {k + 1} characters rejected: {status.reason}"
    assert checker.finish()
    # can_be_valid from scratch, on a sample of prefixes.
    for cut in {0, 1, len(text) // 3, len(text) // 2, len(text) - 1}:
        assert can_be_valid(text[: max(cut, 0)])


@pytest.mark.parametrize("name", _files("n_"))
def test_n_documents_fed_whole_end_falsy(name):
    text = _decode(name)
    if text is None:
        return
    checker = JsonChecker()
    assert not (checker.feed(text) and checker.finish())
