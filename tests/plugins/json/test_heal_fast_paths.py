"""Healing's fast paths (strict runs, and stretches with per-token damage taken by
``heal/tolerant.py``) must give exactly what the token-by-token walk gives: the same
text, the same repairs with the same kinds and spans, the same errors."""

from __future__ import annotations

import json
import re

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import HealError, Span, edits
from formatbook_json.heal import structure, tolerant


def outcome(text: str, fast: bool):
    try:
        res = structure.repair(text, fast=fast)
    except HealError as err:
        return ("error", str(err))
    repairs = sorted(res.repairs, key=lambda r: r.span.start if r.span else 0)
    return (edits.apply(text, list(res.edits)), [(r.kind, r.span) for r in repairs], res.trailing)


# Damage styles, each the way an LLM breaks every token of one kind.
STYLES = {
    "bare keys": lambda t: re.sub(r'"(\w+)": ', r"\1: ", t),
    "single quotes": lambda t: re.sub(r'"([^"\\]*)"', r"'\1'", t),
    "smart quotes": lambda t: re.sub(r': "([^"\\]*)"', ": \u201c\\1\u201d", t),
    "python literals": lambda t: re.sub(
        r"\b(true|false|null)\b", lambda m: {"true": "True", "false": "False", "null": "None"}[m.group(1)], t
    ),
    "missing commas": lambda t: t.replace(",\n", "\n"),
    "trailing commas": lambda t: re.sub(r"([^\[{,\s])(\n\s*[}\]])", r"\1,\2", t),
    "nan": lambda t: re.sub(r"(?<=: )-?[0-9.]+(?=,?\n)", "NaN", t),
}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(alphabet=st.sampled_from(list("ab xé'\"\\\n\u201c😀")), max_size=6),
)
keys = st.text(alphabet=st.sampled_from(list("ab_1é$ -")), min_size=1, max_size=5)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4), max_leaves=25
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.dictionaries(keys, values, min_size=1, max_size=5),
    styles=st.lists(st.sampled_from(sorted(STYLES)), max_size=3),
    noise=st.lists(
        st.tuples(
            st.integers(0, 10**6),
            st.sampled_from([",", "\n", "'", '"', "}", "]", "{", ":", "x", "//c\n", "True", "\\"]),
        ),
        max_size=2,
    ),
    cut=st.one_of(st.none(), st.integers(0, 10**6)),
)
def test_fast_paths_agree_with_the_token_walk(value, styles, noise, cut):
    text = json.dumps(value, indent=2, ensure_ascii=False)
    for style in styles:
        text = STYLES[style](text)
    for at, piece in noise:
        at %= len(text) + 1
        text = text[:at] + piece + text[at:]
    if cut is not None:
        text = text[: cut % (len(text) + 1)]
    assert outcome(text, True) == outcome(text, False), text


def test_stretch_with_every_kind_of_damage():
    text = "{\n  a: 'x',\n  b: True\n  c: [1, None,],\n  d: NaN\n}"
    m = tolerant.MEMBERS.match(text, 1)
    assert m is not None and text[m.end() :] == "\n}"  # the whole stretch, up to the closer
    found = tolerant.damage(text, 1, m.end(), structure.MESSAGES)
    assert found is not None
    got = [(r.kind, r.span) for r in found[1]]
    # offsets counted by hand: a@4 'x'@7-10 b@14 True@17-21 (line break 21-24) c@24
    # None@31-35 ','@35 d@41 NaN@44-47
    assert got == [
        ("unquoted_key", Span(4, 5)),
        ("single_quotes", Span(7, 10)),
        ("unquoted_key", Span(14, 15)),
        ("python_literal", Span(17, 21)),
        ("missing_comma", Span(21, 24)),
        ("unquoted_key", Span(24, 25)),
        ("python_literal", Span(31, 35)),
        ("trailing_comma", Span(35, 36)),
        ("unquoted_key", Span(41, 42)),
        ("non_finite_number", Span(44, 47)),
    ]
    healed = edits.apply(text, list(found[0]))
    assert json.loads(healed) == {"a": "x", "b": True, "c": [1, None], "d": None}


def test_a_string_closed_too_early_is_left_to_the_token_walk():
    # '"He said "' is not a whole string: what follows its quote cannot follow a string
    text = '{"q": "He said "hi" to me"}'
    assert tolerant.MEMBERS.match(text, 1) is None
    assert json.loads(outcome(text, True)[0]) == {"q": 'He said "hi" to me'}


@settings(max_examples=200, deadline=None)
@given(
    value=values,
    indent=st.sampled_from([None, 2]),
    gap=st.sampled_from(["", " ", "\n", " \n\t"]),
    tail=st.text(alphabet=st.sampled_from(list("}] x{[\"',:1\n")), min_size=1, max_size=6),
)
def test_starting_after_a_value_a_strict_parser_took_agrees_with_the_walk(value, indent, gap, tail):
    text = json.dumps(value, indent=indent) + gap + tail
    try:
        orjson.loads(text)
        return  # the tail happened to be white space
    except orjson.JSONDecodeError as err:
        if err.msg != "unexpected content after document":
            return
        done_at = err.pos
    # the parser stops inside the tail (a tail of digits may continue a top-level number)
    assert tail.lstrip(" \n\t").endswith(text[done_at:])
    try:
        fast = structure.repair(text, done_at=done_at)
    except HealError as err:
        assert outcome(text, False) == ("error", str(err))
        return
    repairs = sorted(fast.repairs, key=lambda r: r.span.start if r.span else 0)
    assert (edits.apply(text, list(fast.edits)), [(r.kind, r.span) for r in repairs], fast.trailing) == outcome(
        text, False
    )
