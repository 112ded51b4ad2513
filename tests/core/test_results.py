"""The result types: spans, violations, repairs, CheckResult and the errors."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json
import pickle

import pytest

from formatbook_core import (
    Analysis,
    CheckResult,
    ExpectationError,
    FormatbookError,
    Healed,
    HealError,
    Repair,
    ScopeNotFound,
    SetAside,
    Span,
    StreamStatus,
    Violation,
    check,
)
from formatbook_core.results import Attempt, make_repair, ok_status


def test_span_shift_and_tuple_behaviour():
    span = Span(2, 5)
    assert span.shift(10) == Span(12, 15)
    assert span.shift(-2) == Span(0, 3)
    assert span.shift(0) == span
    assert span == (2, 5)
    assert "abcdefg"[slice(*span)] == "cde"


def test_violation_str_names_the_path_or_the_offset():
    assert str(Violation("json.type", "expected a string", path=("people", 0, "name"))) == (
        "expected a string at people/0/name"
    )
    assert str(Violation("json.syntax", "unexpected '}'", span=Span(7, 8))) == "unexpected '}' at offset 7"
    assert str(Violation("count.max", "4 words exceed 3")) == "4 words exceed 3"
    # a path wins over a span: it says more to a person
    assert str(Violation("x", "bad", path=("a",), span=Span(1, 2))) == "bad at a"


@pytest.mark.parametrize("cls,args", [(Violation, ("c", "m")), (Repair, ("k", "m")), (SetAside, ("think", "t"))])
def test_shift_moves_the_span_and_keeps_the_rest(cls, args):
    with_span = cls(*args, span=Span(1, 3))
    moved = with_span.shift(5)
    assert moved.span == Span(6, 8)
    assert moved == cls(*args, span=Span(6, 8))
    assert with_span.span == Span(1, 3)  # frozen: the original is untouched
    without = cls(*args)
    assert without.shift(5) is without


def test_healed_and_analysis_flags():
    assert not Healed("x").changed
    assert Healed("x", (Repair("trailing_comma", "removed a comma"),)).changed
    assert Analysis({"a": 1}).ok
    assert not Analysis(None, (Violation("c", "m"),)).ok
    assert str(Repair("k", "removed a comma")) == "removed a comma"


def test_stream_status_truthiness():
    assert StreamStatus()
    assert not StreamStatus(False, "broken", 3)
    # the trap: a failed status stored in an attribute is falsy, so test it with `is not None`
    failed = StreamStatus(False)
    assert failed is not None and not failed


def test_check_result_verdicts():
    assert CheckResult(True, "r").verdict == "pass"
    assert not CheckResult(True, "r").healed
    healed = CheckResult(True, "r", repairs=[Repair("k", "m")])
    assert healed.verdict == "healed" and healed.healed
    failed = CheckResult(False, "r", repairs=[Repair("k", "m")], violations=[Violation("c", "m")])
    assert failed.verdict == "fail" and not failed.healed
    assert bool(CheckResult(True, "r")) and not bool(failed)


def test_results_are_frozen_once_built():
    """Issue 24: a result is built once, when everything is known; a later stage builds a new one."""
    result = check("a b c", "EXPECT MAX 2 WORDS")
    assert not result.ok and result.counts == {"words": 3} and result.violations[0].code == "count.max"
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.ok = True  # type: ignore[misc]
    attempt = Attempt("p", "a b c", result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        attempt.result = CheckResult(True, "r")  # type: ignore[misc]
    stopped = dataclasses.replace(result, violations=[Violation("reply.stopped", "m"), *result.violations])
    assert [v.code for v in result.violations] == ["count.max"]  # the first is unchanged
    assert [v.code for v in stopped.violations] == ["reply.stopped", "count.max"]


def test_hot_path_constructors_equal_the_constructors():
    assert make_repair("k", "m", 1, 2) == Repair("k", "m", Span(1, 2))
    assert type(make_repair("k", "m", 1, 2).span) is Span
    assert ok_status() == StreamStatus(True) and ok_status() is ok_status()  # one shared frozen status
    assert ok_status(("a",), "b", True) == StreamStatus(True, complete=True, values=("a",), open="b")


@pytest.mark.parametrize(("values", "opened", "complete"), [(("a",), "", False), ((), "b", False), ((), "", True)])
def test_ok_status_is_the_status_the_constructor_builds(values, opened, complete):
    fast = ok_status(values, opened, complete)
    built = StreamStatus(True, complete=complete, values=values, open=opened)
    assert type(fast) is StreamStatus
    assert fast == built and hash(fast) == hash(built) and repr(fast) == repr(built)
    assert dataclasses.asdict(fast) == dataclasses.asdict(built)
    assert pickle.loads(pickle.dumps(fast)) == built and copy.copy(fast) == built
    assert dataclasses.replace(fast, reason="r") == dataclasses.replace(built, reason="r")
    assert fast.ok and bool(fast) and fast.reason is None and fast.position is None and fast.scoped == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.open = "changed"  # type: ignore[misc]


def test_check_result_to_dict_is_json_ready():
    result = CheckResult(
        False,
        "reply",
        text='{"a": 1}',
        value={"a": (1, 2), 3: datetime.date(2024, 1, 2), "s": {"x"}},
        format="json",
        repairs=[Repair("trailing_comma", "removed a trailing comma", Span(7, 8))],
        violations=[Violation("count.max", "4 words exceed 3", ("a",), Span(0, 9), "max", {1, 2})],
        set_aside=[SetAside("think", "<think>x</think>", Span(0, 16))],
        counts={"words": 4},
    )
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data["verdict"] == "fail" and data["ok"] is False
    assert data["value"] == {"a": [1, 2], "3": "2024-01-02", "s": ["x"]}  # a set is a list, not its repr
    assert data["repairs"] == [{"kind": "trailing_comma", "message": "removed a trailing comma", "span": [7, 8]}]
    violation = data["violations"][0]
    assert violation["span"] == [0, 9] and violation["path"] == ["a"] and violation["keyword"] == "max"
    assert violation["expected"] == [1, 2]
    assert data["set_aside"] == [{"kind": "think", "text": "<think>x</think>", "span": [0, 16]}]
    assert data["counts"] == {"words": 4}
    assert data["format"] == "json" and data["text"] == '{"a": 1}'


def test_to_dict_dumps_a_pydantic_value():
    pydantic = pytest.importorskip("pydantic")

    class Person(pydantic.BaseModel):
        name: str
        born: datetime.date

    data = CheckResult(True, "r", value=Person(name="Ada", born=datetime.date(1815, 12, 10))).to_dict()
    assert json.loads(json.dumps(data))["value"] == {"name": "Ada", "born": "1815-12-10"}


def test_to_dict_survives_a_model_that_cannot_dump_itself():
    class Broken:
        def model_dump(self, mode="python"):
            raise RuntimeError("no")

        def __repr__(self):
            return "<Broken>"

    assert CheckResult(True, "r", value=Broken()).to_dict()["value"] == "<Broken>"


def test_heal_error_carries_its_violations():
    violations = (Violation("json.syntax", "unexpected end"),)
    err = HealError("cannot heal json", violations)
    assert err.violations == list(violations)
    assert str(err) == "cannot heal json"
    assert isinstance(err, FormatbookError) and isinstance(err, ValueError)
    assert HealError("no").violations == []
    with pytest.raises(HealError) as caught:
        raise err
    assert caught.value.violations[0].code == "json.syntax"


def test_expectation_error_and_scope_not_found():
    err = ExpectationError("unknown unit 'WRODS'", line="EXPECT MAX 3 WRODS", suggestion="words")
    assert (err.line, err.suggestion) == ("EXPECT MAX 3 WRODS", "words")
    assert isinstance(err, FormatbookError) and isinstance(err, ValueError)
    assert issubclass(ScopeNotFound, LookupError) and issubclass(ScopeNotFound, FormatbookError)
