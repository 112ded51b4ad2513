"""The built-in formats declare their options: a misspelt or ill-typed one is an
ExpectationError the same way in check(), StreamGuard and guidance()."""

from __future__ import annotations

import pytest

from formatbook_core import ExpectationError, StreamGuard, check, guidance, parse_expectations


@pytest.mark.parametrize("entry", [check.__name__, "StreamGuard", "guidance"])
def test_a_misspelt_json_option_suggests_the_nearest_everywhere(entry):
    call = {"check": lambda e: check("{}", e), "StreamGuard": StreamGuard, "guidance": guidance}[entry]
    with pytest.raises(ExpectationError, match="did you mean max_depth") as info:
        call("EXPECT JSON max_dpth=3")
    assert info.value.suggestion == "max_depth"


def test_an_ill_typed_json_option_names_the_type():
    with pytest.raises(ExpectationError, match="max_depth expects a whole number, not 'abc'"):
        parse_expectations("EXPECT JSON max_depth=abc")
    with pytest.raises(ExpectationError, match="allow_fetch expects true or false"):
        parse_expectations("EXPECT JSON allow_fetch=perhaps")


def test_a_lowered_depth_limit_is_enforced():
    assert check("[[[1]]]", "EXPECT JSON").ok
    result = check("[[[1]]]", "EXPECT JSON max_depth=2")
    assert not result.ok


def test_markdown_level_is_checked_when_the_expectations_are_built():
    assert parse_expectations("EXPECT MARKDOWN level=L2").options == {"level": "L2"}
    with pytest.raises(ExpectationError, match="level must be 0, 1, 2 or 3"):
        parse_expectations("EXPECT MARKDOWN level=7")
