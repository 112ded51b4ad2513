"""The shortcuts that keep a check's memory down read exactly what the longer way reads:

* ``code_lines_of``: a section's text holding no fence, HTML, tab or four-space run has
  no code lines, so its list and tables are read without parsing it again;
* ``parse_tables(source=)``: a section's table rows take the reply's cells where their
  lines read the same;
* ``LineSet``: code lines as ranges answer as the ``set`` they replace;
* ``RepairState``'s first line lookups, made line by line, answer as its index does.

Each is compared with the longer way on generated replies, the regressions and the
growth benchmark's shapes, down to ``check()``'s whole answer."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

import formatbook_markdown.reply.blocks as blocks
import formatbook_markdown.reply.lists as lists
import formatbook_markdown.reply.tables as tables
from formatbook_core import check
from formatbook_markdown.heal.state import RepairState
from formatbook_markdown.reply.blocks import LineSet, code_lines_of, scan

from .helpers import CONTRACT
from .test_memory import _lists, _tables
from .test_properties import PIECES

#: what lines are made of: container markers, indentation, fences, HTML, tables
BITS = [
    "- ", "* ", "+ ", "1. ", "2) ", "10. ", "> ", ">", ">  ", "-  ", "1.  ", "   ", "  ", " ", "x", "word ",
    "# h", "## Reasoning", "| a | b |", "|---|---|", "---", "===", "**b**", "`c`", "``", "~~", "[x]: /u",
    "&amp;", "\\", "\n", "\n", "\n\n", "\r\n", "\r", "\u00a0", "\x0b", "\x0c", "```", "~~~", "<div>", "\t", "    ",
]  # fmt: skip


def _bits(rng: random.Random) -> str:
    return "".join(rng.choice(BITS) for _ in range(rng.randint(1, 40)))


@pytest.mark.parametrize("seed", range(3))
def test_a_text_without_code_marks_has_no_code_lines(seed: int) -> None:
    rng = random.Random(seed)
    answered = 0
    for _ in range(3_000):
        text = _bits(rng)
        read = code_lines_of(text)
        sc = blocks._scan(text)  # (not the cache: a fresh parse)
        if read is None:
            continue
        answered += 1
        lines, code = read
        assert not sc.code_lines and not code, repr(text)
        assert list(lines) == list(sc.lines), repr(text)
    assert answered > 300  # 470 or so of 3,000


def _replies(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        out.append("\n".join(rng.choice(PIECES) for _ in range(rng.randint(1, 16))))
        out.append(_bits(rng))
    return out


REGRESSIONS = [
    case["reply"]
    for case in json.loads((pathlib.Path(__file__).parent / "fixtures" / "regressions.json").read_text("utf-8"))
]


@pytest.mark.parametrize("seed", range(3))
def test_lists_and_tables_read_the_same_without_the_shortcut(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _replies(seed, 300) + REGRESSIONS

    def read(text: str):
        parsed = lists.parse_list(text)
        return (
            parsed.to_json() if parsed is not None else None,
            [t.to_json() for t in tables.parse_tables(text)],
        )

    new = [read(t) for t in texts]
    monkeypatch.setattr(lists, "code_lines_of", lambda text: None)
    monkeypatch.setattr(tables, "code_lines_of", lambda text: None)
    old = [read(t) for t in texts]
    assert new == old


LEVELS = ["EXPECT MARKDOWN {contract} level=1", "EXPECT MARKDOWN {contract} level=3", "EXPECT MARKDOWN"]
COUNTED = 'EXPECT MARKDOWN {contract} level=3\nEXPECT MAX 40 WORDS IN "Short answer"\nEXPECT MAX 900 WORDS'

#: section texts that are not the reply's lines as they stand: a label's text opening the
#: section, an indented first line, a duplicate merged, a heading holding a pipe right
#: after a table, rows repeated elsewhere, a table the heading's line would head
AWKWARD = [
    "**Short answer:** | a | b |\n| --- | --- |\n| 1 | 2 |\n\n## Reasoning\n\n1. x\n",
    "## Short answer\n  | a | b |\n| --- | --- |\n| 1 | 2 |\n## Reasoning\n1. x\n",
    "## Short answer\n| a | b |\n| --- | --- |\n| 1 | 2 |\n## Reasoning\n1. x\n## Short answer\n| a | b |\n"
    "| --- | --- |\n| 3 | 4 |\n",
    "## Short answer\n| a | b |\n| --- | --- |\n| 1 | 2 |\n## Reasoning | x\n1. x\n",
    "| a | b |\n| --- | --- |\n| 1 | 2 |\n## Short answer\n| a | b |\n| --- | --- |\n| 1 | 2 |\n## Reasoning\n1. y\n",
    "## Short answer | a\n| --- | --- |\n| 1 | 2 |\n## Reasoning\n1. x\n",
    "Short answer\n| --- |\n| 1 |\n\n## Reasoning\n\n1. x\n",
    "## Short answer\n\n```\n| a | b |\n| --- | --- |\n```\n| a | b |\n| --- | --- |\n| 1 | 2 |\n## Reasoning\n1. x\n",
]


def _answers(texts: list[str], expects: list[str]) -> list[str]:
    return [json.dumps(check(t, e).to_dict(), sort_keys=True, default=str) for t in texts for e in expects]


@pytest.mark.parametrize("seed", range(2))
def test_check_answers_the_same_without_the_shortcuts(
    seed: int, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    contract = tmp_path / "contract.md"
    contract.write_text(CONTRACT, encoding="utf-8")
    expects = [e.format(contract=contract) for e in [*LEVELS, COUNTED]]
    texts = _replies(seed + 10, 60) + REGRESSIONS[seed::2] + AWKWARD
    texts += [_tables(12, damaged) for damaged in (False, True)] + [_lists(9, damaged) for damaged in (False, True)]
    texts += ["```markdown\n" + _lists(5) + "```\n", "Intro.\n\n```markdown\n" + _tables(4) + "```\nBye.\n"]
    new = _answers(texts, expects)
    blocks._CACHE.clear()
    monkeypatch.setattr(lists, "code_lines_of", lambda text: None)
    monkeypatch.setattr(tables, "code_lines_of", lambda text: None)
    monkeypatch.setattr(tables, "_rows_of", lambda sc, first: lambda j, row: None)
    monkeypatch.setattr(RepairState, "_line_at", lambda self, needle: self._line_index().get(needle, -1))
    old = _answers(texts, expects)
    for i, (a, b) in enumerate(zip(new, old, strict=True)):
        assert a == b, (texts[i // len(expects)][:300], expects[i % len(expects)])


def test_section_tables_take_the_reply_s_cells() -> None:
    """Not vacuous: a section's table rows are the lists the reply's scan holds."""
    text = _tables(30)
    sc = scan(text)
    start = text.count("\n", 0, text.index("| Option"))
    body = sc.slice(start, len(sc.lines))
    same = tables._rows_of(sc, start)
    assert same(2, "| option 0 | 0 | low |") is tables.find_tables(sc)[0].rows[0]
    assert same(2, "| option 0 | 0 | LOW |") is None  # another line: split as it reads
    assert [t.to_json() for t in tables.parse_tables(body, (sc, start))] == [
        t.to_json() for t in tables.parse_tables(body)
    ]


@pytest.mark.parametrize("seed", range(2))
def test_a_line_set_answers_as_a_set(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3_000):
        lines, plain = LineSet(), set()
        for _ in range(rng.randint(0, 8)):
            start = rng.randint(0, 40)
            span = range(start, start + rng.randint(-2, 10))
            lines.update(span)
            plain.update(span)
        assert set(lines) == plain and len(lines) == len(plain) and bool(lines) == bool(plain)
        assert all((i in lines) == (i in plain) for i in range(-3, 60))


@pytest.mark.parametrize("seed", range(2))
def test_repair_spans_looked_up_line_by_line_are_the_index_s(seed: int) -> None:
    rng = random.Random(seed)
    chars = ["a", "b", " ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]
    for _ in range(2_000):
        text = "".join(rng.choice(chars) for _ in range(rng.randint(0, 30)))
        needles = sorted({line.strip() for line in text.splitlines() if line.strip()} | {"a", "zz"})
        by_line = RepairState(text, None, 1, text)
        indexed = RepairState(text, None, 1, text)
        indexed._line_index()
        for needle in needles[:8]:
            assert by_line._line_at(needle) == indexed._line_at(needle), (repr(text), needle)


def _invisible_by_every_line(body: str) -> str:
    """Step 1b as it read every line (the reference the candidates-only reading keeps)."""
    from formatbook_markdown.heal.invisible import _HEADING, _LINE, _MARKS, _indent, _invisible  # noqa: PLC0415

    lines = _LINE.findall(body)
    for i, line in enumerate(lines):
        n = 0
        while n < len(line) and (line[n] in _MARKS or _invisible(line[n])):
            n += 1
        kept = "".join(ch for ch in line[:n] if ch in _MARKS)
        cleaned = kept + line[n:]
        if n > len(kept) and _HEADING.match(cleaned, _indent(cleaned)) and not _HEADING.match(line, _indent(line)):
            lines[i] = cleaned
    return "".join(lines)


@pytest.mark.parametrize("seed", range(2))
def test_invisible_characters_are_removed_as_every_line_was_read(seed: int) -> None:
    from formatbook_markdown.heal.invisible import remove_invisible_before_headings  # noqa: PLC0415

    rng = random.Random(seed)
    bits = ["\ufeff", "\u200b", "\u2060", "\x00", "\x7f", "\u00a0", "\u3000", " ", "\t", "#", "## ", "# h", "**B:**"]
    bits += ["__x__", "text", "\n", "\r", "\r\n", "\x0b", "\x0c", "\u0085", "é", "\ufe0f", "\u034f", "###### ", "*"]
    removed = 0
    for _ in range(5_000):
        text = "".join(rng.choice(bits) for _ in range(rng.randint(0, 20)))
        st = RepairState(text, None, 1, text)
        remove_invisible_before_headings(st)
        assert st.body == _invisible_by_every_line(text), repr(text)
        removed += st.body != text
    assert removed > 500
