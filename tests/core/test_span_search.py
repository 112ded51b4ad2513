"""``containing`` and ``overlaps_any`` (formatbook_core.locating) answer by bisection what a
scan of every span answers: checked against that scan on random sorted, non-overlapping
spans (the think blocks of a reply)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from formatbook_core import Span
from formatbook_core.spans import containing, overlaps_any


@st.composite
def sorted_spans(draw) -> list[Span]:
    cuts = sorted(set(draw(st.lists(st.integers(0, 60), max_size=16))))
    pairs = [Span(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2)]
    return [s for s in pairs if s.end > s.start]


@given(sorted_spans(), st.integers(-2, 62))
def test_containing_is_the_span_a_scan_finds(spans: list[Span], pos: int) -> None:
    scanned = next((s for s in spans if s.start <= pos < s.end), None)
    assert containing(spans, pos) == scanned


@given(sorted_spans(), st.integers(-2, 62), st.integers(0, 10))
def test_overlaps_any_is_what_a_scan_says(spans: list[Span], start: int, length: int) -> None:
    end = start + length
    assert overlaps_any(spans, start, end) == any(s.start < end and start < s.end for s in spans)


def test_by_hand() -> None:
    spans = [Span(2, 5), Span(8, 9)]
    assert containing(spans, 2) == Span(2, 5) and containing(spans, 5) is None
    assert containing(spans, 8) == Span(8, 9) and containing([], 0) is None
    assert overlaps_any(spans, 4, 8) and not overlaps_any(spans, 5, 8)
    assert overlaps_any(spans, 3, 3)  # an empty range inside a span (a fence's empty body)
    assert not overlaps_any(spans, 5, 5) and not overlaps_any(spans, 0, 2)
