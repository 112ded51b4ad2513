"""Regression tests for the JSON bugs the fuzz harness found (tests/fuzz/repros/json-*)."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check, get_format, heal
from formatbook_json.heal import heal as heal_payload
from formatbook_json.stream import JsonChecker
from formatbook_json.syntax import JsonSyntaxError, is_valid_json, parse_strict

FENCE = "`" * 3
JSON = get_format("json")


def _reported(text: str, size: int) -> tuple[list[str], str]:
    """Every value and the open text the relaxed checker reports, fed in chunks of ``size``."""
    checker = JsonChecker(strict=False)
    values: list[str] = []
    opened = ""
    for i in range(0, len(text), size):
        status = checker.feed(text[i : i + size])
        assert status
        values += status.values
        opened += status.open or ""
    end = checker.finish()
    assert end
    return values + list(end.values), opened


# --- a fence line inside a cut-off string (json-guard_limits-cc9f2b8e12, -df7b3348bf) ----


@pytest.mark.parametrize("size", [1, 2, 3, 100])
def test_a_fence_line_ends_the_payload_for_the_relaxed_checker(size):
    # the stream counts nothing from the fence line on (a lower bound of check()'s
    # counts); the payload closes after it, with the fence line inside a string, so
    # check() takes it whole (tests/plugins/json/test_fence_inside_payload.py)
    text = '{"a": "one\n' + FENCE + '\nmore words here", "b": "two"}'
    values, opened = _reported(text, size)
    assert values == ["one\n"]
    assert "`" not in opened and "more" not in opened
    assert check(text, "EXPECT JSON").value == {"a": "one\n" + FENCE + "\nmore words here", "b": "two"}


@pytest.mark.parametrize("size", [1, 2, 100])
def test_a_fence_line_between_tokens_ends_the_payload(size):
    text = '{"a": 1,\n~~~\n"b": "two words"}'
    values, _ = _reported(text, size)
    assert values == ["1"]
    # the payload goes on after the fence line: check() refuses it (json.fence_inside)
    assert [v.code for v in check(text, "EXPECT JSON").violations] == ["json.fence_inside"]


@pytest.mark.parametrize("size", [1, 2, 100])
def test_two_backticks_at_a_line_start_are_no_fence_line(size):
    # held back while the line may become a fence line, then fed: it is string text
    text = '{"a": "x\n``'
    values, _ = _reported(text, size)
    assert values == ["x\n``"]
    assert check(text, "EXPECT JSON").value == {"a": "x\n``"}


def test_a_fence_line_before_the_payload_is_prose():
    values, _ = _reported(FENCE + 'json\n{"a": "b"}\n' + FENCE, 4)
    assert values == ["b"]


@pytest.mark.parametrize(
    "reply", ['{a"\n' + FENCE, '{firstName"a" "lastName" "\n' + FENCE, '{"a": "x y\n' + FENCE + "\nz w v"]
)
def test_the_guard_at_check_s_own_counts_does_not_stop_a_fence_cut_reply(reply):
    counted = check(reply, "EXPECT JSON\nEXPECT MAX 1000 WORDS\nEXPECT MAX 1000 CHARACTERS")
    assert counted.ok
    words, characters = counted.counts["words"], counted.counts["characters"]
    for size in (1, 2, 3, len(reply)):
        guard = StreamGuard(f"EXPECT JSON\nEXPECT MAX {words} WORDS\nEXPECT MAX {characters} CHARACTERS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])


# --- heal is idempotent, white space included (json-heal_idempotent-a823484d91) ----------


@pytest.mark.parametrize(
    ("payload", "healed"),
    [('{a"" ]', '{"a":""}'), ('{"a": 1} ]', '{"a": 1}'), ('{"a": 1 // note', '{"a": 1}'), ("[1, 2 ]]\n", "[1, 2 ]")],
)
def test_a_repaired_text_ends_with_its_value(payload, healed):
    assert heal_payload(payload).text == healed


@pytest.mark.parametrize(
    ("payload", "healed"),
    [('] {"a": 1}', '{"a": 1}'), ("// note\n{a: 1}", '{"a": 1}'), ("  ] // x\n {a:1}", '{"a":1}')],
)
def test_a_repaired_text_starts_with_its_value(payload, healed):
    assert heal_payload(payload).text == healed


@pytest.mark.parametrize(
    "reply", ['{a"" ]', FENCE + 'json\n] {"a": 1}\n' + FENCE, FENCE + "json\n// c\n{a: 1}\n" + FENCE]
)
def test_healing_the_healed_reply_changes_nothing(reply):
    first = heal(reply, "EXPECT JSON")
    again = heal(first.text, "EXPECT JSON")
    assert (again.text, again.repairs) == (first.text, ())


# --- the strict checker's finish() with a schema (json-contract-26e0d9a886) ---------------


def _finish(text: str, schema: object, strict: bool = True) -> bool:
    checker = JSON.stream(schema, strict=strict)
    return bool(checker.feed(text)) and bool(checker.finish())


def test_the_strict_checker_with_a_schema_agrees_with_is_valid():
    schema = {"type": "object", "required": ["name"]}
    assert not JSON.is_valid('[{"":""},{"":""}]', schema)
    assert not _finish('[{"":""},{"":""}]', schema)
    assert not _finish('{"nam": 1}', schema)
    assert _finish('{"name": "Ada"}', schema)
    assert _finish('[{"":""},{"":""}]', None)  # no schema: syntax only


def test_the_schema_refusal_is_reported_at_the_end_and_a_copy_keeps_the_text():
    checker = JSON.stream({"type": "array"}, strict=True)
    assert checker.feed('{"a"')
    clone = checker.copy()
    assert checker.feed(": 1}")
    end = checker.finish()
    assert not end and end.position == 8
    assert clone.feed(": 2, ")  # the clone goes on alone from its own copy of the text
    assert not clone.feed("]")


def test_the_relaxed_checker_does_not_consult_the_schema():
    assert _finish('[{"":""}]', {"type": "object"}, strict=False)


# --- white space around the payload (json-guard_agrees-2caa165e29) ------------------------


@pytest.mark.parametrize("text", ['""\xa0', '\xa0""', '\u3000{"a": 1}\u2028\n', "1\x0b"])
def test_unicode_white_space_around_the_document_is_white_space(text):
    assert is_valid_json(text)
    for size in (1, 2, len(text)):
        checker = JsonChecker(strict=True)
        assert all(checker.feed(text[i : i + size]) for i in range(0, len(text), size))
        assert checker.finish()
    result = check(text, "EXPECT JSON")
    assert result.ok and not result.repairs
    assert heal_payload(text).repairs == ()


def test_inside_the_document_only_json_white_space_counts():
    assert not is_valid_json('{"a":\xa01}')
    checker = JsonChecker(strict=True)
    status = checker.feed('{"a":\xa01}')
    assert not status and status.position == 5


def test_an_error_after_leading_unicode_white_space_points_into_the_text():
    with pytest.raises(JsonSyntaxError) as err:
        parse_strict("\xa0[1,]")
    assert err.value.offset == 4  # the "]" a value should stand before
    assert parse_strict("\xa0[1]\xa0") == [1]


def test_the_strict_guard_does_not_stop_a_payload_followed_by_a_no_break_space():
    guard = StreamGuard("EXPECT JSON", strict=True)
    assert guard.feed('""') and guard.feed("\xa0")
    assert guard.finish().ok


# --- found by the 5-minute run --------------------------------------------------------


@pytest.mark.parametrize("size", [1, 2, 3, 5, 100])
def test_an_exponent_of_17_digits_fed_in_pieces_is_refused(size):
    # json-contract-efc9f40088: the short path for a number going on into the next chunk
    # did not count the exponent digits fed before, so the number passed unchecked
    text = "[0.4e999999999999999999]"
    assert not JSON.is_valid(text)
    checker = JsonChecker(strict=True)
    fed = [checker.feed(text[i : i + size]) for i in range(0, len(text), size)]
    assert not fed[-1] and not checker.finish()
    assert fed[-1].position == 23  # the "]" that ends the number


def test_an_unclosed_fence_holding_strict_json_keeps_no_trailing_blanks():
    # json-heal_idempotent-701b246542: the blanks a cut reply ends with belong to a cut
    # value, not to a complete one
    reply = FENCE + 'json\n""\n'
    first = heal(reply, "EXPECT JSON")
    assert first.text == '""'
    assert heal(first.text, "EXPECT JSON").text == '""'
    cut = heal(FENCE + 'json\n{"a": "x \n', "EXPECT JSON")
    assert cut.text == '{"a": "x \\n"}'  # a cut string keeps them


def test_heal_reads_the_payload_without_the_unicode_white_space_around_it():
    # json-contract-92a05fd9c1: valid JSON orjson cannot represent, after a no-break space
    assert heal_payload("\xa0[1e999]").text == "\xa0[1e999]"
    assert heal_payload("\xa0[1e999]").repairs == ()
    healed = heal_payload("\xa0{a:1,}\u3000")
    assert healed.text == '{"a":1}'
    # spans index the text given, white space included: "a" at 2, the comma at 5
    assert [(r.kind, r.span) for r in healed.repairs] == [("unquoted_key", (2, 3)), ("trailing_comma", (5, 6))]


def test_heal_leaves_valid_json_orjson_cannot_read_unchanged():
    # json-contract-9fbd9bc56b: a raw lone surrogate (orjson refuses it, the exact path
    # takes it) followed by a vertical tab, white space around the document
    text = '"\ud800"\x0b'
    assert is_valid_json(text)
    healed = heal_payload(text)
    assert (healed.text, healed.repairs) == (text, ())


# --- a think tag inside a string leaves no blanks in the payload (json-heal_idempotent-6e49115749)


@pytest.mark.parametrize(
    ("reply", "healed"),
    [
        # the tag opens a think block to the end of the reply, so the container read with
        # think blocks blanked out never closes: the trailing line break was kept once
        ('a{"x": "<think>"}\n', '{"x": "<think>"}'),
        ('a{"": {"<reasoning>": ""}, "b": 2}\n  ', '{"": {"<reasoning>": ""}, "b": 2}'),
        # inside a fence, the fence line cuts it instead of the reply's end (fuzz seed
        # 314159, json-heal_idempotent-97c3e8c45a)
        ('~~~\na{"":"<think>"}\n\n~~~', '{"":"<think>"}'),
    ],
)
def test_an_open_container_holding_strict_json_keeps_no_trailing_blanks(reply, healed):
    first = heal(reply, "EXPECT JSON")
    assert first.text == healed
    again = heal(first.text, "EXPECT JSON")
    assert (again.text, again.repairs) == (healed, ())


def test_a_cut_string_still_keeps_its_trailing_blanks():
    # not strict JSON without them: the reply was cut inside the string
    assert heal('a{"x": "y \n', "EXPECT JSON").text == '{"x": "y \\n"}'


# --- an unknown escape is reported as healing writes it (json-guard_limits-de1808735d) ----


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the stream dropped "\u" before a non-hex character: 'ᨇD' read as a capital word,
        # which check()'s value '\\uᨇD' (backslash first) is not, so the guard at
        # check()'s own counts stopped the reply
        ('["\\u\u1a07D\na', "\\u\u1a07D\na"),
        ('["a\\q"]', "a\\q"),
        ('["a\\u12G"]', "a\\u12G"),
        ('["\\ud800\\uZ"]', "\ufffd\\uZ"),
        ('["it\\\'s"]', "it's"),
        ('["a\\u', "a"),  # a cut escape is dropped, as healing drops it
    ],
)
def test_the_relaxed_checker_reports_unknown_escapes_as_healing_writes_them(text, value):
    assert JSON.parse(heal_payload(text).text) == [value]
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == [value]


def test_the_guard_at_check_s_own_counts_does_not_stop_an_unknown_escape():
    reply = '["\\u\u1a07D\na'
    counted = check(reply, "EXPECT JSON\nEXPECT MAX 1000 CAPITAL WORDS")
    assert counted.ok and counted.counts["capital words"] == 0
    for size in (1, 2, len(reply)):
        guard = StreamGuard("EXPECT JSON\nEXPECT MAX 0 CAPITAL WORDS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])


# --- a number-like key is one token, as healing reads it (json-guard_limits-fe116d5cc5) ---


@pytest.mark.parametrize(
    ("text", "values", "healed"),
    [
        # the stream read '0' as a key and '+1' as its value (counted: 1 word) where
        # healing reads the one key '0+1', dropped with no value: {} (0 words)
        ("{0+1]", [], {}),
        ("{0+1: 2}", ["2"], {"0+1": 2}),
        ("{-1.5: 2}", ["2"], {"-1.5": 2}),
        ("{1e+5: 2}", ["2"], {"1e+5": 2}),
        ('{a: 1, 2b: 3, -4.5: "x y"}', ["1", "3", "x y"], {"a": 1, "2b": 3, "-4.5": "x y"}),
    ],
)
def test_the_relaxed_checker_reads_a_number_like_key_as_one_key(text, values, healed):
    assert JSON.parse(heal_payload(text).text) == healed
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == values


def test_the_guard_at_check_s_own_counts_does_not_stop_a_number_like_key():
    reply = "{0+1]"
    assert check(reply, "EXPECT JSON\nEXPECT MAX 1000 WORDS").counts["words"] == 0
    for size in (1, 2, 5):
        guard = StreamGuard("EXPECT JSON\nEXPECT MAX 0 WORDS\nEXPECT MAX 0 CHARACTERS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])


# --- after a mismatched closing bracket nothing more is counted (json-guard_limits-09e7e19de9)


@pytest.mark.parametrize(
    ("text", "values", "healed"),
    [
        # the stream closed only the inner {, read "aa" as an array value and counted it;
        # healing closes up to the [ (a } inserted) and reads "aa" as a key cut off: dropped
        ('{"":["",{a""]"aa', [], {"": ["", {"a": ""}]}),
        # healing replaces the bracket here (only the root matches, text follows): the
        # stream cannot tell these apart when it reads the bracket, so it counts neither
        ('[{a""]"aa', [], [{"a": ""}, "aa"]),
        # values before the bracket are counted as before
        ('{"a": {"b": [1, 2}, "c": 3}', ["1", "2"], {"a": {"b": [1, 2]}, "c": 3}),
        ('{"a": "x"]', ["x"], {"a": "x"}),
    ],
)
def test_the_relaxed_checker_counts_nothing_after_a_mismatched_bracket(text, values, healed):
    assert check(text, "EXPECT JSON").value == healed
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == values


def test_the_guard_at_check_s_own_counts_does_not_stop_after_a_mismatched_bracket():
    reply = '{"":["",{a""]"aa'
    assert check(reply, "EXPECT JSON\nEXPECT MAX 1000 WORDS").counts["words"] == 0
    for size in (1, 3, len(reply)):
        guard = StreamGuard("EXPECT JSON\nEXPECT MAX 0 WORDS\nEXPECT MAX 0 CHARACTERS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])


# --- a high surrogate after a lone high one may pair (json-guard_limits-07eeecb811) -------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the stream wrote U+FFFD for both highs and for the low: three characters, where
        # healing replaces only the first high and keeps the pair: two (U+FFFD, U+BABAA)
        ('["\\udaaa\\udaaa\\uDFaa"]', "\ufffd\U000babaa"),
        ('["\\ud800\\ud800\\ud800\\udc00x"]', "\ufffd\ufffd\U00010000x"),
        ('["\\ud800\\ud800x"]', "\ufffd\ufffdx"),
    ],
)
def test_a_high_surrogate_after_a_lone_one_pairs_as_healing_pairs_it(text, value):
    assert JSON.parse(heal_payload(text).text) == [value]
    for size in (1, 2, 3, 100):
        assert _reported(text, size)[0] == [value]


# --- a single quote after a missing colon or comma (json-guard_limits-c9cfc4f8ac) ---------


@pytest.mark.parametrize(
    ("text", "values", "healed"),
    [
        # the locator reads this ' as text (no bracket, comma or colon before it) and ends
        # the candidate at the "}" after it; the healer reads a string "}" there. The stream
        # read the string "}aa" (3 characters, check() counts 1): now it counts nothing
        # from such a quote on
        ("{a'}aa", [], {"a": "}"}),
        ("{a 'x y'}", [], {"a": "x y"}),
        ("[1 'x']", ["1"], [1, "x"]),
        ("{a: 'x y'}", ["x y"], {"a": "x y"}),  # after a colon: read as before
    ],
)
def test_the_relaxed_checker_counts_nothing_from_a_loose_single_quote(text, values, healed):
    assert check(text, "EXPECT JSON").value == healed
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == values


# --- a fence line's indentation at a chunk's end is held back (json-guard_limits-685d996229)


@pytest.mark.parametrize("cut", [14, 15, 16])
def test_an_indented_fence_line_split_after_its_spaces_ends_the_payload(cut):
    # chunk one ended with "\n  ": the spaces were fed as string text, so the "```" of the
    # next chunk was no longer at a line start and "```aaa" was counted
    text = '[    "aaaaaaa\n  ' + FENCE + "aaa"
    assert check(text, "EXPECT JSON").value == ["aaaaaaa\n"]
    checker = JsonChecker(strict=False)
    values: list[str] = []
    for piece in (text[:cut], text[cut:]):
        values += checker.feed(piece).values
    assert values + list(checker.finish().values) == ["aaaaaaa\n"]
