"""DataFormat: a data format inherits its schema options and schema loading from the core."""

from __future__ import annotations

import json
from typing import Any

import pytest

from formatbook_core import Analysis, ExpectationError
from formatbook_core.data_schema import SCHEMA_OPTIONS, DataFormat, JsonSchema
from formatbook_core.registry import default_registry


class _Lines(DataFormat):
    """A data format of one JSON value per reply, as small as a plugin's can be."""

    name = "lines-test"

    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        parsed = json.loads(value)
        js = self._schema(schema, options)
        return Analysis(parsed, js.violations(parsed) if js is not None else ())


@pytest.mark.parametrize("name", ["json", "yaml", "csv"])
def test_builtin_data_formats_share_the_base(name: str) -> None:
    fmt = default_registry().get(name)
    assert isinstance(fmt, DataFormat)
    names = [o.name for o in fmt.option_specs]
    assert names[-2:] == [o.name for o in SCHEMA_OPTIONS] == ["allow_fetch", "base_dir"]


def test_a_subclass_inherits_loading() -> None:
    fmt = _Lines()
    loaded = fmt.load_schema({"type": "integer"})
    assert isinstance(loaded, JsonSchema)
    assert fmt._schema(loaded, {}) is loaded
    assert fmt.analyze("3", {"type": "integer"}).ok
    assert not fmt.analyze('"x"', {"type": "integer"}).ok


def test_a_subclass_inherits_the_security_rules() -> None:
    with pytest.raises(ExpectationError, match="allow_fetch"):
        _Lines().load_schema("https://example.invalid/schema.json")
    with pytest.raises(ExpectationError, match="allow_fetch"):
        _Lines().load_schema({"$ref": "https://example.invalid/other.json"})


def test_base_dir_places_a_relative_schema(tmp_path: Any) -> None:
    (tmp_path / "s.json").write_text('{"type": "string"}', encoding="utf-8")
    assert _Lines().load_schema("s.json", base_dir=str(tmp_path)).schema == {"type": "string"}
