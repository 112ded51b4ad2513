"""YAML streaming: the strict guard and the checker agree with check() and heal()."""

from __future__ import annotations

import pytest

import formatbook_core
from formatbook_core import check, get_format
from formatbook_yaml.loading import load

FMT = get_format("yaml")


def _stopped_at(reply: str, chunks: list[int]) -> int | None:
    guard = formatbook_core.StreamGuard("EXPECT YAML", strict=True)
    fed = 0
    for n in chunks:
        piece = reply[fed : fed + n]
        fed += len(piece)
        if piece and not guard.feed(piece):
            return fed
    return None


@pytest.mark.parametrize(
    "reply",
    [
        "a a a:\n- a\na",  # fuzz repro yaml-heal_idempotent-197e496567
        "Here is the list:\n- a\n- b\nc",
        "Here is the list:\n- a\n-b: [",
    ],
)
def test_a_heading_set_aside_as_prose_is_never_read_as_a_key(reply: str) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # locate sets "Here is the list:" aside (a sentence: three words, a colon); the
    # list under it does not heal ('c' after the list: no cut explains it). The whole
    # reply was then healed as a fallback, the heading read as a key: ok=True with
    # {'Here is the list': ['a', 'b']}, 'c' dropped as "cut off"; and heal's text,
    # located again, lost the heading: heal(heal(x)) == ['a', 'b'] != heal(x).
    assert FMT.locate(reply)[0].start == reply.index("\n") + 1
    result = check(reply, "EXPECT YAML")
    assert not result.ok
    assert [v.code for v in result.violations] == ["yaml.ambiguous"]
    with pytest.raises(formatbook_core.HealError):
        formatbook_core.heal(reply, "EXPECT YAML")


def test_a_given_text_ending_in_white_space_keeps_it() -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # only white space healing left behind is removed: heal called on a text that ends
    # with a line break (not a located payload) keeps it
    assert FMT.heal("a: 1\n---\n").text == "a: 1\n"


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        (":\u2028\n", {"": None}),  # fuzz repro yaml-guard_agrees-609db6060e, chunks [2, 1]
        ("a: 1\n\u2028\n", {"a": 1}),
        ("a:\u00a0\n \n\u3000\n", {"a": None}),
        ("- x\n-\u2029\n", ["x", None]),
    ],
)
def test_white_space_check_strips_at_the_end_does_not_stop_the_strict_guard(reply: str, value: object) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # check() strips white space around the payload as str.isspace says (U+2028, U+00A0,
    # U+3000 too); YAML 1.2 reads those as text, so the strict checker refused ':\u2028'
    # (a bare scalar) when its line ended, though check() reads ':' and passes
    result = check(reply, "EXPECT YAML")
    assert result.ok and result.value == value and result.repairs == []
    for chunks in ([1] * len(reply), [len(reply)], [2, len(reply)]):
        assert _stopped_at(reply, chunks) is None
    # the format's own checker holds the line too; its finish() is is_valid on the text
    # as given (YAML 1.2: ':\u2028' is a bare scalar), as the contract asks
    checker = FMT.stream()
    for ch in reply:
        assert checker.feed(ch)
    assert bool(checker.finish()) is FMT.is_valid(reply) is False


@pytest.mark.parametrize("text", ["[]\u00a0", "-\t-\x85", "[\n#\u2028"])
def test_the_checkers_finish_reads_the_text_as_is_valid_and_heal_do(text: str) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # found by fuzz --seed 501 while finish() stripped white space as check() does:
    # the contract wants finish() to agree with is_valid (strict) and heal (relaxed)
    strict, relaxed = FMT.stream(), FMT.stream(strict=False)
    strict.feed(text)
    relaxed.feed(text)
    assert bool(strict.finish()) is FMT.is_valid(text)
    healed = True
    try:
        FMT.heal(text)
    except formatbook_core.HealError:
        healed = False
    assert bool(relaxed.finish()) is healed


@pytest.mark.parametrize(
    ("reply", "stop"),
    [
        (":\u2028\nb: 2\n", 4),  # 'b' shows ':\u2028' is inside the payload: a bare scalar
        ("a: 1\n\u2028\nb: 2\n", 8),
    ],
)
def test_a_held_line_is_judged_as_soon_as_text_follows_it(reply: str, stop: int) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    assert not check(reply, "EXPECT YAML").ok
    assert _stopped_at(reply, [1] * len(reply)) == stop


@pytest.mark.parametrize(
    ("reply", "parser_reads"),
    [
        ("a: x\x85y", "x y"),  # YAML 1.2: 'x\x85y'
        ('a: "x\u2028 y"', "x\u2028y"),  # YAML 1.2: 'x\u2028 y'
        ("a: x\u2029 y", "x\u2029y"),
        ("a: x\u2028y", "x\u2028y"),  # the same in both, refused all the same: one rule
    ],
)
def test_a_yaml_1_1_line_break_is_refused_as_two_readings(reply: str, parser_reads: str) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # ruamel's reader breaks lines at U+0085/U+2028/U+2029 (YAML 1.1) and folds the white
    # space around them; the line scanner, the stream's checker, reads YAML 1.2, where they
    # are characters. One rule in the scanner serves is_valid and the stream alike.
    docs, _ = load(reply, max_depth=10, many=False)
    assert docs[0].value == {"a": parser_reads}
    result = check(reply, "EXPECT YAML")
    assert not result.ok
    assert [v.code for v in result.violations] == ["yaml.ambiguous"]
    assert "reads two ways" in result.violations[0].message
    assert not FMT.can_be_valid(reply + "\n")
    assert _stopped_at(reply + "\n", [1] * (len(reply) + 1)) == len(reply) + 1
