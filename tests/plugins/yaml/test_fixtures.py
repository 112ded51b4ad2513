"""LLM-style YAML replies (fixtures/heal/NAME.yaml or .txt, written by hand in the styles
models produce) checked through ``check``: the value must equal NAME.json (written by
hand, not from the output), every repair's span must lie in the reply, and healing the
result again must change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formatbook_core import check, heal

HERE = Path(__file__).resolve().parent / "fixtures" / "heal"
REPLIES = sorted(p for p in HERE.iterdir() if p.suffix in (".yaml", ".txt"))


@pytest.mark.parametrize("path", REPLIES, ids=lambda p: p.stem)
def test_reply_heals_to_the_intended_value(path: Path) -> None:
    reply = path.read_text(encoding="utf-8")
    expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    result = check(reply, "EXPECT YAML")
    assert result.ok, result.violations
    assert result.value == expected
    for r in result.repairs:
        assert 0 <= r.span.start <= r.span.end <= len(reply), r
    again = heal(result.text, "EXPECT YAML")
    assert again.text == result.text and not again.repairs


def test_there_are_fixtures() -> None:
    assert len(REPLIES) >= 8
