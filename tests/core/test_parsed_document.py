"""The parsed document flows through the pipeline: a payload is read once (issue 24).

``analyze`` keeps the format's parse in ``Analysis.document``; counts and scopes come from
it through ``values_of`` / ``scope_of``; an analysis that ``candidates`` (locating) or
``heal`` (confirming its text) already made is taken, not made again. Counted by the calls
a throwaway format records, never timed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from formatbook_core import Analysis, Healed, HealError, Located, Span, Violation, check, hookimpl, parse_expectations

from .conftest_formats import KvFormat, kv_registry


class _Reading(KvFormat):
    """A kv format that keeps its parse and counts every read of a text."""

    name = "readkv"
    aliases = ()
    mime_types = ()

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        self.calls["analyze"] += 1
        violations = tuple(self.validate(value, schema, **options))
        parsed = None if violations else self.parse(value)
        return Analysis(parsed, violations, document=parsed)

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        self.calls["extract_values"] += 1
        return super().extract_values(value, schema, **options)

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        self.calls["extract_scope"] += 1
        return super().extract_scope(value, scope, schema, **options)

    def values_of(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> list[str]:
        self.calls["values_of"] += 1
        return [v for v in analysis.document.values() if v.strip()]

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        self.calls["scope_of"] += 1
        value = analysis.document[scope]
        return [value] if value.strip() else []


class _Locating(_Reading):
    """Locating analyzes the whole reply and hands that analysis on."""

    name = "locatingkv"

    def candidates(self, reply: str, schema: Any = None, **options: Any) -> list[Span | Located]:
        whole = Span(0, len(reply))
        return [Located(whole, self.analyze(reply, schema, **options))]


class _Confirming(_Reading):
    """Healing starts from the analysis made and confirms its text with an analysis,
    handed on with the healed text."""

    name = "confirmingkv"

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        self.calls["heal_analyzed"] += 1
        assert not analysis.ok  # the pipeline's analysis of the payload
        healed = super().heal(text, schema, **options)  # (kv's heal reads by validate only)
        return Healed(healed.text, healed.repairs, healed.set_aside, self.analyze(healed.text, schema, **options))


def _expect(fmt: _Reading, text: str) -> Any:
    class Plugin:
        @hookimpl
        def register_formats(self, register: Any) -> None:
            register(fmt)

    reg = kv_registry()
    reg.register_plugin(Plugin(), f"{fmt.name}-plugin")
    return parse_expectations(text.replace("FMT", fmt.name.upper()), registry=reg)


def test_counts_and_scopes_come_from_the_analysis_not_from_reading_the_text_again():
    fmt = _Reading()
    result = check("a: one two\nb: three", _expect(fmt, 'EXPECT FMT\nEXPECT MAX 5 WORDS\nEXPECT MAX 2 WORDS IN "a"'))
    assert result.ok and result.counts == {"words": 3, 'words IN "a"': 2}
    assert fmt.calls == Counter(analyze=1, values_of=1, scope_of=1)


def test_an_analysis_made_while_locating_is_taken_as_it_is():
    fmt = _Locating()
    result = check("a: one two", _expect(fmt, "EXPECT FMT\nEXPECT MAX 5 WORDS"))
    assert result.ok and result.counts == {"words": 2}
    assert fmt.calls == Counter(analyze=1, values_of=1)


def test_the_analysis_heal_confirmed_its_text_with_is_taken_as_it_is():
    fmt = _Confirming()
    result = check("a = one two", _expect(fmt, "EXPECT FMT\nEXPECT MAX 5 WORDS"))
    assert result.verdict == "healed" and result.text == "a: one two" and result.counts == {"words": 2}
    # the payload, then the healed text (by heal): each once
    assert fmt.calls == Counter(analyze=2, heal_analyzed=1, values_of=1)


def test_without_a_document_the_defaults_read_the_text_as_before():
    fmt = KvFormat()
    analysis = fmt.analyze("a: one two")
    assert analysis.document is None
    assert fmt.values_of(analysis, "a: one two") == fmt.extract_values("a: one two") == ["one two"]
    assert fmt.scope_of(analysis, "a: one two", "a") == ["one two"]
    assert fmt.candidates("a: 1") == fmt.locate("a: 1")
    assert fmt.heal_analyzed(fmt.analyze("a = 1"), "a = 1") == fmt.heal("a = 1")


def test_the_document_is_no_part_of_an_analysis_equality_or_repr():
    assert Analysis({"a": 1}, (), document=object()) == Analysis({"a": 1})
    assert "document" not in repr(Analysis(1, document="parse"))
    assert Healed("x", analysis=Analysis("x")) == Healed("x")


@pytest.mark.parametrize("returned", [[Located(Span(0, 99))], [Located(Span(0, 4), "not an analysis")]])
def test_a_located_candidate_is_checked_like_a_span(returned):
    fmt = _Reading()
    fmt.candidates = lambda reply, schema=None, **options: returned  # type: ignore[method-assign]
    result = check("a: 1", _expect(fmt, "EXPECT FMT"))
    if returned[0].span.end > 4:
        assert not result.ok and result.violations[0].code == "plugin.error"
    else:  # an analysis of the wrong type is not taken: the payload is analyzed
        assert result.ok and fmt.calls["analyze"] == 1


class _Brief(_Reading):
    """Locating hands on a brief analysis of a failing payload (the verdict, a first
    account); healing fails without saying why, or fails as a plugin bug."""

    name = "briefkv"

    def __init__(self, heal_error: Exception) -> None:
        super().__init__()
        self.heal_error = heal_error

    def candidates(self, reply: str, schema: Any = None, **options: Any) -> list[Span | Located]:
        brief = Analysis(None, (Violation("briefkv.syntax", "refused"),), brief=True)
        return [Located(Span(0, len(reply)), brief)]

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        self.calls["heal_analyzed"] += 1
        raise self.heal_error


@pytest.mark.parametrize("error", [HealError("cannot"), RuntimeError("bug")])
def test_a_brief_analysis_is_explained_by_analyze_only_when_its_violations_are_reported(error):
    fmt = _Brief(error)
    result = check("a = one", _expect(fmt, "EXPECT FMT"))
    assert not result.ok and fmt.calls == Counter(heal_analyzed=1, analyze=1)
    codes = [v.code for v in result.violations]
    # analyze's account ("a = one" is no "key: value" line), never the brief one
    assert "briefkv.syntax" not in codes and codes[-1] == fmt.analyze("a = one").violations[0].code
    assert codes[0] == ("plugin.error" if isinstance(error, RuntimeError) else codes[-1])


def test_a_brief_analysis_is_not_explained_when_healing_says_why():
    told = Violation("briefkv.heal", "cannot heal")
    fmt = _Brief(HealError("cannot", [told]))
    result = check("a = one", _expect(fmt, "EXPECT FMT"))
    assert [v.code for v in result.violations] == ["briefkv.heal"] and "analyze" not in fmt.calls
