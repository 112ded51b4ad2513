"""The EXPECT grammar and Expectations built in code."""

from __future__ import annotations

from pathlib import Path

import pytest

import formatbook_text
from formatbook_core import Count, ExpectationError, Expectations, check, hookimpl, parse_expectations
from formatbook_core import registry as registry_module
from formatbook_core.expectations import shared_expectations

from .conftest_formats import KvFormat, kv_registry


@pytest.fixture
def reg():
    return kv_registry()


def parse(text, reg, **kw):
    return parse_expectations(text, registry=reg, **kw)


def test_format_counts_and_scope(reg):
    exp = parse('- EXPECT KV\nexpect min 2 words\nEXPECT MAXIMUM 3 WORD\nEXPECT MAX 40 WORDS IN "Short answer"', reg)
    assert exp.format == "kv"
    assert exp.counts == [
        Count("words", min=2),
        Count("words", max=3),
        Count("words", max=40, scope="Short answer"),
    ]
    assert exp.counts[2].key == 'words IN "Short answer"'


def test_options_quoted_and_escaped(reg):
    exp = parse('EXPECT KV delimiter=";" level=2 strict=true tab="\\t"', reg)
    assert exp.options == {"delimiter": ";", "level": 2, "strict": True, "tab": "\t"}


def test_format_by_alias_and_mime(reg):
    assert parse("EXPECT keyvalue", reg).format == "keyvalue"
    assert parse("EXPECT text/x-kv", reg).fmt.name == "kv"


def test_schema_file_resolved_against_base_dir(reg, tmp_path: Path):
    (tmp_path / "s.json").write_text("{}")
    exp = parse("EXPECT KV s.json", reg, base_dir=tmp_path)
    assert exp.schema == tmp_path / "s.json"


def test_schema_url_kept(reg):
    assert parse("EXPECT KV https://example.org/s.json", reg).schema == "https://example.org/s.json"


def test_missing_schema_file(reg, tmp_path):
    with pytest.raises(ExpectationError, match="not found"):
        parse("EXPECT KV nope.json", reg, base_dir=tmp_path)


@pytest.mark.parametrize(
    "line, fragment, suggestion",
    [
        ("EXPECT MAX 3 WRODS", "unknown unit", "WORDS"),
        ("EXPECT MAX 3 CHARACTRES", "unknown unit", "CHARACTERS"),
        ("EXPECT KVV", "unknown format", "KV"),
        ("EXPCT KV", "unknown format", "EXPECT"),
        ("EXPECT MAX -1 WORDS", "whole number", None),
        ("EXPECT MAX 2.5 WORDS", "whole number", None),
        ("EXPECT MAX three WORDS", "whole number", None),
        ("EXPECT MAX WORDS", "EXPECT MAX 3 WORDS", None),
        ("EXPECT 3 WORDS", "MIN, MAX or EXACTLY", "MAX"),
        ('EXPECT MAX 3 WORDS ON "x"', "IN", "IN"),
    ],
)
def test_malformed_lines_name_the_line_and_suggest(reg, line, fragment, suggestion):
    with pytest.raises(ExpectationError) as info:
        parse(line, reg)
    assert fragment in str(info.value)
    assert info.value.line == line
    assert info.value.suggestion == suggestion
    if suggestion:
        assert suggestion in str(info.value)


def test_two_formats(reg):
    with pytest.raises(ExpectationError, match="two formats"):
        parse("EXPECT KV\nEXPECT TEXT", reg)


def test_min_above_max(reg):
    with pytest.raises(ExpectationError, match="MIN 5 is more than MAX 3") as info:
        parse("EXPECT MIN 5 WORDS\nEXPECT MAX 3 WORDS", reg)
    assert info.value.line == "EXPECT MAX 3 WORDS"


def test_exactly_contradicts(reg):
    with pytest.raises(ExpectationError, match="EXACTLY"):
        parse("EXPECT EXACTLY 2 SENTENCES\nEXPECT MAX 1 SENTENCE", reg)


def test_limits_on_different_units_do_not_clash(reg):
    exp = parse("EXPECT MIN 5 WORDS\nEXPECT MAX 3 SENTENCES\nEXPECT MAX 0 PAGES", reg)
    assert [c.unit for c in exp.counts] == ["words", "sentences", "pages"]


def test_scope_needs_a_format_with_scopes(reg):
    with pytest.raises(ExpectationError, match="needs a format"):
        parse('EXPECT MAX 3 WORDS IN "a"', reg)
    with pytest.raises(ExpectationError, match="no counting scopes"):
        parse('EXPECT TEXT\nEXPECT MAX 3 WORDS IN "a"', kv_registry_with_text())


def kv_registry_with_text():
    registry = kv_registry()
    registry.register_plugin(formatbook_text, "text")
    return registry


def test_zero_and_none_amounts(reg):
    exp = parse("EXPECT MAX 0 WORDS\nEXPECT MAX NONE LINES", reg)
    assert [c.max for c in exp.counts] == [0, 0]


def test_in_code_same_as_text(reg):
    in_code = Expectations(format="kv", counts=[Count("words", max=3)], registry=reg)
    assert in_code.format == "kv" and in_code.counts == parse("EXPECT KV\nEXPECT MAX 3 WORDS", reg).counts


def test_in_code_errors(reg):
    with pytest.raises(ExpectationError, match="unknown counting unit"):
        Expectations(counts=[Count("wrods", max=3)], registry=reg)
    with pytest.raises(ExpectationError, match="whole number"):
        Expectations(counts=[Count("words", max=-1)], registry=reg)
    with pytest.raises(ExpectationError, match="MIN, MAX or EXACTLY"):
        Expectations(counts=[Count("words")], registry=reg)
    with pytest.raises(ExpectationError, match="without a format"):
        Expectations(schema={"type": "object"}, registry=reg)
    with pytest.raises(ExpectationError, match="unknown format"):
        Expectations(format="nope", registry=reg)


def test_singular_unit_normalised(reg):
    exp = Expectations(counts=[Count("word", max=1)], registry=reg)
    assert exp.counts[0].unit == "words"


def test_blank_lines_and_comments_ignored(reg):
    exp = parse("\n# a comment\n  EXPECT KV  \n\n", reg)
    assert exp.format == "kv" and exp.counts == []


# --- declared options ------------------------------------------------------------------


def test_misspelt_option_names_the_nearest_one(reg):
    with pytest.raises(ExpectationError, match="did you mean delimiter") as info:
        parse("EXPECT KV delimter=;", reg)
    assert info.value.suggestion == "delimiter"


def test_option_of_the_wrong_type_names_the_type(reg):
    with pytest.raises(ExpectationError, match="level expects one of 0, 1, 2, 3, not 'abc'"):
        parse("EXPECT KV level=abc", reg)
    with pytest.raises(ExpectationError, match="strict expects true or false"):
        parse("EXPECT KV strict=maybe", reg)
    with pytest.raises(ExpectationError, match="max_depth expects a whole number, not 'abc'"):
        parse("EXPECT KV max_depth=abc", reg)


def test_core_limits_are_options_of_every_format(reg):
    assert parse("EXPECT KV max_depth=3 max_size=100", reg).options == {"max_depth": 3, "max_size": 100}
    with pytest.raises(ExpectationError, match="max_size must be more than 0"):
        parse("EXPECT KV max_size=0", reg)


def test_options_in_code_are_validated_too(reg):
    with pytest.raises(ExpectationError, match="did you mean max_depth"):
        Expectations(format="kv", options={"max_dpth": 3}, registry=reg)
    assert Expectations(format="kv", options={"level": "2"}, registry=reg).options == {"level": 2}


def test_a_format_that_declares_no_options_takes_any(reg):
    class Loose(KvFormat):
        name = "loose"
        aliases = ()
        mime_types = ()
        option_specs = None

    class Plugin:
        @hookimpl
        def register_formats(self, register):
            register(Loose())

    reg.register_plugin(Plugin(), "loose-plugin")
    exp = parse("EXPECT LOOSE anything=3 flag=yes word=x", reg)
    assert exp.options == {"anything": 3, "flag": True, "word": "x"}


class _UpperScopes(KvFormat):
    """A throwaway format whose scopes are upper-case words only."""

    name = "upperkv"
    aliases = ()
    mime_types = ()

    def validate_scope(self, scope):
        return None if scope.isupper() else "scopes of upperkv are upper-case words"


def test_a_scope_the_format_says_can_never_match_is_an_expectation_error(reg):
    class Plugin:
        @hookimpl
        def register_formats(self, register):
            register(_UpperScopes())

    reg.register_plugin(Plugin(), "upper-plugin")
    line = 'EXPECT MAX 3 WORDS IN "title"'
    with pytest.raises(ExpectationError, match="upper-case words") as info:
        parse(f"EXPECT UPPERKV\n{line}", reg)
    assert info.value.line == line
    assert parse('EXPECT UPPERKV\nEXPECT MAX 3 WORDS IN "TITLE"', reg).counts[0].scope == "TITLE"
    with pytest.raises(ExpectationError, match="upper-case words"):
        Expectations(format="upperkv", counts=[Count("words", max=3, scope="title")], registry=reg)
    # formats without validate_scope keep accepting every scope (BaseFormat's default)
    assert parse('EXPECT KV\nEXPECT MAX 3 WORDS IN "anything"', reg).counts[0].scope == "anything"


def test_an_inline_schema_in_an_expect_line_gets_a_clear_error(reg):
    with pytest.raises(ExpectationError, match="a schema in an EXPECT line is a file or a URL"):
        parse('EXPECT KV {"type": "array"}', reg)


def test_check_reads_expect_text_once_while_the_registry_indexes_nothing_new(monkeypatch, tmp_path):
    reg = kv_registry()
    monkeypatch.setattr(registry_module, "_default", reg)
    first = shared_expectations("EXPECT KV\nMAX 2 WORDS")
    assert first.format == "kv" and first.counts == [Count("words", max=2)]
    assert shared_expectations("EXPECT KV\nMAX 2 WORDS") is first
    assert (
        check("a: b", "EXPECT KV\nMAX 2 WORDS").ok and not check("a: b c d", "EXPECT KV\nMAX 2 WORDS").ok
    )  # 1, 3 words

    class Later:
        @hookimpl
        def register_formats(self, register):
            register(KvFormat(), alias="later-kv")

    reg.register_plugin(Later(), "later")  # what the text reads as may change: read again
    again = shared_expectations("EXPECT KV\nMAX 2 WORDS")
    assert again is not first and again == first
    assert shared_expectations("EXPECT KV\nMAX 2 WORDS") is again

    (tmp_path / "s.json").write_text("{}")
    monkeypatch.chdir(tmp_path)  # a schema file is read afresh each time: never shared
    schema = shared_expectations("EXPECT KV s.json")
    assert schema.schema == tmp_path / "s.json" and shared_expectations("EXPECT KV s.json") is not schema
    with pytest.raises(ExpectationError):
        shared_expectations("EXPECT NOSUCHFORMAT")
    with pytest.raises(ExpectationError):  # an error is not kept either
        shared_expectations("EXPECT NOSUCHFORMAT")
