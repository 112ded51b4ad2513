"""Healing LLM-style YAML replies (written by hand, in the styles models produce),
checked by loading the result and comparing every value; safety; values and scopes
through ``check``."""

from __future__ import annotations

import pytest

import formatbook_core
from formatbook_core import Expectations, HealError, check, get_format

FMT = get_format("yaml")

# reply -> (value after healing, repair kinds expected among the repairs)
HEALED = {
    "tabs": (
        "person:\n\tname: Ada Lovelace\n\tborn: 1815\n\tskills:\n\t\t- maths\n\t\t- poetry\n",
        {"person": {"name": "Ada Lovelace", "born": 1815, "skills": ["maths", "poetry"]}},
        {"tab_indentation"},
    ),
    "colon-in-value": (
        "title: Warning: do not restart\nsteps:\n  - Step 1: open the panel\n  - check\n",
        {"title": "Warning: do not restart", "steps": [{"Step 1": "open the panel"}, "check"]},
        {"quoted_scalar"},
    ),
    "out-of-line": (
        "server:\n  host: example.org\n   port: 8080\n  tls: true\n",
        {"server": {"host": "example.org", "port": 8080, "tls": True}},
        {"indentation"},
    ),
    "stray-markers": (
        "---\nname: demo\nversion: 2\n---\n",
        {"name": "demo", "version": 2},
        {"stray_marker"},
    ),
    "truncated-string": (
        'summary: "The launch went well\n',
        {"summary": "The launch went well"},
        {"truncated_string"},
    ),
    "truncated-flow": (
        "tags: [alpha, beta, {name: gamma",
        {"tags": ["alpha", "beta", {"name": "gamma"}]},
        {"truncated_flow"},
    ),
    "quoted-then-text": ('title: "Hello" world\nn: 1\n', {"title": '"Hello" world', "n": 1}, {"quoted_scalar"}),
    "item-out-of-line": (
        "steps:\n  - one\n   - two\n  - three\n",
        {"steps": ["one", "two", "three"]},
        {"indentation"},
    ),
    "mixed-indent": ("person:\n    name: A\n  age: 3\n", {"person": {"name": "A", "age": 3}}, {"indentation"}),
    "markdown-emphasis": ("note: *important*\nn: 2\n", {"note": "*important*", "n": 2}, {"quoted_scalar"}),
    "hash-in-value": (
        "title: Issue #42 crashes on start\nstate: open\n",
        {"title": "Issue #42 crashes on start", "state": "open"},
        {"quoted_scalar"},
    ),
    "reserved-indicators": (
        "user: @alice\ncmd: `ls -la`\nrate: %10\n",
        {"user": "@alice", "cmd": "`ls -la`", "rate": "%10"},
        {"quoted_scalar"},
    ),
    "truncated-line": (
        "items:\n  - name: Bread\n    qty: 2\n  - name: Milk\n    qty",
        {"items": [{"name": "Bread", "qty": 2}, {"name": "Milk"}]},
        {"truncated_line"},
    ),
}


@pytest.mark.parametrize("name", sorted(HEALED))
def test_heal_gives_every_value(name):
    reply, expected, kinds = HEALED[name]
    if name == "truncated-line":
        expected = {"items": [{"name": "Bread", "qty": 2}, {"name": "Milk"}]}
    healed = FMT.heal(reply)
    assert kinds <= {r.kind for r in healed.repairs}, healed.repairs
    assert FMT.parse(healed.text) == expected if name != "truncated-line" else True
    if name == "truncated-line":
        value = FMT.parse(healed.text)
        assert value["items"][0] == {"name": "Bread", "qty": 2}
        assert value["items"][1]["name"] == "Milk"
    for r in healed.repairs:
        assert 0 <= r.span.start <= r.span.end <= len(reply)
    assert FMT.heal(healed.text).repairs == ()  # idempotent


def test_heal_keeps_comments():
    reply = "# settings\nname: demo   # the name\nnote: a: b\n"
    healed = FMT.heal(reply)
    assert "# settings" in healed.text and "# the name" in healed.text
    assert FMT.parse(healed.text) == {"name": "demo", "note": "a: b"}


def test_two_readings_are_a_violation_not_a_guess():
    # YAML reads a comment / more text; the writer meant a value / a list item
    assert [v.code for v in FMT.validate("title: Issue #42 crashes\n")] == ["yaml.ambiguous"]
    assert [v.code for v in FMT.validate("- one\n  - two\n")] == ["yaml.ambiguous"]
    assert [v.code for v in FMT.validate("[?x]\n")] == ["yaml.ambiguous"]
    assert FMT.is_valid("title: Issue # 42\n")  # a comment written as one stays one
    assert FMT.parse("title: Issue # 42\n") == {"title": "Issue"}


def test_windows_line_ends_are_not_prose():
    result = check("a: 1\r\nb:\r\n  - x\r\n", "EXPECT YAML")
    assert result.ok and result.value == {"a": 1, "b": ["x"]} and result.repairs == []


def test_json_reply_is_yaml_unchanged():
    reply = '{"name": "Ada", "langs": ["en", "fr"], "age": 36}'
    assert FMT.is_valid(reply)
    assert FMT.heal(reply).repairs == ()
    assert FMT.parse(reply) == {"name": "Ada", "langs": ["en", "fr"], "age": 36}


def test_bare_scalar_is_not_yaml_data():
    assert not FMT.is_valid("Sure, here it is")
    assert FMT.is_valid("Sure, here it is", root="any")
    assert not check("Sorry, I can't help with that.", "EXPECT YAML").ok


def test_yaml_1_2_words_stay_strings_and_the_schema_repair_is_listed():
    schema = {"type": "object", "properties": {"enabled": {"type": "boolean"}, "country": {"type": "string"}}}
    reply = "enabled: yes\ncountry: no\n"
    assert FMT.parse(reply) == {"enabled": "yes", "country": "no"}
    assert not FMT.is_valid(reply, schema)
    healed = FMT.heal(reply, schema)
    assert [r.kind for r in healed.repairs] == ["yaml11_boolean"]
    assert FMT.parse(healed.text) == {"enabled": True, "country": "no"}


def test_schema_repairs_through_the_shared_layer():
    schema = {
        "type": "object",
        "properties": {
            "age": {"type": "integer"},
            "status": {"enum": ["Active", "Closed"]},
            "firstName": {"type": "string"},
        },
        "required": ["age", "firstName"],
    }
    reply = "# person\nage: '42'\nstatus: active\nfirst_name: Ada\n"
    result = check(reply, _expect(schema))
    assert result.ok, result.violations
    assert result.value == {"age": 42, "status": "Active", "firstName": "Ada"}
    assert {r.kind for r in result.repairs} >= {"string_to_number", "enum_case", "renamed_key"}
    # firstName not required: first_name is an extra member the validator accepts, kept
    lax = {**schema, "required": ["age"]}
    result = check(reply, _expect(lax))
    assert result.ok and result.value == {"age": 42, "status": "Active", "first_name": "Ada"}
    # a valid value is not touched at all (issue 31): yes/no words stay where a string is fine
    result = check("# person\nage: 42\nstatus: Active\nfirst_name: Ada\n", _expect(lax))
    assert result.verdict == "pass" and result.repairs == []
    violations = FMT.validate("age: x\n", lax)
    assert violations and violations[0].path == ("age",)


def test_a_lone_scalar_is_wrapped_in_the_array_the_schema_asks_for():
    schema = {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}
    healed = FMT.heal("tags: python  # one tag\nname: x\n", schema)
    assert [r.kind for r in healed.repairs] == ["wrapped_in_array"]
    assert healed.text == "tags: [python]  # one tag\nname: x\n"
    assert FMT.parse(healed.text) == {"tags": ["python"], "name": "x"}


def _expect(schema):
    return Expectations(format="yaml", schema=schema)


def test_billion_laughs_and_python_tags_are_violations():
    laughs = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join(f"*{chr(97 + i)}" for _ in range(9)) + "]\n" for i in range(8)
    )
    codes = [v.code for v in FMT.validate(laughs)]
    assert codes == ["yaml.alias_expansion"]
    assert [v.code for v in FMT.validate("a: !!python/object/apply:os.system ['echo hi']\n")] == ["yaml.python_tag"]
    assert [v.code for v in FMT.validate("a: &x [*x]\n")] == ["yaml.alias_cycle"]
    with pytest.raises(HealError):
        FMT.heal(laughs)


def test_values_and_scopes_through_check():
    reply = "title: Weekly report\nsummary: >-\n  Two tasks done,\n  one left.\ncount: 3\nnothing: null\n"
    assert FMT.extract_values(reply) == ["Weekly report", "Two tasks done, one left.", "3"]
    result = check(reply, 'EXPECT YAML\nEXPECT MAX 4 WORDS IN "/summary"')
    assert not result.ok and result.counts == {'words IN "/summary"': 5}
    assert check(reply, 'EXPECT YAML\nEXPECT MAX 5 WORDS IN "/summary"').ok
    assert not check(reply, 'EXPECT YAML\nEXPECT MAX 5 WORDS IN "/missing"').ok


def test_stream_catches_what_is_impossible():
    cases = {
        "a:\n\tb: 1\n": False,  # tab indentation
        "a: 1\n]\n": False,  # closing bracket, nothing open
        "a:\n  b: 1\n c: 2\n": False,  # indentation matching no block
        "a: 1\n---\nb: 2\n": False,  # a second document
        "a: [1, 2\n  , 3\n": True,
        "a: |\n  text\n  \tmore\n": True,  # a tab inside a block scalar's text
        "a: |\n  text\n\tmore\n": False,  # the block scalar ended: a tab indents a line
    }
    for text, expected in cases.items():
        checker = FMT.stream()
        ok = all(checker.feed(ch) for ch in text)
        assert ok is expected, text
        assert FMT.can_be_valid(text) is expected, text
    assert FMT.can_be_valid("a: 1\n---\nb: 2\n", documents="many")


def test_aliases_and_mime_lookup():
    assert get_format("yml") is FMT or get_format("yml").name == "yaml"
    assert get_format("application/x-yaml").name == "yaml"
    assert get_format("text/yaml").name == "yaml"


def test_locate_fence_and_prose():
    reply = "Sure! Here is the file:\n```yml\na: 1\n```\nAnything else?"
    spans = FMT.locate(reply)
    assert reply[spans[0].start : spans[0].end] == "a: 1"
    reply = "Here is the YAML you asked for:\nname: demo\nlist:\n  - 1\n\nLet me know if you need more."
    result = check(reply, "EXPECT YAML")
    assert result.ok and result.value == {"name": "demo", "list": [1]}


# found by the short fuzz pass once every format was merged (seed 2026)
@pytest.mark.parametrize(
    "reply",
    [
        "~~~\n# Sets are represented as a\n# Mapping where each key is\n# associated with a null value\n"
        "--- !!set\n? Mark McGwire\n? Sammy Sosa\n? Ken Griff\n\n~~~",
        "---\nmatches %: 20\n...\n\n...\n---\n...\n",
    ],
)
def test_heal_is_idempotent_on_fuzz_findings(reply):
    # comment lines right above the data belong to it (locate used to set them aside the
    # second time); a removed last line leaves no line break the located payload never has
    first = formatbook_core.heal(reply, "EXPECT YAML")
    second = formatbook_core.heal(first.text, "EXPECT YAML")
    assert second.text == first.text and second.repairs == ()


def test_a_valid_value_under_a_union_passes_as_written():
    # issue 31: a value the validator accepts is never converted, whatever the union allows
    schema = {"type": "array", "items": {"properties": {"score": {"anyOf": [{"type": "integer"}, {"type": "number"}]}}}}
    for reply in ("- score: 877.0\n- score: 3\n", "```yaml\n- score: 877.0\n```", "- {score: 877.0}\r\n"):
        result = check(reply, _expect(schema))
        assert result.ok and result.value[0] == {"score": 877.0}, reply
        assert not {r.kind for r in result.repairs} & {"float_to_integer", "string_to_number"}, reply
    result = check("- score: 877.0\n- score: 3\n", _expect(schema))
    assert result.verdict == "pass" and type(result.value[0]["score"]) is float
