"""StreamGuard driving the built-in formats' checkers (integration)."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check


def feed_all(guard, reply, size):
    """Feed ``reply`` in chunks of ``size``; the first falsy status, or None."""
    for i in range(0, len(reply), size):
        status = guard.feed(reply[i : i + size])
        if not status:
            return status
    return None


@pytest.mark.parametrize("size", [1, 3, 64])
def test_json_word_limit_stops_before_the_reply_ends(size):
    reply = 'Sure! Here it is:\n```json\n{"firstName": "John Smith", "lastName": "Peter Green"}\n```\nAnything else?'
    status = feed_all(StreamGuard("EXPECT JSON\nEXPECT MAX 3 WORDS"), reply, size)
    assert status is not None and "4 words" in status.reason
    # stopped once "Green" was closed, not later than the chunk holding the closing quote
    assert status.position <= reply.index("Green") + len('Green"') + size


def test_json_within_limits_streams_to_the_end_and_agrees_with_check():
    reply = '<think>two names</think>\n{"firstName": "John", "lastName": "Smith"}'
    guard = StreamGuard("EXPECT JSON\nEXPECT MIN 2 WORDS\nEXPECT MAX 3 WORDS")
    assert feed_all(guard, reply, 2) is None
    result = guard.finish()
    assert result.ok and result.counts == {"words": 2}
    assert result.to_dict() == check(reply, "EXPECT JSON\nEXPECT MIN 2 WORDS\nEXPECT MAX 3 WORDS").to_dict()


def test_json_relaxed_by_default_strict_on_request():
    broken_but_healable = "{'a': True, b: [1, 2,],}"
    assert feed_all(StreamGuard("EXPECT JSON"), broken_but_healable, 1) is None
    status = feed_all(StreamGuard("EXPECT JSON", strict=True), broken_but_healable, 1)
    assert status is not None and status.position == 1  # the single quote


def test_json_strict_catches_the_impossible_character():
    status = feed_all(StreamGuard("EXPECT JSON", strict=True), '{"a": tru3}', 1)
    assert status is not None and status.position == len('{"a": tru')


def test_strict_position_counts_the_think_block():
    reply = '<think>x</think>{"a": tru3}'
    status = feed_all(StreamGuard("EXPECT JSON", strict=True), reply, 4)
    assert status is not None and reply[status.position] == "3"


def test_markdown_contract_streams_and_finishes(tmp_path):
    contract = tmp_path / "c.md"
    contract.write_text("## Output format\n- Short answer — text (required)\n- Reasoning — ordered list (required)\n")
    reply = "## Short answer\nYes.\n\n## Reasoning\n1. Because.\n"
    guard = StreamGuard(f"EXPECT MARKDOWN {contract} level=1\nEXPECT MAX 5 WORDS")
    assert feed_all(guard, reply, 5) is None
    result = guard.finish()
    assert result.ok and result.counts == {"words": 2}


# --- the guard never stops a reply check() accepts ----------------------------------


@pytest.mark.parametrize("size", [1, 4, 200])
def test_json_think_block_after_prose_is_set_aside(size):
    reply = 'Okay.\n<thinking>Let me see. {"answer": "a long answer of many words"} no.</thinking >\n{"answer": "x"}'
    exp = "EXPECT JSON\nEXPECT MAX 1 WORDS\nEXPECT MAX 1 CHARACTERS"
    assert check(reply, exp).ok
    assert feed_all(StreamGuard(exp), reply, size) is None


def test_markdown_strict_guard_sees_the_think_block_check_sets_aside():
    # Markdown's payload is the whole reply: its checker is given the think block, and its
    # repair plan sets the block aside, so the reply is not valid as it stands
    reply = "<think>plan</think>\n# Title\n\nText.\n"
    assert check(reply, "EXPECT MARKDOWN").verdict == "healed"
    assert feed_all(StreamGuard("EXPECT MARKDOWN", strict=True), reply, 3) is not None
    assert feed_all(StreamGuard("EXPECT MARKDOWN"), reply, 3) is None


JSON_MISCOUNTED = [
    pytest.param('{"q": "He said "hi" to me"}', "EXPECT MAX 1 SENTENCES", id="inner-quotes"),
    # formatbook_json.commitment: a bracket in prose is no certain payload (a later fence
    # wins in check()), so the guard counts nothing from it while streaming
    pytest.param(
        'Example: {"x": "many words here"}\n```json\n{"a": 1}\n```', "EXPECT MAX 1 WORDS", id="fence-after-prose-json"
    ),
    pytest.param('Based on [1], here:\n```json\n{"a": null}\n```', "EXPECT MAX 0 WORDS", id="reference-before-fence"),
    pytest.param('See [1, 2]. {"a": "b"}', "EXPECT MAX 1 WORDS", id="reference-before-content"),
]


@pytest.mark.parametrize("size", [1, 100])
def test_json_a_think_block_inside_a_payload_after_prose_fails_both(size):
    # check() once passed this with {"a": "x"}, the part before the block; now it refuses
    # the block (json.think_inside) as for a payload opening the reply, and the guard
    # (which counts nothing from a bracket in prose) ends with the same verdict
    reply = 'Sure: {"a": "x", <think>hmm</think> "b": "y z w"}'
    exp = "EXPECT JSON\nEXPECT MAX 1 WORDS"
    result = check(reply, exp)
    assert not result.ok and [v.code for v in result.violations] == ["json.think_inside"]
    guard = StreamGuard(exp)
    assert feed_all(guard, reply, size) is None
    final = guard.finish()
    assert not final.ok and [v.code for v in final.violations] == ["json.think_inside"]


@pytest.mark.parametrize("reply, limit", JSON_MISCOUNTED)
@pytest.mark.parametrize("size", [1, 100])
def test_json_guard_agrees_with_check(reply, limit, size):
    exp = f"EXPECT JSON\n{limit}"
    assert check(reply, exp).ok
    assert feed_all(StreamGuard(exp), reply, size) is None


@pytest.mark.parametrize("size", [1, 100])
def test_json_a_think_block_in_an_unclosed_fence_is_no_payload(size):
    # check() sets the think block aside and takes the JSON after it (3 words): it fails
    # MAX 1 WORDS, and the guard may stop it
    reply = 'Here:\n```\n<think>{"d": "x"}</think>\n{"a": "one two three"}'
    assert check(reply, "EXPECT JSON").value == {"a": "one two three"}
    assert not check(reply, "EXPECT JSON\nEXPECT MAX 1 WORDS").ok
    assert feed_all(StreamGuard("EXPECT JSON\nEXPECT MAX 3 WORDS"), reply, size) is None


@pytest.mark.parametrize("size", [1, 100])
def test_json_a_think_block_inside_a_payload_that_opens_the_reply_fails_it(size):
    # the payload is certain (it opens the reply): the guard reads across the think block
    # and counts "y z w"; check() does not take the part before it (the wrong data), it fails
    reply = '{"a": "x", <think>hmm</think> "b": "y z w"}'
    assert not check(reply, "EXPECT JSON").ok
    assert feed_all(StreamGuard("EXPECT JSON\nEXPECT MAX 1 WORDS"), reply, size) is not None


@pytest.mark.parametrize("size", [1, 100])
def test_json_guard_agrees_with_check_on_a_cut_string_in_a_fence(size):
    exp = "EXPECT JSON\nEXPECT MAX 10 CHARACTERS"
    reply = '~~~\n["Dr. 3.5 bl\n~~~'
    assert check(reply, exp).ok
    assert feed_all(StreamGuard(exp), reply, size) is None


@pytest.mark.parametrize("size", [1, 3, 100])
def test_json_white_space_a_closing_fence_cuts_off_a_string_at_is_not_counted(size):
    # check() heals the fence body without the blanks before the closing fence ("yes"):
    # the guard holds an open string's trailing white space back until more of it follows
    reply = '```json\n{"a": "yes \n```'
    assert check(reply, "EXPECT JSON").value == {"a": "yes"}
    assert feed_all(StreamGuard("EXPECT JSON\nEXPECT MAX 3 CHARACTERS"), reply, size) is None
    assert feed_all(StreamGuard("EXPECT JSON\nEXPECT MAX 6 CHARACTERS"), '{"a": "yes  no"', size) is None
    assert feed_all(StreamGuard("EXPECT JSON\nEXPECT MAX 3 CHARACTERS"), '{"a": "yes  no"', size) is not None
