"""Issue 9, "what will be checked": no request reaches a local server from any format's
schema without allow_fetch — every format that takes a schema (JSON Schema for JSON, YAML,
CSV and XML; XSD and DTD for XML; whatever HTML and iCalendar take), given as a URL, as a
dict or a file whose references point at the server, or as XSD/DTD text importing from it."""

from __future__ import annotations

import json

import pytest

from formatbook_core import ExpectationError, Expectations, check
from formatbook_core.registry import default_registry
from tests.contract.facts import declared
from tests.plugins.json.test_schema_references import _Server

# a payload of each format: ``payload`` on its contract class
REPLIES = declared("payload")


def _schemas(base: str, tmp_path) -> list:
    refs = [
        f"{base}/schema.json",
        {"$ref": f"{base}/r.json"},
        {"$schema": f"{base}/meta.json", "type": "object"},
        {"type": "object", "properties": {"a": {"$ref": f"{base}/a.json"}}},
        {"$id": f"{base}/root.json", "allOf": [{"$ref": "other.json"}]},
    ]
    file = tmp_path / "refs.json"
    file.write_text(json.dumps({"$ref": f"{base}/file-ref.json"}), encoding="utf-8")
    xsd = tmp_path / "import.xsd"
    xsd.write_text(
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
        f'<xs:import namespace="urn:x" schemaLocation="{base}/x.xsd"/>'
        f'<xs:include schemaLocation="{base}/y.xsd"/>'
        '<xs:element name="a" type="xs:string"/></xs:schema>',
        encoding="utf-8",
    )
    dtd = tmp_path / "ext.dtd"
    dtd.write_text(f'<!ENTITY % ext SYSTEM "{base}/e.dtd">%ext;<!ELEMENT a (#PCDATA)>', encoding="utf-8")
    return [*refs, str(file), str(xsd), str(dtd)]


@pytest.mark.parametrize("fmt", sorted(REPLIES))
def test_no_schema_of_any_format_reaches_a_local_server_without_allow_fetch(fmt, tmp_path):
    assert fmt in {f.name for f in default_registry().formats()}
    with _Server() as server:
        for schema in _schemas(server.base, tmp_path):
            try:
                result = check(REPLIES[fmt], Expectations(format=fmt, schema=schema))
            except ExpectationError:
                continue  # refused when loaded: fine, as long as nothing was fetched
            assert result is not None
        assert server.requests == [], f"{fmt}: {server.requests}"


def test_the_server_does_receive_a_fetch_when_allowed():
    # the test above could pass with a dead server: with allow_fetch the JSON schema URL is fetched
    with _Server() as server:
        check("1", Expectations(format="json", schema=f"{server.base}/s.json", options={"allow_fetch": True}))
        assert server.requests
