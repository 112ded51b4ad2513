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
