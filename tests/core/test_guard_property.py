"""The guard never stops a reply that check() accepts (docs/rules.md, "Streaming").

Over generated replies (plain text, JSON, Markdown; prose around the payload, think blocks
anywhere, fences, damage healing repairs) and random chunkings, with MAX limits set at
exactly what check() counts: whenever ``check(reply, exp).ok``, no ``feed`` of the guard
was falsy and ``finish()`` is check()'s result. And ``StreamGuard(strict=True)`` never stops
a reply check() finds valid as it stands. Under CI the runs are derandomized
(tests/conftest.py).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import Expectations, StreamGuard, check, parse_expectations

from .guard_replies import (
    JSON_CUT,
    JSON_DAMAGE,
    JSON_INNER_QUOTES,
    chunkings,
    contract_markdown,
    json_payload,
    json_text,
    long_line,
    long_lines,
    markdown_text,
    prose,
    reply,
    streamed_contract_markdown,
)

UNITS = ("words", "sentences", "characters", "lines")
CONTRACT = Path(__file__).parent / "fixtures" / "guard_contract.md"
CONTRACT_BASES = tuple(f"EXPECT MARKDOWN {CONTRACT} level={level}" for level in (0, 1, 2, 3))
EXAMPLES = settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@functools.lru_cache(maxsize=64)
def parsed(text: str) -> Expectations:
    """EXPECT ``text`` parsed once: check() and the guards of an example read the same
    object, as a caller holding ``Expectations`` does (text naming a contract is parsed
    again by every call given it: about a third of a short reply's check)."""
    return parse_expectations(text)


@functools.lru_cache(maxsize=4)
def at_exact_counts(text: str, base: str, scopes: tuple[str, ...] = ()) -> str | None:
    """``base`` with a MAX limit per unit (and per unit in each of ``scopes``) at exactly
    what check() counts; None when check() rejects the reply whatever the limits. Kept
    for the example's next call (the strict guard's limits are the same ones)."""
    counted = [unit + (f' IN "{scope}"' if scope else "") for scope in ("", *scopes) for unit in UNITS]
    loose = check(text, parsed("\n".join([base, *(f"EXPECT MAX 100000000 {c}" for c in counted)])))
    if not loose.ok:
        return None
    return "\n".join([base, *(f"EXPECT MAX {loose.counts[c]} {c}" for c in counted)])


def first_stop(guard: StreamGuard, chunks: list[str]):
    for i, chunk in enumerate(chunks):
        status = guard.feed(chunk)
        if not status:
            return i, status
    return None


def assert_never_stopped(text: str, base: str, chunks: list[str], scopes: tuple[str, ...] = ()) -> None:
    exact = at_exact_counts(text, base, scopes)
    if exact is None:
        return
    exp = parsed(exact)
    checked = check(text, exp)
    assert checked.ok
    guard = StreamGuard(exp)
    stop = first_stop(guard, chunks)
    assert stop is None, f"the guard stopped at chunk {stop[0]} ({stop[1].reason}) on {text!r} under {exact!r}"
    assert guard.finish().to_dict() == checked.to_dict()


@functools.lru_cache(maxsize=4)
def valid_as_it_stands(text: str, base: str) -> bool:
    """check() passes ``text`` under ``base`` as written (kept for the example's next call)."""
    result = check(text, parsed(base))
    return result.ok and not result.repairs


def assert_strict_accepts_valid(text: str, base: str, chunks: list[str], scopes: tuple[str, ...] = ()) -> None:
    if not valid_as_it_stands(text, base):
        return
    exp = parsed(at_exact_counts(text, base, scopes) or base)
    stop = first_stop(StreamGuard(exp, strict=True), chunks)
    assert stop is None, f"the strict guard stopped at chunk {stop[0]} ({stop[1].reason}) on valid {text!r}"


def property_over(payload, bases: tuple[str, ...], **shape):
    replies, base = reply(payload, **shape), st.sampled_from(bases)

    @st.composite
    def case(draw):
        text = draw(replies)
        return text, draw(base), draw(chunkings(text))

    return case()


@EXAMPLES
@given(property_over(prose(4), ("", "EXPECT TEXT")))
def test_text_and_no_format(case):
    text, base, chunks = case
    assert_never_stopped(text, base, chunks)
    assert_strict_accepts_valid(text, base, chunks)


@EXAMPLES
@given(property_over(json_payload(JSON_DAMAGE), ("EXPECT JSON",), fenced=False))
def test_json(case):
    text, base, chunks = case
    assert_never_stopped(text, base, chunks)
    assert_strict_accepts_valid(text, base, chunks)


@EXAMPLES
@given(property_over(json_payload({**JSON_DAMAGE, **JSON_CUT}), ("EXPECT JSON",), fenced=False, last=True))
def test_json_cut_off_at_the_end(case):
    text, base, chunks = case
    assert_never_stopped(text, base, chunks)


# The same property over every shape: fences, prose after a cut payload, unescaped inner
# quotes (a strict xfail until the JSON stream and check() shared one payload:
# formatbook_json.commitment). Derandomized here whatever the profile.
@settings(EXAMPLES, derandomize=True, max_examples=300, database=None)
@given(property_over(json_payload({**JSON_DAMAGE, **JSON_CUT, **JSON_INNER_QUOTES}), ("EXPECT JSON",)))
def test_json_every_shape(case):
    text, base, chunks = case
    assert_never_stopped(text, base, chunks)


@EXAMPLES
@given(property_over(markdown_text(), ("EXPECT MARKDOWN", "EXPECT MARKDOWN level=0", "EXPECT MARKDOWN level=2")))
def test_markdown(case):
    text, base, chunks = case
    assert_never_stopped(text, base, chunks)
    assert_strict_accepts_valid(text, base, chunks)


@EXAMPLES
@given(property_over(st.one_of(contract_markdown(), markdown_text()), CONTRACT_BASES))
def test_markdown_under_a_contract(case):
    text, base, chunks = case
    assert_never_stopped(text, base, chunks)


SECTIONS = ("Short answer", "Reasoning")


@EXAMPLES
@given(property_over(streamed_contract_markdown(), CONTRACT_BASES))
def test_markdown_counts_kept_while_streaming(case):
    """Whole-reply and per-section MAX counts at exactly what check() counts: the values the
    Markdown checker settles while streaming never exceed them."""
    text, base, chunks = case
    assert_never_stopped(text, base, chunks, SECTIONS)
    assert_strict_accepts_valid(text, base, chunks, SECTIONS)


@EXAMPLES
@given(
    st.builds(lambda t, b: (t, b), streamed_contract_markdown(), st.sampled_from(CONTRACT_BASES)).flatmap(
        lambda tb: st.tuples(st.just(tb[0]), st.just(tb[1]), chunkings(tb[0]))
    )
)
def test_markdown_counts_kept_while_streaming_bare(case):
    """The same, with nothing around the sections (most values are then settled early)."""
    text, base, chunks = case
    assert_never_stopped(text, base, chunks, SECTIONS)
    assert_strict_accepts_valid(text, base, chunks, SECTIONS)


LONG_HEADINGS = st.sampled_from(("# Short answer", "## Short answer", "### Short answer", "# Notes", "## Reasoning"))
LONG_BREAKS = st.sampled_from(("\n", "\n\n"))
LONG_PARAGRAPHS = st.one_of(long_line(), long_lines())
LONG_ENDS = st.sampled_from(("\n\n", "\n---\n", "\n===\n", "\n|---|\n", "\nx | y\n--- | ---\n", "\n", ""))


@st.composite
def long_paragraph_sections(draw) -> str:
    """Section headings at any level followed by long paragraphs (counted word by word while
    they are written, at L1+) and what may still change them: an underline, a table row,
    a later shallower duplicate of the section."""
    out = ""
    for _ in range(draw(st.integers(1, 3))):
        out += draw(LONG_HEADINGS)
        out += draw(LONG_BREAKS)
        out += draw(LONG_PARAGRAPHS)
        out += draw(LONG_ENDS)
    return out


@EXAMPLES
@given(
    st.builds(lambda t, b: (t, b), long_paragraph_sections(), st.sampled_from(CONTRACT_BASES)).flatmap(
        lambda tb: st.tuples(st.just(tb[0]), st.just(tb[1]), chunkings(tb[0]))
    )
)
def test_markdown_long_paragraphs_counted_while_written(case):
    """Long paragraphs count word by word as they are written (L1+), under section headings
    at every level: never more than what check() counts."""
    text, base, chunks = case
    assert_never_stopped(text, base, chunks, SECTIONS)
    assert_strict_accepts_valid(text, base, chunks, SECTIONS)


# --- strict: a reply valid as it stands is never stopped ------------------------------


def bare(payload, bases):
    """A payload with nothing around it (what a valid reply mostly is), cut at random."""
    base = st.sampled_from(bases)

    @st.composite
    def case(draw):
        text = draw(payload)
        return text, draw(base), draw(chunkings(text))

    return case()


STRICT_CASES = {
    "text": bare(prose(4), ("", "EXPECT TEXT")),
    "json": bare(json_text(), ("EXPECT JSON",)),
    "markdown": bare(markdown_text(), ("EXPECT MARKDOWN", "EXPECT MARKDOWN level=0", "EXPECT MARKDOWN level=3")),
    "markdown contract": bare(st.one_of(contract_markdown(), markdown_text()), CONTRACT_BASES),
}


@pytest.mark.parametrize("kind", sorted(STRICT_CASES))
def test_strict_guard_never_stops_a_valid_reply(kind):
    valid = []

    @EXAMPLES
    @given(STRICT_CASES[kind])
    def run(case):
        text, base, chunks = case
        if valid_as_it_stands(text, base):
            valid.append(text)
        assert_strict_accepts_valid(text, base, chunks)

    run()
    assert valid, f"no {kind} reply drawn was valid: the property was never tried"
