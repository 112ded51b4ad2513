"""Memory per character of a check: bounded on tables of short rows."""

from __future__ import annotations

import tracemalloc

from formatbook_core import check


def _bytes_per_character(text: str) -> float:
    check(text[:100], "EXPECT CSV")  # lazy imports out of the measure
    tracemalloc.start()
    try:
        assert check(text, "EXPECT CSV").ok
        return tracemalloc.get_traced_memory()[1] / len(text)
    finally:
        tracemalloc.stop()


def test_short_rows_stay_under_the_bound() -> None:
    """``str.split`` leaves room for 12 cells in every list it returns: a row of ``1,2``
    kept 168 bytes for 4 characters (102 bytes a character in all, now 82; the value's
    dicts take 46 of them)."""
    assert _bytes_per_character("a,b\n" + "1,2\n" * 10_000) < 90
    assert _bytes_per_character("name,email,age\n" + "Ada Lovelace,ada@example.com,36\n" * 3_000) < 50
