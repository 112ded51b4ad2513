"""JSON's white space is JSON's (issue 25): the control characters Python calls white
space (U+000B, U+000C, U+001C-U+001F, U+0085) are text, around the payload too; and the
spellings with one plausible reading (Python tuples, digit separators, TRUE/FALSE/Null)
are healed with listed repairs."""

from __future__ import annotations

import pytest

from formatbook_core import Expectations, StreamGuard, check

CONTROLS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85"]


@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize(
    "template",
    [
        '{{"a": 1}}{c}',
        "[1, 2]{c}\n",
        '{{"a": 1}} {c} ',
        'Here:\r\n```json\r\n{{"a": 1}}{c}\r\n```',
        "<think>x</think>[1]{c}",
    ],
)
def test_a_control_character_after_the_payload_is_listed_not_passed(control, template):
    reply = template.format(c=control)
    result = check(reply, "EXPECT JSON")
    assert result.verdict == "healed"  # never "pass": the character is set aside and listed
    assert "trailing_data" in [r.kind for r in result.repairs]
    assert any(control in s.text for s in result.set_aside)


@pytest.mark.parametrize("control", CONTROLS)
def test_a_strict_guard_refuses_a_control_character_inside_the_document(control):
    guard = StreamGuard("EXPECT JSON", strict=True)
    assert guard.feed("{")
    # JSON's surrounding_space holds no control character: the guard does not hold it
    # back as white space check() would strip, and refuses it at once
    assert not guard.feed(control * 100)
    assert not check("{" + control * 100, "EXPECT JSON").ok


@pytest.mark.parametrize("control", CONTROLS)
def test_a_strict_guard_refuses_a_control_character_after_the_document(control):
    guard = StreamGuard("EXPECT JSON", strict=True)
    assert guard.feed('{"a": 1}')
    assert not guard.feed(control)  # check() lists it (trailing_data): not valid as it stands
    relaxed = StreamGuard("EXPECT JSON")
    assert relaxed.feed('{"a": 1}') and relaxed.feed(control)  # healing sets it aside
    assert relaxed.finish().ok


@pytest.mark.parametrize("space", ["\xa0", "\u2028", "\u3000", " \n", "\t"])
def test_unicode_white_space_around_the_payload_still_passes(space):
    result = check('{"a": 1}' + space, "EXPECT JSON")
    assert result.verdict == "pass" and result.value == {"a": 1}
    guard = StreamGuard("EXPECT JSON", strict=True)
    assert guard.feed('{"a": 1}') and guard.feed(space)
    assert guard.finish().ok


SPELLINGS = [
    ("[1_234, 2_000.5]", [1234, 2000.5], "number_format"),
    ('{"population": 8_100_000_000}', {"population": 8100000000}, "number_format"),
    ("[TRUE, FALSE, Null]", [True, False, None], "literal_case"),
    ('{"ok": NULL, "done": tRuE}', {"ok": None, "done": True}, "literal_case"),
    ("(1, 2)", [1, 2], "python_tuple"),
    ('{"point": (3, 4)}', {"point": [3, 4]}, "python_tuple"),
    ("Here:\r\n```python\r\n{'a': (1, (2, 3)), 'b': None}\r\n```", {"a": [1, [2, 3]], "b": None}, "python_tuple"),
    ('<think>a tuple</think>{"pair": (1,)}', {"pair": [1]}, "python_tuple"),
    # tuples of strings: a string directly before the tuple's ")" closes there
    ('("a", "b")', ["a", "b"], "python_tuple"),
    ("('a', 'b')", ["a", "b"], "python_tuple"),
    ('{"tags": ("x", "y"), "n": 1}', {"tags": ["x", "y"], "n": 1}, "python_tuple"),
    ('{"pair": ("a",)}', {"pair": ["a"]}, "python_tuple"),
    ('(("a", "b"), ("c", 1))', [["a", "b"], ["c", 1]], "python_tuple"),
    ('[("a", 1), ("b", 2)]', [["a", 1], ["b", 2]], "python_tuple"),
    ('{"x": ("a",\r\n "b")}', {"x": ["a", "b"]}, "python_tuple"),
    ('Here:\n```json\n("a", "b")\n```', ["a", "b"], "python_tuple"),
    ('<think>t</think>{"x": ("a", "b")}', {"x": ["a", "b"]}, "python_tuple"),
    # a ")" inside a string: the string closes only where what follows its ")" may follow
    ('("a (see "b")", "c")', ['a (see "b")', "c"], "python_tuple"),
]


@pytest.mark.parametrize(("reply", "value", "kind"), SPELLINGS)
def test_a_spelling_with_one_reading_is_healed_and_listed(reply, value, kind):
    result = check(reply, "EXPECT JSON")
    assert result.ok and result.value == value
    assert kind in [r.kind for r in result.repairs]
    assert check(result.text, "EXPECT JSON").value == value  # idempotent
    for unit in ("CHARACTERS", "WORDS"):
        count = check(reply, f"EXPECT JSON\nEXPECT MIN 0 {unit}").counts[unit.lower()]
        expect = f"EXPECT JSON\nEXPECT MAX {count} {unit}"
        for size in (1, 3, 1000):
            guard = StreamGuard(expect)
            assert all(guard.feed(reply[i : i + size]) for i in range(0, len(reply), size))
            assert guard.finish().ok


@pytest.mark.parametrize(
    "reply",
    [
        "[1__2]",
        "[_1]",
        "[1_]",
        "{(1, 2): 3}",
        "(see above)",
        # a tuple's ")" after a quote, then prose: that quote may close the string or not
        '("a", "b").',
        '("a", "b") is the answer',
        '{"x": ("a", "b") and more}',
    ],
)
def test_a_spelling_without_one_reading_is_refused(reply):
    assert not check(reply, "EXPECT JSON").ok


STRINGS = {"type": "object", "properties": {"version": {"type": "string"}, "zip": {"type": "string"}}}


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('{"version": 3.10}', {"version": "3.10"}),
        ('{"zip": 02134}', {"zip": "02134"}),  # the syntax step's 2134 is quoted as written
        ('Here:\r\n```json\r\n{"version": 1e3, "zip": "02134"}\r\n```', {"version": "1e3", "zip": "02134"}),
        ("<think>x</think>{'version': 2.50, 'zip': 00501,}", {"version": "2.50", "zip": "00501"}),
        ('{"version": -0.0}', {"version": "-0.0"}),
    ],
)
def test_a_number_a_string_schema_asks_for_keeps_its_text_as_written(reply, value):
    exp = Expectations(format="json", schema=STRINGS)
    result = check(reply, exp)
    assert result.ok and result.value == value
    assert "number_to_string" in [r.kind for r in result.repairs]
    assert check(result.text, exp).value == value


def test_yaml_numbers_a_string_schema_asks_for_keep_their_text():
    exp = Expectations(format="yaml", schema=STRINGS)
    result = check("version: 3.10\nzip: '02134'\n", exp)
    assert result.ok and result.value == {"version": "3.10", "zip": "02134"}
