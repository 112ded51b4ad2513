"""The prepared reply: one think-block scanner for streams and whole replies, fences,
blanking, line starts and setting what surrounds a payload aside."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formatbook_core import BaseFormat, HealError, Reply, SetAside, Span, StreamGuard, ThinkTags, check
from formatbook_core.reply import THINK_OPEN_MAX, ThinkScanner, alone, note_end, note_names, think_inside, think_tags_of
from formatbook_core.spans import blank_out, merge_spans, strip_span

# --- the prepared reply -----------------------------------------------------------------


def test_of_returns_the_same_reply_and_a_reply_is_a_str():
    reply = Reply.of("a <think>b</think>")
    assert Reply.of(reply) is reply
    assert isinstance(reply, str) and reply == "a <think>b</think>"
    assert type(reply[0:1]) is str  # slices are plain text


def test_plain_is_the_text_a_reply_was_made_of():
    text = "".join(["{", '"a": 1', "}"])  # a str object of its own
    reply = Reply.of(text, ThinkTags.ANYWHERE)
    assert reply.plain is text  # no copy: its whole slice is the text itself
    assert Reply.of(reply, ThinkTags.LINE_START).plain is text  # another reading shares it
    made = Reply("{}")  # built directly: a plain copy
    assert type(made.plain) is str and made.plain == "{}"


def test_answers_are_computed_once_and_shared():
    reply = Reply.of("<think>x</think>\n```json\n{}\n```")
    assert reply.think_blocks() is reply.think_blocks()
    assert reply.fences() is reply.fences()
    assert reply.blanked() is reply.blanked()
    assert isinstance(reply.think_blocks(), tuple)  # shared, so not to be changed by a caller


# --- think blocks ------------------------------------------------------------------------


def test_think_blocks_per_reading_of_the_tags():
    reply = Reply.of('a: "<think>"\n<reasoning>x</REASONING >\nb')
    assert reply.think_blocks() == (Span(13, 38),)
    assert reply.think_blocks(ThinkTags.MARKUP) == reply.think_blocks()
    assert reply.think_blocks(ThinkTags.ANYWHERE) == (Span(4, len(reply)),)  # "</think>" never comes


def test_an_unclosed_block_runs_to_the_end():
    assert Reply.of("a\n<think>b").think_blocks() == (Span(2, 10),)


def test_leading_think_is_the_run_of_blocks_opening_the_reply():
    assert Reply.of("<think>a</think>\n <thinking>b</thinking>Answer").leading_think() == Span(0, 40)
    assert Reply.of("\xa0<think>a</think>").leading_think() is None  # after U+00A0 the tag is text
    assert Reply.of("\xa0\n<think>a</think>b").leading_think() is None
    assert Reply.of("x\n<think>a</think>").leading_think() is None


def test_within_aside_and_aside_starting_find_blocks_by_bisection():
    reply = Reply.of("a\n<think>b</think>c")  # the block is 2-18
    assert reply.within_aside(Span(5, 18)) and not reply.within_aside(Span(1, 5))
    assert reply.aside_starting(2) == Span(2, 18)
    assert reply.aside_starting(5) is None and reply.aside_starting(18) is None


def test_think_tags_of_a_format():
    class Data(BaseFormat):
        name = "data"

    class Anywhere(Data):
        think_tags = ThinkTags.ANYWHERE

    assert think_tags_of(Data()) is ThinkTags.LINE_START
    assert think_tags_of(Anywhere()) is ThinkTags.ANYWHERE
    assert think_tags_of(None) is ThinkTags.LINE_START  # no format
    assert think_tags_of(object()) is ThinkTags.LINE_START  # a format object never registered


# --- one scanner: a stream and the whole reply agree ----------------------------------------

_PIECES = st.sampled_from(
    ["<think>", "</think>", "</think >", "<thinking>", "</thinking>", "<REASONING>", "</reasoning>", "<thi", "</th", "<",
     ">", "\n", "\r\n", "\r", " ", "\t", "\xa0", "a", "b c", '"', "```"]
)  # fmt: skip


def _streamed(text: str, cuts: list[int], tags: ThinkTags, leading_only: bool) -> tuple[list[Span], str]:
    """The blocks a scanner fed ``text`` in chunks records, and the text it lets through."""
    scanner = ThinkScanner(tags, leading_only=leading_only, record=True)
    pieces: list[tuple[int, str]] = []
    prev = 0
    for cut in [*sorted(cuts), len(text)]:
        pieces += scanner.feed(text[prev:cut])
        prev = cut
    pieces += scanner.flush()
    for offset, piece in pieces:  # every piece is the reply's own text at its offset
        assert text[offset : offset + len(piece)] == piece
    return scanner.blocks or [], "".join(piece for _, piece in pieces)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(
    st.lists(_PIECES, max_size=16).map("".join),
    st.lists(st.integers(0, 200), max_size=6),
    st.sampled_from(list(ThinkTags)),
    st.booleans(),
)
def test_a_stream_in_any_chunks_finds_the_blocks_the_whole_reply_has(text, cuts, tags, leading_only):
    cuts = [c for c in cuts if c <= len(text)]
    blocks, passed = _streamed(text, cuts, tags, leading_only)
    whole_blocks, whole_passed = _streamed(text, [], tags, leading_only)
    assert (blocks, passed) == (whole_blocks, whole_passed)
    reply = Reply.of(text)
    if leading_only:
        lead = reply.leading_think()
        assert (Span(blocks[0].start, blocks[-1].end) if blocks else None) == lead
    else:
        assert tuple(blocks) == reply.think_blocks(tags)
        # what passes is the text outside the blocks (blank space before each stretch dropped)
        outside, pos = [], 0
        for start, end in blocks:
            outside.append(text[pos:start])
            pos = end
        outside.append(text[pos:])
        assert passed.replace(" ", "").strip() == "".join(outside).replace(" ", "").strip()


def test_a_copied_scanner_goes_on_alone():
    scanner = ThinkScanner(record=True)
    scanner.feed("a\n<thi")
    clone = scanner.copy()
    scanner.feed("nk>b</think>")
    assert clone.feed("s is text") == [(2, "<this is text")]
    assert scanner.blocks == [Span(2, 18)] and clone.blocks == []


# --- fences, blanking, lines ------------------------------------------------------------------


def test_fences_are_paired_as_commonmark_pairs_them():
    reply = Reply.of("x\n````json\n```\n{}\n````\n~~~\nopen")
    first, second = reply.fences()
    assert (first.info, reply[first.body.start : first.body.end], first.closed) == ("json", "```\n{}", True)
    assert (second.info, reply[second.body.start : second.body.end], second.closed) == ("", "open", False)


def test_a_fence_inside_a_think_block_is_a_draft_when_the_blocks_are_blanked():
    reply = Reply.of("<think>\n```json\n{}\n```\n</think>\n```json\n[]\n```")
    assert len(reply.fences(as_received=True)) == 2
    (fence,) = reply.fences()
    assert reply[fence.body.start : fence.body.end] == "[]"


def test_blanked_keeps_offsets():
    reply = Reply.of("a\n<think>b</think>c")
    assert reply.blanked() == "a\n" + " " * 16 + "c"
    assert Reply.of("plain").blanked() == "plain"


def test_stretches_are_longest_first_and_never_a_blocks_text():
    reply = Reply.of("ab\n<think>x</think>\n abcd \n<think>y")
    assert [reply[s.start : s.end] for s in reply.longest_stretches()] == ["abcd", "ab"]
    assert [reply[s.start : s.end] for s in reply.stretches()] == ["ab", "abcd"]
    assert Reply.of("<think>only").stretches() == ()


def test_think_name_is_the_opening_tags_name():
    reply = Reply.of("<Thinking>a</thinking>\n<reasoning>b")
    assert [reply.think_name(t) for t in reply.think_blocks()] == ["thinking", "reasoning"]
    assert reply.think_name(Span(1, 2)) == ""


def test_a_format_keeping_some_blocks_as_its_text_reads_only_the_others():
    # XML with root= keeps <reasoning> as an element; YAML keeps a tag inside a block scalar
    reply = Reply.of("<think>\n```\nx\n```\n</think>\n<reasoning>\n```\ny\n```\n</reasoning>\nz")
    think, reasoning = reply.think_blocks()
    assert reply.blanked(blocks=[think]) == " " * think.end + reply[think.end :]
    assert [reply[f.body.start : f.body.end] for f in reply.fences(blocks=[think])] == ["y"]
    assert [reply[s.start : s.end] for s in reply.stretches(blocks=[think])] == [reply[reasoning.start :]]
    assert reply.longest_stretches(blocks=[think]) == reply.stretches(blocks=[think])
    # every block kept is the usual reading, shared with it
    assert reply.blanked(blocks=[think, reasoning]) is reply.blanked()
    assert reply.fences(blocks=[think, reasoning]) is reply.fences()
    assert reply.stretches(blocks=[]) == (strip_span(reply, Span(0, len(reply))),)


def test_blank_out_keeps_offsets():
    assert blank_out("abcdef", [Span(1, 2), Span(4, 6)]) == "a cd  "
    assert blank_out("abc", []) == "abc"


def test_line_starts():
    reply = Reply.of("a\r\nb\rc\nd")
    assert reply.line_starts == (0, 3, 5, 7)
    assert [reply.line_of(i) for i in (0, 2, 3, 6, 7)] == [0, 0, 1, 2, 3]


# --- setting what surrounds a payload aside ---------------------------------------------------


def test_set_aside_lists_think_blocks_and_prose_in_order():
    reply = Reply.of("<think>a</think>\nSo: {} and done.")
    located, kept = reply.set_aside(Span(21, 23), "the JSON payload")
    assert located is not None and located.kind == "located" and located.span == Span(21, 23)
    assert "set aside 3 surrounding part(s)" in located.message
    assert kept == [
        SetAside("think", "<think>a</think>", Span(0, 16)),
        SetAside("prose", "\nSo: ", Span(16, 21)),
        SetAside("prose", " and done.", Span(23, 33)),
    ]


def test_only_blank_space_around_is_nothing_to_set_aside():
    assert Reply.of("\n{}\n").set_aside(Span(1, 3), "the JSON payload") == (None, [])


def test_set_notes_aside_cuts_the_blocks_out_with_a_repair_and_entries():
    reply = Reply.of("# A\n<think>x</think>\nb\n<reasoning>y")  # blocks at 4-20 and 23-35 (unclosed)
    text, repair, kept = reply.set_notes_aside()
    assert text == "# A\n\nb\n"
    assert repair is not None and (repair.kind, repair.span) == ("think_set_aside", Span(4, 35))
    assert repair.message == "set 2 <think> block(s) aside"
    assert kept == [SetAside("think", "<think>x</think>", Span(4, 20)), SetAside("think", "<reasoning>y", Span(23, 35))]
    assert Reply.of("a <think>x</think>").set_notes_aside() == ("a <think>x</think>", None, [])  # mid-line: text


def test_refuse_healed_notes_refuses_a_text_check_would_set_a_note_aside_of():
    with pytest.raises(HealError) as held:
        Reply.of("<p>\n<think>x</think></p>").refuse_healed_notes("html")
    assert [(v.code, v.keyword) for v in held.value.violations] == [("html.syntax", "think-element")]
    with pytest.raises(HealError, match="cannot heal the XML: it would open with") as opened:
        Reply.of("<think></think>").refuse_healed_notes("xml", opening=True)
    assert [v.code for v in opened.value.violations] == ["xml.syntax"]
    Reply.of("<reasoning>a</reasoning>").refuse_healed_notes("xml", opening=True, markup=("reasoning",))
    Reply.of("<p>a</p>\n<think>x</think>").refuse_healed_notes("xml", opening=True)  # not opening it
    Reply.of("<p><think>x</think></p>").refuse_healed_notes("html")  # mid-line: text


def test_a_format_prepares_text_and_splits_streams_as_it_declares():
    class Anywhere(BaseFormat):
        think_tags = ThinkTags.ANYWHERE

    prepared = Anywhere.prepare("a <think>x</think> b")
    assert prepared.tags is ThinkTags.ANYWHERE and prepared.think_blocks() == (Span(2, 18),)
    assert BaseFormat.prepare("a <think>x</think> b").think_blocks() == ()  # LINE_START: text mid-line
    splitter = Anywhere.splitter()
    assert splitter.feed("a <think>x</think> b") + splitter.flush() == [(0, "a "), (19, "b")]


def test_check_sets_aside_what_the_prepared_reply_finds():
    result = check("<think>a</think>\nSo: {}", "EXPECT JSON")
    assert result.ok and [s.kind for s in result.set_aside] == ["think", "prose"]


def test_the_guard_sets_aside_only_the_lead_check_sets_aside():
    # one scanner: after U+00A0 a think tag is text for check() and for the guard alike
    # (the guard's own splitter once skipped any white space and set the block aside)
    reply, exp = "\xa0\n<think>a b c d</think>", "EXPECT TEXT\nEXPECT MAX 2 WORDS"
    assert not check(reply, exp).ok
    guard = StreamGuard(exp)
    assert not guard.feed(reply)
    assert check("\n<think>a b c d</think>", exp).ok and StreamGuard(exp).feed("\n<think>a b c d</think>")


def test_the_tail_a_scanner_holds_between_chunks_is_bounded():
    # the white space a closing tag may hold before its `>` is kept as one space
    scanner = ThinkScanner()
    for chunk in ["<reas", "oning>", *["long thought </reasoning" + " " * 50] * 200]:
        scanner.feed(chunk)
        assert len(scanner._held) <= THINK_OPEN_MAX + 1
    assert scanner.feed(">x") == [(scanner.taken - 1, "x")]


def test_lines_outside_keeps_the_lines_no_block_covers_whole():
    """Moved from test_contentlines (``outside_think_blocks``, now ``Reply.lines_outside``)."""
    text = "A:1\n<think>x\nB:2\n</think>\nC:3\n<think>y</think>\nD:4"
    lines = [(0, 3), (4, 12), (13, 16), (17, 25), (26, 29), (30, 46), (47, 50)]
    kept, blocks = Reply(text).lines_outside(lines)
    assert [text[s:e] for s, e in kept] == ["A:1", "C:3", "D:4"]
    assert [text[b.start : b.end] for b in blocks] == ["<think>x\nB:2\n</think>", "<think>y</think>"]
    assert Reply("A:1\nB:2").lines_outside(lines[:2]) == (lines[:2], [])


def test_a_reply_prepared_with_a_reading_answers_for_it_and_shares_the_cache():
    text = 'a <think>x</think> {"b": 1}'
    line = Reply.of(text)
    anywhere = Reply.of(line, ThinkTags.ANYWHERE)
    assert line.tags is ThinkTags.LINE_START and anywhere.tags is ThinkTags.ANYWHERE
    assert line.think_blocks() == ()  # mid-line: text at a line start
    assert anywhere.think_blocks() == (Span(2, 18),)
    assert anywhere.blanked() == "a " + " " * 16 + ' {"b": 1}'
    assert anywhere.stretches() == (Span(0, 1), Span(19, 27))
    assert Reply.of(anywhere) is anywhere and Reply.of(anywhere, ThinkTags.ANYWHERE) is anywhere
    assert anywhere._cache is line._cache  # another reading, one cache
    assert line.think_blocks(ThinkTags.ANYWHERE) == (Span(2, 18),)  # an explicit reading wins


def test_between_within_aside_and_continues_after():
    text = "A\n<think>x</think>\n```\nB\n```\nC"
    reply = Reply(text)
    assert reply.think_blocks() == (Span(2, 18),)
    fence = reply.fences()[0].span
    assert fence == Span(19, 28)
    assert reply.between([fence]) == [Span(0, 2), Span(18, 19), Span(28, 30)]
    assert reply.between() == [Span(0, 2), Span(18, 30)]
    assert reply.within_aside(Span(3, 10)) and not reply.within_aside(Span(3, 19))
    assert reply.continues_after(2) and not reply.continues_after(3)
    assert not Reply("A\n<think>x</think> \n").continues_after(2)  # only white space after


def test_stream_pieces_are_the_scanners_answer_for_the_whole_reply():
    reply = Reply("<think>a</think>\n  b <think>c</think>\nd")
    assert reply.stream_pieces() == [(19, "b <think>c</think>\nd")]  # mid-line: text
    assert reply.stream_pieces(ThinkTags.ANYWHERE) == [(19, "b "), (38, "d")]  # stripped after a block


def test_merge_spans_joins_overlapping_and_touching_spans():
    assert merge_spans([Span(5, 8), Span(0, 2), Span(2, 3), Span(6, 7), Span(10, 11)]) == [
        Span(0, 3),
        Span(5, 8),
        Span(10, 11),
    ]


def test_notes_leave_out_the_tags_a_format_reads_as_its_markup():
    text = "<reasoning>r</reasoning>\n<think>t</think>\n<a/>"
    reply = Reply(text)
    assert reply.think_blocks() == (Span(0, 24), Span(25, 41))
    assert reply.notes() == [Span(0, 24), Span(25, 41)]
    assert reply.notes(("reasoning",)) == [Span(25, 41)]
    assert reply.opens_with_note() and not reply.opens_with_note(("reasoning",))
    assert reply.aside_starting(25) == Span(25, 41) and reply.aside_starting(26) is None
    assert note_names(("reasoning",)) == {"think", "thinking"}


def test_note_end_closes_a_note_at_its_first_closing_tag_or_the_end():
    names = note_names()
    assert note_end("<THINK>x</think >y", "THINK", 7, names) == 17
    assert note_end("<think>x", "think", 7, names) == 8  # unclosed: to the end
    assert note_end("<answer>x</answer>", "answer", 8, names) is None
    assert note_end("<reasoning>x</reasoning>", "reasoning", 11, note_names(("reasoning",))) is None


def test_notes_around_data_keeps_the_blocks_the_format_reads_as_data():
    text = "a: |\n  x\n  <think>t</think>\n<think>u</think>\n  <think>v</think>\n"
    reply = Reply(text)
    assert reply.think_blocks() == (Span(11, 27), Span(28, 44), Span(47, 63))
    asked: list[tuple[Span, int]] = []

    def holds(region: Span, at: int) -> bool:
        asked.append((region, at))
        return at == 11

    # the first block is read as data; the second is not indented (never asked); the
    # third is asked with the region from the last block kept
    assert reply.notes_around_data(holds, 4) == [Span(28, 44), Span(47, 63)]
    assert asked == [(Span(0, 28), 11), (Span(44, 64), 47)]
    asked.clear()
    assert reply.notes_around_data(holds, 1) == [Span(28, 44), Span(47, 63)]
    assert asked == [(Span(0, 28), 11)]  # the limit: asked once


def test_note_inside_refuses_a_payload_holding_a_think_block():
    violation = Reply.of('{"a": <think>x</think> 1}', ThinkTags.ANYWHERE).note_inside("json")
    assert violation is not None and violation.code == "json.think_inside"
    assert violation.span == Span(6, 22)
    assert violation.message == (
        "a think block inside the JSON payload: it may be a note or part of a value; set it outside the JSON"
    )
    assert Reply('{"a": <think>x</think> 1}').note_inside("json") is None  # mid-line: text at LINE_START


@pytest.mark.parametrize(
    ("text", "span", "expected"),
    [
        ("  <r>x</r>\n", Span(2, 10), True),  # white space around: no block can touch it
        ("<r><think>x</think></r>", Span(0, 23), True),  # a block inside is the format's
        ("<think>t</think>\n<r/>", Span(17, 21), False),  # a block before it
        ("<r/>\n<think>t</think>", Span(0, 4), False),  # and after it
        ("a <r/>", Span(2, 6), False),  # prose before it
        ("<think>t</think>", Span(0, 16), False),  # the payload opens with a think tag
        ("\xa0<THINK>x</THINK>", Span(1, 17), False),  # any case, after any blank
    ],
)
def test_alone_says_when_think_inside_needs_no_think_blocks(text: str, span: Span, expected: bool) -> None:
    reply = Reply.of(text)
    payload = text[span.start : span.end]
    assert alone(reply, span, payload) is expected
    if expected:  # then think_inside answers None, as it does reading the blocks
        assert think_inside(reply, "xml", span, payload, lambda t: [], lambda t: True) is None
        assert reply.set_aside(span, "the payload") == (None, [])


@pytest.mark.parametrize(
    ("text", "lead"),
    [("\n \t<think>a</think>\n<r/>", Span(3, 19)), ("\xa0<think>a</think>", None), ("<thinkx>a", None), ("", None)],
)
def test_leading_think_found_or_ruled_out_by_one_match(text: str, lead: Span | None) -> None:
    assert Reply.of(text).leading_think() == lead
