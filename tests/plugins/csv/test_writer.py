"""The heal's writer: rows come from a generator, read once, in batches (``BATCH``)."""

from __future__ import annotations

from formatbook_csv.heal.writer import BATCH, write


def _rows(n: int, special_every: int) -> list[tuple[list[str], list[bool], str]]:
    rows = []
    for i in range(n):
        cell = f'say "hi" {i}' if special_every and i % special_every == 0 else f"v{i}"
        rows.append(([str(i), cell], [False, False], "\n"))
    return rows


def _expected(rows: list[tuple[list[str], list[bool], str]]) -> str:
    def cell(c: str) -> str:
        return '"' + c.replace('"', '""') + '"' if '"' in c else c

    return "".join(",".join(cell(c) for c in cells) + eol for cells, _, eol in rows)


def test_a_generator_of_rows_is_written_whole_across_batches() -> None:
    # plain batches, then one with a row that needs quotes, then plain again: every row
    # written once, in order, whichever path its batch took
    rows = _rows(3 * BATCH + 7, 0)
    rows[BATCH + 5] = (["x", 'say "hi"'], [False, False], "\n")
    text = write(iter(rows), ",", 10**9)
    assert text == _expected(rows)
    assert text.count("\n") == len(rows)


def test_quoted_rows_in_every_batch() -> None:
    rows = _rows(2 * BATCH + 1, 97)
    assert write(iter(rows), ",", 10**9) == _expected(rows)
