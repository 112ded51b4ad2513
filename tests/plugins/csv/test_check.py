"""CSV check(): the verdict, value and violations of whole replies as models write them."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, check, heal


@pytest.mark.parametrize(
    "reply",
    [
        "id,name\n1,Ada\n2,Bob\n...\n10,Eve",  # rows 3-9 left out: row 10 was set aside as prose
        "id,name\n1,Ada\n2,Bob\n\u2026",  # the last row an ellipsis: dropped as a cut-off row
        "Here:\n\nid,name\n1,Ada\n...\n\nThat is all.",  # dropped as a closing sentence
    ],
)
def test_a_table_with_rows_left_out_does_not_pass_without_them(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
    # It passed with the rows before the '...' only: a table the reply says is not whole.
    result = check(reply, "EXPECT CSV")
    assert not result.ok
    assert "csv.field_count" in [v.code for v in result.violations]
    assert any("left out" in v.message for v in result.violations)


@pytest.mark.parametrize(
    ("reply", "rows"),
    [
        ("id,name\n1,Ada\n2,Bob\n\nHope this helps.", [{"id": "1", "name": "Ada"}, {"id": "2", "name": "Bob"}]),
        ("id,name\n1,Ada\n2", [{"id": "1", "name": "Ada"}]),  # a cut-off row is still dropped
    ],
)
def test_prose_after_the_table_and_a_cut_off_row_are_still_handled(reply: str, rows: list) -> None:
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT CSV")
    assert result.ok
    assert result.value == rows


@pytest.mark.parametrize(
    "reply",
    [
        "<think>a,b\n1,2",  # was ok, [{'<think>a': '1', 'b': '2'}]
        "<think>a,b\n1,2</think>\n\n",  # was ok, [{'<think>a': '1', 'b': '2</think>'}]
        '<think>";a\na\t',  # fuzz repro csv-heal_idempotent-05d82c66dd: healed to '"<think>""",a\na,'
    ],
)
def test_a_reply_of_think_blocks_only_is_no_csv(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
    # issue 9: the think block's text is never read as the table
    result = check(reply, "EXPECT CSV")
    assert not result.ok and [v.code for v in result.violations] == ["csv.empty"]
    with pytest.raises(HealError):
        heal(reply, "EXPECT CSV")


def test_a_quoted_field_holding_a_think_tag_is_data() -> None:
    """User finding (was test_user_findings.py)."""
    # '<think>' mid-line (inside a quoted field) is text, not a think block: the table keeps
    # the field and every row after it (a think tag opens a block only at a line's start)
    result = check('a,b\n"<think>",2\n3,4', "EXPECT CSV")
    assert result.ok and result.value == [{"a": "<think>", "b": "2"}, {"a": "3", "b": "4"}]


@pytest.mark.parametrize(
    "reply",
    [
        "id,name\n1,Ada\n\n",
        "id,name\n1,Ada\n\n\n\n",
        "id,name\r\n1,Ada\r\n\r\n",
        "id,name\n1,Ada\n \n\t\n",
        "\n\nid,name\n1,Ada\n",
        "  id,name\n1,Ada",
        'id,name\n1,"Ada\n\nLovelace"\n\n',  # blank lines inside a quoted cell are the cell's
    ],
)
def test_white_space_around_a_table_is_no_part_of_it_for_every_reader(reply: str) -> None:
    """Issue 31: a table followed by blank lines passed check() while is_valid and the
    strict checker refused it. White space around the table is not part of it (as the
    locator says for every format): all three accept it, with the same rows."""
    from formatbook_csv import CsvFormat  # noqa: PLC0415 - the plugin under test

    fmt = CsvFormat()
    result = check(reply, "EXPECT CSV")
    assert result.ok and result.verdict == "pass" and result.repairs == []
    assert fmt.is_valid(reply)
    checker = fmt.stream()
    assert checker.feed(reply)
    assert checker.finish()
    assert fmt.analyze(reply).value == result.value
    assert result.value[0]["id"] == "1"


@pytest.mark.parametrize("reply", ["id,name\n\n1,Ada\n", "id,name\n1,Ada\n\n2,Bob\n"])
def test_a_blank_line_between_rows_is_refused_by_every_reader(reply: str) -> None:
    from formatbook_csv import CsvFormat  # noqa: PLC0415 - the plugin under test

    fmt = CsvFormat()
    result = check(reply, "EXPECT CSV")
    assert result.verdict == "healed" and [r.kind for r in result.repairs] == ["blank_line"]
    assert not fmt.is_valid(reply)
    checker = fmt.stream()
    checker.feed(reply)
    assert not checker.finish()


def test_a_violation_after_leading_white_space_points_into_the_reply() -> None:
    from formatbook_csv import CsvFormat  # noqa: PLC0415 - the plugin under test

    reply = "\n\nid,name\n1,Ada,x\n"
    (v,) = CsvFormat().analyze(reply).violations
    assert v.code == "csv.field_count" and reply[v.span.start : v.span.end] == "1,Ada,x"


_TSV_ROWS = [{"a": "1", "b": "2"}, {"a": "3", "b": ""}]


@pytest.mark.parametrize(
    ("reply", "expect"),
    [
        ("a\tb\n1\t2\n3\t\n", "EXPECT CSV delimiter=tab"),
        ("a\tb\n1\t2\n3\t", "EXPECT CSV delimiter=tab"),
        ("a\tb\r\n1\t2\r\n3\t\r\n", "EXPECT CSV delimiter=tab"),
        ("a\tb\n1\t2\n3\t\n", "EXPECT CSV"),
        ("Here:\n\n```tsv\na\tb\n1\t2\n3\t\n```\n", "EXPECT CSV delimiter=tab"),
        ("Table:\na\tb\n1\t2\n3\t\n\nThanks.", "EXPECT CSV delimiter=tab"),
    ],
)
def test_a_tab_delimited_last_cell_left_empty_keeps_its_row(reply: str, expect: str) -> None:
    # The tab ending the last row was stripped as space around the table: the row became
    # the one-field line "3", set aside as prose, and the table passed without it (or, with
    # one data row, failed with csv.no_data). A tab is a delimiter, never surrounding space.
    result = check(reply, expect)
    assert result.ok, result.violations
    assert result.value == _TSV_ROWS
