"""The check pipeline on a throwaway format (no plugin needed)."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from formatbook_core import (
    Analysis,
    Count,
    ExpectationError,
    Expectations,
    HealError,
    check,
    guidance,
    heal,
    parse_expectations,
)
from formatbook_core.cli.common import check_bytes
from formatbook_core.results import CheckResult, Repair, Span
from formatbook_core.tallying import compare_count

from .conftest_formats import KvFormat, kv_registry


@pytest.fixture
def reg():
    return kv_registry()


def exp(text, reg):
    return parse_expectations(text, registry=reg)


def test_valid_reply_passes_unchanged(reg):
    result = check("name: Ada\nrole: engineer", exp("EXPECT KV", reg))
    assert result.ok and result.verdict == "pass"
    assert result.value == {"name": "Ada", "role": "engineer"}
    assert result.repairs == [] and result.violations == []
    assert result.counts == {}  # no limit asked for: nothing counted


def test_a_result_built_whole_equals_the_constructed_one():
    repair = Repair("k", "m", Span(0, 1))
    args = (True, "r", "t", {"a": 1}, "json", [repair], [], [], {"words": 2})
    built, made = CheckResult.built(*args), CheckResult(*args)
    assert built == made and repr(built) == repr(made)
    assert [getattr(built, f.name) for f in fields(CheckResult)] == [*args, []]  # every field, attempts none
    assert replace(built, ok=False).ok is False and built.ok is True  # still frozen and replaceable
    with pytest.raises(AttributeError):
        built.ok = False  # type: ignore[misc]


def test_healed_reply_lists_repairs_with_reply_offsets(reg):
    reply = "Sure!\n```kv\nname = Ada\n```\nBye"
    result = check(reply, exp("EXPECT KV", reg))
    assert result.ok and result.verdict == "healed"
    assert result.text == "name: Ada"
    kinds = [r.kind for r in result.repairs]
    assert kinds == ["located", "separator"]
    sep = result.repairs[1]
    assert reply[sep.span.start : sep.span.end] == "name = Ada"
    # the prose around the payload is kept, not dropped
    assert [s.kind for s in result.set_aside] == ["prose", "prose"]
    assert "Sure!" in result.set_aside[0].text and "Bye" in result.set_aside[1].text


def test_think_block_set_aside(reg):
    reply = "<think>they want kv</think>\nname: Ada"
    result = check(reply, exp("EXPECT KV", reg))
    assert result.ok
    assert result.set_aside[0].kind == "think"
    assert result.set_aside[0].text == "<think>they want kv</think>"


def test_unhealable_reply_is_a_result_not_an_exception(reg):
    result = check("this is not kv at all", exp("EXPECT KV", reg))
    assert not result.ok and result.verdict == "fail"
    assert result.violations[0].code == "kv.syntax"


def test_counts_run_on_values_each_counted_alone(reg):
    e = exp("EXPECT KV\nEXPECT MIN 2 WORDS\nEXPECT MAX 3 WORDS", reg)
    bad = check("first: John Smith\nlast: Peter Green", e)
    assert not bad.ok and bad.counts == {"words": 4}
    assert bad.violations[0].code == "count.max"
    assert "4 words" in bad.violations[0].message and "3" in bad.violations[0].message
    good = check("first: John\nlast: Smith", e)
    assert good.ok and good.counts == {"words": 2}


def test_sentences_added_per_value(reg):
    result = check("a: Yes\nb: No", exp("EXPECT KV\nEXPECT EXACTLY 2 SENTENCES", reg))
    assert result.ok and result.counts == {"sentences": 2}


def test_max_zero_is_enforced(reg):
    result = check("a: word", exp("EXPECT KV\nEXPECT MAX 0 WORDS", reg))
    assert not result.ok and result.counts == {"words": 1}


def test_scoped_count_and_missing_scope(reg):
    e = exp('EXPECT KV\nEXPECT MAX 2 WORDS IN "title"', reg)
    ok = check("title: Two words\nbody: many many many words here", e)
    assert ok.ok and ok.counts == {'words IN "title"': 2}
    missing = check("body: text", e)
    assert not missing.ok
    assert missing.violations[0].code == "count.scope_missing"
    assert 'words IN "title"' not in missing.counts  # never a silent 0


def test_schema_violation_after_heal(reg):
    e = Expectations(format="kv", schema={"required": ["name"]}, registry=reg)
    result = check("role = boss", e)
    assert not result.ok
    assert result.violations[0].path == ("name",)


def test_no_format_counts_the_raw_reply(reg):
    result = check("one two three four", exp("EXPECT MAX 3 WORDS", reg))
    assert not result.ok and result.counts == {"words": 4}


def test_reply_too_large_is_a_violation(reg):
    result = check("a: b" * 10, exp("EXPECT KV", reg), max_size=10)
    assert not result.ok and result.violations[0].code == "reply.too_large"


def test_bytes_reply_decoded_or_reported(reg):
    assert check(b"a: b", exp("EXPECT KV", reg)).ok
    bad = check(b"a: \xff", exp("EXPECT KV", reg))
    assert not bad.ok and bad.violations[0].code == "reply.encoding"
    assert "offset 3" in bad.violations[0].message


def test_heal_api(reg):
    healed = heal("x = 1", exp("EXPECT KV", reg))
    assert healed.text == "x: 1" and [r.kind for r in healed.repairs] == ["separator"]
    with pytest.raises(HealError) as info:
        heal("garbage", exp("EXPECT KV", reg))
    assert info.value.violations


def test_plugin_crash_becomes_a_violation(reg):
    class Broken:
        name = "kv"

        def locate(self, *a, **k):
            raise RuntimeError("boom")

        def analyze(self, *a, **k):
            raise RuntimeError("boom")

        def heal(self, *a, **k):
            raise RuntimeError("boom")

    e = exp("EXPECT KV", reg)
    e.registry = type("R", (), {"get": lambda self, n: Broken(), "unit": reg.unit})()
    result = check("a: b", e)
    assert not result.ok and result.violations[0].code == "plugin.error"


def test_a_locate_crash_is_a_plugin_error_not_a_silent_fallback(reg):
    class LocateBroken(KvFormat):
        def locate(self, *a, **k):
            raise RuntimeError("lost")

    e = exp("EXPECT KV", reg)
    e.registry = type("R", (), {"get": lambda self, n: LocateBroken(), "unit": reg.unit})()
    result = check("a: b", e)  # a valid reply: only the crash can fail it
    assert not result.ok
    assert [v.code for v in result.violations] == ["plugin.error"]
    assert "locate() failed: RuntimeError: lost" in result.violations[0].message


def test_bytes_are_decoded_alike_by_check_and_the_cli(reg):
    for data in (b"a: \xff", b"\xef\xbb\xbfa: \xc3"):
        api, cli = check(data, exp("EXPECT KV", reg)), check_bytes(data, exp("EXPECT KV", reg))
        assert api.violations == cli.violations
        assert api.violations[0].code == "reply.encoding"


def test_guidance_mentions_format_and_limits(reg):
    text = guidance(exp('EXPECT KV\nEXPECT MAX 3 WORDS\nEXPECT MIN 1 WORDS IN "title"', reg))
    assert "KV" in text
    assert "at most 3 words" in text
    assert 'at least 1 word in the key "title"' in text  # the scope's kind named (issue 13)


def test_compare_count():
    assert compare_count(Count("words", max=3), 3) is None
    assert compare_count(Count("words", max=3), 4).code == "count.max"
    assert compare_count(Count("words", min=2), 1).code == "count.min"
    assert compare_count(Count("words", exactly=2), 3).code == "count.exactly"


def test_bad_expectations_raise(reg):
    with pytest.raises(ExpectationError):
        check("x", "EXPECT MAX 3 WRODS")


class _ParsingKv(KvFormat):
    """A throwaway format whose analysis keeps the parsed value beside its violations."""

    name = "parsingkv"
    aliases = ()
    mime_types = ()

    def analyze(self, value, schema=None, **options):
        return Analysis(self.parse(value), tuple(self.validate(value, schema, **options)))


def test_a_failing_reply_still_carries_what_it_parsed_to(reg):
    from formatbook_core import hookimpl  # noqa: PLC0415 - only this test registers a format

    class Plugin:
        @hookimpl
        def register_formats(self, register):
            register(_ParsingKv())

    reg.register_plugin(Plugin(), "parsing-kv-plugin")
    exp = Expectations(format="parsingkv", schema={"required": ["b"]}, registry=reg)
    result = check("a: 1", exp)
    assert not result.ok and [v.code for v in result.violations] == ["schema.required"]
    assert result.value == {"a": "1"}
    # a format that parses nothing for a bad reply still gives None
    assert check("a: 1", Expectations(format="kv", schema={"required": ["b"]}, registry=reg)).value is None


@pytest.mark.parametrize(
    "method, returned",
    [("locate", None), ("locate", [(5, 1)]), ("analyze", None), ("heal", None), ("extract_values", None)],
)
def test_a_plugin_method_returning_the_wrong_type_is_a_plugin_error(reg, method, returned):
    class WrongType(KvFormat):
        pass

    setattr(WrongType, method, lambda self, *a, **k: returned)
    e = exp("EXPECT KV\nEXPECT MAX 9 WORDS", reg)
    e.registry = type("R", (), {"get": lambda self, n: WrongType(), "unit": reg.unit})()
    reply = "a = b" if method == "heal" else "a: b"  # heal runs only on a reply that is not valid
    result = check(reply, e)
    assert not result.ok
    assert any(
        v.code == "plugin.error" and f"{method}() failed: TypeError: returned" in v.message for v in result.violations
    )


@pytest.mark.parametrize(
    ("reply", "expect", "message"),
    [
        ("hi", "EXPECT MAX 0 WORDS", "1 word exceeds the maximum of 0"),
        ("hi there", "EXPECT MAX 1 WORDS", "2 words exceed the maximum of 1"),
        ("hi", "EXPECT MIN 2 WORDS", "1 word falls short of the minimum of 2"),
        ("hi", "EXPECT EXACTLY 2 WORDS", "1 word, expected exactly 2"),
        ("One. Two.", "EXPECT MIN 3 SENTENCES", "2 sentences fall short of the minimum of 3"),
    ],
)
def test_a_count_message_says_one_in_the_singular(reply, expect, message):
    assert check(reply, expect).violations[0].message == message
