"""extract_values and JSON pointer scopes."""

from __future__ import annotations

import pytest

from formatbook_core import ScopeNotFound
from formatbook_json import JsonFormat

FMT = JsonFormat()

DOC = '{"title": "Q3 report", "price": 1.50, "ok": true, "none": null, "blank": "  ", "items": [{"name": "A\\u00e9"}, {"name": "B", "qty": 2}], "": "empty key", "a/b": "slash"}'


def test_values_in_document_order_as_written():
    assert FMT.extract_values(DOC) == ["Q3 report", "1.50", "true", "Aé", "B", "2", "empty key", "slash"]


def test_keys_never_counted():
    assert FMT.extract_values('{"many words in a key": 1}') == ["1"]


def test_scalar_document():
    assert FMT.extract_values('"just text"') == ["just text"]
    assert FMT.extract_values("null") == []


@pytest.mark.parametrize(
    "pointer,values",
    [
        ("/title", ["Q3 report"]),
        ("/items", ["Aé", "B", "2"]),
        ("/items/1", ["B", "2"]),
        ("/items/0/name", ["Aé"]),
        ("/price", ["1.50"]),
        ("", ["Q3 report", "1.50", "true", "Aé", "B", "2", "empty key", "slash"]),
        ("/", ["empty key"]),
        ("/a~1b", ["slash"]),
        ("#/items/1/qty", ["2"]),
        ("/none", []),
    ],
)
def test_scopes(pointer, values):
    assert FMT.extract_scope(DOC, pointer) == values


@pytest.mark.parametrize("pointer", ["/missing", "/items/2", "/items/01", "/title/x", "title", "/items/-"])
def test_missing_scope(pointer):
    with pytest.raises(ScopeNotFound):
        FMT.extract_scope(DOC, pointer)


def test_scope_on_invalid_json():
    with pytest.raises(ScopeNotFound):
        FMT.extract_scope('{"a": ', "/a")
