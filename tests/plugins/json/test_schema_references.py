"""A schema reads nothing but itself unless allow_fetch=True (then http(s) only), and every
problem of a schema is an ExpectationError when it is loaded, never a per-reply failure."""

from __future__ import annotations

import http.server
import json
from collections.abc import Iterator

import pytest
from referencing.exceptions import Unretrievable

from formatbook_core import ExpectationError, Expectations, StreamGuard, check, guidance
from formatbook_core.data_schema import JsonSchema
from formatbook_core.data_schema.references import MAX_SCHEMA_DEPTH, Retriever, python_registry
from tests.local_http import LocalHttpServer


class _Server(LocalHttpServer):
    """A local HTTP server on 127.0.0.1 that serves ``{"type": "integer"}`` and records
    every request path."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        requests = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                requests.append(self.path)
                body = json.dumps({"type": "integer"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        super().__init__(Handler)


@pytest.fixture
def server() -> Iterator[_Server]:
    with _Server() as s:
        yield s


def _variants(base: str, tmp_file: str) -> dict[str, dict]:
    return {
        "remote $ref": {"$ref": f"{base}/r.json"},
        "file $ref": {"$ref": f"file://{tmp_file}"},
        "nested $ref": {"type": "object", "properties": {"a": {"$ref": f"{base}/n.json"}}},
        "$id base with a relative $ref": {"$id": f"{base}/root.json", "$ref": "other.json"},
        "remote $schema": {"$schema": f"{base}/meta.json", "type": "string"},
        "relative $ref without a base": {"$ref": "other.json"},
        "$ref in $defs": {"$defs": {"x": {"$ref": f"{base}/d.json"}}, "type": "string"},
        "$dynamicRef": {"$dynamicRef": f"{base}/dyn.json"},
    }


def _uses(schema: dict, options: dict) -> list:
    """Every way a caller can use the schema: check, StreamGuard, guidance."""
    outcomes = []
    for use in (
        lambda e: check('"x"', e),
        lambda e: StreamGuard(e).feed('"x"'),
        lambda e: guidance(e),
    ):
        try:
            outcomes.append(use(Expectations(format="json", schema=schema, options=options)))
        except ExpectationError as err:
            outcomes.append(err)
    return outcomes


def test_no_reference_is_read_without_allow_fetch(server, tmp_path):
    secret = tmp_path / "secret.json"
    secret.write_text('{"type": "integer"}', encoding="utf-8")
    for name, schema in _variants(server.base, str(secret)).items():
        for outcome in _uses(schema, {}):
            assert isinstance(outcome, ExpectationError), (name, outcome)
            assert "allow_fetch" in str(outcome), name
        assert server.requests == [], name


def test_refusal_names_the_reference(server):
    with pytest.raises(ExpectationError, match=r"r\.json.*allow_fetch"):
        _ = Expectations(format="json", schema={"$ref": f"{server.base}/r.json"}).loaded_schema


def test_file_references_are_refused_even_with_allow_fetch(tmp_path):
    secret = tmp_path / "secret.json"
    secret.write_text('{"type": "integer"}', encoding="utf-8")
    with pytest.raises(ExpectationError, match="http and https"):
        check('"x"', Expectations(format="json", schema={"$ref": secret.as_uri()}, options={"allow_fetch": True}))


def test_allow_fetch_reads_each_document_once(server):
    schema = {"type": "object", "properties": {"a": {"$ref": f"{server.base}/r.json"}}}
    exp = Expectations(format="json", schema=schema, options={"allow_fetch": True})
    assert check('{"a": 3}', exp).ok
    bad = check('{"a": "x"}', exp)
    assert not bad.ok and bad.violations[0].code == "schema.type" and bad.violations[0].path == ("a",)
    assert server.requests == ["/r.json"]


def test_allow_fetch_resolves_against_the_id_base(server):
    exp = Expectations(
        format="json",
        schema={"$id": f"{server.base}/dir/root.json", "$ref": "other.json"},
        options={"allow_fetch": True},
    )
    assert check("7", exp).ok and not check('"7"', exp).ok
    assert server.requests == ["/dir/other.json"]


def test_known_drafts_are_not_fetched(server):
    for dialect in ("http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"):
        exp = Expectations(format="json", schema={"$schema": dialect, "type": "string"})
        assert check('"x"', exp).ok and not check("true", exp).ok  # (1 is quoted as written)
    exp = Expectations(format="json", schema={"$ref": "https://json-schema.org/draft/2020-12/schema"})
    assert check('{"type": "string"}', exp).ok and not check('{"type": 5}', exp).ok
    assert server.requests == []


# --- schema problems surface when the schema is loaded ---------------------------------


def _load_error(schema: object) -> ExpectationError:
    with pytest.raises(ExpectationError) as info:
        check("1", Expectations(format="json", schema=schema))
    return info.value


def test_missing_definition_is_an_expectation_error():
    assert "#/$defs/nope" in str(_load_error({"$ref": "#/$defs/nope"}))
    assert "cannot be resolved" in str(_load_error({"properties": {"a": {"$ref": "#/$defs/nope"}}}))


@pytest.mark.parametrize(
    "schema",
    [
        {"allOf": [{"$ref": "#"}]},
        {"allOf": [{"$ref": "#"}], "type": "string"},
        {"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/b"}]}, "b": {"not": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"},
        {"$defs": {"a": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}},
    ],
)
def test_loop_that_never_descends_is_an_expectation_error(schema):
    assert "without end" in str(_load_error(schema))


def test_recursion_through_the_value_is_fine():
    schema = {"type": "array", "items": {"$ref": "#"}}
    exp = Expectations(format="json", schema=schema)
    assert check("[[], [[]]]", exp).ok
    bad = check("[[[1]]]", exp)
    assert not bad.ok and bad.violations[0].path == (0, 0, 0)


def test_very_deep_schema_is_an_expectation_error_not_a_recursion_error():
    deep: dict = {"type": "string"}
    for _ in range(5000):
        deep = {"not": deep}
    assert "deeper than" in str(_load_error(deep))
    text = "{" + '"not": {' * 5000 + "}" * 5001
    assert "deep" in str(_load_error(text))


def test_schema_just_under_the_depth_limit_lists_violations():
    schema: dict = {"type": "string"}
    reply = "true"  # (a number would be quoted as written: number_to_string)
    for _ in range(MAX_SCHEMA_DEPTH // 2 - 1):
        schema = {"type": "object", "properties": {"a": schema}}
        reply = '{"a": ' + reply + "}"
    result = check(reply, Expectations(format="json", schema=schema))
    assert not result.ok and result.violations[0].code == "schema.type"
    assert len(result.violations[0].path) == MAX_SCHEMA_DEPTH // 2 - 1


def test_deep_value_against_a_recursive_schema_is_listed_without_recursion_error():
    schema = {"type": "array", "items": {"$ref": "#"}}
    reply = "[" * 900 + "1" + "]" * 900
    result = check(reply, Expectations(format="json", schema=schema))
    assert not result.ok and result.violations[0].code == "schema.type"
    assert len(result.violations[0].path) == 900


# --- each validator refuses on its own, not only the load-time walk ----------------------


def test_jsonschema_rs_compiles_through_the_refusing_retriever(server):
    js = JsonSchema({"properties": {"a": {"$ref": f"{server.base}/r.json"}}})
    with pytest.raises(ExpectationError, match=r"r\.json.*allow_fetch"):
        js._compile()  # skips the walk: jsonschema-rs alone
    assert server.requests == []


def test_jsonschema_registry_retrieves_through_the_refusing_retriever(server):
    retriever = Retriever(allow_fetch=False)
    with pytest.raises(Unretrievable):
        python_registry(retriever).get_or_retrieve(f"{server.base}/r.json")
    assert retriever.refused == [f"{server.base}/r.json"] and server.requests == []
    allowed = Retriever(allow_fetch=True)
    python_registry(allowed).get_or_retrieve(f"{server.base}/r.json")
    assert allowed(f"{server.base}/r.json") == {"type": "integer"}
    assert server.requests == ["/r.json"]  # fetched once, then from the retriever's cache


def test_deep_value_failing_a_recursive_union_is_a_violation():
    # 500 levels: beyond what Python's jsonschema lists (about 200 from a fresh thread's
    # stack) and what jsonschema-rs validates (its recursion limit, between 250 and 300
    # levels here). Each level costs more than the last: 900 levels took 2.1 s, 500 0.8 s
    schema = {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]}
    result = check("[" * 500 + '"x"' + "]" * 500, Expectations(format="json", schema=schema))
    assert not result.ok and [v.code for v in result.violations] == ["schema.invalid"]
    assert check("[" * 900 + "1" + "]" * 900, Expectations(format="json", schema=schema)).ok
