"""Schemas of the TOML format come through the core (``DataFormat``): the capped schema-file
reader, the reference policy, JSON Schema and pydantic models on the document as JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path

import formatbook_toml
import pytest
from formatbook_toml import TomlFormat

from formatbook_core import check, parse_expectations
from formatbook_core.limits import MAX_SCHEMA_FILE_SIZE
from formatbook_core.registry import Registry
from formatbook_core.results import ExpectationError

SCHEMA = {"type": "object", "required": ["server"], "properties": {"server": {"required": ["port"]}}}


def _expect(line: str):
    """EXPECT lines read with this plugin registered (installed or imported by path)."""
    registry = Registry(autoload=False)
    registry.register_plugin(formatbook_toml, "toml")
    return parse_expectations(line, registry=registry)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_as_the_schema_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "schema.json"
    os.mkfifo(fifo)
    with pytest.raises(ExpectationError, match="not found"):  # the EXPECT line takes only a regular file
        _expect(f"EXPECT TOML {fifo}")
    with pytest.raises(ExpectationError, match="a FIFO"):  # and the core's reader looks before it opens
        TomlFormat().load_schema(fifo)


def test_an_oversized_sparse_file_named_as_the_schema_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "schema.json"
    with big.open("wb") as f:
        f.truncate(MAX_SCHEMA_FILE_SIZE + 1)  # sparse: costs no disk, one byte over the cap
    expect = _expect(f"EXPECT TOML {big}")
    with pytest.raises(ExpectationError, match=f"larger than {MAX_SCHEMA_FILE_SIZE:,} bytes"):
        check("port = 8080\n", expect)  # the schema is loaded on first use


def test_a_schema_reads_nothing_but_itself(tmp_path: Path) -> None:
    (tmp_path / "other.json").write_text("{}")
    (tmp_path / "schema.json").write_text(json.dumps({"$ref": "other.json"}))
    expect = _expect(f"EXPECT TOML {tmp_path / 'schema.json'}")
    with pytest.raises(ExpectationError, match="allow_fetch"):
        check("port = 8080\n", expect)


def test_a_schema_file_is_applied_to_the_document(tmp_path: Path) -> None:
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    expect = _expect(f"EXPECT TOML {tmp_path / 'schema.json'}")
    assert check("[server]\nport = 8080\nstarted = 2024-05-01T10:00:00Z\n", expect).ok
    failed = check('[server]\nhost = "example.org"\n', expect)
    assert [v.code for v in failed.violations] == ["schema.required"]
    assert failed.violations[0].path == ("server",)


def test_a_pydantic_model_builds_the_value() -> None:
    pydantic = pytest.importorskip("pydantic")
    model = pydantic.create_model("Server", port=(int, ...), started=(__import__("datetime").datetime, ...))
    fmt = TomlFormat()
    value = fmt.parse("port = 8080\nstarted = 2024-05-01T10:00:00Z\n", model)
    assert isinstance(value, model) and value.port == 8080 and value.started.year == 2024
    assert [v.code for v in fmt.validate('port = "x"\nstarted = 2024-05-01\n', model)] == ["schema.type"]


def test_guidance_carries_the_schema() -> None:
    text = TomlFormat().guidance(SCHEMA)
    assert text.startswith("Reply in TOML only") and '"required"' in text
