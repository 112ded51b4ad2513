"""``uniqueItems`` in the violation listing: JSON Schema's equality, in linear work."""

from __future__ import annotations

import json

import pytest

from formatbook_core import Expectations, check
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
