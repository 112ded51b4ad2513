"""``uniqueItems`` in the violation listing: JSON Schema's equality, in linear work."""

from __future__ import annotations

import json

import pytest

from formatbook_core import Expectations, check
from formatbook_core.data_schema import unique
from formatbook_core.data_schema.loading import JsonSchema
from formatbook_core.data_schema.unique import canonical, first_duplicate
from formatbook_core.fuzzing.pathological import count_steps

UNIQUE = {"type": "array", "uniqueItems": True}


@pytest.mark.parametrize(
    ("one", "two"),
    [
        (1, 1.0),
        ({"a": 1, "b": [2, 3]}, {"b": [2.0, 3], "a": 1}),
        ([{"x": None}], [{"x": None}]),
        ("é", "é"),
        (10**30, 10**30),
    ],
)
def test_equal_under_json_schema(one: object, two: object) -> None:
    assert canonical(one) == canonical(two)
    assert first_duplicate([one, "other", two]) == (0, 2)


@pytest.mark.parametrize(
    ("one", "two"),
    [
        (True, 1),
        (False, 0),
        ([True], [1]),
        ({"a": 1}, {"a": 1, "b": 1}),
        ([1, 2], [2, 1]),
        ("1", 1),
        (None, False),
        ({"a": [1]}, {"a": 1}),
        (2**53 + 1, float(2**53)),
    ],
)
def test_different_under_json_schema(one: object, two: object) -> None:
    assert canonical(one) != canonical(two)
    assert first_duplicate([one, two]) is None


@pytest.mark.parametrize(
    ("items", "ok"),
    [
        ([{"id": 1, "n": "a"}, {"n": "a", "id": 1.0}], False),
        ([{"id": 1}, {"id": True}], True),
        ([[1, 2], [1, 2]], False),
        ([1, True, "1", None, 1.5], True),
    ],
)
def test_check_reports_duplicates(items: list, ok: bool) -> None:
    result = check(json.dumps(items), Expectations(format="json", schema=UNIQUE))
    assert result.ok is ok
    if not ok:
        assert [v.code for v in result.violations] == ["schema.uniqueItems"]
        assert "items 0 and 1 are equal" in result.violations[0].message


def _reply(n: int) -> str:
    """``n`` distinct objects and, last, one equal to the first (keys in another order)."""
    items = [{"id": i, "name": f"n{i}", "tags": [i, "x"]} for i in range(n)]
    return json.dumps([*items, {"tags": [0.0, "x"], "name": "n0", "id": 0}])


def test_duplicate_objects_cost_linear_work() -> None:
    """A listing over many objects was quadratic (jsonschema compares every pair when items
    cannot be sorted): 8 times the items cost about 8 times the steps."""
    exp = Expectations(format="json", schema=UNIQUE)
    check(_reply(10), exp)  # lazy imports, compiled schema
    small = count_steps(check, _reply(200), exp)
    large = count_steps(check, _reply(1_600), exp)
    assert not check(_reply(200), exp).ok
    assert large < 12 * small, (small, large)


# --- jsonschema-rs, with numbers no double holds exactly ---------------------------------
#: arrays jsonschema-rs compared pairwise (every such number hashes as its nearest double):
#: 4,000 integers near 10**30 took 9 s, 100,000 would take hours. Each make(n) is n items.
INEXACT = {
    "beyond 64 bits": lambda n: [10**30 + i for i in range(n)],
    "beyond 63 bits": lambda n: [2**63 + i for i in range(n)],
    "negative": lambda n: [-(2**64) - i for i in range(n)],
    "in objects": lambda n: [{"a": 10**30 + i} for i in range(n)],
    "in arrays": lambda n: [[1, 10**25 + i] for i in range(n)],
}


@pytest.mark.parametrize("make", INEXACT.values(), ids=list(INEXACT))
def test_numbers_beyond_a_double_are_told_unique_by_the_linear_keyword(make, monkeypatch) -> None:
    seen: list[int] = []
    real = unique.first_duplicate

    def counted(items):
        seen.append(len(items))
        return real(items)

    monkeypatch.setattr(unique, "first_duplicate", counted)
    items = make(300)
    exp = Expectations(format="json", schema=UNIQUE)
    result = check(json.dumps(items), exp)
    assert result.ok, result.violations
    assert seen and seen[0] == 300  # jsonschema-rs's own keyword was not the one asked
    seen.clear()
    result = check(json.dumps([*items, items[7]]), exp)
    assert not result.ok
    assert [v.code for v in result.violations] == ["schema.uniqueItems"]
    assert "items 7 and 300 are equal" in result.violations[0].message
    assert seen


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("[1000000000000000000000000000000, 1000000000000000000000000000001]", True),
        ("[1000000000000000000000000000000, 1000000000000000000000000000000]", False),
        ("[100000000000000000000, 1e20]", False),  # 1e20 is exactly 10**20: equal numbers
        ("[9007199254740993, 9007199254740992]", True),
        ("[1e400, 1e401]", True),
        ("[1e400, 10e399]", False),
        ('[{"a": 18446744073709551616}, {"a": 18446744073709551616.0}]', False),
    ],
)
def test_numbers_beyond_a_double_keep_json_schema_equality(text: str, ok: bool) -> None:
    assert check(text, Expectations(format="json", schema=UNIQUE)).ok is ok


def test_small_numbers_keep_jsonschema_rs_own_keyword() -> None:
    schema = JsonSchema(UNIQUE)
    schema.prepare()
    assert schema._validator(list(range(1000))) is schema._fast
    assert schema._validator([1.5, 2**53, -(2**53)]) is schema._fast
    assert schema._validator([2**53 + 1]) is not schema._fast
    assert JsonSchema({"type": "array"})._validator([10**30]) is None  # no uniqueItems: never asked
