"""A cut reply is not an answer: ``result.truncated`` says plainly that the payload was
healed as cut off by the end of the reply (from the repairs, for every format), and the
built-in option ``truncated=fail`` refuses such replies."""

from __future__ import annotations

import pytest

from formatbook_core import COMMON_OPTIONS, ExpectationError, StreamGuard, check, parse_expectations
from formatbook_core.results import CheckResult, Repair

# (format, a reply cut off mid-payload, the value healing gives it)
CUT = [
    ("json", '{"name": "Ada", "email": "ada@exa', {"name": "Ada", "email": "ada@exa"}),
    ("json", '{"name": "Ada", "tags": ["x", "y"', {"name": "Ada", "tags": ["x", "y"]}),
    ("json", '{"name": "Ada", "age": ', {"name": "Ada"}),
    ("json", 'Here you go:\r\n```json\r\n{"name": "Ada", "ok": tr', {"name": "Ada", "ok": True}),
    ("json", '<think>draft {"a": 0}</think>{"a": 1, "b": [1, 2', {"a": 1, "b": [1, 2]}),
    ("yaml", "name: Ada\ntags: [a, b", {"name": "Ada", "tags": ["a", "b"]}),
    ("xml", "<a><b>text</b><c>more", None),
    ("csv", "a,b,c\n1,2,3\n4,5", None),
]
WHOLE = [
    ("json", '{"name": "Ada", "age": 36}'),
    ("json", 'Sure:\n```json\n{"a": [1, 2]}\n```\nDone.'),
    ("json", "{'a': True,}"),  # healed, not cut
    ("yaml", "name: Ada\nage: 36\n"),
    ("xml", "<a><b>text</b></a>"),
    ("csv", "a,b\n1,2\n"),
]


@pytest.mark.parametrize(("fmt", "reply", "value"), CUT)
def test_a_cut_reply_says_so_and_fails_when_asked(fmt, reply, value):
    healed = check(reply, f"EXPECT {fmt.upper()}")
    assert healed.ok and healed.truncated and healed.verdict == "healed"
    assert any(r.kind.startswith("truncated_") for r in healed.repairs)
    if value is not None:
        assert healed.value == value
    assert healed.to_dict()["truncated"] is True
    refused = check(reply, f"EXPECT {fmt.upper()} truncated=fail")
    assert not refused.ok
    assert [v.code for v in refused.violations] == ["reply.truncated"]
    assert "cut off" in refused.violations[0].message


@pytest.mark.parametrize(("fmt", "reply"), WHOLE)
def test_a_whole_reply_is_not_truncated_and_passes_either_way(fmt, reply):
    result = check(reply, f"EXPECT {fmt.upper()}")
    assert result.ok and not result.truncated
    assert check(reply, f"EXPECT {fmt.upper()} truncated=fail").ok


def test_a_later_whole_candidate_passes_when_a_cut_one_is_refused():
    # the first fenced object is cut; the second one is whole
    reply = '```\n{"a": 1, "b": [2\n```\nor:\n```\n{"a": 1, "b": [3]}\n```'
    assert check(reply, "EXPECT JSON").value == {"a": 1, "b": [3]}  # the whole one is preferred
    result = check(reply, "EXPECT JSON truncated=fail")
    assert result.ok and not result.truncated and result.value == {"a": 1, "b": [3]}


@pytest.mark.parametrize("chunk", [1, 3, 1000])
def test_the_guard_gives_checks_verdict(chunk):
    reply = '```json\n{"name": "Ada", "email": "ada@exa'
    guard = StreamGuard("EXPECT JSON truncated=fail")
    for i in range(0, len(reply), chunk):
        guard.feed(reply[i : i + chunk])
    result = guard.finish()
    assert not result.ok and [v.code for v in result.violations] == ["reply.truncated"]


def test_the_option_is_declared_like_the_other_built_in_ones():
    assert "truncated" in {o.name for o in COMMON_OPTIONS}
    assert parse_expectations("EXPECT JSON truncated=fail").options == {"truncated": "fail"}
    assert parse_expectations("EXPECT CSV truncated=heal").options == {"truncated": "heal"}
    with pytest.raises(ExpectationError, match="truncated expects one of"):
        parse_expectations("EXPECT JSON truncated=maybe")


def test_the_flag_is_read_from_the_repairs():
    assert CheckResult(True, "r", repairs=[Repair("truncated_string", "m")]).truncated
    assert not CheckResult(True, "r", repairs=[Repair("trailing_comma", "m")]).truncated
    assert not CheckResult(True, "r").truncated
