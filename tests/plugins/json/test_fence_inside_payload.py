"""A fence line inside a JSON payload that goes on after the fence: check() never passes
the part before the fence as the whole payload (found by the new-user trial at the end of
the session of stop 21; ``Data: {"a": 1,\n```\nnote\n```\n"b": 2}`` passed as ``{"a": 1}``).
The container a fence line cuts is read across the fence when it closes after it
(formatbook_json.locate): a fence line between its tokens fails the reply with
``json.fence_inside``; one inside a string is text of the string, healed whole. A payload
the fence line ends (closed before it, or never closed after it) is read as before."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, StreamGuard, check, heal

CASES = [
    ('Data: {"a": 1,\n```\nnote\n```\n"b": 2}', {"a": 1, "b": 2}),
    ('{"a": [1, 2,\n```\n3]}', {"a": [1, 2, 3]}),
    ('{"a": "one\n```\nmore words here", "b": "two"}', {"a": "one\n```\nmore words here", "b": "two"}),
]


@pytest.mark.parametrize(("reply", "meant"), CASES)
def test_a_payload_continued_after_a_fence_line_is_not_passed_in_part(reply: str, meant: object) -> None:
    result = check(reply, "EXPECT JSON")
    assert not result.ok or result.value == meant


FENCE = "`" * 3
MESSAGE = (
    "a fence line inside the JSON payload, and the payload goes on after it: the part before the "
    "fence is not the whole payload; write the JSON without fence lines inside it"
)


def verdict(reply: str) -> tuple[bool, object, list[tuple[str, int, int]]]:
    result = check(reply, "EXPECT JSON")
    return result.ok, result.value, [(v.code, v.span.start, v.span.end) for v in result.violations if v.span]


@pytest.mark.parametrize(
    ("reply", "fence_at"),
    [
        # the fence line's span in the reply: "Data: " is 6, '{"a": 1,\n' is 9 characters
        ('Data: {"a": 1,\n' + FENCE + "\nnote\n" + FENCE + '\n"b": 2}', (15, 18)),
        ('{"a": [1, 2,\n' + FENCE + "\n3]}", (13, 16)),
        # the closing fence of the payload's own block, not committed (prose first) or committed
        ("Here:\n" + FENCE + 'json\n{"a": 1,\n' + FENCE + '\n"b": 2}', (23, 26)),
        (FENCE + 'json\n[1, 2,\n{"a": 1,\n' + FENCE + "\n}, 3]", (24, 27)),
        ('{"a": 1,\n~~~\n"b": "two words"}', (9, 12)),
        # an indented fence line with an info string: the whole line
        ('{"a": 1,\n   ' + FENCE + "python\nx = 1\n" + FENCE + '\n"b": 2}', (12, 21)),
        # a stray bracket in prose around it does not hide it
        ('Note [see: {"a": 1,\n' + FENCE + "\nx\n" + FENCE + '\n"b": 2}]', (20, 23)),
    ],
)
def test_a_fence_line_between_tokens_of_a_payload_that_goes_on_fails_the_reply(reply, fence_at):
    result = check(reply, "EXPECT JSON")
    assert not result.ok and result.value is None
    assert [(v.code, v.message) for v in result.violations] == [("json.fence_inside", MESSAGE)]
    assert (result.violations[0].span.start, result.violations[0].span.end) == fence_at


def test_no_part_of_a_payload_read_across_a_fence_is_taken_for_it():
    # {"c": 2} is a container of its own in the prose after the fence, but inside the payload
    assert verdict('Data: {"a": 1,\n' + FENCE + "\nnote\n" + FENCE + '\n"b": {"c": 2}}')[:2] == (False, None)
    # a fenced block inside it is no candidate either
    reply = 'Data: {"a": 1,\n' + FENCE + 'json\n{"x": 1}\n' + FENCE + '\n"b": 2}'
    assert verdict(reply)[:2] == (False, None)


def test_a_container_after_the_refused_payload_is_still_a_candidate():
    # as for any payload that cannot be healed, check() takes the next one in the prose
    reply = 'Data: {"a": 1,\n' + FENCE + "\nnote\n" + FENCE + '\n"b": 2} then {"c": 3}'
    assert verdict(reply)[:2] == (True, {"c": 3})


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        (FENCE + 'json\n{"a": 1}\n' + FENCE, {"a": 1}),
        (FENCE + 'json\n{"a": 1}\n' + FENCE + "\nHope this helps! See [1] and {note}.", {"a": 1}),
        ('Here:\n{"a": [1, 2]}\n' + FENCE + "\nprint(1)\n" + FENCE + "\nDone [x].", {"a": [1, 2]}),
        # cut by its closing fence and never closed after it: the fence ends it, as before
        (FENCE + 'json\n{"a": [1,\n' + FENCE + "\nsee ]", {"a": [1]}),
        (FENCE + 'json\n{"a": 1,\n' + FENCE + "\n\nFixed:\n" + FENCE + 'json\n{"a": 1}\n' + FENCE, {"a": 1}),
        ('{"a": "x y\n' + FENCE + "\nz w v", {"a": "x y\n"}),
        # a fence line inside a string that closes after it: the string whole
        ('{"a": "x\n~~~\ny"}', {"a": "x\n~~~\ny"}),
        ('Sure: {"code": "' + FENCE + "py\nx = 1\n" + FENCE + '"}', {"code": FENCE + "py\nx = 1\n" + FENCE}),
    ],
)
def test_replies_whose_fences_end_or_hold_the_payload_pass(reply, value):
    ok, got, violations = verdict(reply)
    assert (ok, got, violations) == (True, value, [])


@pytest.mark.parametrize(
    "reply",
    [
        'Data: {"a": 1,\n' + FENCE + "\nnote\n" + FENCE + '\n"b": 2}',
        '{"a": [1, 2,\n' + FENCE + "\n3]}",
        '{"a": "one\n' + FENCE + '\nmore words here", "b": "two"}',
    ],
)
def test_the_guard_agrees_with_check_at_finish_and_never_stops_early(reply):
    expected = check(reply, "EXPECT JSON\nEXPECT MAX 100 WORDS")
    for size in (1, 3, len(reply)):
        guard = StreamGuard("EXPECT JSON\nEXPECT MAX 100 WORDS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])
        end = guard.finish()
        assert (end.ok, end.value, end.violations) == (expected.ok, expected.value, expected.violations)


def test_heal_refuses_it_with_the_same_violation():
    with pytest.raises(HealError) as err:
        heal('{"a": [1, 2,\n' + FENCE + "\n3]}", "EXPECT JSON")
    assert [v.code for v in err.value.violations] == ["json.fence_inside"]
