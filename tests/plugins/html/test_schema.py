"""The simple schema: required elements or CSS selectors."""

from __future__ import annotations

import json

import pytest

from formatbook_core import ExpectationError, Expectations, check, get_format, parse_expectations

fmt = get_format("html")
REPLY = "<h1>Plan</h1><ul><li>one</li><li>two</li></ul><p class=note>ok</p>"


def test_required_selectors_pass_and_fail():
    assert fmt.is_valid(REPLY, schema={"required": ["h1", "ul > li", "p.note"]})
    violations = fmt.validate(REPLY, schema={"required": ["h1", "ol > li", "table td"]})
    assert [(v.code, v.expected) for v in violations] == [("html.required", "ol > li"), ("html.required", "table td")]


def test_through_check_with_an_expectations_object():
    result = check(REPLY, Expectations(format="html", schema={"required": ["h2"]}))
    assert not result.ok and result.violations[0].code == "html.required"
    assert check(REPLY, Expectations(format="html", schema={"required": ["h1"]})).ok


def test_schema_file(tmp_path):
    (tmp_path / "s.json").write_text(json.dumps({"required": ["ul > li"]}))
    exp = parse_expectations("EXPECT HTML s.json", base_dir=tmp_path)
    assert check(REPLY, exp).ok
    assert not check("<p>x</p>", exp).ok


@pytest.mark.parametrize(
    "schema", [{"required": ["p[["]}, {"needed": ["h1"]}, {"required": "h1"}, 42, {"required": [""]}]
)
def test_bad_schemas_are_expectation_errors(schema):
    with pytest.raises(ExpectationError):
        _ = Expectations(format="html", schema=schema).loaded_schema


def test_a_list_is_read_as_required():
    assert fmt.is_valid(REPLY, schema=["h1", "li"])
    assert "`ul > li`" in fmt.guidance(schema={"required": ["ul > li"]})
