"""Finding the JSON in what an LLM writes around it."""

from __future__ import annotations

import pytest

from formatbook_core import Span, check
from formatbook_json import JsonFormat

FMT = JsonFormat()


def locate_spans(reply: str) -> list[Span]:
    return list(FMT.locate(reply))


def spans_text(reply: str) -> list[str]:
    return [reply[s.start : s.end] for s in FMT.locate(reply)]


def test_json_fence_first():
    reply = 'Here is the data you asked for:\n\n```json\n{"name": "Ada"}\n```\n\nLet me know!'
    assert spans_text(reply)[0] == '{"name": "Ada"}'


def test_upper_case_tag_and_bare_fence():
    assert spans_text("```JSON\n[1, 2]\n```")[0] == "[1, 2]"
    assert spans_text('Result:\n```\n{"ok": true}\n```')[0] == '{"ok": true}'


def test_tagged_fence_beats_earlier_prose_object():
    reply = 'An example shape is {"x": 0}.\n```json\n{"x": 42}\n```'
    assert spans_text(reply)[:2] == ['{"x": 42}', '{"x": 0}']


def test_json_word_before_payload():
    reply = 'json\n{"city": "Oslo", "temp": -3}'
    assert spans_text(reply)[0] == '{"city": "Oslo", "temp": -3}'


def test_past_think_block():
    reply = '<think>Maybe {"draft": 1}? No.</think>\n{"final": 2}'
    assert spans_text(reply) == ['{"final": 2}']


def test_inside_prose_and_several_candidates_in_order():
    reply = 'First option: {"a": 1} and the second: [2, 3]. Pick one.'
    assert spans_text(reply) == ['{"a": 1}', "[2, 3]"]


def test_braces_inside_strings_do_not_end_the_candidate():
    reply = 'Answer: {"text": "use } and ] freely", "n": 1} done'
    assert spans_text(reply)[0] == '{"text": "use } and ] freely", "n": 1}'


def test_truncated_payload_is_a_candidate_and_keeps_trailing_spaces():
    reply = 'Sure! {"story": "Once upon a time '
    assert spans_text(reply)[0] == '{"story": "Once upon a time '


def test_unclosed_fence_is_a_candidate():
    reply = 'Here:\n```json\n{"items": [1, 2'
    assert spans_text(reply)[0] == '{"items": [1, 2'


def test_stray_bracket_in_prose_does_not_hide_the_json():
    reply = 'See note [1 for details. {"ok": true}'
    assert '{"ok": true}' in spans_text(reply)


def test_spans_index_the_reply_as_received():
    reply = '  \n```json\n  {"k": "v"}  \n```\n'
    (first, *_) = FMT.locate(reply)
    assert reply[first.start : first.end] == '{"k": "v"}'


def test_no_json_at_all_gives_the_reply():
    reply = "I cannot answer that."
    assert spans_text(reply) == ["I cannot answer that."]


def test_plain_reply_is_located_whole():
    reply = '\n{"a": [1, 2]}\n'
    assert spans_text(reply) == ['{"a": [1, 2]}']


@pytest.mark.parametrize(
    "reply",
    [
        '{"a": [" "hi" ", {"a": 02134}], "a": {}}',
        '{"a": [" "hi" ", {"a": 02134}], "a": 02134, "a": {}}',
    ],
)
def test_a_container_inside_a_broken_document_is_not_taken_for_it(reply):
    # found by hypothesis: the brackets seemed to close the object early (the quotes are
    # ambiguous), and check() took the `{}` after `"a": ` — a part of it — with ok=True
    assert locate_spans(reply) == [Span(0, len(reply))]
    result = check(reply, "EXPECT JSON")
    assert not result.ok and result.value is None


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('Here: {"a": 1}, and {"b": 2}', {"a": 1}),  # prose between: two candidates
        ("pairs [1,2], [3,4]", [1, 2]),  # a comma alone is no JSON glue
    ],
)
def test_prose_between_containers_keeps_them_apart(reply, value):
    assert check(reply, "EXPECT JSON").value == value


def test_glue_between_containers_is_read_in_linear_time():
    gap = ', "k": 1' * 100_000
    reply = '{"a": "x"y"}' + gap + ', "b": {}} tail'
    spans = locate_spans(reply)
    assert spans[0].start == 0 and spans[0].end == len(reply) - len(" tail")
