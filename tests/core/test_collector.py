"""formatbook_core.collector.paused_gc: the collector paused, then restored as it was."""

from __future__ import annotations

import gc

import pytest

from formatbook_core import Expectations, check
from formatbook_core.collector import paused_gc
from formatbook_core.results import Repair, SetAside, Span, Violation


def test_the_collector_is_paused_and_restored():
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():  # nested: the inner one leaves it paused
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restored_on_an_exception_and_left_off_when_it_was_off():
    with pytest.raises(ValueError), paused_gc():
        raise ValueError("x")
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()  # the caller had it off: it stays off
    finally:
        gc.enable()


def test_a_heal_through_check_leaves_the_collector_on():
    result = check("{'a': 1, 'b': [1, 2,],}", Expectations(format="json"))
    assert result.ok and result.value == {"a": 1, "b": [1, 2]} and gc.isenabled()
    result = check("{'a': ", Expectations(format="json", schema={"type": "array"}))
    assert gc.isenabled()


def test_shifted_values_keep_every_field():
    r = Repair("trailing_comma", "removed", Span(3, 4))
    assert r.shift(10) == Repair("trailing_comma", "removed", Span(13, 14)) and r.shift(0) is r
    s = SetAside("prose", "Sure:", Span(0, 5))
    assert s.shift(2) == SetAside("prose", "Sure:", Span(2, 7))
    v = Violation("schema.type", "m", ("a", 0), Span(1, 2), "type", "integer")
    assert v.shift(5) == Violation("schema.type", "m", ("a", 0), Span(6, 7), "type", "integer")
    assert Repair("k", "m").shift(3) == Repair("k", "m")
