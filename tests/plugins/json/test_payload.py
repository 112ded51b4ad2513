"""Which payload a reply's JSON is (issue 8: never ok with the wrong data; issue 9: a
reply that is wholly JSON is taken whole), and that choosing it stays linear."""

from __future__ import annotations

import json

import pytest

from formatbook_core import Expectations, check, heal
from formatbook_core import reply as core_reply
from formatbook_json import JsonFormat
from formatbook_json.stream import JsonChecker

FMT = JsonFormat()
ANSWER = {"type": "object", "required": ["answer"]}


def value(reply: str, schema=None):
    result = check(reply, Expectations(format="json", schema=schema))
    assert result.ok, result.violations
    return result.value


@pytest.mark.parametrize(
    "reply,intended",
    [
        ('According to the docs [1], the answer is: {"answer": "yes"}', {"answer": "yes"}),
        ('Sure! ```json\n{"name": "Ada"}\n```\nSources: [1]', {"name": "Ada"}),
        ('Sure! ```json\n{"name": "Ada"}\n```\nSee also {"name": "Bob"}', {"name": "Ada"}),
        ('As [2] and [3, 4] say (and [see above]): ["a", "b"]', ["a", "b"]),
        ("[1] wrote it first:\n{'a': 1,}", {"a": 1}),
        ('[1] according to the docs: {"a": 1}', {"a": 1}),
        ('{} is empty, but this is not: {"k": [1]}', {"k": [1]}),
        ('Footnotes [1][2][3]. Result: [{"id": 1}]', [{"id": 1}]),
    ],
)
def test_a_container_with_content_beats_a_bracketed_reference(reply, intended):
    assert value(reply) == intended


def test_a_reference_alone_is_still_a_candidate():
    assert value("The primes: [2, 3, 5]") == [2, 3, 5]


@pytest.mark.parametrize("footnotes", [16, 17, 40, 500])
def test_no_cap_hides_the_payload_after_many_footnotes(footnotes):
    reply = " ".join(f"[{i}]" for i in range(footnotes)) + ' so: {"answer": "yes"}'
    assert value(reply) == {"answer": "yes"}
    assert value(reply, ANSWER) == {"answer": "yes"}


def test_the_candidate_the_schema_accepts_wins():
    reply = 'Two drafts: {"draft": 1} and then {"answer": "final"}'
    assert value(reply) == {"draft": 1}
    assert value(reply, ANSWER) == {"answer": "final"}
    many = "".join(f'{{"draft": {i}}} ' for i in range(30)) + '{"answer": 2}'
    assert value("Drafts: " + many, ANSWER) == {"answer": 2}


def test_a_reply_that_opens_with_a_container_has_it_as_its_payload():
    # formatbook_json.commitment: the stream commits to it, so check() takes no later
    # candidate, even one the schema would accept: the reply fails, naming the first
    many = "".join(f'{{"draft": {i}}} ' for i in range(30)) + '{"answer": 2}'
    result = check(many, Expectations(format="json", schema=ANSWER))
    assert not result.ok and result.violations[0].code == "schema.required"
    assert [(s.start, s.end) for s in FMT.locate(many)] == [(0, len('{"draft": 0}'))]


@pytest.mark.parametrize("tag", ["js", "javascript", "python", "text", "ts", "JSON5", "yaml"])
def test_a_fence_with_another_tag_holding_json(tag):
    body = "{'a': 1, 'ok': True}" if tag == "python" else '{"a": 1, "ok": true}'
    reply = f"Here it is:\n```{tag}\n{body}\n```\nHope that helps."
    assert value(reply) == {"a": 1, "ok": True}


def test_own_and_bare_fences_come_before_other_tags():
    reply = '```js\n{"from": "js"}\n```\n```\n{"from": "bare"}\n```\n```json\n{"from": "json"}\n```'
    texts = [reply[s.start : s.end] for s in FMT.locate(reply)]
    assert texts[:3] == ['{"from": "json"}', '{"from": "bare"}', '{"from": "js"}']


def test_a_fence_of_code_is_not_a_payload_but_its_prose_brackets_are_not_hidden():
    reply = '```python\nprint("hi")\n```\nResult: {"a": 1}'
    assert value(reply) == {"a": 1}


@pytest.mark.parametrize(
    "reply",
    [
        'Here: {"a": \u201cIt\'s\u201d, "b": [\u201cdon\'t\u201d], "c": "ok"} done',
        'Here: {"a": \u201cIt\'s\u201d, "b": [\u201cdon\'t\u201d], "c": "ok"}',
        '{"a": \u201cIt\'s\u201d, "b": [\u201cdon\'t\u201d], "c": "ok"}',
    ],
)
def test_smart_quotes_with_apostrophes_keep_every_member(reply):
    result = check(reply, "EXPECT JSON")
    assert result.value == {"a": "It's", "b": ["don't"], "c": "ok"}
    kinds = [r.kind for r in result.repairs if r.kind != "located"]
    assert kinds == ["smart_quotes", "smart_quotes"]


def test_apostrophes_in_bare_words_and_single_quoted_strings():
    assert value("Note: {'a': 'x', \"b\": [\"don't\", 'y'], \"c\": 1} ok") == {"a": "x", "b": ["don't", "y"], "c": 1}


@pytest.mark.parametrize(
    "reply,intended",
    [
        ('"see [1]"', "see [1]"),
        ('"{}"', "{}"),
        ('"[e3"', "[e3"),
        ('  "a {b} [c]"\n', "a {b} [c]"),
        ("[1, 2]", [1, 2]),
        ("42", 42),
    ],
)
def test_a_reply_that_is_wholly_json_is_taken_whole(reply, intended):
    result = check(reply, "EXPECT JSON")
    assert result.ok and result.verdict == "pass"
    assert result.value == intended
    assert FMT.is_valid(reply.strip())


def test_a_cut_off_reply_ending_in_white_space_heals_idempotently():
    for reply in ['{"a": [1, 2\n', '{"a": [1, 2 \n\n', 'Sure: {"a": [1, 2\t\n', '{"a": "cut \n']:
        once = heal(reply, "EXPECT JSON").text
        assert heal(once, "EXPECT JSON").text == once
    assert heal('{"a": [1, 2\n', "EXPECT JSON").text == '{"a": [1, 2]}'


def _analyzed_characters(monkeypatch, reply: str, schema) -> tuple[int, int]:
    """(characters given to analyze and heal, passes over the reply to set text aside)."""
    seen = [0, 0]
    fmt = JsonFormat()
    analyze, heal_payload = fmt.analyze, fmt.heal
    monkeypatch.setattr(
        fmt, "analyze", lambda text, *a, **k: seen.__setitem__(0, seen[0] + len(text)) or analyze(text, *a, **k)
    )
    monkeypatch.setattr(
        fmt, "heal", lambda text, *a, **k: seen.__setitem__(0, seen[0] + len(text)) or heal_payload(text, *a, **k)
    )
    run = core_reply.ThinkScanner._run

    def counted(scanner: core_reply.ThinkScanner, chunk: str, pieces: list | None) -> None:
        if scanner.blocks is not None and len(chunk) == len(reply):  # the prepared reply's scan
            seen[1] += 1
        run(scanner, chunk, pieces)

    monkeypatch.setattr(core_reply.ThinkScanner, "_run", counted)
    exp = Expectations(format="json", schema=schema)
    monkeypatch.setattr(type(exp), "fmt", property(lambda self: fmt))
    result = check(reply, exp)
    assert result.ok and result.value == {"answer": "yes"}
    return seen[0], seen[1]


def test_choosing_among_many_candidates_stays_linear(monkeypatch):
    def reply(n: int) -> str:  # a "<" so that the reply is scanned for think tags at all
        return "Since 1 < 2: " + "".join(f'See [{i}] and {{"draft": {i}}}. ' for i in range(n)) + '{"answer": "yes"}'

    small, passes_small = _analyzed_characters(monkeypatch, reply(200), ANSWER)
    large, passes_large = _analyzed_characters(monkeypatch, reply(800), ANSWER)
    assert passes_small == passes_large == 1  # the surroundings are set aside once
    assert large < 6 * small  # 4x the reply: about 4x the work, never 16x


def test_the_relaxed_checker_accepts_a_whole_string_that_looks_like_a_think_tag():
    for reply in ['"<think>"', ' "<reasoning> and more"\n', '"<thinking>x</thinking>"']:
        assert check(reply, "EXPECT JSON").ok
        checker = JsonChecker(strict=False)
        assert checker.feed(reply)
        end = checker.finish()
        assert end and end.values == (json.loads(reply),)
    checker = JsonChecker(strict=False)
    assert checker.feed('<think>x</think> "yes"') and checker.finish().values == ("yes",)


def test_analyze_takes_the_value_locate_parsed_only_for_that_text_and_those_limits():
    FMT.locate('{"a": 1}')
    assert FMT.analyze('{"a": 2}').value == {"a": 2}
    FMT.locate('{"a": 1}', max_depth=1)
    assert not FMT.analyze('{"a": [1]}', max_depth=1).ok
    FMT.locate('  {"a": [1]}\n')
    first = FMT.analyze('{"a": [1]}').value
    again = FMT.analyze('{"a": [1]}').value
    assert first == again == {"a": [1]} and first is not again  # used once, never shared
