"""Limits are decided before the work they bound (issue 30): a reply opening with an
element nested past ``max_depth`` is refused without walking the rest. Work is counted in
Python steps (calls and lines), never timed."""

from __future__ import annotations

import pytest

from formatbook_core import check
from formatbook_core.fuzzing.pathological import count_steps
from formatbook_xml.locate import DEPTH_PROBE


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "<a>" * n + "</a>" * n,
        lambda n: "<a>" * n,  # cut off as well
        lambda n: '<?xml version="1.0"?>\n' + "<a x='1'>" * n + "</a>" * n,
        lambda n: "\r\n  " + "<a>\r\n" * n + "</a>\r\n" * n,
        lambda n: "<a>" * n + "</a>" * n + "\nand then prose <b>1</b>",
    ],
)
def test_a_reply_opening_too_deep_is_refused_without_reading_it_all(make) -> None:
    """Before, a million nested elements were walked by the locator (5 s, 108 MB) for the
    same xml.too_deep: now the steps do not grow with the reply."""
    check(make(2_000), "EXPECT XML")  # lazy imports
    small = count_steps(check, make(2_000), "EXPECT XML")
    large = count_steps(check, make(100_000), "EXPECT XML")
    assert [v.code for v in check(make(100_000), "EXPECT XML").violations] == ["xml.too_deep"]
    assert large < 2 * small, (small, large)


def test_within_the_depth_the_same_shape_passes() -> None:
    assert check("<a>" * 200 + "</a>" * 200, "EXPECT XML").ok
    result = check("<a>" * 200 + "</a>" * 200, "EXPECT XML max_depth=100")
    assert [v.code for v in result.violations] == ["xml.too_deep"]


def test_a_think_block_opening_the_reply_is_not_the_payload() -> None:
    result = check("<think>let me see</think>\n<r><a>1</a></r>", "EXPECT XML")
    assert result.ok
    assert result.text == "<r><a>1</a></r>"


def test_an_element_deep_past_the_probe_is_still_refused() -> None:
    """Past DEPTH_PROBE characters the probe gives up; the usual reading refuses it."""
    tag = "<a " + "x" * 40 + "='1'>"
    n = DEPTH_PROBE // len(tag) + 300
    assert [v.code for v in check(tag * n + "</a>" * n, "EXPECT XML").violations] == ["xml.too_deep"]


def test_prose_before_a_deep_element_is_still_located() -> None:
    result = check("Here: <r>" + "<a>" * 300 + "</a>" * 300 + "</r>", "EXPECT XML")
    assert [v.code for v in result.violations] == ["xml.too_deep"]
