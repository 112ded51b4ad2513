"""One definition of a value for the stream and the healer (issue 9): a StreamGuard never
turns falsy on a reply that check() accepts, when a MAX count sits exactly at check()'s
count — over damaged JSON-ish replies fed in random chunks."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import StreamGuard, check
from formatbook_json.stream import JsonChecker

UNITS = ("words", "sentences", "characters")

_WORDS = st.sampled_from(["Ada", "hi", "It's", "don't", "a b", "End.", "Yes! No.", "x", "  ", " ", "", "Dr. Who", "é"])
_TEXT = st.lists(_WORDS, min_size=0, max_size=4).map(" ".join)
_LOOSE_NUMBERS = st.sampled_from(["02134", "+1", ".5", "5.", "007", "-0.50", "1e3", "12", "0", "-3", "+.5e2"])
_KEYS = st.sampled_from(["a", "q", "name", "tags", "n"])


def _string(text: str, style: str) -> str:
    if style == "double":
        return json.dumps(text, ensure_ascii=False)
    if style == "single":
        return "'" + text.replace("'", "\\'") + "'"
    if style == "smart":
        return "\u201c" + text + "\u201d"
    if style == "inner":  # an unescaped inner quote pair: "He said "hi" to me"
        return '"' + text + ' "hi" ' + text + '"'
    return '"' + text.replace("'", "\\'") + '"'  # an invalid \' escape


_STRING = st.builds(_string, _TEXT, st.sampled_from(["double", "single", "smart", "inner", "escaped"]))
_SCALAR = st.one_of(_STRING, _LOOSE_NUMBERS, st.sampled_from(["true", "True", "None", "null", "NaN", "false"]))


def _container(children):
    members = st.lists(st.tuples(_KEYS, children), max_size=4).map(
        lambda kv: "{" + ", ".join(f'"{k}": {v}' for k, v in kv) + "}"
    )
    items = st.lists(children, max_size=4).map(lambda vs: "[" + ", ".join(vs) + "]")
    return st.one_of(members, items)


_VALUE = st.recursive(_SCALAR, _container, max_leaves=10)
_PAYLOAD = _container(_VALUE)


@st.composite
def replies(draw) -> str:
    text = draw(_PAYLOAD)
    if draw(st.booleans()):  # a trailing comma before a closer
        text = text.replace("]", ",]", 1) if "]" in text else text
    if draw(st.booleans()):  # cut off by the end of the reply
        text = text[: draw(st.integers(1, max(1, len(text))))]
    if draw(st.booleans()):
        text = draw(st.sampled_from(["Sure! ", "Here:\n```json\n", "<think>hmm {x}</think>\n"])) + text
    if draw(st.booleans()):
        text += draw(st.sampled_from(["\n", " \n", " Hope it helps."]))
    return text


@st.composite
def chunkings(draw, text: str) -> list[str]:
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=12)))
    pieces, last = [], 0
    for cut in [*cuts, len(text)]:
        pieces.append(text[last:cut])
        last = cut
    return [p for p in pieces if p] or [text]


def _guard_stays_truthy(reply: str, chunks: list[str], unit: str, limit: int) -> None:
    guard = StreamGuard(f"EXPECT JSON\nEXPECT MAX {limit} {unit.upper()}")
    fed = ""
    for chunk in chunks:
        fed += chunk
        status = guard.feed(chunk)
        assert status, f"{unit} at {limit}: guard stopped {reply!r} after {fed!r}: {status.reason}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_guard_never_stops_a_reply_check_accepts(data):
    reply = data.draw(replies())
    chunks = data.draw(chunkings(reply))
    for unit in UNITS:
        counted = check(reply, f"EXPECT JSON\nEXPECT MIN 0 {unit.upper()}")
        if not counted.ok:
            return
        limit = counted.counts[unit]
        assert check(reply, f"EXPECT JSON\nEXPECT MAX {limit} {unit.upper()}").ok
        _guard_stays_truthy(reply, chunks, unit, limit)


@pytest.mark.parametrize(
    "reply,unit",
    [
        ('{"q": "He said "hi" to me"}', "sentences"),
        ('{"q": "He said "hi" to me"}', "words"),
        ('{"n": 02134}', "characters"),
        ('{"n": +1, "m": .5}', "characters"),
        ('{"a": "   ", "b": "x"}', "characters"),
        ('{"a": [" ", "\\t"], "b": "ok"}', "characters"),
        ("{'q': 'It\\'s \"fine\" now', 'n': 007}", "characters"),
    ],
)
def test_the_guard_counts_what_check_counts(reply, unit):
    counted = check(reply, f"EXPECT JSON\nEXPECT MIN 0 {unit.upper()}")
    assert counted.ok
    limit = counted.counts[unit]
    for size in (1, 2, 3, 5, len(reply)):
        chunks = [reply[i : i + size] for i in range(0, len(reply), size)]
        _guard_stays_truthy(reply, chunks, unit, limit)


@pytest.mark.parametrize(
    "reply",
    [
        '{"q": "a" /* c */, "b": "x"}',
        '{"q": "a" // c\n, "b": "x y"}',
        '{"q": "He said "hi" to me", "b": "x"}',
        "{'q': 'It\\'s' , 'b': 'x'}",
        '{"q": "a"  , "b": "x"}',
    ],
)
def test_a_quote_the_chunks_cut_after_closes_as_the_healer_closes_it(reply):
    intended = list(check(reply, "EXPECT JSON").value.values())
    for cut in range(1, len(reply)):
        checker = JsonChecker(strict=False)
        values = [*checker.feed(reply[:cut]).values, *checker.feed(reply[cut:]).values]
        values += checker.finish().values
        assert values == intended, (reply[:cut], reply[cut:])


@pytest.mark.parametrize("reply", ["[1\u1698", '["x", 1\u1698', '["y", \u00b21', '{"a": \u00b21'])
def test_a_number_or_bare_word_runs_on_over_unicode_word_characters_as_the_lexer_reads_it(reply):
    # '1\u1698' is one token the healer cannot read (dropped), never the number 1; '\u00b2'
    # (superscript two: a word character, no decimal digit) starts a bare word
    result = check(reply, "EXPECT JSON")
    assert result.ok
    intended = _leaves(result.value)
    checker = JsonChecker(strict=False)
    values = [*checker.feed(reply).values, *checker.finish().values]
    assert values == intended


def _leaves(value):
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [str(value)]


# --- one payload for both sides (formatbook_json.commitment) -------------------------
# Replies with several candidates: prose, references, drafts, fences, think blocks, and
# containers healing cannot repair, in any order: check() may fall back from one candidate
# to another only where the stream has counted nothing.
_BROKEN = st.sampled_from(
    ['[" "hi" ", {"a": 02134}, {}]', '{""\na a.2}', "[[}7>", '{"a": "x", <think>hmm</think> "b": "y z"}']
)
_PIECE = st.one_of(
    _PAYLOAD,
    _BROKEN,
    st.sampled_from(
        [
            "Sure! ",
            "See [1]. ",
            "[1, 2] ",
            "[Note] ",
            "{} ",
            "```json\n",
            "```\n",
            "\n```\n",
            "~~~JSON\n",
            '<think>{"d": "x y"}</think>',
            "<think>",
            "</think>",
            "Example: ",
            "\n",
            "  ",
            "[",
            "{",
        ]
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_guard_never_stops_a_reply_with_many_candidates_check_accepts(data):
    reply = "".join(data.draw(st.lists(_PIECE, min_size=1, max_size=5)))
    chunks = data.draw(chunkings(reply))
    for unit in UNITS:
        counted = check(reply, f"EXPECT JSON\nEXPECT MIN 0 {unit.upper()}")
        if not counted.ok:
            return
        _guard_stays_truthy(reply, chunks, unit, counted.counts[unit])
