"""CSV from Markdown tables and the edges of a table (issue 25: a heal keeps the meaning).

A GFM table without outer pipes made its ``---`` row a data row and kept the cells'
padding; bold header cells kept their asterisks; a byte-order mark stayed in the first
column's name; a complete last line short by one field, ending with a line break, was
dropped as "cut off". Values checked by hand."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check, heal

TABLES = [
    ("Name | Age\n--- | ---\nAda  | 36\nBob  | 40", [{"Name": "Ada", "Age": "36"}, {"Name": "Bob", "Age": "40"}]),
    ("Name | Age\r\n:--- | ---:\r\nAda  | 36\r\n", [{"Name": "Ada", "Age": "36"}]),
    (
        "Here it is:\n\nStadt | Einwohner\n------|----------\nZürich | 421878\n",
        [{"Stadt": "Zürich", "Einwohner": "421878"}],
    ),
    ("```\nName | Age\n-----|----\nAda  | 36\n```", [{"Name": "Ada", "Age": "36"}]),
    ("| **Name** | **Age** |\n|---|---|\n| Ada | 36 |", [{"Name": "Ada", "Age": "36"}]),
    ("| __Ville__ | *Pays* |\n|---|---|\n| Paris | France |", [{"Ville": "Paris", "Pays": "France"}]),
    ("<think>a table</think>\n**Name** | Age\n--- | ---\nAda | 36", [{"Name": "Ada", "Age": "36"}]),
]


@pytest.mark.parametrize(("reply", "value"), TABLES)
def test_a_gfm_table_is_read_as_gfm_reads_it(reply: str, value: object) -> None:
    result = check(reply, "EXPECT CSV")
    assert result.ok, result.violations
    assert result.value == value


def test_emphasis_removed_is_listed() -> None:
    result = check("| **Name** | **Age** |\n|---|---|\n| Ada | 36 |", "EXPECT CSV")
    assert "header_emphasis" in [r.kind for r in result.repairs]


def test_pipe_separated_csv_is_still_csv() -> None:
    result = check("a|b\n1|2\n3|4", "EXPECT CSV delimiter=auto")
    assert result.ok and result.value == [{"a": "1", "b": "2"}, {"a": "3", "b": "4"}]


@pytest.mark.parametrize(
    "reply",
    ["\ufeffname,age\nAda,36\nBob,40", "\ufeffname,age\r\nAda,36\r\n", "```csv\n\ufeffname,age\nAda,36\n```"],
)
def test_a_byte_order_mark_is_no_part_of_the_first_name(reply: str) -> None:
    result = check(reply, "EXPECT CSV")
    assert result.ok, result.violations
    assert list(result.value[0]) == ["name", "age"]


@pytest.mark.parametrize(
    "reply",
    [
        "name,age,city\nAda,36,Paris\nBob,40\n",
        "name,age,city\r\nAda,36,Paris\r\nBob,40\r\n",
        "Here:\n\nname,age,city\nAda,36,Paris\nBob,40\n\nHope this helps.",
        "```csv\nname,age,city\nAda,36,Paris\nBob,40\n```",
    ],
)
def test_a_short_row_a_line_break_ends_is_ragged_not_cut_off(reply: str) -> None:
    result = check(reply, "EXPECT CSV")
    assert not result.ok, result.value
    assert result.violations[0].code == "csv.field_count"


def test_a_row_the_end_of_the_reply_cuts_is_dropped() -> None:
    result = check("name,age,city\nAda,36,Paris\nBob,40", "EXPECT CSV")
    assert result.ok and result.value == [{"name": "Ada", "age": "36", "city": "Paris"}]
    assert "truncated_row" in [r.kind for r in result.repairs]


@pytest.mark.parametrize(
    "reply", ["name,age,city\nAda,36,Paris\nBob,40\n", "Name | Age\n--- | ---\nAda  | 36\n", "\ufeffname,age\nAda,36\n"]
)
def test_streaming_agrees(reply: str) -> None:
    guard = StreamGuard("EXPECT CSV")
    for i in range(0, len(reply), 3):
        guard.feed(reply[i : i + 3])
    streamed = guard.finish()
    whole = check(reply, "EXPECT CSV")
    assert (streamed.ok, streamed.value) == (whole.ok, whole.value)


@pytest.mark.parametrize(
    "mark", ["\ufeff", "\u200b", "\u2060", "\x00", "\x7f", "\u00ad", "\ufeff\u200b", " \u200b ", "\U000e0001"]
)
@pytest.mark.parametrize(
    "shape",
    [
        "{m}| Name | Age |\n|---|---|\n| Ada | 36 |\n| Bob | 40 |\n",
        "{m}|Name|Age|\r\n|:-|-:|\r\n|Ada|36|\r\n|Bob|40|\r\n",
        "{m}Name | Age\n--- | ---\nAda | 36\nBob | 40",
        "```csv\n{m}| Name | Age |\n|---|---|\n| Ada | 36 |\n| Bob | 40 |\n```",
    ],
)
def test_an_invisible_character_before_a_table_does_not_make_its_dashes_data(mark: str, shape: str) -> None:
    """Issue 30, held out (invisible characters): a byte-order mark or a zero-width space
    before the first '|' made the text no Markdown table; it was read with '|' as the
    delimiter, into a column named by the invisible character and a first row of dashes,
    ok=True. (A byte-order mark also stayed in the first name while the strict reading
    skips it, so heal(heal(x)) failed.)"""
    reply = shape.format(m=mark)
    result = check(reply, "EXPECT CSV")
    assert result.ok, result.violations
    assert result.value == [{"Name": "Ada", "Age": "36"}, {"Name": "Bob", "Age": "40"}]
    kinds = [r.kind for r in result.repairs]
    assert "markdown_table" in kinds
    assert ("invisible_removed" in kinds) == (mark.strip(" \ufeff") != "")
    once = heal(reply, "EXPECT CSV").text
    assert heal(once, "EXPECT CSV").text == once
    again = check(once, "EXPECT CSV")
    assert again.ok and again.value == result.value
    guard = StreamGuard("EXPECT CSV")
    for i in range(0, len(reply), 4):
        assert guard.feed(reply[i : i + 4])
    assert guard.finish().ok


def test_an_invisible_character_before_a_row_of_a_table_is_not_guessed_away() -> None:
    # only what opens the text is read past: one before the alignment row leaves no table
    assert not check("| Name | Age |\n\u200b|---|---|\n| Ada | 36 |\n", "EXPECT CSV").ok
