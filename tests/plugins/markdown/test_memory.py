"""Issue 30 (memory): check of a Markdown reply holds at most a bounded number of bytes
per character of the reply, whatever its shape (the goal: 50 on realistic replies, 150 on
pathological ones), measured by the core's ``traced_check`` (tracemalloc's peak).

Figures before and after the ``xmlmd`` round, at 50 KB: L3 tables 96 -> 40, L3 lists 56
-> 26, their damaged forms (healed) 139 -> 73 and 76 -> 38. What held the memory: each
section's text parsed again by markdown-it for its list and tables (a second scan of the
reply, and its tables' cells twice), the previous reply's enforce result kept while the
healed text's was made, every line of the reply kept in the names memo, an index of the
reply's lines for one or two repairs, a ``set`` of every line inside a fenced container,
and a 1 MiB read buffer for the contract file."""

from __future__ import annotations

from pathlib import Path

import pytest

from formatbook_core.fuzzing.pathological import traced_check

from .helpers import CONTRACT  # issue 4's: a table and an ordered table, as the growth benchmark's L3 replies

_WORDS = "the model writes a long answer while the guard keeps counts of words in each section".split()


def _sentence(i: int) -> str:
    words = [_WORDS[(i * 7 + k * 3) % len(_WORDS)] for k in range(5 + i % 8)]
    return " ".join(words).capitalize() + "."


def _tables(rows: int, damaged: bool = False) -> str:
    """Two tables in the Short answer, as ``benchmarks/growth10.py``'s L3 tables (damaged:
    the ordered table's ``#`` column left out, which healing numbers)."""
    # (a damaged reply's cells differ from a valid one's: healed, it is not the text a
    # test before checked, whose scan may still be kept)
    option = "choice" if damaged else "option"
    plain = "".join(f"| {option} {i} | {i * 3} | low |\n" for i in range(rows))
    if damaged:
        ordered = "| Step | Owner |\n| --- | --- |\n" + "".join(f"| step {i} | owner {i % 7} |\n" for i in range(rows))
    else:
        ordered = "| # | Step | Owner |\n| --- | --- | --- |\n" + "".join(
            f"| {i + 1} | step {i} | owner {i % 7} |\n" for i in range(rows)
        )
    return (
        "## Short answer\n\nSee the tables.\n\n| Option | Cost | Risk |\n| --- | --- | --- |\n"
        f"{plain}\n{ordered}\n## Reasoning\n\n1. It follows.\n"
    )


def _lists(items: int, damaged: bool = False) -> str:
    """An ordered list under Reasoning and a bullet list under Assumptions (damaged: ``-``
    where numbers are declared, ``*`` bullets)."""
    first = 1_000 if damaged else 0  # (other sentences: see _tables)
    ordered = "".join(
        (f"- {_sentence(first + i)}\n" if damaged else f"{i + 1}. {_sentence(first + i)}\n") for i in range(items)
    )
    bullets = "".join(("* " if damaged else "- ") + _sentence(first + i + 7) + "\n" for i in range(items))
    return f"## Short answer\n\nYes.\n\n## Reasoning\n\n{ordered}\n## Assumptions\n\n{bullets}"


@pytest.fixture(scope="module")
def l3(tmp_path_factory: pytest.TempPathFactory) -> str:
    contract = tmp_path_factory.mktemp("contract") / "contract.md"
    contract.write_text(CONTRACT, encoding="utf-8")
    return f"EXPECT MARKDOWN {contract} level=3"


def _per_character(text: str, expect: str, verdict: str) -> float:
    result, peak = traced_check(text, expect)
    assert result.ok and result.verdict == verdict, result.violations
    return peak


@pytest.mark.parametrize(
    ("make", "damaged", "limit"),
    [
        # realistic replies (issue 30: 50 bytes a character at most)
        (_tables, False, 45),  # 40 now; 96 before
        (_lists, False, 32),  # 26; 56
        # damaged, healed: the reply and its repaired text are both scanned (goal 150)
        (_tables, True, 85),  # 73; 139
        (_lists, True, 45),  # 38; 76
    ],
)
def test_an_l3_reply_of_50_kb_stays_under_its_bound(make, damaged: bool, limit: int, l3: str) -> None:
    text = make(900 if make is _tables else 500, damaged)
    assert 45_000 < len(text) < 60_000
    assert _per_character(text, l3, "healed") < limit


def test_a_short_reply_of_tables_stays_under_60_bytes_a_character(l3: str) -> None:
    # 5 KB: 195 bytes a character before, most of it the contract file's 1 MiB read buffer
    text = _tables(100)
    assert 5_000 < len(text) < 6_000
    assert _per_character(text, l3, "healed") < 60


def test_a_section_of_tables_shares_the_cells_the_reply_holds(l3: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The section's first table is read from the section's text; its rows take the
    reply's cells (``parse_tables(source=)``): without that, 8 bytes a character more."""
    import formatbook_markdown.reply.tables as tables  # noqa: PLC0415 - patched here

    shared = _per_character(_tables(900), l3, "healed")
    monkeypatch.setattr(tables, "_rows_of", lambda sc, first: lambda j, row: None)
    copied = _per_character(_tables(901), l3, "healed")  # (another text: no scan kept is met)
    assert copied - shared > 5


def test_checking_a_reply_of_headings_only_costs_under_160_bytes_a_character() -> None:
    # 4 KB of headings: 447 bytes a character when the scan kept markdown-it's tokens,
    # 143 since (a record, a Heading, an outline node and its key per line)
    assert _per_character("# h\n" * 1000, "EXPECT MARKDOWN", "pass") < 160


def test_a_fenced_l2_reply_keeps_its_code_lines_as_ranges(tmp_path: Path) -> None:
    """A reply in its ``markdown`` container: every line is inside the fence, and the
    scan of the reply held a ``set`` of them (60 bytes a line)."""
    from formatbook_markdown.reply.blocks import scan  # noqa: PLC0415 - the plugin's internals

    text = "```markdown\n" + _lists(400) + "```\n"
    sc = scan(text)
    assert len(sc.code_lines) == len(sc.lines) and 1 in sc.code_lines and len(sc.lines) + 1 not in sc.code_lines
    contract = tmp_path / "contract.md"
    contract.write_text(CONTRACT, encoding="utf-8")
    assert _per_character(text, f"EXPECT MARKDOWN {contract} level=2", "pass") < 28  # 22; 32 before
