"""``Repair`` is slotted and made without its frozen ``__init__`` on hot paths
(``make_repair``, ``make_repairs``): the objects so made are the constructor's in every
way a caller sees (fields, repr, equality, hash, pickle, copies, JSON)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from formatbook_core import Repair, SetAside, Span
from formatbook_core.results import make_repair, make_repairs
from formatbook_core.serialising import fields_json, json_ready


def test_made_repairs_are_the_constructors() -> None:
    built = Repair("blank_line", "dropped blank line(s) between rows", Span(3, 4))
    made = [
        make_repair("blank_line", "dropped blank line(s) between rows", 3, 4),
        *make_repairs(["blank_line"], ["dropped blank line(s) between rows"], [3], [4]),
    ]
    for repair in made:
        assert repair == built and hash(repair) == hash(built)
        assert (
            repr(repair)
            == repr(built)
            == ("Repair(kind='blank_line', message='dropped blank line(s) between rows', span=Span(start=3, end=4))")
        )
        assert type(repair.span) is Span and repair.span == (3, 4)
        assert str(repair) == "dropped blank line(s) between rows"
        assert (
            fields_json(repair)
            == json_ready(repair)
            == {
                "kind": "blank_line",
                "message": "dropped blank line(s) between rows",
                "span": [3, 4],
            }
        )
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(repair, protocol)) == built
        assert copy.copy(repair) == copy.deepcopy(repair) == built
        assert dataclasses.replace(repair, kind="x") == Repair("x", built.message, built.span)
        assert dataclasses.asdict(repair) == {"kind": "blank_line", "message": built.message, "span": (3, 4)}
        with pytest.raises(dataclasses.FrozenInstanceError):
            repair.kind = "x"  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(Repair)] == ["kind", "message", "span"]
    assert Repair("k", "m") == Repair("k", "m", None) and Repair("k", "m").span is None
    assert Repair("k", "m", Span(1, 2)) != SetAside("k", "m", Span(1, 2))
    assert Repair("k", "m", Span(1, 2)) != ("k", "m", (1, 2))


def test_make_repairs_takes_its_columns_in_step() -> None:
    made = make_repairs(["a", "b"], ["one", "two"], [0, 5], [1, 9])
    assert made == [Repair("a", "one", Span(0, 1)), Repair("b", "two", Span(5, 9))]
    assert make_repairs([], [], [], []) == []


def test_a_shifted_repair_is_a_repair() -> None:
    repair = make_repair("k", "m", 1, 2)
    assert repair.shift(0) is repair
    assert repair.shift(10) == Repair("k", "m", Span(11, 12))
    assert type(repair.shift(10).span) is Span
