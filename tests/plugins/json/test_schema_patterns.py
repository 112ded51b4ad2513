"""A schema's patterns run on reply text in linear time, in the fast check and in the
violation listing; the listing runs only for an invalid value."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from formatbook_core import ExpectationError, Expectations, check
from formatbook_core.data_schema import repairs as schema_aware
from formatbook_json import JsonFormat

FMT = JsonFormat()

# the check runs in a subprocess that the kernel ends (SIGXCPU) once the check has used
# ``seconds`` of CPU time: CPU, not wall time, so that a loaded machine does not trip it
_BOUNDED = textwrap.dedent(
    """
    import math, resource, time
    from formatbook_core import Expectations, check
    exp = Expectations(format="json", schema={schema})
    exp.loaded_schema
    check("1", exp)  # imports and compiles before the bound starts
    limit = math.ceil(time.process_time() + {seconds})
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))
    result = check({reply}, exp)
    assert not result.ok, result
    print(result.violations[0].code)
    """
)


def _answers_within(schema: dict, reply: str, seconds: float = 2.0) -> str:
    code = _BOUNDED.format(schema=repr(schema), reply=repr(reply), seconds=seconds)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"exit {done.returncode} (a negative one is the signal): {done.stderr[-2000:]}"
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("schema", "make_reply"),
    [
        ({"type": "string", "pattern": "^(a+)+$"}, lambda n: '"' + "a" * n + '!"'),
        (
            {"type": "object", "patternProperties": {"^(a+)+$": {"type": "integer"}}, "additionalProperties": False},
            lambda n: '{"' + "a" * n + '!": 1}',
        ),
        ({"propertyNames": {"pattern": "^(a+)+$"}}, lambda n: '{"' + "a" * n + '!": 1}'),
        ({"patternProperties": {"^(a+)+$": {}}, "unevaluatedProperties": False}, lambda n: '{"' + "a" * n + '!": 1}'),
    ],
)
def test_catastrophic_pattern_answers_at_two_sizes(schema, make_reply):
    # growth at two sizes: Python's re doubles its time per character here (seconds at 25,
    # a minute at 30); a linear engine answers both within the bound
    for n in (25, 30):
        assert _answers_within(schema, make_reply(n)).startswith("schema.")


def test_listing_reports_the_pattern_violation():
    (v,) = FMT.analyze('"abc!"', {"type": "string", "pattern": "^[a-z]+$"}).violations
    assert v.code == "schema.pattern" and v.expected == "^[a-z]+$"


def test_pattern_properties_and_additional_properties_agree_with_jsonschema():
    schema = {"type": "object", "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": False}
    a = FMT.analyze('{"x-a": "s", "y": 1}', schema)
    assert {(v.code, v.path) for v in a.violations} == {("schema.type", ("x-a",)), ("schema.additionalProperties", ())}
    assert FMT.is_valid('{"x-a": 1}', schema)


def test_unevaluated_properties_are_listed_by_jsonschema_rs():
    schema = {"properties": {"a": {"type": "integer"}}, "patternProperties": {"^x": {}}, "unevaluatedProperties": False}
    a = FMT.analyze('{"a": 1, "xy": 2, "b": 3}', schema)
    assert [v.code for v in a.violations] == ["schema.unevaluatedProperties"]
    assert "'b'" in a.violations[0].message
    assert FMT.is_valid('{"a": 1, "xy": 2}', schema)


def test_pattern_the_linear_engine_cannot_run_is_refused_at_load():
    with pytest.raises(ExpectationError, match="linear"):
        _ = Expectations(format="json", schema={"pattern": "(?=a)b"}).loaded_schema


def test_python_listing_never_runs_for_a_valid_value(monkeypatch):
    js = FMT.load_schema({"type": "object", "properties": {"a": {"type": "string", "pattern": "^a+$"}}})

    def refuse() -> None:
        raise AssertionError("the Python validator ran for a valid value")

    monkeypatch.setattr(js, "_python", refuse)
    assert js.violations({"a": "aaa"}) == ()
    assert check('{"a": "aaa"}', Expectations(format="json", schema=js)).ok


def test_schema_aware_key_matching_is_linear():
    calls = []
    original = schema_aware.search

    def counting(pattern: str, text: str) -> bool:
        calls.append(pattern)
        return original(pattern, text)

    schema = {"type": "object", "properties": {"fooBar": {}}, "patternProperties": {"^(a+)+$": {}}}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(schema_aware, "search", counting)
        ops = schema_aware.plan({"foo_bar": 1, "a" * 30 + "!": 2}, schema)
    assert [op.kind for op in ops] == ["renamed_key"]
    assert calls  # the keys went through the linear matcher


@pytest.mark.parametrize(
    ("schema", "good", "bad"),
    [
        ({"properties": {"a": {"pattern": r"^\p{Letter}+$"}}}, '{"a": "Ada"}', '{"a": "Ad4"}'),
        ({"properties": {"a": {"pattern": r"^\p{L}+$"}}}, '{"a": "Zoë"}', '{"a": "Zo_"}'),
        ({"properties": {"a": {"pattern": r"^\p{Greek}+$"}}}, '{"a": "λόγος"}', '{"a": "logos"}'),
        (
            {"patternProperties": {r"^\p{Lu}": {"type": "integer"}}, "additionalProperties": False},
            '{"Ab": 1}',
            '{"ab": 1}',
        ),
        ({"items": {"pattern": r"^\P{N}*$"}}, '["abc"]', '["ab1"]'),
    ],
)
def test_a_pattern_the_validator_runs_is_accepted_at_load(schema, good, bad):
    # Python's re refuses \p{...}; the engine that runs the patterns takes it
    exp = Expectations(format="json", schema=schema)
    assert check(good, exp).ok
    result = check(bad, exp)
    assert not result.ok
    assert result.violations[0].code.startswith("schema.")


@pytest.mark.parametrize("pattern", ["(?=a)b", r"(a)\1", "[", "a{2,1}"])
def test_a_pattern_the_validator_cannot_run_is_refused_in_either_keyword(pattern):
    for schema in ({"properties": {"a": {"pattern": pattern}}}, {"patternProperties": {pattern: {}}}):
        with pytest.raises(ExpectationError, match="linear-time"):
            _ = Expectations(format="json", schema=schema).loaded_schema
