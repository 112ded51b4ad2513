"""Limits are decided before the work they bound: refusing a reply costs no more than
accepting it. Work is counted in Python steps (calls and lines), never timed."""

from __future__ import annotations

import pytest

from formatbook_core import check
from formatbook_core.fuzzing.pathological import count_steps
from formatbook_json.syntax import PRECISE_ERROR_LIMIT, JsonSyntaxError, parse_strict


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "[" * n + "]" * n,
        lambda n: "[" * n,  # cut off as well
        lambda n: '{"a":' * n + "1" + "}" * n,
        lambda n: "\n  " + "[" * n + "]" * n + "\r\n",
        lambda n: "[" * n + "]" * n + " and then prose",
    ],
)
def test_a_reply_opening_too_deep_is_refused_without_reading_it_all(make) -> None:
    """Before, a million brackets were paired by the locator (seconds, 200 MB) for the
    same json.too_deep: now the strict reading stops at depth max_depth + 1, and the
    steps do not grow with the reply."""
    check(make(2_000), "EXPECT JSON")  # lazy imports
    small = count_steps(check, make(2_000), "EXPECT JSON")
    large = count_steps(check, make(200_000), "EXPECT JSON")
    assert [v.code for v in check(make(200_000), "EXPECT JSON").violations] == ["json.too_deep"]
    assert large < 2 * small, (small, large)


def test_within_a_raised_depth_the_same_reply_passes() -> None:
    result = check("[" * 3_000 + "]" * 3_000, "EXPECT JSON max_depth=5000")
    assert result.ok


def test_a_reply_opening_too_deep_is_refused_whatever_follows() -> None:
    """The container that opens the reply is the payload (as a stream reads it): a
    shallow one after it is not taken instead."""
    result = check("[" * 1_500 + "]" * 1_500 + '\n{"a": 1}', "EXPECT JSON")
    assert not result.ok
    assert [v.code for v in result.violations] == ["json.too_deep"]


def test_prose_before_a_deep_container_is_still_located() -> None:
    result = check('Here: {"a": ' + "[" * 1_500 + "]" * 1_500 + "}", "EXPECT JSON")
    assert [v.code for v in result.violations] == ["json.too_deep"]


def _long(n: int) -> str:
    return '{"é": [' + "1, " * n + "2,]}"


def test_a_long_text_keeps_orjsons_reading_of_its_error() -> None:
    """Past PRECISE_ERROR_LIMIT the Python checker does not read the text again for its
    own wording: orjson's message and offset (in characters) stand."""
    text = _long(PRECISE_ERROR_LIMIT // 3 + 10)
    with pytest.raises(JsonSyntaxError) as caught:
        parse_strict("  " + text)
    err = caught.value
    assert err.code == "json.syntax"
    assert "trailing comma" in err.message
    assert ("  " + text)[err.offset] == ","
    assert err.offset == 2 + len(text) - 3
    # the same error in a short text: the checker's wording, at the bracket after the comma
    with pytest.raises(JsonSyntaxError) as short:
        parse_strict(_long(10))
    assert "trailing comma" in short.value.message
    assert short.value.offset == len(_long(10)) - 2


def _refused(text: str) -> str:
    try:
        parse_strict(text)
    except JsonSyntaxError as err:
        return err.code
    return "accepted"


def test_a_long_broken_text_is_refused_in_steps_that_do_not_grow_with_it() -> None:
    """The checker ran about two steps a character before (millions here)."""
    n = PRECISE_ERROR_LIMIT // 3 + 10
    small, large = (count_steps(_refused, _long(size)) for size in (n, 4 * n))
    assert _refused(_long(n)) == "json.syntax"
    assert large < 1_000 and small < 1_000, (small, large)
