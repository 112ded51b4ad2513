"""The plugin's README lists every violation code and every repair kind it can emit."""

from __future__ import annotations

import pathlib
import re

import formatbook_markdown
from formatbook_markdown.heal.enforce import REPAIR_CODES

PLUGIN = pathlib.Path(formatbook_markdown.__file__).parent
ROW = re.compile(r"^\| `([^`]+)` \|", re.MULTILINE)


def _table(title: str) -> set[str]:
    text = (PLUGIN / "README.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    return set(ROW.findall(section))


def test_every_violation_code_is_in_the_readme():
    # codes are literal strings in the source, so they can be found like this
    source = "".join(p.read_text(encoding="utf-8") for p in PLUGIN.rglob("*.py"))
    assert set(re.findall(r"\"(markdown\.[a-z_]+)\"", source)) == _table("Violation codes")


def test_every_repair_kind_is_in_the_readme():
    assert set(REPAIR_CODES) == _table("Repair kinds")
