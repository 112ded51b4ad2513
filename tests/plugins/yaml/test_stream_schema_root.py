"""Issue 26: the strict YAML checker judges the root's kind against the schema as soon as
the first block collection opens; a tag before it, which may change what the root loads
as, leaves it to the end. (The values inside: test_stream_schema_values.py.)"""

from __future__ import annotations

import pytest

from formatbook_core import Expectations, StreamGuard

OBJECT = {"type": "object", "properties": {"a": {"type": "integer"}}}
ARRAY = {"type": "array", "items": {"type": "string"}}


def _run(doc: str, schema: dict, size: int) -> tuple[int | None, str, bool]:
    guard = StreamGuard(Expectations(format="yaml", schema=schema), strict=True)
    for i in range(0, len(doc), size):
        status = guard.feed(doc[i : i + size])
        if not status:
            return status.position, status.reason or "", False
    return None, "", guard.finish().ok


@pytest.mark.parametrize("size", [1, 4, 64])
@pytest.mark.parametrize(
    ("doc", "schema", "point"),
    [
        # (the point: the blank after "-" or ":" that makes the line a collection entry)
        ("- a\n- b\n", OBJECT, 1),
        ("# notes\n\n  - x\n", OBJECT, 12),
        ("---\n- 1\n", OBJECT, 5),
        ("a: x\nb: y\n", ARRAY, 2),
    ],
)
def test_a_root_of_the_wrong_kind_stops_at_its_first_line(doc: str, schema: dict, point: int, size: int) -> None:
    position, reason, _ok = _run(doc, schema, size)
    assert position is not None and point <= position <= point + 8 and "type" in reason, reason


@pytest.mark.parametrize("size", [1, 4, 64])
@pytest.mark.parametrize(
    ("doc", "schema", "ok"),
    [
        ("a: 1\nb: 2\n", OBJECT, True),
        ("- x\n- y\n", ARRAY, True),
        ("--- !foo\n- a\n", OBJECT, False),  # a tag: the end decides (the loader refuses it)
    ],
)
def test_other_roots_are_left_to_the_end(doc: str, schema: dict, ok: bool, size: int) -> None:
    assert _run(doc, schema, size) == (None, "", ok)
