"""Replies a new user checked as models write them, each a bug found in review: the
reply must never pass with data it did not mean."""

from __future__ import annotations

import pytest

from formatbook_core import check


@pytest.mark.parametrize(
    "reply",
    [
        "key: value\nkey: other",
        "a: 1\nb: 2\na: 3",
        "name: Ada\nname: Bob\n",
    ],
)
def test_a_duplicate_key_on_the_last_line_is_not_dropped_as_a_cut_off_line(reply: str) -> None:
    # The last line holds a complete key (its ':' is written): no cut-off end makes a
    # key repeat, so dropping the line as "truncated" silently loses one of the values.
    result = check(reply, "EXPECT YAML")
    assert not result.ok
    assert "yaml.duplicate_key" in [v.code for v in result.violations]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("zip: 01234", {"zip": "01234"}),
        ("mode: 0777", {"mode": "0777"}),
        ("code: -007", {"code": "-007"}),
        ("n: 0", {"n": 0}),
        ("n: -0", {"n": 0}),
        ("n: 10", {"n": 10}),
        ("x: 0.5", {"x": 0.5}),
    ],
)
def test_an_integer_with_a_leading_zero_stays_the_text_written(reply: str, expected: dict) -> None:
    # README: "`0777` ... are strings". The code read them as decimal ints (777, 1234),
    # losing the zip code's leading zero.
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected


def test_an_explicit_int_tag_still_reads_a_leading_zero_as_a_number() -> None:
    result = check("mode: !!int 0777", "EXPECT YAML")
    assert result.ok
    assert result.value == {"mode": 777}
