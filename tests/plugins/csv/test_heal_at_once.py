"""The shortcuts of the CSV round for speed (issue 29) agree with the readings they stand in
for: the locator's one run against its line loop, a row cut short (a brief failure) and
a broken first row against the strict reading, healing lines with quotes taken on trust against healing each, a
Markdown table healed at once against row by row, the healed table confirmed without
the lexical test against with it, quotes counted on the text against line by line."""

from __future__ import annotations

import random
from typing import Any

import pytest

from formatbook_core import HealError
from formatbook_csv import heal as healing
from formatbook_csv import locate
from formatbook_csv.heal import stretch
from formatbook_csv.heal.reader import add_blank
from formatbook_csv.syntax import CsvError, cut_short, first_row_broken, odd_quotes, parse, table_bounds

from .test_stretch import _markdown, _outcome, _reply


def _runs_by_the_loop(monkeypatch: pytest.MonkeyPatch, text: str, start: int, end: int) -> Any:
    with monkeypatch.context() as m:
        m.setattr(locate, "_one_run", lambda *args: None)
        return locate._runs(text, start, end)


def test_one_run_is_the_line_loops_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """20,000 short texts of what matters to the locator (delimiters, blank lines, quotes,
    prose ends, elisions): the run found at once is the loop's, and it is found often."""
    rng = random.Random(5)
    pieces = ["a", "b c", ",", ";", "\t", " ", "\n", "\n", "\n\n", '"', "...", "Hello.", "x,y", "\r\n", "\xa0", "1,2"]
    taken = 0
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        start = rng.randint(0, len(text))
        end = rng.randint(start, len(text))
        taken += locate._one_run(text, start, end) is not None
        assert locate._runs(text, start, end) == _runs_by_the_loop(monkeypatch, text, start, end), (text, start, end)
    assert taken > 5_000, taken


def test_a_table_with_one_blank_line_between_rows_is_one_run() -> None:
    text = "id,name\n\n1,Ada\n\n2,Alan\n\n"
    run = locate._one_run(text, 0, len(text))
    assert run is not None
    assert [run[i] for i in range(len(run))] == [(0, 7), (9, 14), (16, 22)]
    assert locate._one_run("a,b\n\n\n1,2\n", 0, 10) is None  # two blank lines end a run


def test_a_row_cut_short_is_never_strict() -> None:
    """Whenever the last line tells a table cut off, the strict reading refuses it (60,000
    short texts under five delimiters)."""
    rng = random.Random(3)
    pieces = ["a", ",", ",", ";", "\t", " ", "\n", "\n", '"', '""', "\r", "\r\n", "x y", "\ufeff", "|"]
    told = 0
    for _ in range(60_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 16)))
        lead, end = table_bounds(text)
        body = text[lead:end]
        for d in (",", ";", "\t", " ", "|"):
            if cut_short(body, d) is None:
                continue
            told += 1
            for columns in (1, 2):
                with pytest.raises(CsvError):
                    parse(body, d, min_columns=columns)
    assert told > 3_000, told


def test_cut_short_by_hand() -> None:
    assert cut_short("a,b\n1,2\n3,4\n5", ",") == (12, 1)
    assert cut_short("a,b\n1,2\n3,4\n", ",") is None  # ends with a line feed
    assert cut_short("a,b\n1,2\n3,4", ",") is None  # the last row is whole
    assert cut_short('a,b\n1,2\n"x', ",") is None  # a quote on the last line: read to be told
    assert cut_short('"a",b\n1,2\n3', ",") is None  # a quote in the header: its width is read
    assert cut_short("a,b\n1,2\n  ", ",") is None  # white space after the table


def test_a_broken_first_row_is_read_by_the_loop_as_at_once() -> None:
    """A first row that shows the table broken sends the reading to the line loop, which
    says what is wrong there: the same error as reading at once would end with."""
    rng = random.Random(4)
    pieces = ["a", ",", ";", " ", "\n", "\n", '"', "\r\n", "\t", "1"]
    for _ in range(20_000):
        text = "h0,h1\n" + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        for d in (",", ";"):
            try:
                at_once = parse(text, d, min_columns=1)
                got: Any = (at_once.header, at_once.rows, at_once.starts)
            except CsvError as err:
                got = (err.code, err.span, err.row)
            try:
                by_loop = parse(text, d, min_columns=1, at_once=False)
                want: Any = (by_loop.header, by_loop.rows, by_loop.starts)
            except CsvError as err:
                want = (err.code, err.span, err.row)
            assert got == want, (text, d)
    assert first_row_broken("a,b\n\n1,2\n", 4, ",", 2)
    assert first_row_broken('a,b\n1, "x"\n', 4, ",", 2)
    assert first_row_broken("a,b\n1,2,3\n", 4, ",", 2)
    assert not first_row_broken('a,b\n1,"x, y"\n', 4, ",", 2)
    assert not first_row_broken("a  b\n1  2\n", 5, " ", 3)  # a blank that is the delimiter


def test_lines_with_quotes_taken_on_trust_heal_as_each_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Line-by-line healing, the lines with quotes taken as written when they look strict,
    gives what it gives when each is looked at: text, repairs, value or refusal."""
    rng = random.Random(77)
    cases = [_reply(rng) for _ in range(4_000)]
    trusting = [_outcome(text, options) for text, options in cases]
    real = stretch._healed
    monkeypatch.setattr(stretch, "_healed", lambda h, *args, trust: real(h, *args, trust=False))
    for (text, options), got in zip(cases, trusting, strict=True):
        assert got == _outcome(text, options), (text, options)


def test_a_markdown_table_at_once_is_healed_as_row_by_row() -> None:
    rng = random.Random(11)
    taken = 0
    for _ in range(5_000):
        text = _markdown(rng)
        if rng.random() < 0.3:
            text = text.replace("\n", "\r\n")
        eol = stretch._line_end(text)
        if eol is None:
            continue
        for write in (",", ";", "|"):
            fast = stretch._markdown_at_once(text, eol, write)
            if fast is not None:
                taken += 1
                assert fast == stretch._markdown_lines(text, eol, write), (text, write)
    assert taken > 1_000, taken


def test_a_markdown_table_of_cells_with_commas_and_quotes_by_hand() -> None:
    text = '| **Name** | Note |\n|---|:-:|\n| Ada |  a, b |\n\n| Alan | say "hi" |\n'
    found = stretch._markdown_at_once(text, "\n", ",")
    assert found is not None
    out, blank, align, head, emphasis, last_end = found
    assert out == ["Name,Note", 'Ada,"a, b"', 'Alan,"say ""hi"""']
    assert (blank, align, head, emphasis, last_end) == ([(46, 47)], (20, 30), (0, 19), True, 66)


def test_healed_text_confirmed_without_the_lexical_test_reads_as_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text line-by-line healing confirms is lexically strict as written: read with
    the lexical test skipped, it reads as with it (the same rows and starts, or the same
    refusal)."""
    seen: list[tuple[str, str]] = []
    real = stretch._confirm

    def spied(h: Any, healed: str) -> bool:
        seen.append((healed, h.delimiter if h.delimiter != "auto" else h.reading))
        return real(h, healed)

    monkeypatch.setattr(stretch, "_confirm", spied)
    rng = random.Random(91)
    for _ in range(4_000):
        text, options = _reply(rng)
        try:
            healing.heal(text, None, options)
        except HealError:
            pass
    assert len(seen) > 2_000

    def reading(text: str, d: str, lexical: bool) -> Any:
        try:
            table = parse(text, d, min_columns=1, lexical=lexical)
        except CsvError as err:
            return err.code, err.span
        return table.header, table.rows, table.starts

    for text, d in seen:
        assert reading(text, d, True) == reading(text, d, False), (text, d)


def test_odd_quotes_on_the_text_as_line_by_line() -> None:
    rng = random.Random(13)
    for _ in range(20_000):
        text = "".join(rng.choice(['"', "a", "\n", '""', "\r\n", ","]) for _ in range(rng.randint(0, 14)))
        by_line = any(line.count('"') % 2 for line in text.split("\n"))
        assert odd_quotes(text) == by_line, text


def test_blank_line_spans_at_once_as_added_one_by_one() -> None:
    """The spans of blank lines found as runs of indexes are those ``add_blank`` makes a
    line at a time (lines that follow each other one span; the last line maybe without
    a line end), on 20,000 random layouts."""
    rng = random.Random(2)
    for _ in range(20_000):
        kept = [rng.random() < 0.5 for _ in range(rng.randint(1, 12))]
        starts = [0]
        for _line in kept:
            starts.append(starts[-1] + rng.randint(1, 4))
        n = starts[-1] - rng.randint(0, 1)
        want: list[tuple[int, int]] = []
        for i, line_kept in enumerate(kept):
            if not line_kept:
                add_blank(want, starts[i], min(starts[i + 1], n))
        assert stretch._blank_spans(kept, starts, n) == want, (kept, starts, n)
