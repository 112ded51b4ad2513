"""``JsonChecker.closing()``: the shortest text after which the strict checker ends, at
every prefix of documents that reach each state (strings, keys, escapes, surrogate pairs,
numbers, literals, nesting), and ``StreamGuard.closing()`` around it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from formatbook_core import Count, Expectations, StreamGuard, check
from formatbook_core.reply import THINK_TAGS
from formatbook_json.stream import JsonChecker
from tests.core.jsonschema_instances import from_schema

DOCUMENTS = [
    '{"a": [1, {"b": "x\\ud83d\\ude00y"}, -1.5e+3, true, null], "c": {}}',
    '["\\u00e9\\n", 0, [], [[false]], {"k\\"ey": -0.25E7}]',
    "12",
    '"s \\\\ \\/"',
    " [ 1 ,\t2 ]\r\n",
    '{"\\ud800\\udc00": "\\uDBFF\\uDFFF"}',
]


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_every_prefix_closes_into_a_document_the_checker_and_json_accept(doc):
    json.loads(doc)
    for cut in range(len(doc) + 1):
        checker = JsonChecker(True)
        assert checker.feed(doc[:cut]) or cut == 0
        closing = checker.closing()
        assert closing is not None, doc[:cut]
        json.loads(doc[:cut] + closing)  # the strict grammar's own judge
        probe = checker.copy()
        assert (not closing or probe.feed(closing)) and probe.finish(), (doc[:cut], closing)
        assert probe.closing() == ""


def test_the_closing_is_the_shortest_a_hand_written_few():
    cases = {
        "": "0",
        "[": "]",
        "{": "}",
        '{"a"': ":0}",
        '{"a":': "0}",
        '{"a": 1,': '"":0}',
        '{"a": "x': '"}',
        '{"a': '":0}',
        '["\\': 'n"]',
        '["\\u0': '000"]',
        '["\\ud83d': '\\udc00"]',
        '["\\ud83d\\': 'udc00"]',
        '["\\ud83d\\ude': '00"]',
        "[-": "0]",
        "[1.": "0]",
        "[1e+": "0]",
        "[tr": "ue]",
        "[1": "]",
        "12": "",
        "{}": "",
    }
    for prefix, expected in cases.items():
        checker = JsonChecker(True)
        checker.feed(prefix)
        assert checker.closing() == expected, prefix


def test_no_closing_after_a_failure_or_in_relaxed_mode():
    checker = JsonChecker(True)
    assert not checker.feed("[1,,")
    assert checker.closing() is None
    relaxed = JsonChecker(False)
    relaxed.feed("prose {")
    assert relaxed.closing() is None


def test_the_guard_gives_the_checkers_closing_unless_it_holds_text_back():
    guard = StreamGuard("EXPECT JSON", strict=True)
    guard.feed('{"a": [1')
    assert guard.closing() == "]}"
    copy = guard.copy()
    copy.feed("]}")
    assert copy.closing() == "" and guard.closing() == "]}"  # each copy asks its own checker
    held = guard.copy()
    held.feed(", <thi")  # may begin a think tag: the checker has not seen it
    assert held.closing() is None
    assert StreamGuard("EXPECT TEXT").closing() is None  # a checker without closing()
    assert StreamGuard(None).closing() == ""  # no format: it may end anywhere
    failed = StreamGuard("EXPECT JSON", strict=True)
    failed.feed("]")
    assert failed.closing() is None


# --- with a schema: the closing writes what the schema still needs ---------------------------

SCHEMAS = {
    "contact": {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "email": {"type": "string", "minLength": 3},
            "age": {"type": "integer", "minimum": 18},
            "city": {"type": "string"},
        },
        "required": ["name", "email", "age", "city"],
    },
    "closed": {
        "type": "object",
        "properties": {"kind": {"enum": ["card", "note"]}, "tags": {"type": "array", "minItems": 2}},
        "required": ["kind", "tags"],
        "additionalProperties": False,
    },
    "nested": {
        "type": "object",
        "properties": {
            "owner": {
                "type": "object",
                "properties": {"id": {"type": "integer", "exclusiveMinimum": 5}, "ok": {"type": "boolean"}},
                "required": ["id", "ok"],
            },
            "items": {"type": "array", "items": {"type": "number", "multipleOf": 3, "minimum": 1}, "minItems": 1},
        },
        "required": ["owner", "items"],
    },
    "tuple": {
        "type": "array",
        "prefixItems": [{"const": "v1"}, {"type": "null"}, {"type": "object", "required": ["x"]}],
        "minItems": 3,
    },
    "union": {"anyOf": [{"type": "integer", "maximum": -3}, {"type": "object", "required": ["a"]}]},
    "tree": {
        "$ref": "#/$defs/node",
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"v": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                "required": ["v"],
            }
        },
    },
}

INSTANCES = {
    "contact": [
        '{"name": "Ada", "email": "a@b.c", "age": 36, "city": "Oslo"}',
        '{"city":"Oslo","age":18,"email":"xyz","name":""}',
    ],
    "closed": ['{"kind": "note", "tags": [1, "two", null]}'],
    "nested": ['{"items": [3, 6.0], "owner": {"ok": true, "id": 6}, "extra": [{"k": "\\u00e9"}]}'],
    "tuple": ['["v1", null, {"x": [1], "y": {}}, 4]'],
    "union": ['{"a": {"b": [true, false]}}', "-3"],
    "tree": ['{"v": "root", "kids": [{"v": "a"}, {"v": "b", "kids": []}]}'],
}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_prefix_of_a_valid_document_closes_into_one_the_schema_accepts(name):
    exp = Expectations(format="json", schema=SCHEMAS[name])
    for doc in INSTANCES[name]:
        assert check(doc, exp).verdict == "pass", doc
        guard = StreamGuard(exp, strict=True)
        for cut in range(len(doc) + 1):
            if cut:
                assert guard.feed(doc[cut - 1])
            closing = guard.closing()
            assert closing is not None, (doc[:cut], name)
            result = check(doc[:cut] + closing, exp)
            assert result.verdict == "pass", (doc[:cut], closing, [v.message for v in result.violations])


def test_the_schema_closing_is_the_shortest_the_schema_allows_a_hand_written_few():
    exp = Expectations(format="json", schema=SCHEMAS["contact"])
    cases = {
        "": '{"name":"","email":"aaa","age":18,"city":""}',
        '{"na': 'me":"","email":"aaa","age":18,"city":""}',
        '{"age": 4': '0,"name":"","email":"aaa","city":""}',  # 4 is under the minimum, 40 is not
        '{"age": 36': ',"name":"","email":"aaa","city":""}',
        '{"email": "a': 'aa","name":"","age":18,"city":""}',  # padded to minLength
        '{"nick": ': '"","name":"","email":"aaa","age":18,"city":""}',
        '{"city": "Oslo", ': '"name":"","email":"aaa","age":18}',
    }
    for prefix, expected in cases.items():
        guard = StreamGuard(exp, strict=True)
        guard.feed(prefix)
        assert guard.closing() == expected, prefix
    closed = Expectations(format="json", schema=SCHEMAS["closed"])
    guard = StreamGuard(closed, strict=True)
    guard.feed('{"t')
    assert guard.closing() == 'ags":["",""],"kind":"card"}'  # the key it begins, then the rest
    assert guard.feed('ags": [1, 2], "kind": "no')
    assert guard.closing() == 'te"}'  # the enum member the string begins
    patterned = Expectations(format="json", schema={"type": "string", "pattern": "^[0-9]{3}-x$"})
    assert StreamGuard(patterned, strict=True).closing() is None  # no filler matches: not known


@pytest.mark.parametrize("name", sorted(set(SCHEMAS) - {"tree", "tuple"}))  # no recursive $ref, no prefixItems there
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_generated_instances_close_at_every_prefix(name, data):
    exp = Expectations(format="json", schema=SCHEMAS[name])
    value = data.draw(from_schema(SCHEMAS[name]))
    doc = json.dumps(value, ensure_ascii=data.draw(st.booleans()), indent=data.draw(st.sampled_from([None, 1])))
    assume(check(doc, exp).verdict == "pass")  # hypothesis-jsonschema knows no prefixItems
    guard = StreamGuard(exp, strict=True)
    step = max(1, len(doc) // 40)  # about 40 prefixes a document: long ones are sampled
    at = 0
    for cut in range(0, len(doc) + 1, step):
        assert guard.feed(doc[at:cut]) or cut == 0
        at = cut
        closing = guard.closing()
        held = doc[:cut][-1:].isspace() and doc[cut - 1] not in " \t\r\n"  # U+00A0...
        if closing is None and (held or "<" in doc[max(cut - 12, 0) : cut] or _opens_think(doc[:cut])):
            continue  # held back until what follows tells (white space, a think tag's start), or
            # blind inside a think tag a string holds: JSON reads tags anywhere, finish() judges
        assert closing is not None, (doc[:cut], name)
        result = check(doc[:cut] + closing, exp)
        assert result.verdict == "pass", (doc[:cut], closing, [v.message for v in result.violations])


def test_a_think_tag_inside_a_string_leaves_the_closing_to_the_finish():
    """JSON reads think tags anywhere: after one a string holds, the stream cannot tell a note
    from a value, offers no closing, and the finish-time check judges (found by hypothesis)."""
    doc = '{"age": 18, "name": "<reasoning>"}'
    guard = StreamGuard("EXPECT JSON", strict=True)
    guard.feed(doc)
    assert guard.closing() is None
    assert guard.finish().ok and check(doc, "EXPECT JSON").value == {"age": 18, "name": "<reasoning>"}


def _opens_think(text: str) -> bool:
    return any(f"<{name}>" in text for name in THINK_TAGS)


def test_headroom_is_what_the_tightest_max_count_still_takes():
    exp = Expectations(format="json", counts=[Count("words", max=5), Count("characters", max=40)])
    guard = StreamGuard(exp, strict=True)
    assert guard.headroom() == 5
    guard.feed('["a b", "c')  # two words settled; "c" may still grow into one word
    assert guard.headroom() == 3
    guard.feed(' d", "e')  # "c d" settled: four
    assert guard.headroom() == 1
    assert StreamGuard("EXPECT JSON", strict=True).headroom() is None
