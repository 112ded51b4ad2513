"""Think blocks, in every format: where ``<think>`` opens a block, and what a reply of think
blocks only, a payload opening with a think tag and a block inside a payload give.

A reply of think blocks only (was test_think_only.py): a reply with nothing outside its
``<think>`` blocks (a model that only thought, or was cut off mid-thought: an unclosed block
runs to the end) has no payload: every format fails it, and ``heal`` raises ``HealError``.
The think block's text is never read as the payload (issue 9: ``<think>a: 1`` was the YAML
``{'<think>a': 1}``, ``<think>a,b\\n1,2`` the CSV ``[{'<think>a': '1', 'b': '2'}]``,
``<think><a/>`` the XML element ``think``).

A think tag mid-line (was test_think_tag_mid_line.py): an opening think tag opens a think
block only where a model writes one: at the start of the reply, of a line (after spaces or
tabs) or right after a block. Mid-line it is text, so a value, an HTML paragraph or a
sentence that holds ``<think>`` is data and is never cut there; check() and a strict
StreamGuard agree (values checked by hand). JSON keeps its own rule.

A payload opening with a think tag (was test_think_tag_opening_the_payload.py): a payload
whose text opens with a think tag the reply opens no think block with: after a no-break
space (or another white space a think block never follows) the tag is text, but the payload,
its white space stripped, opens with it, and read again it is a think block set aside (fuzz
seed 24601, repro html-heal_idempotent-f1aa92bf7e: '\\xa0<think></think>' passed as
'<think></think>', which then had no payload). Which was meant cannot be told.

A think block inside a payload (was test_think_inside_payload.py): a think block on its own
lines inside a payload, with more of the payload after it (found in review at the end of the
session of stop 22). YAML and CSV took the part before the block and set the rest aside:
``ok=True`` without what the reply meant. The core now refuses a candidate whose other side
of a touching think block continues it (``<format>.think_inside``, as JSON's own
``json.think_inside``); HTML and XML read a think block inside their markup as an element
and Markdown reads through it. In a calendar or a card, a block between content lines was
joined into the value before it; it is set aside.

EXPECT TEXT (was test_think_text.py): ``EXPECT TEXT`` and no format at all set a ``<think>``
block that opens the reply aside, as the other formats and StreamGuard do: counts, ``text``
and ``value`` leave it out, it is kept in ``set_aside`` and listed as a ``located`` repair
(issue 8)."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, StreamGuard, check, get_format, heal
from formatbook_core.fuzzing.properties import Target, check_heal, guard_agrees, heal_idempotent
from formatbook_core.registry import list_formats
from formatbook_core.reply import Reply, ThinkTags
from formatbook_core.results import Span
from formatbook_core.spans import no_payload


def outside_think(reply: str, *, anywhere: bool = False) -> list[Span]:
    """What a format without a locator of its own takes: the stretches outside the think
    blocks, longest first, or the empty payload where there is none (as the pipeline does)."""
    tags = ThinkTags.ANYWHERE if anywhere else ThinkTags.LINE_START
    return list(Reply.of(reply, tags).longest_stretches()) or [no_payload(reply)]


def leading_think(reply: str) -> Span | None:
    return Reply.of(reply).leading_think()


from tests.contract.facts import declared

# format: (a payload valid as it stands, the violation of a reply that has none), from
# ``payload`` and ``no_payload_code`` on its contract class (text, whose empty text is
# valid, declares no code)
PAYLOADS = {
    fmt: (declared("payload")[fmt], code) for fmt, code in declared("no_payload_code").items() if code is not None
}


# the payload's text, wholly inside think blocks
SHAPES = {
    "unclosed": "<think>{p}",
    "closed": "<think>{p}</think>",
    "after white space": "  \n<think>{p}</think>",
    "two in a row": "<think>x</think><thinking>{p}",
    "two closed": "<think>{p}</think><reasoning>{p}</reasoning>",
    "blank space after": "<think>{p}</think>\n\n  \n",
    "empty block": "<think></think>",
    "tag alone": "<thinking>",
}


CASES = [pytest.param(fmt, shape, id=f"{fmt}-{shape}") for fmt in PAYLOADS for shape in SHAPES]


def test_every_format_but_text_is_listed():
    """Issue 9, a reply of think blocks only (was test_think_only.py)."""
    # a new format declares its payload and its "no payload" violation on its contract class
    assert {e.format.name for e in list_formats()} == {*PAYLOADS, "text"}


@pytest.mark.parametrize(("fmt", "shape"), CASES)
def test_a_reply_of_think_blocks_only_fails_and_does_not_heal(fmt, shape):
    """Issue 9, a reply of think blocks only (was test_think_only.py)."""
    payload, code = PAYLOADS[fmt]
    reply = SHAPES[shape].format(p=payload)
    result = check(reply, f"EXPECT {fmt.upper()}")
    assert not result.ok
    assert result.violations[0].code == code
    assert result.value is None
    with pytest.raises(HealError) as info:
        heal(reply, f"EXPECT {fmt.upper()}")
    assert info.value.violations[0].code == code


@pytest.mark.parametrize(("fmt", "shape"), CASES)
def test_the_properties_hold_on_a_reply_of_think_blocks_only(fmt, shape):
    """Issue 9, a reply of think blocks only (was test_think_only.py)."""
    # check and heal agree, heal is idempotent, a guard (strict too) agrees with check
    reply = SHAPES[shape].format(p=PAYLOADS[fmt][0])
    target = Target(fmt.upper())
    for seed in range(3):
        check_heal(target, reply, seed)
        heal_idempotent(target, reply, seed)
        guard_agrees(target, reply, seed)


@pytest.mark.parametrize("fmt", list(PAYLOADS))
@pytest.mark.parametrize("think", ["<think>{p}</think>\n", "<thinking>x</thinking>\n\n<reasoning>{p}</reasoning>  \n"])
def test_a_payload_after_closed_think_blocks_is_found_as_before(fmt, think):
    """Issue 9, a reply of think blocks only (was test_think_only.py)."""
    payload = PAYLOADS[fmt][0]
    reply = think.format(p=payload) + payload
    result = check(reply, f"EXPECT {fmt.upper()}")
    assert result.ok, result.violations
    assert [s.kind for s in result.set_aside] == ["think"] * think.count("</")
    assert heal(reply, f"EXPECT {fmt.upper()}").text == result.text
    # a strict guard only for a payload valid as it stands (vCard's line breaks are repaired)
    for strict in (False, True) if {r.kind for r in result.repairs} == {"located"} else (False,):
        guard = StreamGuard(f"EXPECT {fmt.upper()}", strict=strict)
        assert all(guard.feed(ch) for ch in reply)
        assert guard.finish().ok


def test_text_keeps_an_empty_text():
    """Issue 9, a reply of think blocks only (was test_think_only.py)."""
    # EXPECT TEXT accepts an empty reply; a reply that only thought is its empty text
    for shape in SHAPES.values():
        result = check(shape.format(p="hello"), "EXPECT TEXT")
        assert result.ok and result.text.strip() == ""


@pytest.mark.parametrize(
    ("reply", "spans"),
    [
        ("", [Span(0, 0)]),
        ("  \n", [Span(3, 3)]),
        ("<think>a: 1", [Span(11, 11)]),
        ("<think>a</think>\n ", [Span(18, 18)]),
        ("x\n<think>y</think> long\n", [Span(19, 23), Span(0, 1)]),  # longest first
    ],
)
def test_outside_think(reply, spans):
    """Issue 9, a reply of think blocks only (was test_think_only.py)."""
    assert outside_think(reply) == spans
    assert no_payload(reply) == Span(len(reply), len(reply))


def test_outside_think_mid_line_is_text_unless_anywhere():
    """Issue 9, a reply of think blocks only (was test_think_only.py)."""
    reply = "x <think>y</think> long\n"
    assert outside_think(reply) == [Span(0, 23)]
    assert outside_think(reply, anywhere=True) == [Span(19, 23), Span(0, 1)]


def test_a_format_that_locates_nothing_never_gets_the_think_block(monkeypatch):
    """Issue 9, a reply of think blocks only (was test_think_only.py)."""
    # the core's fallback for a plugin whose locate() returns []: the reply without its
    # think blocks, as the format's own fallbacks
    monkeypatch.setattr(type(get_format("yaml")), "locate", lambda self, reply, schema=None, **options: [])
    assert check("<think>a: 1</think>\nb: 2", "EXPECT YAML").value == {"b": 2}
    assert check("<think>a: 1", "EXPECT YAML").violations[0].code == "yaml.empty"


MID_LINE_CASES = [
    ('a: "<think>"\nb: 2', "YAML", {"a": "<think>", "b": 2}),
    ('- "<think>"\n- b', "YAML", ["<think>", "b"]),
    ('a: "x <think> y"\nb: 2', "YAML", {"a": "x <think> y", "b": 2}),
    ('a,b\n"<think>",2', "CSV", [{"a": "<think>", "b": "2"}]),
    ("<p>Hello <think>world</think> there</p>", "HTML", "<p>Hello <think>world</think> there</p>"),
    ("hi <think> there", "TEXT", "hi <think> there"),
    ('{"a": "<think>", "b": 2}', "JSON", {"a": "<think>", "b": 2}),
]


@pytest.mark.parametrize(("reply", "fmt", "value"), MID_LINE_CASES)
def test_a_mid_line_think_tag_is_data(reply: str, fmt: str, value: object) -> None:
    """A think tag mid-line is text (was test_think_tag_mid_line.py)."""
    result = check(reply, f"EXPECT {fmt}")
    assert result.ok, result.violations
    assert result.value == value
    assert not result.repairs  # valid as it stands: nothing set aside
    guard = StreamGuard(f"EXPECT {fmt}", strict=True)
    for ch in reply:  # one character a chunk: a tag split across every chunk boundary
        assert guard.feed(ch).ok
    assert guard.finish().ok


def test_markdown_keeps_a_sentence_about_think_tags() -> None:
    """A think tag mid-line is text (was test_think_tag_mid_line.py)."""
    result = check("use <think> tags", "EXPECT MARKDOWN")
    assert result.ok and result.value.outline.preamble == "use <think> tags"
    guard = StreamGuard("EXPECT MARKDOWN", strict=True)
    assert all(guard.feed(ch).ok for ch in "use <think> tags")


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("<think>a: 1</think>\nb: 2", {"b": 2}),  # at the start of the reply
        ("  <Thinking>a: 1</thinking>\nb: 2", {"b": 2}),  # after blanks, any case
        ("b: 2\n\t<reasoning>cut off", {"b": 2}),  # at the start of a line, unclosed
        ("<think>x</think> <think>y</think>\nb: 2", {"b": 2}),  # right after a block
    ],
)
def test_a_think_block_where_a_model_writes_one_is_set_aside(reply: str, value: object) -> None:
    """A think tag mid-line is text (was test_think_tag_mid_line.py)."""
    result = check(reply, "EXPECT YAML")
    assert result.ok and result.value == value


@pytest.mark.parametrize("expect", ["EXPECT HTML", "EXPECT XML", "EXPECT XML root=response"])
@pytest.mark.parametrize("space", ["\xa0", "\u3000", "\u2028"])
def test_a_think_tag_after_unusual_white_space_is_not_taken_as_the_payload(expect: str, space: str) -> None:
    """Fuzz seed 24601, repro html-heal_idempotent-f1aa92bf7e, a payload opening with a think tag no block opened
    (was test_think_tag_opening_the_payload.py).
    """
    reply = f"{space}<think></think>"
    result = check(reply, expect)
    assert not result.ok
    assert [v.code for v in result.violations] == [f"{expect.split()[1].lower()}.think_inside"]
    with pytest.raises(HealError):
        heal(reply, expect)


def test_html_markup_after_such_a_tag_is_refused_too() -> None:
    """Fuzz seed 24601, repro html-heal_idempotent-f1aa92bf7e, a payload opening with a think tag no block opened
    (was test_think_tag_opening_the_payload.py).
    """
    # it passed as '<think>x</think><p>a</p>', which checked again gives '<p>a</p>'
    result = check("\xa0<think>x</think><p>a</p>", "EXPECT HTML")
    assert [v.code for v in result.violations] == ["html.think_inside"]


def test_a_think_block_the_format_keeps_as_payload_still_passes() -> None:
    """Fuzz seed 24601, repro html-heal_idempotent-f1aa92bf7e, a payload opening with a think tag no block opened
    (was test_think_tag_opening_the_payload.py).
    """
    # with root=response a <reasoning> block opening the reply is part of the payload
    result = check("<reasoning>r</reasoning>\n<answer>a</answer>", "EXPECT XML root=response")
    assert result.ok
    assert result.text == "<response><reasoning>r</reasoning>\n<answer>a</answer></response>"


def test_a_think_block_opening_the_reply_is_still_set_aside() -> None:
    """Fuzz seed 24601, repro html-heal_idempotent-f1aa92bf7e, a payload opening with a think tag no block opened
    (was test_think_tag_opening_the_payload.py).
    """
    result = check(" <think>x</think><p>a</p>", "EXPECT HTML")
    assert result.ok and result.text == "<p>a</p>"


MESSAGE_END = "continues the payload (a note inside the data, or data thought over: which cannot be told)"


@pytest.mark.parametrize(
    ("expect", "reply", "block"),
    [
        ("EXPECT YAML", "a: 1\n<think>x</think>\nb: 2", (5, 21)),  # was {'a': 1}
        ("EXPECT CSV", "a,b\n1,2\n<think>x</think>\n3,4", (8, 24)),  # was the first row only
        ("EXPECT YAML", "a: 1\n<think>x</think>\nb: 2\n<think>y</think>\nc: 3", (5, 21)),
        ("EXPECT CSV", "a,b\n1,2\n\n<think>x</think>\n\n3,4", (9, 25)),  # blank lines around it
    ],
)
def test_a_think_block_inside_a_payload_fails_the_reply(expect: str, reply: str, block: tuple[int, int]) -> None:
    """Found in review at the end of stop 22, a think block inside a payload (was test_think_inside_payload.py)."""
    result = check(reply, expect)
    assert not result.ok
    fmt = expect.split()[1].lower()
    assert [v.code for v in result.violations] == [f"{fmt}.think_inside"]
    assert result.violations[0].message.endswith(MESSAGE_END)
    assert (result.violations[0].span.start, result.violations[0].span.end) == block
    with pytest.raises(HealError):
        heal(reply, expect)


@pytest.mark.parametrize(
    ("expect", "reply", "text"),
    [
        # what follows the block does not continue the payload: prose, set aside as before
        # (a CSV payload keeps its last line break: it tells a whole last row from a cut one)
        ("EXPECT CSV", "a,b\n1,2\n<think>x</think>\nHope this helps!", "a,b\n1,2\n"),
        # a block opening the reply: nothing on its other side
        ("EXPECT YAML", "<think>x</think>\na: 1", "a: 1"),
        ("EXPECT CSV", "<think>x</think>\na,b\n1,2", "a,b\n1,2"),
        # markup: kept as an element
        ("EXPECT XML", "<r>\n<think>x</think>\n<b/>\n</r>", "<r>\n<think>x</think>\n<b/>\n</r>"),
    ],
)
def test_a_think_block_that_does_not_split_the_payload_still_passes(expect: str, reply: str, text: str) -> None:
    """Found in review at the end of stop 22, a think block inside a payload (was test_think_inside_payload.py)."""
    result = check(reply, expect)
    assert result.ok and result.text == text


@pytest.mark.parametrize(
    ("expect", "reply", "text"),
    [
        # the block's line was joined into PRODID's value (and FN's): now set aside
        (
            "EXPECT ICALENDAR",
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n<think>x</think>\nEND:VCALENDAR",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR",
        ),
        (
            "EXPECT ICALENDAR",  # a property inside the block is no property of the calendar
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n<think>\nSUMMARY:no\n</think>\nEND:VCALENDAR",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR",
        ),
        (
            "EXPECT VCARD",
            "BEGIN:VCARD\nVERSION:4.0\nFN:A\n<think>\nTEL:1\n</think>\nEND:VCARD",
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEND:VCARD\r\n",
        ),
    ],
)
def test_a_think_block_between_content_lines_is_set_aside(expect: str, reply: str, text: str) -> None:
    """Found in review at the end of stop 22, a think block inside a payload (was test_think_inside_payload.py)."""
    result = check(reply, expect)
    assert result.ok and result.text == text
    assert [s.kind for s in result.set_aside] == ["think"]
    assert result.set_aside[0].text.startswith("<think>") and result.set_aside[0].text.endswith("</think>")
    assert heal(text, expect).text == text


THOUGHT = "<think>The user wants a greeting. Many words of reasoning here.</think>"


REPLY = THOUGHT + "\nHello world"


# the same reply checked with the text format and with no format at all
EXPECTS = ["EXPECT TEXT", "EXPECT PLAIN", ""]


def feed_all_agrees(reply: str, exp: str) -> bool:
    """The guard, fed a character at a time, never stops a reply that check() accepts."""
    guard = StreamGuard(exp)
    stopped = any(not guard.feed(ch) for ch in reply)
    return stopped == (not check(reply, exp).ok) or not stopped


@pytest.mark.parametrize("expect", EXPECTS)
def test_counts_text_and_value_leave_the_think_block_out(expect):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    result = check(REPLY, f"{expect}\nEXPECT MAX 2 WORDS")
    assert result.ok, result.violations
    assert result.counts == {"words": 2}
    assert result.text == "\nHello world"
    assert result.value == "\nHello world"


@pytest.mark.parametrize("expect", EXPECTS)
def test_the_think_block_is_kept_and_its_removal_listed(expect):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    result = check(REPLY, expect or None)
    assert result.verdict == "healed"
    assert [(s.kind, s.text, tuple(s.span)) for s in result.set_aside] == [("think", THOUGHT, (0, len(THOUGHT)))]
    [repair] = result.repairs
    assert repair.kind == "located"
    assert tuple(repair.span) == (len(THOUGHT), len(REPLY))


@pytest.mark.parametrize("expect", EXPECTS)
def test_words_of_the_thought_alone_would_fail(expect):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    # the same words outside a think block are counted (the limit is real)
    result = check("The user wants a greeting.\nHello world", f"{expect}\nEXPECT MAX 2 WORDS")
    assert not result.ok
    assert result.counts == {"words": 7}


@pytest.mark.parametrize("expect", EXPECTS)
def test_heal_gives_the_text_without_the_thought(expect):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    healed = heal("  <THINKING>hm</thinking>Hi", expect or None)
    assert healed.text == "Hi"
    assert [s.text for s in healed.set_aside] == ["<THINKING>hm</thinking>"]
    assert [r.kind for r in healed.repairs] == ["located"]


@pytest.mark.parametrize("expect", EXPECTS)
def test_a_reply_without_a_thought_is_unchanged(expect):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    result = check("  Hello <think> is a tag.", f"{expect}\nEXPECT MAX 5 WORDS")
    assert result.verdict == "pass"
    assert result.text == "  Hello <think> is a tag."
    assert result.set_aside == [] and result.repairs == []


@pytest.mark.parametrize("expect", EXPECTS)
def test_only_the_opening_block_is_set_aside_as_streamguard_does(expect):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    # A block later in the text is part of the text: StreamGuard counts it too, and
    # check() must never accept what the guard has already refused.
    reply = "<think>a</think>One <think>two</think> three"
    result = check(reply, f"{expect}\nEXPECT MAX 5 WORDS")
    assert result.text == "One <think>two</think> three"
    assert result.counts == {"words": 5}


@pytest.mark.parametrize("expect", EXPECTS)
def test_an_unclosed_thought_leaves_an_empty_text(expect):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    result = check("<think>let me see", f"{expect}\nEXPECT MIN 1 WORDS")
    assert result.text == ""
    assert result.counts == {"words": 0}
    assert not result.ok


@pytest.mark.parametrize("expect", EXPECTS)
@pytest.mark.parametrize("size", [1, 5, 1000])
def test_streamguard_and_check_agree(expect, size):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    exp = f"{expect}\nEXPECT MAX 2 WORDS"
    guard = StreamGuard(exp)
    for i in range(0, len(REPLY), size):
        assert guard.feed(REPLY[i : i + size]), i
    assert guard.finish().to_dict() == check(REPLY, exp).to_dict()


def test_text_locate_is_the_reply_after_its_opening_thought():
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    text = get_format("text")
    assert text.locate(REPLY) == [(len(THOUGHT), len(REPLY))]
    assert text.locate("no thought") == [(0, len("no thought"))]
    assert text.locate("") == [(0, 0)]


@pytest.mark.parametrize(
    "reply, span",
    [
        ("<think>x</think>y", (0, 16)),
        (" \n<reasoning>x</REASONING >y", (2, 27)),
        ("<think>never closed", (0, 19)),
        ("x<think>y</think>", None),  # not at the start
        ("<thinker>y</thinker>", None),
        ("", None),
    ],
)
def test_leading_think(reply, span):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    found = leading_think(reply)
    assert (tuple(found) if found else None) == span


@pytest.mark.parametrize(
    "reply, text",
    [
        ("<think></think><think>", ""),
        ("<think>a</think>\n <thinking>b</thinking>Answer", "Answer"),
        ("<think>a</think> one <think>b</think>", " one <think>b</think>"),
    ],
)
def test_think_blocks_that_open_the_reply_in_a_row_are_one_run(reply, text):
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    # found by the fuzzer: with only the first block set aside, healing the text again set
    # aside the next one (heal was not idempotent)
    result = check(reply, "EXPECT TEXT")
    assert result.text == text
    assert heal(result.text, "EXPECT TEXT").text == result.text
    assert feed_all_agrees(reply, "EXPECT TEXT\nEXPECT MAX 1 WORDS")


@pytest.mark.parametrize("reply", ["\xa0<think>a", "\x0c<think>x</think>b", "\u2003<think>a"])
def test_a_think_tag_after_other_white_space_is_text_for_check_and_guard_alike(reply: str) -> None:
    """Issue 8, EXPECT TEXT sets a think block opening the reply aside (was test_think_text.py)."""
    # check() set '\xa0<think>a' aside as a think block (\s*) while the guard read it as text
    # (spaces and tabs only): the guard stopped a reply check() accepted (fuzz seed 31337,
    # text-guard_limits-dfeb7436a7)
    expect = "EXPECT TEXT\nMAX 0 WORDS"
    result = check(reply, expect)
    assert result.text == reply and not result.ok  # the think tag is a word of the text
    assert not StreamGuard(expect).feed(reply)
