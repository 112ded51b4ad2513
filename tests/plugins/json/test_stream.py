"""The incremental JSON checker: soundness on every prefix, early failure at the exact
character, settled values, relaxed grammar, and linear work (counted, never timed)."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import StreamGuard, check, get_format, heal
from formatbook_json import stream
from formatbook_json.heal import heal as heal_payload
from formatbook_json.stream import JsonChecker, _RelaxedChecker, can_be_valid
from formatbook_json.syntax import is_valid_json


def run(text: str, *, strict: bool = True, step: int = 1):
    """Feed ``text`` in chunks of ``step``; return (first falsy status or finish status,
    values reported, open texts)."""
    checker = JsonChecker(strict)
    values: list[str] = []
    opens: list[str] = []
    for i in range(0, len(text), step):
        status = checker.feed(text[i : i + step])
        if not status:
            return status, values, opens
        values.extend(status.values)
        if status.open:
            opens.append(status.open)
    status = checker.finish()
    values.extend(status.values)
    return status, values, opens


# --- early failure at the exact offset -------------------------------------------------
EARLY = [
    ('{"a": tru3', 9),
    ("[1,,", 3),
    ('{"a" 1', 5),
    ('["ab\x01cd"]', 4),
    ('"tab\there"', 4),
    ("01", 1),
    ("[-x", 2),
    ("1.x", 2),
    ("[1.]", 3),
    ("[1e]", 3),
    ("[1e+]", 4),
    ('["\\x"]', 3),
    ('["\\u12g4"]', 6),
    ('"\\udc00"', 4),  # \uDC.. can only be a lone low surrogate: caught at the 'c'
    ('"\\ud83d x"', 7),  # high surrogate not followed by a backslash
    ('"\\ud83d\\n"', 8),  # ... nor by \u
    ('"\\ud83d\\u0041"', 9),  # ... nor by a low surrogate
    ("[1}", 2),
    ('{"a":1]', 6),
    ('{"a":1,}', 7),
    ("[1,]", 3),
    ("[] []", 3),
    ("{1:2}", 1),
    ("nul1", 3),
    ("[True]", 1),
    ("[NaN]", 1),
    ("'a'", 0),
    ("\ufeff{}", 0),
    ("[1 2]", 3),
    ('{"a":1 "b":2}', 7),
    ("-01", 2),
    ("]", 0),
]


@pytest.mark.parametrize("text,offset", EARLY)
@pytest.mark.parametrize("step", [1, 2, 3, 100])
def test_fails_at_the_first_impossible_character(text, offset, step):
    status, _, _ = run(text, step=step)
    assert not status
    assert status.position == offset, status.reason
    assert status.reason
    # Everything before the offending character is still a valid prefix.
    assert can_be_valid(text[:offset])
    assert not can_be_valid(text[: offset + 1])


@pytest.mark.parametrize(
    "prefix",
    [
        "",
        " ",
        "-",
        "1.",
        "1e",
        "1e-",
        '"\\u12',
        '"\\ud83d',
        '"\\ud83d\\',
        '"\\ud83d\\u',
        '"\\ud83d\\ude',
        "[",
        '{"a"',
        '{"a":',
        "tr",
        "nul",
        "[1,",
        '{"a":1,',
    ],
)
def test_valid_prefixes_are_accepted_but_not_complete(prefix):
    checker = JsonChecker()
    assert checker.feed(prefix)
    assert not checker.finish()


def test_failure_is_sticky():
    checker = JsonChecker()
    bad = checker.feed("[1,,")
    assert not bad
    assert checker.feed("2]") is bad
    assert checker.finish() is bad


def test_complete_flag():
    checker = JsonChecker()
    assert not checker.feed("[1").complete
    assert checker.feed("]").complete
    assert checker.feed("  \n").complete
    assert not checker.feed(" x")  # nothing but whitespace after the document
    top = JsonChecker()
    assert top.feed("12").complete  # complete, yet "123" would be too
    assert top.feed("3").complete
    assert top.finish().values == ("123",)
    assert not JsonChecker().feed("1.").complete


def test_empty_document_fails_at_finish():
    for text in ("", "   \n"):
        checker = JsonChecker()
        assert checker.feed(text)
        end = checker.finish()
        assert not end and end.position == len(text) and "empty" in end.reason


def test_depth_limit():
    checker = JsonChecker(max_depth=3)
    assert checker.feed("[[[")
    status = checker.feed("{")
    assert not status and status.position == 3 and "3 levels" in status.reason
    assert JsonChecker(max_depth=3).feed("[[[]]]").complete


# --- settled values -------------------------------------------------------------------
def test_values_are_decoded_scalar_leaves_in_order():
    text = '{"name": "Ann \\"A\\"", "rocket": "\\ud83d\\ude80", "n": -1.5e3, "ok": true, "no": false, "x": null, "blank": " \\t", "list": [0, "é", {}]}'
    status, values, _ = run(text)
    assert status and status.complete
    assert values == ['Ann "A"', "\U0001f680", "-1.5e3", "true", "false", "0", "é"]
    for step in (2, 3, 7):
        assert run(text, step=step)[1] == values


def test_open_reports_text_of_a_string_value_still_open():
    checker = JsonChecker()
    assert checker.feed('{"key').open == ""  # keys are never reported
    assert checker.feed('": "Hel').open == "Hel"
    status = checker.feed("lo wo")
    assert status.open == "lo wo" and status.values == ()
    status = checker.feed('rld", "b": "x')
    assert status.values == ("Hello world",) and status.open == "x"
    status = checker.feed("\\u00e9\\ud83d")  # the high surrogate waits for its low half
    assert status.open == "é"
    status = checker.feed('\\ude80"}')
    assert status.values == ("xé\U0001f680",) and status.open == "" and status.complete


# --- property: every prefix of a valid document is accepted -----------------------------
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(st.text(st.characters(exclude_categories=("Cs",)), max_size=6), children, max_size=5)
    ),
    max_leaves=25,
)


def leaves(value) -> list[str]:
    """Scalar leaves as ARCHITECTURE.md defines them, computed from the Python value."""
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in leaves(v)]
    if value is None:
        return []
    if value is True or value is False:
        return ["true" if value else "false"]
    if isinstance(value, (int, float)):
        return [repr(value)]  # what json.dumps writes
    return [value] if value.strip() else []


dump_options = st.sampled_from(
    [
        {},
        {"indent": 2},
        {"indent": "\t", "ensure_ascii": False},
        {"separators": (",", ":"), "ensure_ascii": False},
        {"indent": 0, "separators": (" ,  ", " : ")},
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=json_values, options=dump_options, data=st.data())
def test_every_prefix_of_a_valid_document_is_accepted(value, options, data):
    text = json.dumps(value, **options)
    checker = JsonChecker()
    values: list[str] = []
    for k, ch in enumerate(text):
        status = checker.feed(ch)
        assert status, (text[: k + 1], status.reason)
        values.extend(status.values)
    end = checker.finish()
    assert end and end.complete
    values.extend(end.values)
    assert values == leaves(value)
    # Any chunking gives the same answer.
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=6)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    checker = JsonChecker()
    chunked: list[str] = []
    for piece in pieces:
        status = checker.feed(piece)
        assert status
        chunked.extend(status.values)
    chunked.extend(checker.finish().values)
    assert chunked == values
    # The relaxed checker accepts it too, with the same values, once a container opens.
    if isinstance(value, (list, dict)):
        status, relaxed_values, _ = run(text, strict=False, step=3)
        assert status and relaxed_values == values


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet='{}[]",:01e.-tru \\\nabx', max_size=14))
def test_checker_agrees_with_the_parser(text):
    """On arbitrary text: finished checker == is_valid_json, and a prefix the checker
    rejects is never part of a valid document."""
    checker = JsonChecker()
    status = checker.feed(text)
    ok = bool(status) and bool(checker.finish())
    assert ok == is_valid_json(text)
    if not status:
        assert not is_valid_json(text)
        # The failure position is exact: the text before it is a valid prefix.
        assert can_be_valid(text[: status.position])


class _General(JsonChecker):
    """The checker with every short path and memoized move turned off: each chunk goes
    through the general automaton."""

    __slots__ = ()

    def feed(self, chunk: str):
        return self._run(chunk)


class _GeneralRelaxed(_RelaxedChecker):
    """The relaxed checker, its watch for fence lines kept (it holds back the start of a
    line that may become one, by design), with the general automaton behind it."""

    __slots__ = ()

    def _automaton(self, chunk: str):
        return self._run(chunk)


class _WatchedRelaxed(_GeneralRelaxed):
    """The relaxed checker with every chunk through its watch for fence lines (its
    scans), not only the chunks its feed sends there."""

    __slots__ = ()

    def feed(self, chunk: str):
        return self._watched(chunk)


def _general(strict: bool, max_depth: int) -> JsonChecker:
    return _General(True, max_depth=max_depth) if strict else _WatchedRelaxed(False, max_depth=max_depth)


def _statuses(checker: JsonChecker, pieces: list[str]) -> list[tuple]:
    out = []
    for piece in pieces:
        s = checker.feed(piece)
        out.append((s.ok, s.reason, s.position, s.complete, s.values, s.open))
        if not s:
            return out
    s = checker.finish()
    out.append((s.ok, s.reason, s.position, s.complete, s.values, s.open))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=json_values,
    options=dump_options,
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(list('{}[]",:0-1etfn \\\n\x01x`~'))), max_size=3),
    cuts=st.lists(st.integers(1, 9), min_size=1, max_size=40),
    strict=st.booleans(),
    max_depth=st.sampled_from([1, 2, 3, 1000]),
)
def test_short_paths_and_memoized_moves_agree_with_the_general_automaton(
    value, options, edits, cuts, strict, max_depth
):
    """Every status (values, open text, failure position and reason) is the same whether
    a chunk takes a short path, a memoized move, or the general automaton."""
    text = json.dumps(value, **options)
    for at, ch in edits:  # damage the document a little, or not at all
        at %= len(text) + 1
        text = text[:at] + ch + text[at:]
    pieces, i, k = [], 0, 0
    while i < len(text):
        step = cuts[k % len(cuts)]
        pieces.append(text[i : i + step])
        i, k = i + step, k + 1
    for _ in range(2):  # the second time, the moves are memoized
        fast = _statuses(JsonChecker(strict, max_depth=max_depth), pieces)
        slow = _statuses(_general(strict, max_depth), pieces)
        assert fast == slow, (text, pieces)


def test_memoized_moves_respect_each_checkers_depth_limit():
    wide = JsonChecker(max_depth=1000)
    assert wide.feed("[[[[").ok and wide.feed("[[[[").ok  # "[[[[" is now memoized
    narrow = JsonChecker(max_depth=6)
    assert narrow.feed("[[[[").ok
    status = narrow.feed("[[[[")
    assert not status and status.position == 6 and "deeper than 6" in status.reason


def test_copy_is_independent():
    checker = JsonChecker()
    checker.feed('{"a": ["x')
    clone = checker.copy()
    assert clone.feed('y"]}').values == ("xy",)
    assert not checker.feed('"}')  # the original is still inside ["x: '}' cannot close '['
    assert clone.finish()


def test_can_be_valid_never_raises():
    assert can_be_valid("")
    assert not can_be_valid(None)  # type: ignore[arg-type]
    assert not can_be_valid(b"[1]")  # type: ignore[arg-type]
    assert can_be_valid("[" * 1000)
    assert not can_be_valid("[" * 1001)
    assert not can_be_valid("[1]", max_size=2)


# --- relaxed grammar --------------------------------------------------------------------
def test_relaxed_accepts_what_healing_repairs():
    reply = (
        "Sure! Here it is:\n```json\n"
        "{\n  name: 'Ann',  // a comment\n  \u201cquote\u201d: \u201cHi there\u201d,\n"
        '  "ok": True, "none": None, "nan": NaN, "n": +1, /* block */\n'
        '  "raw": "line\nbreak", "list": [1, 2,],\n}\n```\nHope this helps } ]'
    )
    for step in (1, 4, len(reply)):
        status, values, _ = run(reply, strict=False, step=step)
        assert status and status.complete, status.reason
        assert values == ["Ann", "Hi there", "true", "1", "line\nbreak", "1", "2"]


def test_relaxed_skips_think_blocks_before_the_payload():
    reply = '<think>maybe {"a": 1} or [2]</think>\n["x"]'
    for step in (1, 3, 50):
        status, values, _ = run(reply, strict=False, step=step)
        assert status and status.complete and values == ["x"]


@pytest.mark.parametrize(
    "reply",
    [
        '<reasoning>I think {x} </reasoning> {"a": 1}',
        '<thinking>maybe [1, 2 or {"b":</thinking>\n{"a": 1}',
        '<REASONING>upper case {"no": 0}</Reasoning >\n```json\n{"a": 1}\n```',
        '<think>a</think> <reasoning>b {</reasoning> {"a": 1}',
    ],
)
def test_relaxed_skips_every_think_tag_before_the_payload(reply):
    # regression: only <think> was known, so the relaxed checker committed to the '{'
    # inside a <reasoning> block and finished incomplete; tags may be split across chunks
    for step in range(1, len(reply) + 1):
        status, values, _ = run(reply, strict=False, step=step)
        assert status and status.complete and values == ["1"], (step, status)


def test_relaxed_bare_scalar_after_a_reasoning_block():
    status, values, _ = run("<reasoning>{draft}</reasoning>\n42", strict=False, step=2)
    assert status and status.complete and values == ["42"]


def test_a_think_block_before_the_payload_is_read_across_chunks():
    # tags split across chunks, a closing tag whose `>` comes after much white space
    checker = JsonChecker(False)
    values = []
    for chunk in ["prose <reas", "oning>", *["long thought [2] </reasoning" + " " * 50] * 200, ">", " [1]"]:
        status = checker.feed(chunk)
        assert status
        values += status.values
    assert checker.finish().complete and values == ["1"]  # values are texts, as counted


def test_relaxed_is_lenient_where_strict_fails():
    for text in ('{"a": tru3}', "[1,,2]", '{"a" 1}', "[1 2]", "[01]", '{"a": [1}', "['a\\q']"):
        assert not run(text)[0]
        assert run(text, strict=False)[0], text


def test_relaxed_truncated_reply_can_still_heal():
    status, values, _ = run('Here: {"a": "cut off mid', strict=False, step=5)
    assert status and not status.complete
    assert values == ["cut off mid"]  # healing closes the string and keeps its text


def test_relaxed_fails_only_when_hopeless():
    status, _, _ = run("Sorry, I cannot help with that.", strict=False)
    assert not status and "no JSON" in status.reason
    assert run("<think>hmm</think> 42", strict=False)[0]  # a bare scalar is JSON too
    assert run('```json\n"just a string"\n```', strict=False)[1] == ["just a string"]
    deep = JsonChecker(False, max_depth=2)
    assert not deep.feed("x [[[")


# --- linear work, counted -------------------------------------------------------------------
def _count_lines(checker: JsonChecker, chunks: list[str], *, warm: bool = False) -> int:
    """Python lines executed inside the checker module while feeding ``chunks``; with
    ``warm``, after another checker has been fed the same chunks (moves memoized)."""
    module_file = sys.modules[JsonChecker.__module__].__file__
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename != module_file:
            return None
        if event == "line":
            count += 1
        return tracer

    # Start cold: the shared tables of memoized moves and interned statuses would
    # otherwise make a chunk seen before cheaper than one seen for the first time.
    stream._MOVES.clear()
    stream._OPEN.clear()
    if warm:
        warmer = JsonChecker()
        for chunk in chunks:
            warmer.feed(chunk)
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        for chunk in chunks:
            checker.feed(chunk)
    finally:
        sys.settrace(old)
    return count


def _record(k: int) -> str:
    return json.dumps(
        {"id": k, "text": "word " * (k % 7 + 3), "tags": ["a", "b\\n"], "x": 1.5, "ok": k % 2 == 0}, indent=2
    )


def test_work_grows_linearly_with_the_document():
    def work(n_records: int) -> int:
        text = "[" + ",".join(_record(k) for k in range(n_records)) + "]"
        chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
        return _count_lines(JsonChecker(), chunks) / len(text), _count_lines(JsonChecker(), chunks, warm=True) / len(
            text
        )

    (small, small_warm), (big, big_warm) = work(28), work(224)  # 8x the text
    # Cold, a longer text repeats more of its chunks, so memoized moves make it cheaper
    # per character, never dearer; warm, the work per character is the same.
    assert big <= small * 1.05, (small, big)
    assert abs(big_warm - small_warm) / small_warm < 0.05, (small_warm, big_warm)


def test_work_for_a_chunk_does_not_depend_on_what_came_before():
    short = JsonChecker()
    short.feed('{"a": [' + "1, " * 10 + '"' + "x" * 40)
    long = JsonChecker()
    long.feed('{"a": [' + "1, " * 20000 + '"' + "x" * 400000)
    tail = ['xx", 12', "3, tr", 'ue, "\\u00e9', '\\n"]}']
    assert _count_lines(short, tail) == _count_lines(long, tail)


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


def _finish(text: str, schema: object, strict: bool = True) -> bool:
    checker = JSON.stream(schema, strict=strict)
    return bool(checker.feed(text)) and bool(checker.finish())


@pytest.mark.parametrize("size", [1, 2, 3, 100])
def test_a_fence_line_ends_the_payload_for_the_relaxed_checker(size):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a fence line inside a cut-off
    string (json-guard_limits-cc9f2b8e12, -df7b3348bf).
    """
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
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a fence line inside a cut-off
    string (json-guard_limits-cc9f2b8e12, -df7b3348bf).
    """
    text = '{"a": 1,\n~~~\n"b": "two words"}'
    values, _ = _reported(text, size)
    assert values == ["1"]
    # the payload goes on after the fence line: check() refuses it (json.fence_inside)
    assert [v.code for v in check(text, "EXPECT JSON").violations] == ["json.fence_inside"]


@pytest.mark.parametrize("size", [1, 2, 100])
def test_two_backticks_at_a_line_start_are_no_fence_line(size):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a fence line inside a cut-off
    string (json-guard_limits-cc9f2b8e12, -df7b3348bf).
    """
    # held back while the line may become a fence line, then fed: it is string text
    text = '{"a": "x\n``'
    values, _ = _reported(text, size)
    assert values == ["x\n``"]
    assert check(text, "EXPECT JSON").value == {"a": "x\n``"}


def test_a_fence_line_before_the_payload_is_prose():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a fence line inside a cut-off
    string (json-guard_limits-cc9f2b8e12, -df7b3348bf).
    """
    values, _ = _reported(FENCE + 'json\n{"a": "b"}\n' + FENCE, 4)
    assert values == ["b"]


@pytest.mark.parametrize(
    "reply", ['{a"\n' + FENCE, '{firstName"a" "lastName" "\n' + FENCE, '{"a": "x y\n' + FENCE + "\nz w v"]
)
def test_the_guard_at_check_s_own_counts_does_not_stop_a_fence_cut_reply(reply):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a fence line inside a cut-off
    string (json-guard_limits-cc9f2b8e12, -df7b3348bf).
    """
    counted = check(reply, "EXPECT JSON\nEXPECT MAX 1000 WORDS\nEXPECT MAX 1000 CHARACTERS")
    assert counted.ok
    words, characters = counted.counts["words"], counted.counts["characters"]
    for size in (1, 2, 3, len(reply)):
        guard = StreamGuard(f"EXPECT JSON\nEXPECT MAX {words} WORDS\nEXPECT MAX {characters} CHARACTERS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])


@pytest.mark.parametrize(
    "reply", ['{a"" ]', FENCE + 'json\n] {"a": 1}\n' + FENCE, FENCE + "json\n// c\n{a: 1}\n" + FENCE]
)
def test_healing_the_healed_reply_changes_nothing(reply):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): heal is idempotent, white space
    included (json-heal_idempotent-a823484d91).
    """
    first = heal(reply, "EXPECT JSON")
    again = heal(first.text, "EXPECT JSON")
    assert (again.text, again.repairs) == (first.text, ())


def test_the_strict_checker_with_a_schema_agrees_with_is_valid():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): the strict checker's finish()
    with a schema (json-contract-26e0d9a886).
    """
    schema = {"type": "object", "required": ["name"]}
    assert not JSON.is_valid('[{"":""},{"":""}]', schema)
    assert not _finish('[{"":""},{"":""}]', schema)
    assert not _finish('{"nam": 1}', schema)
    assert _finish('{"name": "Ada"}', schema)
    assert _finish('[{"":""},{"":""}]', None)  # no schema: syntax only


def test_the_schema_refusal_is_reported_at_the_end_and_a_copy_keeps_the_text():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): the strict checker's finish()
    with a schema (json-contract-26e0d9a886).
    """
    checker = JSON.stream({"not": {"type": "object"}}, strict=True)  # no prefix decides `not`
    assert checker.feed('{"a"')
    clone = checker.copy()
    assert checker.feed(": 1}")
    end = checker.finish()
    assert not end and end.position == 8
    assert clone.feed(": 2, ")  # the clone goes on alone from its own copy of the text
    assert not clone.feed("]")


def test_the_relaxed_checker_judges_the_schema_as_leniently_as_healing():
    """Issue 26: the relaxed checker stops what no repair can bring to the schema (an
    array where an object is asked, once the bracket is the payload), and lets through
    what healing's schema-aware repairs fix (``"36"`` for an integer), which the strict
    one refuses at the quote."""
    assert not _finish('[{"":""}]', {"type": "object"}, strict=False)
    schema = {"type": "object", "properties": {"age": {"type": "integer"}}}
    assert _finish('{"age": "36"}', schema, strict=False)
    status = JSON.stream(schema, strict=True).feed('{"age": "36"}')
    assert not status and status.position == 8


@pytest.mark.parametrize("text", ['""\xa0', '\xa0""', '\u3000{"a": 1}\u2028\n', "1\u3000"])
def test_unicode_white_space_around_the_document_is_white_space(text):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): white space around the payload
    (json-guard_agrees-2caa165e29).
    """
    assert is_valid_json(text)
    for size in (1, 2, len(text)):
        checker = JsonChecker(strict=True)
        assert all(checker.feed(text[i : i + size]) for i in range(0, len(text), size))
        assert checker.finish()
    result = check(text, "EXPECT JSON")
    assert result.ok and not result.repairs
    assert heal_payload(text).repairs == ()


def test_inside_the_document_only_json_white_space_counts():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): white space around the payload
    (json-guard_agrees-2caa165e29).
    """
    assert not is_valid_json('{"a":\xa01}')
    checker = JsonChecker(strict=True)
    status = checker.feed('{"a":\xa01}')
    assert not status and status.position == 5


def test_the_strict_guard_does_not_stop_a_payload_followed_by_a_no_break_space():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): white space around the payload
    (json-guard_agrees-2caa165e29).
    """
    guard = StreamGuard("EXPECT JSON", strict=True)
    assert guard.feed('""') and guard.feed("\xa0")
    assert guard.finish().ok


@pytest.mark.parametrize("size", [1, 2, 3, 5, 100])
def test_an_exponent_of_17_digits_fed_in_pieces_is_refused(size):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): found by the 5-minute run."""
    # json-contract-efc9f40088: the short path for a number going on into the next chunk
    # did not count the exponent digits fed before, so the number passed unchecked
    text = "[0.4e999999999999999999]"
    assert not JSON.is_valid(text)
    checker = JsonChecker(strict=True)
    fed = [checker.feed(text[i : i + size]) for i in range(0, len(text), size)]
    assert not fed[-1] and not checker.finish()
    assert fed[-1].position == 23  # the "]" that ends the number


def test_an_unclosed_fence_holding_strict_json_keeps_no_trailing_blanks():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): found by the 5-minute run."""
    # json-heal_idempotent-701b246542: the blanks a cut reply ends with belong to a cut
    # value, not to a complete one
    reply = FENCE + 'json\n""\n'
    first = heal(reply, "EXPECT JSON")
    assert first.text == '""'
    assert heal(first.text, "EXPECT JSON").text == '""'
    cut = heal(FENCE + 'json\n{"a": "x \n', "EXPECT JSON")
    assert cut.text == '{"a": "x \\n"}'  # a cut string keeps them


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the stream dropped "\u" before a non-hex character: 'ᨇD' read as a capital word,
        # which check()'s value '\\uᨇD' (backslash first) is not, so the guard at
        # check()'s own counts stopped the reply
        ('["\\u\u1a07D\na', "\\u\u1a07D\na"),
        ('["a\\q"]', "a\\q"),
        ('["a\\u12G"]', "a\\u12G"),
        ('["it\\\'s"]', "it's"),
        ('["a\\u', "a"),  # a cut escape is dropped, as healing drops it
        # a backslash that escapes nothing makes the string's backslashes literal
        ('["C:\\Users\\ada\\new"]', "C:\\Users\\ada\\new"),
        ('["a\\qb\\tc\\u00e9"]', "a\\qb\\tc\\u00e9"),
        ('["a\\u12G\\n"]', "a\\u12G\\n"),
        # a cut \u after a literal backslash is dropped, as healing drops it
        # (fuzz --seed 31337: json-guard_limits-6fb17f1146)
        ('["\\a\\u', "\\a"),
        ('["\\a\\u00', "\\a"),
        ('["\\a\\u0041"]', "\\a\\u0041"),
        ('["a\\\\b\\q\\"c"]', 'a\\b\\q"c'),  # \\ and \" keep their meaning
    ],
)
def test_the_relaxed_checker_reports_unknown_escapes_as_healing_writes_them(text, value):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): an unknown escape is reported as
    healing writes it (json-guard_limits-de1808735d).
    """
    assert JSON.parse(heal_payload(text).text) == [value]
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('["\\ud800\\uZ"]', "\\ud800\\uZ"),
        ('["line\\nnext \\d"]', "line\\nnext \\d"),
        ('["a\\tb \\u00e9 \\x"]', "a\\tb \\u00e9 \\x"),
    ],
)
def test_a_decoded_escape_before_one_that_escapes_nothing_is_not_reported(text, value):
    """Healing reads the string's backslashes as literal once one escapes nothing; the
    stream has already read the \\n before it as a line break, so it reports neither the
    value nor its open text after the \\n (a lower bound: a guard never over-counts)."""
    assert JSON.parse(heal_payload(text).text) == [value]
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == []


def test_the_guard_at_check_s_own_counts_does_not_stop_an_unknown_escape():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): an unknown escape is reported as
    healing writes it (json-guard_limits-de1808735d).
    """
    reply = '["\\u\u1a07D\na'
    counted = check(reply, "EXPECT JSON\nEXPECT MAX 1000 CAPITAL WORDS")
    assert counted.ok and counted.counts["capital words"] == 0
    for size in (1, 2, len(reply)):
        guard = StreamGuard("EXPECT JSON\nEXPECT MAX 0 CAPITAL WORDS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])


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
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a number-like key is one token,
    as healing reads it (json-guard_limits-fe116d5cc5).
    """
    assert JSON.parse(heal_payload(text).text) == healed
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == values


def test_the_guard_at_check_s_own_counts_does_not_stop_a_number_like_key():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a number-like key is one token,
    as healing reads it (json-guard_limits-fe116d5cc5).
    """
    reply = "{0+1]"
    assert check(reply, "EXPECT JSON\nEXPECT MAX 1000 WORDS").counts["words"] == 0
    for size in (1, 2, 5):
        guard = StreamGuard("EXPECT JSON\nEXPECT MAX 0 WORDS\nEXPECT MAX 0 CHARACTERS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])


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
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): after a mismatched closing
    bracket nothing more is counted (json-guard_limits-09e7e19de9).
    """
    assert check(text, "EXPECT JSON").value == healed
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == values


def test_the_guard_at_check_s_own_counts_does_not_stop_after_a_mismatched_bracket():
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): after a mismatched closing
    bracket nothing more is counted (json-guard_limits-09e7e19de9).
    """
    reply = '{"":["",{a""]"aa'
    assert check(reply, "EXPECT JSON\nEXPECT MAX 1000 WORDS").counts["words"] == 0
    for size in (1, 3, len(reply)):
        guard = StreamGuard("EXPECT JSON\nEXPECT MAX 0 WORDS\nEXPECT MAX 0 CHARACTERS")
        for i in range(0, len(reply), size):
            assert guard.feed(reply[i : i + size])


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
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a high surrogate after a lone
    high one may pair (json-guard_limits-07eeecb811).
    """
    assert JSON.parse(heal_payload(text).text) == [value]
    for size in (1, 2, 3, 100):
        assert _reported(text, size)[0] == [value]


@pytest.mark.parametrize(
    ("text", "values", "healed"),
    [
        # the locator reads this ' as text (no bracket, comma or colon before it) and ends
        # the candidate at the "}" after it; the healer reads a string "}" there. The stream
        # read the string "}aa" (3 characters, check() counts 1): now it counts nothing
        # from such a quote on
        # (healing now refuses the string "}": it runs to the candidate's closing bracket)
        ("{a'}aa", [], None),
        ("{a 'x y'}", [], {"a": "x y"}),
        ("[1 'x']", ["1"], [1, "x"]),
        ("{a: 'x y'}", ["x y"], {"a": "x y"}),  # after a colon: read as before
    ],
)
def test_the_relaxed_checker_counts_nothing_from_a_loose_single_quote(text, values, healed):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a single quote after a missing
    colon or comma (json-guard_limits-c9cfc4f8ac).
    """
    assert check(text, "EXPECT JSON").value == healed
    for size in (1, 2, 100):
        assert _reported(text, size)[0] == values


@pytest.mark.parametrize("cut", [14, 15, 16])
def test_an_indented_fence_line_split_after_its_spaces_ends_the_payload(cut):
    """Fuzz finding (was test_fuzz_findings.py; repros in tests/fuzz/repros/json-*): a fence line's indentation at a
    chunk's end is held back (json-guard_limits-685d996229).
    """
    # chunk one ended with "\n  ": the spaces were fed as string text, so the "```" of the
    # next chunk was no longer at a line start and "```aaa" was counted
    text = '[    "aaaaaaa\n  ' + FENCE + "aaa"
    assert check(text, "EXPECT JSON").value == ["aaaaaaa\n"]
    checker = JsonChecker(strict=False)
    values: list[str] = []
    for piece in (text[:cut], text[cut:]):
        values += checker.feed(piece).values
    assert values + list(checker.finish().values) == ["aaaaaaa\n"]


def test_the_guard_never_stops_the_reply_check_refuses_any_less():
    """Think block inside a payload after prose (was test_think_inside_prose.py)."""
    # check() now refuses these; the relaxed guard counts nothing before the end for a
    # payload after prose, so it has nothing to stop either (and never stops one check()
    # accepts)
    for reply in ['Sure: {"a": "x", <think>hmm</think> "b": 2}', 'Here: {"a": 1} <think>x</think>']:
        guard = StreamGuard("EXPECT JSON")
        for ch in reply:
            status = guard.feed(ch)
            assert status.ok, (reply, status)
