"""A mention is not a payload (issue 25): a bracket run inside a sentence, with prose on
both sides of it on the same line, is a citation or a reference, never the JSON; real
payloads in prose still pass."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check

MENTIONS = [
    "According to [1], the answer is yes.",
    "See [2] and [3].",
    "As shown in [4, 5], the method works.\nIt is fast too.",
    "Selon [1], la réponse est oui.",
    "Siehe [2] und [3].",
    "根据 [1]，答案是肯定的。",
    "<think>the sources are [7] and [8]</think>According to [1], yes.",
    "First line.\r\nPer [1], the answer is yes.\r\n",
    "Check [the docs](https://example.com) for more.",
    "Studies [1][2] agree; see also [3].",
    'The call returns {"status": "ok"} when it works.',
    'Use ["a", "b"] as the list of tags in your request.',
    "Wie in [Müller 2020] beschrieben, geht es.",
]


@pytest.mark.parametrize("reply", MENTIONS)
def test_a_mention_in_a_sentence_is_not_a_payload(reply):
    result = check(reply, "EXPECT JSON")
    assert not result.ok and result.value is None
    for size in (1, 4, 1000):  # the guard never accepts what check() refuses at finish
        guard = StreamGuard("EXPECT JSON")
        for i in range(0, len(reply), size):
            guard.feed(reply[i : i + size])
        assert not guard.finish().ok


PAYLOADS = [
    ('Here is the JSON: {"a": 1}', {"a": 1}),
    ('Here is the JSON: {"a": 1}. Hope it helps!', {"a": 1}),
    ("Sure.\n```json\n[1]\n```", [1]),
    ("Sure, see below.\n```\n[1, 2]\n```\nThe list has two items.", [1, 2]),
    ("[1, 2, 3]", [1, 2, 3]),
    ("Here you go\n[1, 2, 3]\nDone.", [1, 2, 3]),
    ("Here is the list: [1, 2, 3].", [1, 2, 3]),
    ("Voici la liste : [1, 2, 3]", [1, 2, 3]),
    ('Sure! {"a": 1} Hope it helps.', {"a": 1}),
    ('See [1] for the method.\n{"a": 1}', {"a": 1}),  # the mention is skipped, the data taken
    ('According to [1], this is the answer:\r\n{"answer": "yes"}\r\n', {"answer": "yes"}),
    ('<think>per [2], ok</think>The result: ["x", "y"]', ["x", "y"]),
    ('Result:\n{"a": [1, 2],\n "b": 2} is what I got', {"a": [1, 2], "b": 2}),  # laid out on lines
    ('[1] according to the docs: {"a": 1}', {"a": 1}),
]


@pytest.mark.parametrize(("reply", "value"), PAYLOADS)
def test_a_payload_in_prose_still_passes(reply, value):
    result = check(reply, "EXPECT JSON")
    assert result.ok and result.value == value
    for size in (1, 4, 1000):
        guard = StreamGuard("EXPECT JSON")
        assert all(guard.feed(reply[i : i + size]) for i in range(0, len(reply), size))
        assert guard.finish().value == value


def test_mentions_on_one_long_line_are_judged_in_linear_time():
    # each judgement looks at a bounded window of its line: many mentions stay cheap
    reply = "See " + " and ".join(f"[{i}]" for i in range(20_000)) + ", then stop."
    assert not check(reply, "EXPECT JSON").ok
