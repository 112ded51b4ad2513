"""Results that serialise: ``CheckResult.to_dict()`` is plain JSON for every value (issue 8)."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
from decimal import Decimal

import pytest

from formatbook_core import CheckResult, check, list_formats
from formatbook_core.serialising import ExactNumber, dumps_json, json_ready
from tests.contract.facts import declared


def _reject_constants(name):
    raise AssertionError(f"non-standard JSON constant {name} written")


def strict_loads(text):
    """``json.loads`` that refuses ``Infinity``, ``-Infinity`` and ``NaN``."""
    return json.loads(text, parse_constant=_reject_constants)


def round_trips(data):
    return json.loads(json.dumps(data, allow_nan=False)) == data


# --- every built-in format ----------------------------------------------------------------

# each format's replies of every verdict: ``verdict_replies`` on its contract class
REPLIES = declared("verdict_replies")


def test_every_built_in_format_has_replies_here():
    assert {entry.format.name for entry in list_formats()} <= set(REPLIES)


@pytest.mark.parametrize(
    "fmt, reply", [(fmt, reply) for fmt, replies in REPLIES.items() for reply in replies] + [(None, "Hi.")]
)
def test_to_dict_round_trips_through_json(fmt, reply):
    expect = f"EXPECT {fmt.upper()}\nEXPECT MAX 100 WORDS" if fmt else "EXPECT MAX 100 WORDS"
    data = check(reply, expect).to_dict()
    assert round_trips(data), data
    strict_loads(dumps_json(data))
    strict_loads(dumps_json(data, indent=2))


def test_an_xml_value_is_its_xml_text_not_a_repr():
    data = check('<answer lang="en">Paris</answer>', "EXPECT XML").to_dict()
    assert data["value"] == '<answer lang="en">Paris</answer>'


def test_a_markdown_value_is_json_data_not_a_repr():
    data = check("# Title\n\nSome text.", "EXPECT MARKDOWN").to_dict()
    assert isinstance(data["value"], dict), data["value"]
    assert "Title" in json.dumps(data["value"])


def test_json_numbers_beyond_a_float_are_never_infinity():
    data = check('{"a": 1e400, "b": -1e400, "c": 1, "d": 0.1}', "EXPECT JSON").to_dict()
    text = dumps_json(data)
    assert "Infinity" not in text.replace('"Infinity"', "").replace('"-Infinity"', "")
    value = strict_loads(text)["value"]
    assert value["c"] == 1 and value["d"] == 0.1


# --- the rules, one by one ----------------------------------------------------------------


class Throwaway:
    """A value that knows its JSON form (as Markdown's Extracted does)."""

    def __init__(self, items):
        self.items = items

    def to_json(self):
        return {"items": self.items, "when": datetime.date(2024, 5, 6), "exact": Decimal("2.5")}

    def __repr__(self):
        return "Throwaway(...)"


def test_a_value_with_to_json_is_serialised_through_it():
    data = CheckResult(True, "r", value=[Throwaway((1, 2))]).to_dict()
    assert data["value"] == [{"items": [1, 2], "when": "2024-05-06", "exact": 2.5}]
    assert round_trips(data)


def test_a_to_json_that_fails_is_shown_by_its_str():
    class Broken:
        def to_json(self):
            raise RuntimeError("no")

        def __str__(self):
            return "<broken>"

    assert json_ready(Broken()) == "<broken>"


def test_a_to_json_that_returns_itself_ends():
    class Loop:
        def to_json(self):
            return self

    assert "nested deeper" in json_ready(Loop())


@pytest.mark.parametrize(
    "number, plain, written",
    [
        (Decimal("12"), 12, "12"),
        (Decimal("1E+400"), 10**400, "1" + "0" * 400),  # whole: an exact int
        (Decimal("-3.0"), -3, "-3"),
        (Decimal("2.5"), 2.5, "2.5"),  # a float holds it exactly
        (Decimal("0.1"), 0.1, "0.1"),  # the float 0.1 is not exactly 1/10: exact digits kept
        (Decimal("0.10000000000000000000001"), 0.1, "0.10000000000000000000001"),
        (Decimal("-1E-400"), -0.0, "-1E-400"),
    ],
)
def test_a_decimal_is_an_exact_json_number(number, plain, written):
    ready = json_ready(number)
    assert ready == plain
    assert dumps_json(number) == written
    assert strict_loads(dumps_json([number])) == [plain]
    assert round_trips(ready)


def test_an_inexact_decimal_keeps_its_digits():
    ready = json_ready(Decimal("0.10000000000000000000001"))
    assert isinstance(ready, ExactNumber) and isinstance(ready, float)
    assert ready.text == "0.10000000000000000000001"
    assert Decimal(dumps_json({"x": ready})[6:-1]) == Decimal("0.10000000000000000000001")


@pytest.mark.parametrize(
    "value, expected",
    [
        (float("inf"), "Infinity"),
        (float("-inf"), "-Infinity"),
        (float("nan"), "NaN"),
        (Decimal("Infinity"), "Infinity"),
        (Decimal("-Infinity"), "-Infinity"),
        (Decimal("NaN"), "NaN"),
        (Decimal("1E+5000"), "1E+5000"),  # beyond a float and too long for an int's text
    ],
)
def test_numbers_json_cannot_hold_become_strings_never_bare_constants(value, expected):
    assert json_ready({"v": value}) == {"v": expected}
    assert strict_loads(dumps_json({"v": value})) == {"v": expected}


def test_dates_times_enums_sets_dataclasses():
    class Colour(enum.Enum):
        RED = "red"

    class Size(str, enum.Enum):
        BIG = "big"

    @dataclasses.dataclass
    class Point:
        x: int
        y: tuple[int, ...]

    value = {
        "date": datetime.date(2024, 1, 2),
        "datetime": datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
        "time": datetime.time(7, 8),
        "colour": Colour.RED,
        "size": Size.BIG,
        "set": {3, 1, 2},
        "mixed": {1, "a"},
        "point": Point(1, (2, 3)),
        4: "int key",
    }
    ready = json_ready(value)
    assert ready["date"] == "2024-01-02"
    assert ready["datetime"] == "2024-01-02T03:04:05+00:00"
    assert ready["time"] == "07:08:00"
    assert ready["colour"] == "red" and ready["size"] == "big" and type(ready["size"]) is str
    assert ready["set"] == [1, 2, 3]
    assert sorted(map(str, ready["mixed"])) == ["1", "a"]
    assert ready["point"] == {"x": 1, "y": [2, 3]}
    assert ready["4"] == "int key"
    assert round_trips(ready)


def test_deep_values_need_no_deep_stack():
    deep: list = []
    inner = deep
    for _ in range(5000):
        inner.append([])
        inner = inner[0]
    text = dumps_json(CheckResult(True, "r", value=deep).to_dict())
    assert text.count("[") == text.count("]") == 5001 + 3  # the value, and repairs, violations, set_aside


@pytest.mark.parametrize("indent", [None, 2])
def test_dumps_json_writes_what_json_dumps_writes(indent):
    data = {"a": [1, {"b": []}, {}], "c": 'é\n"\u2028', "d": None, "e": True, "f": 1.5, 'k"\n': [[2]]}
    assert dumps_json(data, indent=indent) == json.dumps(data, ensure_ascii=False, indent=indent)
    # with an exact decimal, dumps_json writes everything itself: the same text still
    # (the float 0.1 is written "0.1", as the exact digits are)
    exact = {**data, "x": Decimal("0.1")}
    assert isinstance(json_ready(exact)["x"], ExactNumber)
    assert dumps_json(exact, indent=indent) == json.dumps({**data, "x": 0.1}, ensure_ascii=False, indent=indent)
