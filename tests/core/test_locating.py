"""The payload-finding helpers: the <think> splitter, the fence scanner, default_locate."""

from __future__ import annotations

from formatbook_core import Span
from formatbook_core.locating import default_locate
from formatbook_core.reply import Fence, Reply, ThinkTags, fences
from formatbook_core.spans import outside_spans, strip_span


def think_spans(reply: str, *, anywhere: bool = False) -> list[Span]:
    """The reply's think blocks, as a format reads them (``anywhere``: JSON's ``ANYWHERE``)."""
    return list(Reply.of(reply).think_blocks(ThinkTags.ANYWHERE if anywhere else ThinkTags.LINE_START))


def body(reply: str, fence: Fence) -> str:
    return reply[fence.body.start : fence.body.end]


def whole(reply: str, fence: Fence) -> str:
    return reply[fence.span.start : fence.span.end]


# --- think_spans ----------------------------------------------------------------------


def test_closed_think_block():
    reply = "<think>plan</think>\nanswer"
    assert think_spans(reply) == [Span(0, 19)]
    assert reply[19:] == "\nanswer"


def test_unclosed_think_block_runs_to_the_end():
    reply = "ok\n  <think>I was cut off"
    assert think_spans(reply) == [Span(5, len(reply))]


def test_a_think_tag_opens_a_block_only_at_the_start_of_a_line():
    # mid-line, an opening tag is text (a value, a sentence); at the start of the reply, of
    # a line (after blanks) or right after a block, it opens one; anywhere=True is JSON's rule
    reply = "ok <think>I was cut off"
    assert think_spans(reply) == []
    assert think_spans(reply, anywhere=True) == [Span(3, len(reply))]
    assert think_spans("\t<think>a</think> <think>b</think>c <think>d") == [Span(1, 17), Span(18, 34)]
    assert think_spans("a\r\n<think>b</think>") == [Span(3, 19)]
    assert think_spans('a: "<think>"\nb: 2') == []


def test_several_blocks_and_their_variants():
    reply = "<think>a</think>x\n<thinking>b</thinking>y\n<reasoning>c</reasoning>z"
    assert len(think_spans(reply.replace("\n", ""), anywhere=True)) == 3
    spans = think_spans(reply)
    assert [reply[s.start : s.end] for s in spans] == [
        "<think>a</think>",
        "<thinking>b</thinking>",
        "<reasoning>c</reasoning>",
    ]


def test_tags_are_case_insensitive_and_allow_space_before_the_closing_bracket():
    reply = "<THINK>a</Think >rest"
    assert think_spans(reply) == [Span(0, 17)]


def test_a_block_closes_only_with_its_own_tag():
    reply = "<think>a</thinking> still thinking"
    assert think_spans(reply) == [Span(0, len(reply))]


def test_no_think_blocks():
    assert think_spans("plain <b>text</b>") == []
    assert think_spans("") == []


def test_outside_spans_is_the_complement():
    assert outside_spans(10, [Span(2, 4), Span(6, 7)]) == [Span(0, 2), Span(4, 6), Span(7, 10)]
    assert outside_spans(5, [Span(0, 5)]) == []
    assert outside_spans(3, []) == [Span(0, 3)]


def test_strip_span_drops_surrounding_white_space():
    text = "  \n ab c \t\n"
    assert strip_span(text, Span(0, len(text))) == Span(4, 8)
    assert strip_span("   ", Span(0, 3)) == Span(3, 3)


# --- fences ---------------------------------------------------------------------------


def test_a_tagged_fence():
    reply = 'Here:\n```json\n{"a": 1}\n```\nbye'
    (f,) = fences(reply)
    assert f.info == "json" and f.closed
    assert body(reply, f) == '{"a": 1}'
    assert whole(reply, f) == '```json\n{"a": 1}\n```'


def test_a_bare_fence_and_an_info_string_with_attributes():
    reply = "```\nx\n```\n```JSON title=a.json\n{}\n```"
    first, second = fences(reply)
    assert first.info == "" and body(reply, first) == "x"
    assert second.info == "json" and body(reply, second) == "{}"


def test_an_unclosed_fence_runs_to_the_end():
    reply = "Start:\n```python\nprint(1)\n"
    (f,) = fences(reply)
    assert not f.closed and f.info == "python"
    assert body(reply, f) == "print(1)\n"
    assert f.span.end == len(reply)


def test_an_opening_fence_at_the_very_end():
    (f,) = fences("text\n```json")
    assert not f.closed and f.body == Span(12, 12)


def test_an_empty_fence():
    reply = "```json\n```"
    (f,) = fences(reply)
    assert f.closed and body(reply, f) == ""


def test_a_fence_inside_a_longer_fence_is_part_of_its_body():
    reply = "````markdown\n# Title\n```json\n{}\n```\n````\nafter"
    (f,) = fences(reply)
    assert f.info == "markdown" and f.closed
    assert body(reply, f) == "# Title\n```json\n{}\n```"


def test_a_closing_fence_must_be_at_least_as_long():
    reply = "````\nx\n```\n`````\ny"
    (f,) = fences(reply)
    assert body(reply, f) == "x\n```"
    assert whole(reply, f) == "````\nx\n```\n`````"


def test_tilde_fences_close_only_with_tildes():
    reply = "~~~yaml\na: 1\n~~~\n"
    (f,) = fences(reply)
    assert f.info == "yaml" and body(reply, f) == "a: 1"
    reply = "~~~\nx\n```\n"
    (f,) = fences(reply)
    assert not f.closed and body(reply, f) == "x\n```\n"


def test_indentation_up_to_three_spaces():
    reply = "   ```json\n{}\n   ```"
    (f,) = fences(reply)
    assert f.closed and body(reply, f) == "{}"
    assert fences("    ```json\n{}\n    ```") == []  # four spaces: an indented code block


def test_inline_backticks_and_a_closing_line_with_text_are_not_fences():
    assert fences("use ```json``` here") == []
    reply = "```\na\n``` not a close\n```"
    (f,) = fences(reply)
    assert body(reply, f) == "a\n``` not a close"


def test_several_fences_in_order():
    reply = "```a\n1\n```\ntext\n~~~b\n2\n~~~"
    assert [(f.info, body(reply, f)) for f in fences(reply)] == [("a", "1"), ("b", "2")]


def test_windows_line_endings():
    reply = 'Here:\r\n```json\r\n{"a": 1}\r\n```\r\nbye'
    (f,) = fences(reply)
    assert f.closed and f.info == "json"
    assert body(reply, f) == '{"a": 1}'


# --- default_locate -------------------------------------------------------------------


def texts(reply: str, spans: list[Span]) -> list[str]:
    return [reply[s.start : s.end] for s in spans]


def test_tagged_fences_then_bare_fences_then_the_rest():
    reply = "Intro\n```\nbare\n```\n```json\n{}\n```\nOutro"
    found = texts(reply, default_locate(reply, ("json",)))
    assert found[0] == "{}"
    assert found[1] == "bare"
    assert found[2] == reply  # the reply itself, trimmed (here nothing to trim)
    assert len(found) == 3


def test_a_fence_tagged_with_an_alias_counts_as_tagged():
    reply = "```\nbare\n```\n```YML\na: 1\n```"
    assert texts(reply, default_locate(reply, ("yaml", "yml")))[:2] == ["a: 1", "bare"]


def test_a_fence_tagged_with_another_format_is_not_a_candidate():
    reply = "```python\nprint(1)\n```"
    assert texts(reply, default_locate(reply, ("json",))) == [reply]


def test_think_blocks_are_left_out_and_the_longest_stretch_comes_first():
    reply = '<think>plan</think>\nshort\n<think>more</think>\n{"a": "longer"}\n'
    assert texts(reply, default_locate(reply, ("json",))) == ['{"a": "longer"}', "short"]


def test_a_fence_inside_a_think_block_is_a_draft_not_a_candidate():
    reply = '<think>\n```json\n{"draft": 1}\n```\n</think>\nHere:\n```json\n{"final": 2}\n```'
    found = texts(reply, default_locate(reply, ("json",)))
    assert found[0] == '{"final": 2}'
    assert all("draft" not in t for t in found)


def test_an_unclosed_fence_in_a_think_block_does_not_swallow_the_answer():
    reply = '<think>\n```json\n{"draft"\n</think>\n```json\n{"final": 2}\n```'
    assert texts(reply, default_locate(reply, ("json",)))[0] == '{"final": 2}'


def test_spans_point_into_the_reply_as_received():
    reply = "  \n```json\n  [1, 2]  \n```\n"
    (first, *_) = default_locate(reply, ("json",))
    assert reply[first.start : first.end] == "[1, 2]"
    assert first.start == reply.index("[")


def test_empty_and_blank_replies_give_one_candidate():
    assert default_locate("", ("json",)) == [Span(0, 0)]
    # nothing but blank space and think blocks: no payload, an empty span at the end
    # (never the think block's text, issue 9)
    assert default_locate(" \n ", ("json",)) == [Span(3, 3)]
    assert default_locate("<think>only thoughts</think>", ("json",)) == [Span(28, 28)]


def test_no_duplicate_candidates():
    reply = "<think>x</think>{}"
    spans = default_locate(reply, ("json",))
    assert len(spans) == len(set(spans)) == 1


def test_many_think_blocks():
    # one pass over the reply: fifty thousand blocks are no harder than one
    reply = "<think>x</think>" * 50_000 + '\n```json\n{"a": 1}\n```'
    assert texts(reply, default_locate(reply, ("json",)))[0] == '{"a": 1}'
