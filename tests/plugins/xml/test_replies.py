"""LLM-style replies written independently of the plugin (fixtures/replies/): each
``NAME.reply.txt`` checked against ``NAME.expect.txt`` must heal into the document written by
hand in ``NAME.healed.xml``: the same text and structure once parsed."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from formatbook_core import check

HERE = Path(__file__).parent / "fixtures" / "replies"
NAMES = sorted(p.name.removesuffix(".reply.txt") for p in HERE.glob("*.reply.txt"))


def _shape(text: str):
    def walk(e):
        return (e.tag, dict(e.attrib), (e.text or "").strip(), [walk(c) for c in e], (e.tail or "").strip())

    return walk(etree.fromstring(text.encode("utf-8")))


@pytest.mark.parametrize("name", NAMES)
def test_reply_heals_into_the_document_meant(name):
    reply = (HERE / f"{name}.reply.txt").read_text(encoding="utf-8")
    expect = (HERE / f"{name}.expect.txt").read_text(encoding="utf-8")
    meant = (HERE / f"{name}.healed.xml").read_text(encoding="utf-8").strip()
    result = check(reply, expect)
    assert result.ok, [str(v) for v in result.violations]
    assert result.verdict == "healed"
    assert _shape(result.text) == _shape(meant)
    assert result.text == meant
    for repair in result.repairs:
        assert 0 <= repair.span.start <= repair.span.end <= len(reply)
