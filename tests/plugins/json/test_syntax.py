"""Strict JSON parsing: RFC 8259 answers where orjson differs, limits, error codes and
offsets."""

from __future__ import annotations

from decimal import Decimal

import pytest

from formatbook_json.syntax import JsonSyntaxError, is_valid_json, parse_strict


def error(text: str, **limits) -> JsonSyntaxError:
    with pytest.raises(JsonSyntaxError) as info:
        parse_strict(text, **limits)
    return info.value


def test_parses_valid_documents():
    assert parse_strict('{"a": [1, 2.5, "x", true, false, null]}') == {"a": [1, 2.5, "x", True, False, None]}
    assert parse_strict(' "\\ud83d\\ude80" ') == "\U0001f680"
    assert parse_strict("[1]") == [1]
    assert parse_strict("[[1]]") == [[1]]
    assert parse_strict("-0") == 0
    assert parse_strict("0") == 0


@pytest.mark.parametrize(
    "text,offset",
    [
        ('{"a": tru3}', 9),
        ("[1,,2]", 3),
        ('{"a" 1}', 5),
        ('{"a": 1,}', 8),
        ("[1,]", 3),
        ("[NaN]", 1),
        ("[Infinity]", 1),
        ("[-Infinity]", 2),
        ("{'a': 1}", 1),
        ('["a\nb"]', 3),
        ("[1] x", 4),
        ("[1] [2]", 4),
        ("01", 1),
        ('"\\ud800"', 7),
        ("[1 // c\n]", 3),
        ("1],[2", 1),  # must not slip through the depth wrapper
        ("],[", 0),
    ],
)
def test_rejects_with_the_offset_of_the_first_impossible_character(text, offset):
    err = error(text)
    assert err.code == "json.syntax"
    assert err.offset == offset, err.message
    assert not is_valid_json(text)


def test_offsets_are_characters_not_bytes():
    assert error('{"é🚀": x}').offset == 7  # { " é 🚀 " : space x
    assert error('["🚀🚀🚀", 1,]').offset == 10


def test_empty():
    for text in ("", "  \n\t"):
        err = error(text)
        assert err.code == "json.empty"
        assert not is_valid_json(text)


def test_depth_limit_is_exact():
    assert parse_strict("[" * 1000 + "]" * 1000)
    err = error("[" * 1001 + "]" * 1001)
    assert err.code == "json.too_deep" and err.offset == 1000
    assert parse_strict('{"a":' * 5 + "1" + "}" * 5, max_depth=5) == {"a": {"a": {"a": {"a": {"a": 1}}}}}
    assert error('{"a":' * 6 + "1" + "}" * 6, max_depth=5).code == "json.too_deep"


def test_deeper_limits_than_orjson_allows():
    deep = "[" * 3000 + "7" + "]" * 3000
    assert error(deep).code == "json.too_deep"
    value = parse_strict(deep, max_depth=3000)
    for _ in range(3000):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == 7


def test_size_limit():
    assert parse_strict("[1]", max_size=3) == [1]
    err = error("[1] ", max_size=3)
    assert err.code == "json.too_large"
    assert not is_valid_json("[1] ", max_size=3)


def test_numbers_beyond_a_double_are_valid_and_exact():
    assert parse_strict("[1e400]") == [Decimal("1e400")]
    assert parse_strict("-1e400") == Decimal("-1e400")
    big = "1" * 500
    assert parse_strict(f'{{"n": {big}, "s": "\\u00e9"}}') == {"n": int(big), "s": "é"}
    assert parse_strict("[0.4e-99999]") == [0.0]
    # Past a double, but caught by the checker when otherwise invalid.
    assert error('[1e400, "\\udc00"]').offset == 12
    assert error("[1e400,]").offset == 7


def test_bom_and_non_json_whitespace_inside_are_rejected():
    # around the document white space is spans.SPACES (the locator's): see test_stream.py
    assert error("\ufeff{}").offset == 0
    assert error("[\u00a0]").offset == 1
    assert error("[1,\x0c2]").offset == 3
    assert is_valid_json("\u00a0[]") and is_valid_json("[1]\u3000")
    # control characters Python calls white space are text, around the document too
    for control in "\x0b\x0c\x1c\x1d\x1e\x1f\x85":
        assert not is_valid_json("[1]" + control) and not is_valid_json(control + "[1]")


def test_is_valid_never_raises():
    for bad in (None, b"[]", 1, ["[]"], "\x00", "\ud800", "[" * 100000):
        assert is_valid_json(bad) is False  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_strict(b"[]")  # type: ignore[arg-type]


def test_error_is_a_value_error_with_fields():
    err = error("[1,]")
    assert isinstance(err, ValueError)
    assert err.message and str(err).endswith("(at offset 3)")
