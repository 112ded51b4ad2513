"""JSON scopes are JSON pointers: one that can never match is refused when the
expectations are built."""

from __future__ import annotations

import pytest

from formatbook_core import Count, ExpectationError, Expectations, check, parse_expectations


@pytest.mark.parametrize("scope", ["title", "items/0", " /title"])
def test_scope_that_is_not_a_pointer_is_refused_up_front(scope):
    with pytest.raises(ExpectationError, match="JSON pointer"):
        parse_expectations(f'EXPECT JSON\nEXPECT MAX 3 WORDS IN "{scope}"')
    with pytest.raises(ExpectationError, match="JSON pointer"):
        Expectations(format="json", counts=[Count("words", max=3, scope=scope)])


@pytest.mark.parametrize("scope", ["", "/", "/title", "#/title", "/items/0"])
def test_pointers_are_accepted(scope):
    exp = Expectations(format="json", counts=[Count("words", max=3, scope=scope)])
    assert exp.counts[0].scope == scope


def test_a_pointer_missing_from_the_reply_is_still_a_per_reply_violation():
    exp = parse_expectations('EXPECT JSON\nEXPECT MAX 3 WORDS IN "/title"')
    assert check('{"title": "two words"}', exp).ok
    missing = check('{"name": "x"}', exp)
    assert [v.code for v in missing.violations] == ["count.scope_missing"]
