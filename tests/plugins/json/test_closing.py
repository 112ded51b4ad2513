"""``JsonChecker.closing()``: the shortest text after which the strict checker ends, at
every prefix of documents that reach each state (strings, keys, escapes, surrogate pairs,
numbers, literals, nesting), and ``StreamGuard.closing()`` around it."""

from __future__ import annotations

import json

import pytest

from formatbook_core import StreamGuard
from formatbook_json.stream import JsonChecker

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
