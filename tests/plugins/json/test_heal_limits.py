"""Healing's memory: a payload longer than HEAL_MAX_SIZE is not repaired by default
(issue 9), and the error says why; strict JSON of any size within max_size is not
touched, and a caller who gives max_size decides."""

from __future__ import annotations

import tracemalloc

import pytest

from formatbook_core import HealError, check
from formatbook_json import JsonFormat
from formatbook_json.heal.strict import HEAL_MAX_SIZE

FMT = JsonFormat()


def test_a_long_broken_payload_is_refused_by_default_and_the_error_says_why():
    text = "[" + "," * HEAL_MAX_SIZE + "]"
    with pytest.raises(HealError) as info:
        FMT.heal(text)
    (violation,) = info.value.violations
    assert violation.code == "json.too_large" and violation.expected == HEAL_MAX_SIZE
    assert "memory" in violation.message and "max_size" in violation.message
    result = check(text, "EXPECT JSON")
    assert not result.ok and result.violations[0].code == "json.too_large"


def test_strict_json_longer_than_the_heal_limit_is_still_checked_and_returned():
    text = "[" + "1," * (HEAL_MAX_SIZE // 2) + "1]"
    assert len(text) > HEAL_MAX_SIZE
    assert FMT.heal(text).text is text
    assert check(text, "EXPECT JSON").ok


def test_a_caller_who_gives_max_size_decides():
    short = "[" + "," * 50 + "1]"
    assert FMT.heal(short, max_size=10_000).text == "[1]"
    with pytest.raises(HealError) as info:
        FMT.heal(short, max_size=20)
    assert "memory" not in info.value.violations[0].message


def test_memory_per_character_stays_under_the_figure_the_limit_is_based_on():
    # 400 bytes per character is what HEAL_MAX_SIZE assumes for the worst damage measured
    text = "[" + "," * 50_000 + "]"
    tracemalloc.start()
    try:
        FMT.heal(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak / len(text) < 400
