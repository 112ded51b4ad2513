"""A heal keeps the meaning or refuses (issue 25), and a healer treats text as cut off
only where the reply ends (issue 30): each class with variants of its own, through
check() and a StreamGuard fed in chunks."""

from __future__ import annotations

import pytest

from formatbook_core import Expectations, StreamGuard, check


def _guard_agrees(reply: str, expect: str) -> None:
    """A guard fed ``reply`` in chunks never stops what check() accepts, at check()'s own counts."""
    result = check(reply, expect)
    for size in (1, 2, 5, 1000):
        guard = StreamGuard(expect)
        fed = all(guard.feed(reply[i : i + size]) for i in range(0, len(reply), size))
        if result.ok:
            assert fed, (reply, size)
        assert guard.finish().ok == result.ok


# --- a backslash that escapes nothing: the string's backslashes are literal -----------
PATHS = [
    ('{"path": "C:\\Users\\ada\\new"}', {"path": "C:\\Users\\ada\\new"}),
    ('{"path": "D:\\data\\tmp\\report.txt"}', {"path": "D:\\data\\tmp\\report.txt"}),
    ("{'dir': 'C:\\Program Files\\nodejs'}", {"dir": "C:\\Program Files\\nodejs"}),
    ('```json\r\n{"p": "\\\\server\\share\\new folder"}\r\n```', {"p": "\\server\\share\\new folder"}),
    ('<think>a path</think>{"p": "C:\\Temp\\u_files\\b"}', {"p": "C:\\Temp\\u_files\\b"}),
    ('Voilà : {"chemin": "C:\\Utilisateurs\\élodie\\notes"}', {"chemin": "C:\\Utilisateurs\\élodie\\notes"}),
]


@pytest.mark.parametrize(("reply", "value"), PATHS)
def test_a_raw_windows_path_keeps_its_backslashes(reply, value):
    result = check(reply, "EXPECT JSON")
    assert result.ok and result.value == value
    assert "invalid_escape" in [r.kind for r in result.repairs]
    assert check(result.text, "EXPECT JSON").value == value  # idempotent
    _guard_agrees(reply, "EXPECT JSON")
    words = len(" ".join(value.values()).split())
    _guard_agrees(reply, f"EXPECT JSON\nEXPECT MAX {words} WORDS")


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('{"a": "line one\\nline two"}', {"a": "line one\nline two"}),  # JSON as it stands
        ('{"a": "tab\\there \\\\ and \\"q\\""}', {"a": 'tab\there \\ and "q"'}),
        ('{"a": "it\\\'s\\nfine"}', {"a": "it's\nfine"}),  # \' is the apostrophe meant, no literal mode
    ],
)
def test_a_string_without_such_a_backslash_reads_as_json(reply, value):
    assert check(reply, "EXPECT JSON").value == value


# --- a string the reply does not cut: refused, never read as cut off ------------------
@pytest.mark.parametrize(
    "reply",
    [
        '{"key:value}',
        '{"name": "Ada", "city:Paris}',
        '[{"id": 1}, {"name:Bob}]',
        '```json\r\n{"key:value}\r\n```',
        '<think>x</think>{"clé:valeur}  ',
        # a smart quote opening a key: the rest of the object is no cut string
        '{"name": "Ada", \u2019age": 36}',
        '{"name": "Ada", \u2018age": 36, "city": "Oslo"}',
        '{"name": "Ada", \'age": 36, "city": "Oslo"',
        'Voici : {"nom": "Ada", \u201dâge": 36}',
        '```json\n{"name": "Ada", \u2019age": 36}\n```\nDone.',
    ],
)
def test_a_string_the_reply_does_not_cut_is_refused(reply):
    result = check(reply, "EXPECT JSON")
    assert not result.ok
    assert result.violations[0].code == "json.unclosed_string"
    _guard_agrees(reply, "EXPECT JSON")
    _guard_agrees(reply, "EXPECT JSON\nEXPECT MAX 3 CHARACTERS")


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('{"name": "Ada", "note": "cut here', {"name": "Ada", "note": "cut here"}),
        ('{"name": "Ada", "note": "It\u2019s cut', {"name": "Ada", "note": "It\u2019s cut"}),
        ('[{"id": 1}, {"id": 2, "tag": "b', [{"id": 1}, {"id": 2, "tag": "b"}]),
    ],
)
def test_a_string_the_reply_cuts_is_still_closed(reply, value):
    result = check(reply, "EXPECT JSON")
    assert result.ok and result.value == value and result.truncated


# --- a bracket that closed the document early: the rest is not set aside ---------------
@pytest.mark.parametrize(
    "reply",
    [
        '{"key": "value"}, "key2": "value2"}',
        '{"a": 1},\r\n  "b": [1, 2]\r\n}',
        'Here it is: {"name": "Ada"}, "age": 36}',
        '```json\n{"name": "Ada"}, "age": 36}\n```',
        '<think>hm</think>{"nom": "Ada"}, "âge": 36}',
    ],
)
def test_a_document_going_on_after_its_closing_bracket_is_refused(reply):
    result = check(reply, "EXPECT JSON")
    assert not result.ok
    assert result.violations[0].code == "json.heal"
    _guard_agrees(reply, "EXPECT JSON")


# --- values one per line where the schema asks for an array: all of them ---------------
ITEMS = {"type": "array", "items": {"type": "object", "required": ["id"]}}


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('{"id": 1}\n{"id": 2}\n{"id": 3}', [{"id": 1}, {"id": 2}, {"id": 3}]),
        ('{"id": 1},\r\n{"id": 2},\r\n', [{"id": 1}, {"id": 2}]),
        ('Here are the rows:\n{"id": 1}\n{"id": 2, "tags": ["a"]}', [{"id": 1}, {"id": 2, "tags": ["a"]}]),
        ('```jsonl\n{"id": 1}\n{"id": 2}\n```', [{"id": 1}, {"id": 2}]),
        ("<think>two rows</think>\n{'id': 1}\n{'id': 2,}", [{"id": 1}, {"id": 2}]),
        ('{"id": 1}\n\n  {"id": 2}', [{"id": 1}, {"id": 2}]),
    ],
)
def test_values_one_per_line_are_all_wrapped_in_the_array_asked_for(reply, value):

    exp = Expectations(format="json", schema=ITEMS)
    result = check(reply, exp)
    assert result.ok and result.value == value
    assert "wrapped_lines" in [r.kind for r in result.repairs]
    assert check(result.text, exp).value == value  # idempotent
    for size in (1, 3, 1000):
        guard = StreamGuard(exp)
        assert all(guard.feed(reply[i : i + size]) for i in range(0, len(reply), size))
        assert guard.finish().value == value


def test_one_value_alone_is_still_wrapped_as_before():

    result = check('{"id": 1}', Expectations(format="json", schema=ITEMS))
    assert result.ok and result.value == [{"id": 1}]


@pytest.mark.parametrize(
    "reply",
    [
        '```json\n["\\u\n```',
        '```json\r\n["\\u12\r\n```\r\nDone.',
        'Here:\n```json\n{"a": "x\\u\n```',
        '["\\u\nnext"]',
        '{"a": \u2018x\u2019}',
        "[\u201chello world\u201d]",
        '{"a": \u201cx y',
    ],
)
def test_the_guard_at_check_s_own_character_count_lets_the_reply_pass(reply):
    # a \u before a line break may be the cut escape healing drops (a fence line may
    # follow): the stream counts nothing from there on (issue 30)
    result = check(reply, "EXPECT JSON\nEXPECT MIN 0 CHARACTERS")
    assert result.ok
    _guard_agrees(reply, f"EXPECT JSON\nEXPECT MAX {result.counts['characters']} CHARACTERS")


@pytest.mark.parametrize(
    "reply",
    [
        '["a", "b").',  # ")" a typo for "]": the quote closes "b"
        '["a", "b") ok',
        '{"tags": ["x", "y")}',
        'Sure: ["a", "b").\n',
        '{"a": "He said (see "x") and then',  # cut inside a string with an inner quote and ")"
    ],
)
def test_a_string_read_past_a_quote_and_a_paren_to_the_end_is_refused(reply):
    # read on to the end of the reply as cut off, the string would keep '")' and what
    # follows: the quote may close it instead; between the two readings, fail
    result = check(reply, "EXPECT JSON")
    assert not result.ok
    assert result.value is None or '")' not in str(result.value)


def test_a_quote_and_a_paren_inside_a_closed_string_stay_text():
    result = check('{"a": "He said (see "x") and", "b": 1}', "EXPECT JSON")
    assert result.ok and result.value == {"a": 'He said (see "x") and', "b": 1}
