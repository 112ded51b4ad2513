"""What one scanned text is worked out once for, counted (not timed): its tables, its
inline values, and a stricter level's look at the looser ones."""

from __future__ import annotations

import pytest

import formatbook_markdown.heal.enforce as enforce
import formatbook_markdown.reply.tables as tables
import formatbook_markdown.values as values
from formatbook_markdown.heal.enforce import enforce_flex_md
from formatbook_markdown.reply.blocks import scan

from .helpers import SPEC, STRICT_SPEC


def _new(text: str) -> str:
    """An equal string, a new object (a literal is one object for every test)."""
    return "".join(list(text))


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[object]:
    calls: list[object] = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_the_tables_of_a_scan_are_found_once(monkeypatch):
    found = _counting(monkeypatch, tables, "_find_tables")
    sc = scan(_new("| a | b |\n| --- |\n| 1 | 2 |\n\ntext\n\n| c |\n| - |\n| 3 |\n"))
    first = tables.find_tables(sc)
    assert [(b.line, b.end_line, b.header, b.aligns, b.rows) for b in first] == [
        (0, 3, ["a", "b"], ["---"], [["1", "2"]]),
        (6, 9, ["c"], ["-"], [["3"]]),
    ]
    first.clear()  # the caller's list: the scan's own is untouched
    assert [b.header for b in tables.find_tables(sc)] == [["a", "b"], ["c"]]
    assert len(found) == 1


def test_the_inline_values_of_a_scan_are_stripped_once(monkeypatch):
    stripped = _counting(monkeypatch, values, "strip_inline")
    text = _new("# Title\n\nSome **bold** and [a link](http://x).\n\n- one\n- `two`\n")
    want = ["Title", "Some bold and a link.", "one", "two"]
    assert values.extract_values(text) == want
    assert values.extract_values(text) == want and values.extract_values(_new(text)) == want
    assert stripped == ["Title", "Some **bold** and [a link](http://x).", "one", "`two`"]


@pytest.mark.parametrize(
    ("spec", "reply", "first"),
    [
        # L1 reads the untagged fence as code: no section (L2 reads it as the container)
        (
            SPEC,
            "```\n## Short answer\n\nYes.\n\n## Reasoning\n\n1. x\n```\n",
            "the reply holds none of the contract's sections (Short answer, Reasoning, Assumptions) (at L1) (at L2)",
        ),
        (STRICT_SPEC, "```\n## Short answer\n\nYes.\n```\n", "the required section 'Reasoning' is missing"),
    ],
)
def test_a_stricter_level_asks_the_looser_ones_for_their_issues_only(monkeypatch, spec, reply, first):
    extracted = _counting(monkeypatch, enforce, "extract_body")
    result = enforce_flex_md(_new(reply), spec, 3)
    assert not result.ok and result.issues[0].message.startswith(first)
    assert len(extracted) == 1  # the L3 result's; L2 and L1 give their issues alone


def test_the_scan_cache_keeps_the_latest_scan_and_drops_older_ones_past_its_characters(monkeypatch):
    import formatbook_markdown.reply.blocks as blocks  # noqa: PLC0415 - the module whose cache is bounded

    monkeypatch.setattr(blocks, "_CACHE", type(blocks._CACHE)())
    monkeypatch.setattr(blocks, "_CACHE_CHARS", 100)
    scanned = _counting(monkeypatch, blocks, "_scan")
    a, b, big = "# a\n\n" + "x" * 40, "# b\n\n" + "y" * 40, "# c\n\n" + "z" * 200
    assert scan(a) is scan(a) and scan(b) is scan(b) and list(blocks._CACHE) == [a, b]  # 90 characters
    scan(big)  # over the bound alone: kept, and the older ones go
    assert list(blocks._CACHE) == [big] and scan(big) is scan(big)
    scan(a)
    assert list(blocks._CACHE) == [a] and scanned == [a, b, big, a]
