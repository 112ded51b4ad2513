"""Edits of a text and offset maps back to the text before them (formatbook_core.edits),
shared by the formats' healing (JSON, YAML)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from formatbook_core.edits import OffsetMap, apply


def test_apply_sorts_and_keeps_insertions_in_order() -> None:
    assert apply("abcdef", [(4, 5, "E"), (0, 0, "<"), (0, 0, "["), (1, 3, "")]) == "<[adEf"


def test_back_maps_through_a_replacement() -> None:
    text = "ab'c'd"
    edits = [(2, 5, '"c"')]  # the same length: every offset inside maps to the start...
    m = OffsetMap(edits)
    assert apply(text, list(edits)) == 'ab"c"d'
    assert [m.back(i) for i in range(7)] == [0, 1, 2, 2, 2, 5, 6]
    # ...or, within, as far into the replaced text
    assert [m.back(i, within=True) for i in range(7)] == [0, 1, 2, 3, 4, 5, 6]
    assert m.back_end(5) == 5 and m.back_end(3) == 5


def test_insertions_and_deletions() -> None:
    m = OffsetMap([(1, 1, "XY"), (3, 5, "")])  # "abcdef" -> "aXYbcf"
    assert [m.back(i) for i in range(7)] == [0, 1, 1, 1, 2, 5, 6]
    assert [m.back(i, within=True) for i in range(7)] == [0, 1, 1, 1, 2, 5, 6]
    assert m.back_end(3) == 1  # just after an insertion: where it was made


@given(st.text("abc", max_size=12), st.data())
def test_text_outside_the_edits_maps_back_to_itself(text: str, data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6)))
    edits = [(cuts[i], cuts[i + 1], data.draw(st.text("XY", max_size=3))) for i in range(0, len(cuts) - 1, 2)]
    new = apply(text, list(edits))
    m = OffsetMap(edits)
    for i, ch in enumerate(new):
        for j in (m.back(i), m.back(i, within=True)):
            assert 0 <= j <= len(text)
        if ch in "abc":  # copied, not written by an edit
            assert text[m.back(i)] == ch == text[m.back(i, within=True)]
