"""``formatbook report`` and ``check --jsonl --report``: the numbers, the marks, the escaping,
bounded memory. The expected numbers are counted by hand from conftest.REPLIES (30 rows,
each reply 5 times; model a: rows 0, 2, 4 mod 6, model b: 1, 3, 5)."""

from __future__ import annotations

import json
import re
import tracemalloc
from pathlib import Path

import pytest

from formatbook_core.cli import main
from formatbook_core.report import Tally, write_report
from formatbook_core.report.aggregate import MAX_GROUPS, MAX_KEYS, OTHER, Histogram, limit_of
from formatbook_core.report.highlight import MAX_SHOWN, Mark, highlight, marks_of
from formatbook_core.report.render import render

from .conftest import records, write_rows


def stats(page: str) -> dict[str, str]:
    """The page's ``data-stat`` numbers (the first of each name)."""
    found: dict[str, str] = {}
    for name, value in re.findall(r'data-stat="([a-z-]+)">([0-9]+)<', page):
        found.setdefault(name, value)
    return found


def table(page: str, name: str) -> dict[str, list[str]]:
    """A table of the page: first cell (tags removed) -> the other cells."""
    body = re.search(rf'data-table="{name}">(.*?)</table>', page, re.S)
    assert body is not None, f"no table {name}"
    out = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
        if cells:
            out[cells[0]] = cells[1:]
    return out


def test_the_numbers_are_the_batch_s(batch, tmp_path):
    page_path = tmp_path / "r.html"
    assert main(["report", str(batch["verdicts"]), "-o", str(page_path), "--replies", str(batch["rows"])]) == 0
    page = page_path.read_text(encoding="utf-8")
    expected = {"rows": "30", "pass": "5", "healed": "5", "fail": "20", "truncated": "5"}
    assert stats(page) == {**expected, "hist-n": "15", "hist-broken": "5"}
    codes = table(page, "codes")
    assert codes == {c: ["5", "5"] for c in ("json.heal", "schema.required", "schema.type", "count.max")}
    kinds = table(page, "kinds")
    assert kinds["single_quotes"] == ["5", "10"] and kinds["truncated_container"] == ["5", "5"]
    groups = table(page, "groups")
    assert groups["a"][:4] == ["15", "5", "0", "10"]
    assert groups["b"][:4] == ["15", "0", "5", "10"]
    lines = table(page, "lines")
    assert lines["EXPECT MAX 4 WORDS"] == ["10", "5", "15"]


def test_the_numbers_match_the_jsonl_whatever_it_holds(batch, tmp_path):
    # the same numbers counted straight from the verdicts file
    rs = records(batch["verdicts"])
    tally = write_report(batch["verdicts"], tmp_path / "r.html")
    for verdict in ("pass", "healed", "fail"):
        assert tally.verdicts[verdict] == sum(r["verdict"] == verdict for r in rs)
    for code, n in tally.codes.items():
        assert n == sum(any(v["code"] == code for v in r["violations"]) for r in rs)
    assert sum(tally.codes.values()) == 20 and tally.rows == len(rs) == 30
    # no input rows given: the verdicts carry no grouping field, so there are no groups
    assert tally.group_by == "" and tally.groups == {}


def test_without_the_input_there_is_no_group_and_no_reply(batch, tmp_path):
    tally = write_report(batch["verdicts"], tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "give the input with --replies" in page
    assert all(w.reply is None for w in tally.worst())


def test_group_by_names_the_field_or_none(batch, tmp_path):
    by_id = write_report(batch["verdicts"], tmp_path / "r.html", replies=batch["rows"], group_by="id")
    assert len(by_id.groups) == 30
    none = write_report(batch["verdicts"], tmp_path / "r.html", replies=batch["rows"], group_by="")
    assert none.groups == {}
    missing = write_report(batch["verdicts"], tmp_path / "r.html", replies=batch["rows"], group_by="nope")
    assert set(missing.groups) == {"(none)"}


def test_the_worst_replies_come_first_with_their_marks(batch, tmp_path):
    tally = write_report(batch["verdicts"], tmp_path / "r.html", replies=batch["rows"], worst=6)
    worst = tally.worst()
    # the cut-off reply has a violation and a repair: it ranks above a violation alone, but
    # three of one kind are enough; then the earliest of each other kind (line = row + 1,
    # + 2 past the blank line after row 10)
    assert [(w.line, w.record["violations"][0]["code"]) for w in worst] == [
        (4, "schema.required"),
        (10, "schema.required"),
        (17, "schema.required"),
        (3, "json.heal"),
        (5, "schema.type"),
        (6, "count.max"),
    ]
    assert worst[0].ident == "r3" and worst[0].group == "b" and worst[0].reply == '{"name": "C"'
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    # the reply of line 3 (json.heal at 0:3) is marked where the violation is
    assert '<mark class="v" data-m="1"' in page and ">not</mark>" in page


def test_the_worst_replies_show_several_kinds_of_failure():
    tally = Tally(worst=20)
    for i in range(50):
        tally.add({"line": i, "verdict": "fail", "violations": [{"code": "a"}] * (1 + i % 4)})
    tally.add({"line": 50, "verdict": "fail", "violations": [{"code": "b"}]})
    tally.add({"line": 51, "verdict": "healed", "repairs": [{"kind": "k"}]})
    # the three with the most 'a' violations (4: the first three of them), 'b', the healed one
    assert [w.line for w in tally.worst()] == [3, 7, 11, 50, 51]


def test_a_reply_s_markup_is_text(batch, tmp_path):
    write_report(batch["verdicts"], tmp_path / "r.html", replies=batch["rows"])
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.count("<script") == 1  # the page's own
    assert "<img" not in page
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in page
    csp = re.search(r'Content-Security-Policy" content="([^"]+)"', page)
    assert (
        csp is not None
        and "script-src 'sha256-" in csp.group(1)
        and "unsafe-inline" not in csp.group(1).split("script-src")[1].split(";")[0]
    )
    assert not re.search(r'(?:src|href)="(?:https?:)?//', page)  # nothing to fetch


def test_a_marker_in_a_reply_is_not_filled_in(tmp_path):
    rows = tmp_path / "in.jsonl"
    rows.write_text(json.dumps({"reply": "__SCRIPT__ __BODY__ __STYLE__"}) + "\n")
    out = tmp_path / "v.jsonl"
    main(["check", "--jsonl", str(rows), "-e", "JSON", "--out", str(out), "--workers", "1"])
    write_report(out, tmp_path / "r.html", replies=rows)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "__SCRIPT__ __BODY__ __STYLE__" in page and page.count("<script") == 1


def test_lines_that_are_not_verdicts_are_counted_not_raised(tmp_path):
    path = tmp_path / "v.jsonl"
    path.write_text('not json\n[1, 2]\n{"no": "verdict"}\n\n{"verdict": "pass", "ok": true}\n')
    tally = write_report(path, tmp_path / "r.html")
    assert (tally.rows, tally.unreadable, tally.verdicts["pass"]) == (1, 3, 1)
    assert 'data-stat="unreadable">3<' in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_odd_records_do_not_break_the_page(tmp_path):
    odd = [
        {"verdict": "fail", "violations": "x", "repairs": [1, None, {"kind": 3, "span": ["a", 2]}], "line": "7"},
        {"verdict": "fail", "violations": [{"code": "c", "span": [5, 2]}], "expectations": [{"expect": 3}, "x"]},
        {"verdict": "weird", "counts": None, "expectations": [{"expect": "EXPECT MAX 2 WORDS", "count": -1}]},
    ]
    path = tmp_path / "v.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in odd))
    tally = write_report(path, tmp_path / "r.html", replies=None)
    assert tally.verdicts["weird"] == 1 and tally.histograms == {}
    assert 'data-stat="verdict-weird">1<' in (tmp_path / "r.html").read_text(encoding="utf-8")


# --- the pieces ----------------------------------------------------------------------------


def test_marks_split_where_they_overlap_and_carets_mark_insertions():
    marks = [Mark(1, "r", "k", "m<", 2, 6), Mark(2, "v", "c", "n", 4, 8), Mark(3, "r", "ins", "x", 8, 8)]
    html = highlight("0123456789<", marks)
    assert html == (
        '01<mark class="r" data-m="1" title="1. k: m&lt;">23</mark>'
        '<mark class="r v" data-m="1 2" title="1. k: m&lt;\n2. c: n">45</mark>'
        '<mark class="v" data-m="2" title="2. c: n">67</mark>'
        '<span class="caret r" data-m="3" title="3. ins: x">&#8248;</span>89&lt;'
    )


def test_a_piece_under_many_marks_lists_a_few():
    marks = [Mark(n, "v", "c", "m" * 300, 0, 10) for n in range(1, 401)]
    html = highlight("0123456789", marks)
    assert html.count("m" * 300) == 5 and "… and 395 more" in html and len(html) < 5_000


def test_a_long_reply_is_cut_and_says_so():
    html = highlight("x" * (MAX_SHOWN + 5), [Mark(1, "v", "c", "m", MAX_SHOWN + 1, MAX_SHOWN + 3)])
    assert html.endswith("(5 more characters not shown)</span>") and "<mark" not in html


def test_marks_of_a_record_keep_their_order_and_skip_located():
    record = {
        "repairs": [{"kind": "located", "message": "m", "span": [0, 9]}, {"kind": "k", "message": "m", "span": [1, 2]}],
        "violations": [{"code": "c", "message": "m", "span": None}],
        "set_aside": [{"kind": "prose", "text": "t", "span": [9, 10]}],
    }
    marks = marks_of(record)
    assert [(m.number, m.cls, m.label, m.start) for m in marks] == [
        (1, "r", "located", 0),
        (2, "r", "k", 1),
        (3, "v", "c", -1),
        (4, "a", "prose", 9),
    ]
    assert 'data-m="1"' not in highlight("0123456789x", marks)  # located is listed, not drawn


@pytest.mark.parametrize(
    ("line", "limit"),
    [
        ("EXPECT MAX 40 WORDS", ("max", 40)),
        ("- expect minimum 2 sentences", ("min", 2)),
        ("EXACTLY 3 LINES", ("exactly", 3)),
        ("EXPECT JSON s.json", None),
        ("EXPECT MAX three WORDS", None),
    ],
)
def test_the_limit_of_an_expect_line(line, limit):
    assert limit_of(line) == limit


def test_a_histogram_widens_its_bins_and_counts_what_breaks_the_limit():
    h = Histogram("EXPECT MAX 500 WORDS", ("max", 500))
    for value in range(1001):
        h.add(value)
    assert h.span_bins() <= Histogram.MAX_BINS and sum(h.bins.values()) == 1001
    assert (h.n, h.low, h.high, h.broken, h.width) == (1001, 0, 1000, 500, 32)


def test_state_is_bounded_whatever_the_rows_hold():
    tally = Tally(group_by="model", worst=5)
    for i in range(3 * MAX_KEYS):
        record = {
            "verdict": "fail",
            "violations": [{"code": f"c{i}"}],
            "repairs": [{"kind": f"k{i}"}],
            "expectations": [{"expect": f"EXPECT MAX {i} WORDS", "ok": False, "count": i}],
        }
        tally.add(record, {"model": f"m{i}"}, "x" * 10)
    # the first MAX_KEYS codes kept apart, the 1000 after them added up
    assert len(tally.codes) == MAX_KEYS + 1 and tally.codes[OTHER] == 2 * MAX_KEYS
    assert len(tally.groups) == MAX_GROUPS + 1 and tally.groups[OTHER].verdicts["fail"] == 3 * MAX_KEYS - MAX_GROUPS
    assert len(tally.lines) == MAX_KEYS + 1 and len(tally.histograms) == 24
    assert len(tally.worst()) == 5


def _peak(path: Path, n: int) -> int:
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            record = {
                "line": i + 1,
                "verdict": "fail" if i % 3 else "pass",
                "violations": [{"code": f"code.{i % 7}", "message": "m" * 50, "span": [0, 3]}],
                "repairs": [],
                "expectations": [{"expect": "EXPECT MAX 9 WORDS", "ok": False, "count": i % 50}],
            }
            f.write(json.dumps(record) + "\n")
    tracemalloc.start()
    try:
        write_report(path, path.with_suffix(".html"))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_is_flat_in_rows(tmp_path):
    small, large = _peak(tmp_path / "a.jsonl", 1_000), _peak(tmp_path / "b.jsonl", 10_000)
    assert large < 1.5 * small, (small, large)  # ten times the rows, about the same memory


def test_render_of_an_empty_tally():
    page = render(Tally(), "nothing.jsonl")
    assert 'data-stat="rows">0<' in page and "The worst replies" not in page


# --- the commands ----------------------------------------------------------------------------


def test_report_command_errors(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "v.jsonl").write_text("")
    assert main(["report", str(tmp_path / "v.jsonl"), "-o", str(tmp_path / "no" / "r.html")]) == 2
    assert "cannot use" in capsys.readouterr().err


def test_check_report_needs_a_batch(tmp_path, capsys):
    assert main(["check", "-e", "JSON", "--report", str(tmp_path / "r.html"), "-"]) == 2
    assert "--report goes with --jsonl" in capsys.readouterr().err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_batch_run_writes_the_same_report(batch, tmp_path, workers):
    page = tmp_path / "run.html"
    schema = batch["dir"] / "s.json"
    code = main(
        ["check", "--jsonl", str(batch["rows"]), "-e", f"JSON {schema}", "-e", "MAX 4 WORDS"]
        + ["--out", str(tmp_path / "v.jsonl"), "--workers", workers, "--report", str(page)]
    )
    assert code == 1
    write_report(batch["verdicts"], tmp_path / "after.html", replies=batch["rows"])
    ran, after = page.read_text(encoding="utf-8"), (tmp_path / "after.html").read_text(encoding="utf-8")
    assert stats(ran) == stats(after) and table(ran, "groups") == table(after, "groups")
    assert ran.count("<mark") == after.count("<mark") > 0


def test_a_batch_run_to_stdout_and_to_parquet_reports_too(batch, tmp_path, capsys):
    pytest.importorskip("pyarrow")
    schema = batch["dir"] / "s.json"
    base = ["check", "--jsonl", str(batch["rows"]), "-e", f"JSON {schema}", "-e", "MAX 4 WORDS", "--workers", "1"]
    assert main([*base, "--report", str(tmp_path / "a.html")]) == 1
    assert main([*base, "--out", str(tmp_path / "v.parquet"), "--report", str(tmp_path / "b.html")]) == 1
    capsys.readouterr()
    a, b = (stats((tmp_path / n).read_text(encoding="utf-8")) for n in ("a.html", "b.html"))
    b.setdefault("truncated", a["truncated"])  # a Parquet row keeps no 'truncated' column
    assert a == b and a["fail"] == "20"


def test_a_resumed_run_reports_every_row(batch, tmp_path):
    schema = batch["dir"] / "s.json"
    out = tmp_path / "v.jsonl"
    lines = batch["verdicts"].read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:12]))  # an interrupted run: 12 verdicts written
    page = tmp_path / "r.html"
    code = main(
        ["check", "--jsonl", str(batch["rows"]), "-e", f"JSON {schema}", "-e", "MAX 4 WORDS"]
        + ["--out", str(out), "--resume", "--workers", "1", "--report", str(page)]
    )
    assert code == 1 and len(records(out)) == 30
    got = stats(page.read_text(encoding="utf-8"))
    assert (got["rows"], got["pass"], got["healed"], got["fail"]) == ("30", "5", "5", "20")
    assert table(page.read_text(encoding="utf-8"), "groups")["a"][:4] == ["15", "5", "0", "10"]


def test_rows_read_in_step_skip_blank_lines(tmp_path):
    rows = write_rows(tmp_path / "in.jsonl", 14)  # a blank line after row 10: line 12 is blank
    out = tmp_path / "v.jsonl"
    main(["check", "--jsonl", str(rows), "-e", "TEXT", "--out", str(out), "--workers", "1"])
    assert [r["line"] for r in records(out)][10:13] == [11, 13, 14]
    tally = write_report(out, tmp_path / "r.html", replies=rows, group_by="id")
    assert set(tally.groups) == {f"r{i}" for i in range(14)}
