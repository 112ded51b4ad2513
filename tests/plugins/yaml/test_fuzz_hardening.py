"""Fuzz findings of issue 9 (heal idempotence, the strict guard), each checked by hand."""

from __future__ import annotations

import pytest

import formatbook_core
from formatbook_core import HealError, check, get_format, heal
from formatbook_yaml.loading import load

FMT = get_format("yaml")


def _heal_twice(reply: str) -> tuple[str, formatbook_core.Healed]:
    first = formatbook_core.heal(reply, "EXPECT YAML")
    return first.text, formatbook_core.heal(first.text, "EXPECT YAML")


@pytest.mark.parametrize(
    "reply",
    [
        "a a a:\n- a\na",  # fuzz repro yaml-heal_idempotent-197e496567
        "Here is the list:\n- a\n- b\nc",
        "Here is the list:\n- a\n-b: [",
    ],
)
def test_a_heading_set_aside_as_prose_is_never_read_as_a_key(reply: str) -> None:
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


def test_a_valid_reply_under_a_heading_heals_to_its_list_once() -> None:
    text, again = _heal_twice("a a a:\n- a")
    assert text == "- a"
    assert again.text == "- a" and again.repairs == ()
    result = check("Here is the list:\n- a\n- b", "EXPECT YAML")
    assert result.ok and result.value == ["a", "b"]


def test_a_key_line_that_is_no_sentence_is_still_data() -> None:
    # two words, a colon: a key (not trimmed), so the whole reply heals as before
    result = check("my list:\n- a\n- b\nc", "EXPECT YAML")
    assert result.ok and result.value == {"my list": ["a", "b"]}
    assert [r.kind for r in result.repairs] == ["truncated_line"]


@pytest.mark.parametrize(
    ("reply", "healed"),
    [
        (":\n a\na\n \n...", ":\n a\n a"),  # fuzz repro yaml-heal_idempotent-dab02e2345
        ("name: Ada\n  age: 3\n \n---", "name: Ada\nage: 3"),
        ("a: 1\n\t\n---", "a: 1"),
    ],
)
def test_a_removed_marker_leaves_no_white_space_at_the_end(reply: str, healed: str) -> None:
    # removing the stray marker left the blank line before it (' ' or a tab): the healed
    # text ended in white space, which locate strips from a payload, so a second heal
    # gave another text. A located payload never ends in white space; healing's text
    # must not either when the value reads the same without it.
    text, again = _heal_twice(reply)
    assert text == healed
    assert again.text == healed and again.repairs == ()


def test_a_given_text_ending_in_white_space_keeps_it() -> None:
    # only white space healing left behind is removed: heal called on a text that ends
    # with a line break (not a located payload) keeps it
    assert FMT.heal("a: 1\n---\n").text == "a: 1\n"


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
    ("reply", "value"),
    [
        (":\u2028\n", {"": None}),  # fuzz repro yaml-guard_agrees-609db6060e, chunks [2, 1]
        ("a: 1\n\u2028\n", {"a": 1}),
        ("a:\u00a0\n \n\u3000\n", {"a": None}),
        ("- x\n-\u2029\n", ["x", None]),
    ],
)
def test_white_space_check_strips_at_the_end_does_not_stop_the_strict_guard(reply: str, value: object) -> None:
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
    assert not check(reply, "EXPECT YAML").ok
    assert _stopped_at(reply, [1] * len(reply)) == stop


@pytest.mark.parametrize(
    ("reply", "healed", "value"),
    [
        # fuzz --seed 501: the block scalar's last line break was kept, as data; the
        # next locate stripped it (': |\n a\n a')
        (": |\n a\na\n \n...", ": |\n a\n a", {"": "a\na"}),
        ("a: |+\n  x\n\n---", "a: |+\n  x", {"a": "x"}),
    ],
)
def test_white_space_at_the_end_is_removed_even_when_it_was_data(reply: str, healed: str, value: object) -> None:
    # check() never reads white space at a payload's end (locate strips it): the value
    # of heal's text is the value check() gives it
    text, again = _heal_twice(reply)
    assert text == healed
    assert again.text == healed and again.repairs == ()
    assert check(reply, "EXPECT YAML").value == value == check(healed, "EXPECT YAML").value


@pytest.mark.parametrize(
    ("reply", "payload", "value"),
    [
        # fuzz --seed 501 (yaml-heal_idempotent-b4a3198f65): 'a::' (key 'a:', YAML reads
        # it so) was trimmed as a sentence ending in ':' once the fence was gone
        ("~~~\na: a\na::", "a: a\na::", {"a": "a", "a:": None}),
        ("name: x\nurl: http://x.org\nhttp://y.org: 2", "name: x\nurl: http://x.org\nhttp://y.org: 2", None),
        # a fenced body's heading reads as prose, as without the fence
        ("```yaml\nHere is the list:\n- a\n- b\n```", "- a\n- b", ["a", "b"]),
        ("```\nHere is the list:\n- a\n```\nThat is all.", "- a", ["a"]),
    ],
)
def test_a_fenced_payload_reads_as_it_does_without_its_fence(reply: str, payload: str, value: object) -> None:
    text, again = _heal_twice(reply)
    assert text == payload
    assert again.text == payload and again.repairs == ()
    if value is not None:
        assert check(reply, "EXPECT YAML").value == value == check(payload, "EXPECT YAML").value


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


def test_an_escaped_line_separator_is_read_as_written() -> None:
    result = check('a: "x\\Ly"', "EXPECT YAML")
    assert result.ok and result.value == {"a": "x\u2028y"}


@pytest.mark.parametrize(
    "reply",
    [
        "Steps to reproduce:\n- click\n- wait\nExpected: crash",
        "```yaml\nSteps to reproduce:\n- click\n- wait\nExpected: crash\n```",
    ],
)
def test_a_reply_valid_as_written_keeps_its_heading_when_the_rest_alone_fails(reply: str) -> None:
    # the heading is set aside only for a reading that passes: '- click\n- wait\nExpected:
    # crash' alone is no YAML, the text as written is (nothing healed, so heal's text is
    # the reply's own and locating it again gives it back)
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == {"Steps to reproduce": ["click", "wait"], "Expected": "crash"}
    text, again = _heal_twice(reply)
    assert again.text == text and again.repairs == ()


def test_a_long_key_line_read_as_a_sentence_heals_once() -> None:
    # fuzz --seed 503 (yaml-heal_idempotent-52c5f25a04): a key of 204 letters and a word
    # reads as a sentence to locate (keys of data are at most 200 characters there), so
    # '---' alone came first; the whole reply, healed (the stray '...' and the cut-off
    # 'a' dropped), must stay a candidate when its text is located again
    key = "a" * 204 + " a"
    text, again = _heal_twice(f"---\n{key}: a\na\n...")
    assert text == f"---\n{key}: a"
    assert again.text == text and again.repairs == ()
    assert check(text, "EXPECT YAML").value == {key: "a"}


def test_a_fenced_body_with_a_think_block_inside_is_no_payload() -> None:
    # its body was healed to '[\n<reasoning></reasoning>a]', which check() reads without the
    # block as '[' (fuzz seed 31337, yaml-heal_idempotent-cdc4047c16)
    reply = "~~~\n[\n<reasoning></reasoning>a"
    assert not check(reply, "EXPECT YAML").ok
    with pytest.raises(HealError):
        heal(reply, "EXPECT YAML")
    # a block that ends the body is no part of it, as before
    result = check("```yaml\na: 1\n<think>x</think>\n```", "EXPECT YAML")
    assert result.ok and result.value == {"a": 1}


@pytest.mark.parametrize(
    ("reply", "text", "value"),
    [
        # a key past the locator's 200-character window reads as prose: the indented line
        # after it is the data, as it is once healing has moved it to the margin (fuzz
        # seed 5772156, yaml-heal_idempotent-bfba0fd5fa: the reply was located whole, and
        # the healed text then trimmed to 'a:')
        ("a" * 201 + " aa: a\n a:", "a:", {"a": None}),
        ("Sure thing\n  a: 1\n  b: 2", "a: 1\nb: 2", {"a": 1, "b": 2}),
        ("Sure thing\n  - a\n  - b", "- a\n- b", ["a", "b"]),
    ],
)
def test_data_indented_under_a_prose_line_is_the_payload(reply: str, text: str, value: object) -> None:
    healed, again = _heal_twice(reply)
    assert healed == text
    assert again.text == text and again.repairs == ()
    assert check(reply, "EXPECT YAML").value == value
