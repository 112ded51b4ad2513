"""The value a reply carries comes back as written (issue 8: values altered)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from formatbook_core import check
from formatbook_json import JsonFormat
from formatbook_json.stream import JsonChecker
from formatbook_json.syntax import is_valid_json, parse_strict

FMT = JsonFormat()


@pytest.mark.parametrize(
    "reply,intended",
    [
        ('{"a": "it\\\'s"}', {"a": "it's"}),
        ('["don\\\'t", "it\\\'s \\\\ ok"]', ["don't", "it's \\ ok"]),
        ("{'a': 'it\\'s'}", {"a": "it's"}),
        ('Sure: {"q": "what\\\'s up", "n": 1}', {"q": "what's up", "n": 1}),
    ],
)
def test_an_escaped_apostrophe_is_an_apostrophe(reply, intended):
    result = check(reply, "EXPECT JSON")
    assert result.ok and result.value == intended


def test_an_escaped_apostrophe_is_listed_and_other_bad_escapes_keep_their_backslash():
    healed = FMT.heal('{"a": "it\\\'s", "re": "\\d+"}')
    assert json.loads(healed.text) == {"a": "it's", "re": "\\d+"}
    assert [r.kind for r in healed.repairs] == ["escaped_apostrophe", "invalid_escape"]


@pytest.mark.parametrize(
    "number",
    ["99999999999999999999", "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890"],
)
def test_integers_beyond_64_bits_are_exact(number):
    result = check(f'{{"n": {number}, "tag": "x"}}', "EXPECT JSON")
    assert result.ok and result.verdict == "pass"
    assert result.value == {"n": int(number), "tag": "x"}
    assert type(result.value["n"]) is int
    assert parse_strict(f"[{number}]") == [int(number)]


def test_digits_in_a_string_do_not_change_the_numbers():
    assert parse_strict('{"id": "12345678901234567890123", "x": 0.1}') == {"id": "12345678901234567890123", "x": 0.1}


def test_numbers_beyond_a_double_stay_exact():
    result = check('{"a": 1e400, "b": -2.5E+309, "c": 1.5}', "EXPECT JSON")
    assert result.ok
    assert result.value == {"a": Decimal("1e400"), "b": Decimal("-2.5e309"), "c": 1.5}
    assert parse_strict("1" * 5000) == Decimal("1" * 5000)


@pytest.mark.parametrize("number", ["1e" + "9" * 30, "2.5E+100000000000000000", "[-7e123456789012345678]"])
def test_a_number_beyond_any_exact_value_is_refused_by_parser_and_checker_alike(number):
    assert not is_valid_json(number)
    checker = JsonChecker(True)
    assert not (checker.feed(number) and checker.finish())
    assert not check(number, "EXPECT JSON").ok


@pytest.mark.parametrize("number", ["0e99999999999999999999", "1e-99999999999999999999", "1e9999999999999999"])
def test_a_huge_exponent_with_an_exact_value_is_valid(number):
    assert is_valid_json(number)
    checker = JsonChecker(True)
    assert checker.feed(number) and checker.finish()


def _counting_loads(monkeypatch):
    """Count the whole-text re-parses of syntax._fast (the standard library's json.loads)."""
    from formatbook_json import syntax  # noqa: PLC0415 - the module patched

    calls = []
    real = syntax.json.loads

    def loads(text, *args, **kwargs):
        calls.append(len(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr(syntax.json, "loads", loads)
    return calls


@pytest.mark.parametrize(
    "text",
    [
        "[-0.00018278014303702307, 0.12345678901234567890123]",
        '{"x": 1.8278014303702307123e-04, "y": 12345678901234567890.5}',
        "[12345678901234567890e2, 1234567890123456789.0]",
        '{"id": 123456789012345678}',  # 18 digits: within 64 bits
    ],
)
def test_floats_with_many_digits_are_parsed_once(monkeypatch, text):
    # issue 31: any run of 19 digits threw orjson's value away and parsed again
    calls = _counting_loads(monkeypatch)
    value = parse_strict(text)
    assert calls == []
    assert value == json.loads(text) and repr(value) == repr(json.loads(text))


@pytest.mark.parametrize(
    ("text", "exact"),
    [
        ("18446744073709551616", 18446744073709551616),
        ("[-9223372036854775809]", [-9223372036854775809]),
        ('{"a": [1, 123456789012345678901234]}', {"a": [1, 123456789012345678901234]}),
        ("[0.5, 99999999999999999999]", [0.5, 99999999999999999999]),
        ('{"n":\r\n 100000000000000000000}', {"n": 100000000000000000000}),
    ],
)
def test_integers_beyond_64_bits_stay_exact(monkeypatch, text, exact):
    calls = _counting_loads(monkeypatch)
    value = parse_strict(text)
    assert value == exact and calls == [len(text)]
    assert check(text, "EXPECT JSON").value == exact


@pytest.mark.parametrize("offset", range(9))
def test_an_integer_beyond_64_bits_is_exact_at_every_offset(monkeypatch, offset):
    # the search for long integers first looks at every 9th byte: the run of digits is
    # found wherever it starts (the shortest run that matters, 20 digits, and 19)
    text = "[" + " " * offset + "18446744073709551616, -9223372036854775809]"
    calls = _counting_loads(monkeypatch)
    assert parse_strict(text) == [18446744073709551616, -9223372036854775809]
    assert calls == [len(text)]
