"""Regressions from a new user's findings: a comment or an apostrophe holding a bracket
must not end the payload early, and a number the reply was cut off after is flagged."""

from __future__ import annotations

import pytest

from formatbook_core import check, heal
from formatbook_json import JsonFormat

FMT = JsonFormat()


def kinds(result) -> list[str]:
    return [r.kind for r in result.repairs]


def first_span(reply: str) -> str:
    span = FMT.locate(reply)[0]
    return reply[span.start : span.end]


# --- comments holding a bracket -------------------------------------------------------


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
    result = check(reply, "EXPECT JSON")
    assert result.ok
    assert result.value == {"a": 1, "b": 2}
    assert "comment" in kinds(result)
    assert "missing_bracket" not in kinds(result)
    assert all("b" not in s.text for s in result.set_aside)


def test_a_comment_in_an_array_holding_a_closing_bracket():
    result = check("Values: [1, /* ] */ 2, // ]\n 3]", "EXPECT JSON")
    assert result.value == [1, 2, 3]
    assert kinds(result).count("comment") == 2


def test_fenced_and_unfenced_payloads_with_comments_agree():
    payload = '{"a": 1 /* } */, "b": 2}'
    fenced = check(f"```json\n{payload}\n```", "EXPECT JSON")
    bare = check(payload, "EXPECT JSON")
    assert fenced.value == bare.value == {"a": 1, "b": 2}


def test_the_container_scan_skips_comments():
    reply = 'Text {"a": 1, // } here\n "b": 2} more'
    assert first_span(reply) == '{"a": 1, // } here\n "b": 2}'
    reply = "Text [1 /* ] */, 2] more"
    assert first_span(reply) == "[1 /* ] */, 2]"


def test_an_unclosed_block_comment_runs_to_the_end_of_the_reply():
    reply = '{"a": 1 /* cut } here'
    assert first_span(reply) == reply
    result = check(reply, "EXPECT JSON")
    assert result.value == {"a": 1}
    assert kinds(result) == ["comment", "missing_bracket"]


@pytest.mark.parametrize(
    "reply",
    [
        'See [http://example.com] and then {"a": 1}',  # the :// of a URL is no comment
        'Files [file:///tmp/x] then {"a": 1}',
    ],
)
def test_a_url_in_prose_brackets_is_no_comment(reply):
    assert first_span(reply) == '{"a": 1}'
    assert check(reply, "EXPECT JSON").value == {"a": 1}


# --- apostrophes inside single-quoted strings ----------------------------------------


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
    result = check(reply, "EXPECT JSON")
    assert result.ok
    assert result.value == expected
    assert "truncated_string" not in kinds(result)
    assert "missing_bracket" not in kinds(result)


def test_locate_and_the_healer_read_a_single_quoted_string_alike():
    reply = "Text {'note': 'don't } stop', 'b': 2} more"
    assert first_span(reply) == "{'note': 'don't } stop', 'b': 2}"


def test_an_apostrophe_after_blanks_in_prose_is_no_string():
    # not after a bracket, comma or colon: no string starts, the bracket still closes
    reply = 'See [x   \'quoted] then {"a": 1}'
    assert check(reply, "EXPECT JSON").value == {"a": 1}


def test_a_single_quoted_string_cut_off_is_still_flagged():
    result = check("{'a': 'it's cut", "EXPECT JSON")
    assert result.value == {"a": "it's cut"}
    assert "truncated_string" in kinds(result)


# --- a number the reply was cut off after --------------------------------------------


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
    result = check(reply, "EXPECT JSON")
    assert result.ok  # the verdict stays healed: the repair is the signal
    assert result.value == expected
    flagged = [r for r in result.repairs if r.kind == "truncated_number"]
    assert len(flagged) == 1
    assert "may be incomplete" in flagged[0].message


def test_the_flag_spans_the_number_in_the_payload():
    healed = heal('{"age": 36', "EXPECT JSON")
    flagged = [r for r in healed.repairs if r.kind == "truncated_number"]
    assert [(r.span.start, r.span.end) for r in flagged] == [(8, 10)]


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
    flagged = "truncated_number" in kinds(check(reply, "EXPECT JSON"))
    assert flagged == (reply == '{"age": 3')


def test_a_healed_cut_number_heals_to_itself():
    once = heal('{"name": "Ada", "age": 3', "EXPECT JSON")
    twice = heal(once.text, "EXPECT JSON")
    assert twice.text == once.text
    assert list(twice.repairs) == []


def test_a_candidate_read_as_cut_off_midway_yields_to_a_later_one_that_passes():
    # the scan ends the “ string at the line's end, the healer reads it as cut off by the
    # payload's end: that reading is doubtful while the reply goes on, and a later object passes
    result = check('See [“It\'s” said] then {"a": 1}', "EXPECT JSON")
    assert result.ok and result.value == {"a": 1}
    # with no later candidate the cut-off reading still stands, listed as such
    alone = check("See [“It's” said] and that is all.", "EXPECT JSON")
    assert alone.ok and "truncated_string" in [r.kind for r in alone.repairs]
    # a payload really cut off at the reply's end is unaffected
    cut = check('Here: {"a": "b', "EXPECT JSON")
    assert cut.ok and cut.value == {"a": "b"}
