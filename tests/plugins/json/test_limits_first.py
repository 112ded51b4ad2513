"""Limits are decided before the work they bound: refusing a reply costs no more than
accepting it. Work is counted in Python steps (calls and lines), never timed."""

from __future__ import annotations

import pytest

import formatbook_json.heal as json_heal
from formatbook_core import HealError, check
from formatbook_core.fuzzing.pathological import count_steps
from formatbook_json import locate as json_locate
from formatbook_json.format import JsonFormat
from formatbook_json.heal.strict import HEAL_MAX_SIZE
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


def test_a_reply_too_long_to_heal_is_refused_before_it_is_parsed_again(monkeypatch) -> None:
    """The pipeline's analysis found the payload is not strict JSON: healing refuses it
    by its length (HEAL_MAX_SIZE, no max_size given) at once, before its strict step
    parses it again; the verdict is the one heal gives without that analysis."""
    ran: list[str] = []
    plan = tuple(step._replace(run=_noting(ran, step.name, step.run)) for step in json_heal.PLAN)
    monkeypatch.setattr(json_heal, "PLAN", plan)
    reply = '{"a": [' + "1, " * (HEAL_MAX_SIZE // 3) + "]}"  # a trailing comma: needs healing
    result = check(reply, "EXPECT JSON")
    assert ran == ["refuse", "too_long"]
    assert [v.code for v in result.violations] == ["json.too_large"]
    ran.clear()
    with pytest.raises(HealError) as direct:  # the format's heal has no analysis: it parses first
        JsonFormat().heal(reply)
    assert ran == ["refuse", "strict", "memory"]
    assert [v.message for v in direct.value.violations] == [v.message for v in result.violations]
    ran.clear()
    within = '{"a": [' + "1, " * 100 + "]}"
    assert (
        check(within, "EXPECT JSON").ok
        and ran[:3] == ["refuse", "too_long", "strict"]
        and ran[-2:] == ["syntax", "confirm"]
    )


def _noting(ran: list[str], name: str, run):
    def noted(h):
        ran.append(name)
        return run(h)

    return noted


class _CountingInner:
    """``locate._INNER`` counting the characters its matches read."""

    def __init__(self, pattern) -> None:
        self.pattern = pattern
        self.read = 0

    def match(self, text, pos, end):
        m = self.pattern.match(text, pos, end)
        self.read += m.end() - pos
        return m


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"a": [' + "1, " * 10_000 + "2]}", None),  # closed: the whole reply
        ('{"a": [' + "1, " * 10_000, None),  # left open: runs to the end
        ('{"a": [' + "1, " * 10_000 + '2]}, "b": 2}', None),  # read on past the glue
        ('{"a": [' + "1, " * 10_000 + "2]}\n\nThat is all.", "{"),  # prose after it
    ],
)
def test_the_committed_container_is_read_once(monkeypatch, reply: str, expected: str | None) -> None:
    """The container a stream commits to was paired by one scan to the text's end and
    then scanned again for the span; now the second scan starts where it closed."""
    counting = _CountingInner(json_locate._INNER)
    monkeypatch.setattr(json_locate, "_INNER", counting)
    spans, _ = json_locate.locate(json_locate.Reply.of(reply))
    end = len(reply) if expected is None else reply.index("}\n") + 1
    assert spans == [json_locate.Span(0, end)]
    assert counting.read <= len(reply) + 10, (counting.read, len(reply))
