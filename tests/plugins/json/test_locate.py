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
        ("pairs: [1,2], [3,4]", [1, 2]),  # a comma alone is no JSON glue
    ],
)
def test_prose_between_containers_keeps_them_apart(reply, value):
    assert check(reply, "EXPECT JSON").value == value


def test_glue_between_containers_is_read_in_linear_time():
    gap = ', "k": 1' * 100_000
    reply = '{"a": "x"y"}' + gap + ', "b": {}} tail'
    spans = locate_spans(reply)
    assert spans[0].start == 0 and spans[0].end == len(reply) - len(" tail")


def kinds(result) -> list[str]:
    return [r.kind for r in result.repairs]


def first_span(reply: str) -> str:
    span = FMT.locate(reply)[0]
    return reply[span.start : span.end]


@pytest.mark.parametrize(
    "reply",
    [
        '{"a": 1 /* } */, "b": 2}',  # the user's findings
        '{"a": 1, // close with }\n "b": 2}',
        'Here: {"a": 1, // the } char\n "b": 2}',
        '{"a": 1 /* { */, "b": 2}',  # an opening bracket in a comment
        '{"a": 1, /* ] ] */ "b": 2}',
        '{"a": 1, // it\'s "odd" }\n "b": 2}',  # quotes in a comment open no string
        '{"a": 1 /* } */, "b": 2} and that is all',
        'Result:\n{\n  // the } below closes\n  "a": 1,\n  "b": 2\n}\nDone.',
        '{"a": 1,/*}*/"b": 2}',  # no blanks around the comment
    ],
)
def test_a_comment_holding_a_bracket_keeps_every_member(reply):
    """User finding (was test_user_findings.py): comments holding a bracket."""
    result = check(reply, "EXPECT JSON")
    assert result.ok
    assert result.value == {"a": 1, "b": 2}
    assert "comment" in kinds(result)
    assert "missing_bracket" not in kinds(result)
    assert all("b" not in s.text for s in result.set_aside)


def test_a_comment_in_an_array_holding_a_closing_bracket():
    """User finding (was test_user_findings.py): comments holding a bracket."""
    result = check("Values: [1, /* ] */ 2, // ]\n 3]", "EXPECT JSON")
    assert result.value == [1, 2, 3]
    assert kinds(result).count("comment") == 2


def test_fenced_and_unfenced_payloads_with_comments_agree():
    """User finding (was test_user_findings.py): comments holding a bracket."""
    payload = '{"a": 1 /* } */, "b": 2}'
    fenced = check(f"```json\n{payload}\n```", "EXPECT JSON")
    bare = check(payload, "EXPECT JSON")
    assert fenced.value == bare.value == {"a": 1, "b": 2}


def test_the_container_scan_skips_comments():
    """User finding (was test_user_findings.py): comments holding a bracket."""
    reply = 'Text {"a": 1, // } here\n "b": 2} more'
    assert first_span(reply) == '{"a": 1, // } here\n "b": 2}'
    reply = "Text: [1 /* ] */, 2] more"  # (without the colon, a mention in a sentence)
    assert first_span(reply) == "[1 /* ] */, 2]"


def test_an_unclosed_block_comment_runs_to_the_end_of_the_reply():
    """User finding (was test_user_findings.py): comments holding a bracket."""
    reply = '{"a": 1 /* cut } here'
    assert first_span(reply) == reply
    result = check(reply, "EXPECT JSON")
    assert result.value == {"a": 1}
    assert kinds(result) == ["comment", "truncated_container"]


@pytest.mark.parametrize(
    "reply",
    [
        'See [http://example.com] and then {"a": 1}',  # the :// of a URL is no comment
        'Files [file:///tmp/x] then {"a": 1}',
    ],
)
def test_a_url_in_prose_brackets_is_no_comment(reply):
    """User finding (was test_user_findings.py): comments holding a bracket."""
    assert first_span(reply) == '{"a": 1}'
    assert check(reply, "EXPECT JSON").value == {"a": 1}


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("{'note': 'don't } stop', 'b': 2}", {"note": "don't } stop", "b": 2}),  # the user's
        ("Here: {'note': 'don't } stop', 'b': 2} ok", {"note": "don't } stop", "b": 2}),
        ("['don't', 'won't ]', 'x']", ["don't", "won't ]", "x"]),
        ("{'a': 'rock 'n' roll ]', 'b': 1}", {"a": "rock 'n' roll ]", "b": 1}),
        ("{'a': 'it's',\n 'b': 'ok'}", {"a": "it's", "b": "ok"}),
        ("{'a': 'don't\n}', 'b': 2}", {"a": "don't\n}", "b": 2}),  # across a line break
        ('{"a": \u2018x } y\u2019, "b": 2}', {"a": "x } y", "b": 2}),  # typographic single quotes
        ('{"a": \u2018it\u2019s } ok\u2019, "b": 2}', {"a": "it\u2019s } ok", "b": 2}),
        ('{"a": \u201dx ] y\u201d, "b": 2}', {"a": "x ] y", "b": 2}),  # opened by a closing quote
        ("[/* c */ 'a } b', 2]", ["a } b", 2]),  # after a comment, a value may start
        ("{'a': 1, // next\n 'b': 'x ] y'}", {"a": 1, "b": "x ] y"}),
    ],
)
def test_an_apostrophe_in_a_single_quoted_string_does_not_end_it(reply, expected):
    """User finding (was test_user_findings.py): apostrophes inside single-quoted strings."""
    result = check(reply, "EXPECT JSON")
    assert result.ok
    assert result.value == expected
    assert "truncated_string" not in kinds(result)
    assert "missing_bracket" not in kinds(result)


def test_locate_and_the_healer_read_a_single_quoted_string_alike():
    """User finding (was test_user_findings.py): apostrophes inside single-quoted strings."""
    reply = "Text: {'note': 'don't } stop', 'b': 2} more"  # (without the colon, a mention)
    assert first_span(reply) == "{'note': 'don't } stop', 'b': 2}"


def test_an_apostrophe_after_blanks_in_prose_is_no_string():
    """User finding (was test_user_findings.py): apostrophes inside single-quoted strings."""
    # not after a bracket, comma or colon: no string starts, the bracket still closes
    reply = 'See [x   \'quoted] then {"a": 1}'
    assert check(reply, "EXPECT JSON").value == {"a": 1}


def test_a_single_quoted_string_cut_off_is_still_flagged():
    """User finding (was test_user_findings.py): apostrophes inside single-quoted strings."""
    result = check("{'a': 'it's cut", "EXPECT JSON")
    assert result.value == {"a": "it's cut"}
    assert "truncated_string" in kinds(result)


@pytest.mark.parametrize(
    "reply,expected,number",
    [
        ('{"name": "Ada", "age": 3', {"name": "Ada", "age": 3}, "3"),  # the user's finding
        ("[1, 2, 36", [1, 2, 36], "36"),
        ('{"a": [1, 2', {"a": [1, 2]}, "2"),
        ('{"a": -1.5e3', {"a": -1500.0}, "-1.5e3"),
        ('{"a": 12.', {"a": 12.0}, "12."),  # a number healing rewrites
        ('Here it is: {"a": {"b": 7', {"a": {"b": 7}}, "7"),
        ('```json\n{"a": 3', {"a": 3}, "3"),  # an unclosed fence
    ],
)
def test_a_number_ending_a_cut_off_reply_is_flagged(reply, expected, number):
    """User finding (was test_user_findings.py): a number the reply was cut off after."""
    result = check(reply, "EXPECT JSON")
    assert result.ok  # the verdict stays healed: the repair is the signal
    assert result.value == expected
    flagged = [r for r in result.repairs if r.kind == "truncated_number"]
    assert len(flagged) == 1
    assert "may be incomplete" in flagged[0].message


@pytest.mark.parametrize(
    "reply",
    [
        '{"age": 3 ',  # a blank after the number: it had ended
        '{"age": 3\n',
        '{"age": 3,',  # a comma after it
        '{"age": 3}',  # closed
        '{"age": 3',  # (control: flagged; see below)
        '{"a": "3',  # a cut string, not a number
        '{"a": "x {3',
        "{'a': 'it's 3",
        '{"a": 1 /* 3',  # a comment cut off
        '{"a": 1, // 3',
        '{"a": tr',  # a cut literal
        '{"a": true',
        '{"a": null',
        "[1, -",  # no number yet: the member is dropped
    ],
)
def test_only_a_number_directly_at_the_end_is_flagged(reply):
    """User finding (was test_user_findings.py): a number the reply was cut off after."""
    flagged = "truncated_number" in kinds(check(reply, "EXPECT JSON"))
    assert flagged == (reply == '{"age": 3')


def test_a_candidate_read_as_cut_off_midway_yields_to_a_later_one_that_passes():
    """User finding (was test_user_findings.py): a number the reply was cut off after."""
    # the scan ends the “ string at the line's end, the healer reads it as cut off by the
    # payload's end: that reading is doubtful while the reply goes on, and a later object passes
    result = check('See [“It\'s” said] then {"a": 1}', "EXPECT JSON")
    assert result.ok and result.value == {"a": 1}
    # with no later candidate: the string “It's” said] runs to the closing bracket, so
    # the reply was not cut there; and the bracket is a mention in a sentence
    alone = check("See [“It's” said] and that is all.", "EXPECT JSON")
    assert not alone.ok
    # a payload really cut off at the reply's end is unaffected
    cut = check('Here: {"a": "b', "EXPECT JSON")
    assert cut.ok and cut.value == {"a": "b"}
