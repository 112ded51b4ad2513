"""Issue 26: the strict CSV checker judges the schema while the table streams: a header
that cannot match the declared columns stops at the header, a row at the cell that
breaks the row schema; valid tables stream to the end."""

from __future__ import annotations

from typing import Any

import pytest

from formatbook_core import Expectations, StreamGuard

ROW = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 6}, "age": {"type": "integer", "minimum": 0}},
    "required": ["name", "age"],
    "additionalProperties": False,
}


def _run(doc: str, schema: Any, size: int) -> tuple[int | None, str, bool]:
    guard = StreamGuard(Expectations(format="csv", schema=schema), strict=True)
    for i in range(0, len(doc), size):
        status = guard.feed(doc[i : i + size])
        if not status:
            return status.position, status.reason or "", False
    return None, "", guard.finish().ok


DOOMED = [
    # (document, schema, where no continuation can pass: checked by hand)
    ("name,agx\nBo,3\n", ROW, 8, "the schema does not declare"),  # the header cell closes at the line end
    ("name,age,zip\nBo,3,1\n", ROW, 12, 'column "zip"'),
    ("name\nBo\n", ROW, 4, 'no column "age"'),
    ("age,name\n-3,Bo\n", ROW, 11, "minimum"),  # the cell closes at its delimiter
    ("name,age\nBo,x\nAl,4\n", ROW, 13, "type"),
    ("name,age\nRoberto,3\n", ROW, 16, "maxLength"),
    ("name,age\n,3\n", {"columns": ["name", "age"], "required": ["name"]}, 9, "required"),
    ("name,agx\nBo,3\n", ["name", "age"], 8, "the schema does not declare"),
]


@pytest.mark.parametrize("size", [1, 4, 64])
@pytest.mark.parametrize(("doc", "schema", "point", "words"), DOOMED)
def test_a_doomed_table_stops_where_it_is_doomed(doc: str, schema: Any, point: int, words: str, size: int) -> None:
    position, reason, _ok = _run(doc, schema, size)
    assert position is not None and point <= position <= point + 8 and words in reason, reason


@pytest.mark.parametrize("size", [1, 3, 64])
@pytest.mark.parametrize(
    ("doc", "schema"),
    [
        ("name,age\nBo,3\nAl,40\n", ROW),
        ("age,name\r\n7,Bo\r\n", ROW),
        ('name,age\n"B,o",3\n', ROW),
        ("name,age\nBo,3\n", ["age", "name"]),
        ("name,age,x\nBo,,1\n", {"columns": ["name", "age", "x"], "required": ["name"]}),
    ],
)
def test_valid_tables_stream_to_the_end(doc: str, schema: Any, size: int) -> None:
    assert _run(doc, schema, size) == (None, "", True)
