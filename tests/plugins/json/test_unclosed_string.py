"""A string that never closes, read across a quote with a JSON value after it, fails the
reply with ``json.unclosed_string``. The healer reads a quote that no comma, colon, bracket
or line end follows as an inner quote (``"He said "hi" to me"``); when the string then never
closes, it read the reply as cut inside the string. Before the fix ``{"a" 1}`` (a missing
colon) passed as ``{}``: the key, "cut off", was dropped with the value and the closing
brace. Found while fuzzing with seed 502 (by hand, next to json-guard_limits-fe116d5cc5)."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, StreamGuard, check, heal

MESSAGE = (
    "a string that never closes, read across a quote a value follows: the quote may close it "
    "(a colon or comma missing after it) or the reply was cut inside the string"
)


@pytest.mark.parametrize(
    ("reply", "span"),
    [
        # the span runs from the string's opening quote through the doubtful quote
        ('{"a" 1}', (1, 4)),
        ('{"a"1}', (1, 4)),
        ('{"a" true}', (1, 4)),
        ('{"a" [1]}', (1, 4)),
        ('{"x": 2, "a" 1}', (9, 12)),  # was {"x": 2}
        ('{"a": "b" 1}', (6, 9)),  # was {"a": 'b" 1}'}
        ("{'a' -1}", (1, 4)),
        ('{"a": "The answer is "42" and so', (6, 22)),  # cut, but which quote closed?
    ],
)
def test_a_string_that_never_closes_across_a_quote_a_value_follows_fails(reply, span):
    result = check(reply, "EXPECT JSON")
    assert not result.ok and result.value is None
    assert [(v.code, v.message) for v in result.violations] == [("json.unclosed_string", MESSAGE)]
    assert (result.violations[0].span.start, result.violations[0].span.end) == span


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('{"a" "b"}', {"a": "b"}),  # the quote closes (another quote follows): a missing colon
        ('{"a": "He said "hi" to me"}', {"a": 'He said "hi" to me'}),  # closes later
        ('{"a": "He said "hi', {"a": 'He said "hi'}),  # no value after the inner quote: cut
        ("{'a': 'it's cut", {"a": "it's cut"}),
        ('{"a": "b', {"a": "b"}),  # no inner quote: cut
    ],
)
def test_other_inner_quotes_and_cut_strings_heal_as_before(reply, value):
    result = check(reply, "EXPECT JSON")
    assert (result.ok, result.value) == (True, value)


def test_heal_refuses_it_and_the_guard_never_stops_it_early():
    with pytest.raises(HealError) as err:
        heal('{"a" 1}', "EXPECT JSON")
    assert [v.code for v in err.value.violations] == ["json.unclosed_string"]
    reply = '{"x": "two words", "a" 1}'
    guard = StreamGuard("EXPECT JSON\nEXPECT MAX 2 WORDS")
    for ch in reply:
        assert guard.feed(ch)
    assert [v.code for v in guard.finish().violations] == ["json.unclosed_string"]


KEY_MESSAGE = (
    "a key read across a quote a value follows: the quote may end the key (a colon missing after it) or be part of it"
)


@pytest.mark.parametrize(
    ("reply", "span"),
    [
        ('{"a" 1, "b": 2}', (1, 4)),  # was {'a" 1, "b': 2}
        ('Here: {"a" 1} and {"b": 2}', (7, 10)),  # was {'a" 1} and {"b': 2}
        ('{"a" true, "b": 2}', (1, 4)),
        ('{"x": "a" 1, "b": "y"}', (6, 9)),  # a value read on into the next key
    ],
)
def test_a_key_read_across_a_quote_a_value_follows_fails(reply, span):
    # found in review of the fix above: the string closes later, before a colon, so the
    # healer read one key holding the missing colon, the value and the next key
    result = check(reply, "EXPECT JSON")
    assert not result.ok and result.value is None
    assert [(v.code, v.message) for v in result.violations] == [("json.unclosed_string", KEY_MESSAGE)]
    assert (result.violations[0].span.start, result.violations[0].span.end) == span
    with pytest.raises(HealError):
        heal(reply, "EXPECT JSON")


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('{"a": "The "5" best", "b": 1}', {"a": 'The "5" best', "b": 1}),  # a value, not a key
        ('{"name": "The "Best" one", "n": 2}', {"name": 'The "Best" one', "n": 2}),
        ('{"a" "x", "b": 2}', {"a": "x", "b": 2}),  # a string follows: the colon is missing
    ],
)
def test_inner_quotes_in_values_are_still_healed(reply, value):
    result = check(reply, "EXPECT JSON")
    assert result.ok and result.value == value
