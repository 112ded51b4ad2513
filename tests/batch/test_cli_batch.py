"""``formatbook check --jsonl/--parquet`` with worker processes, --resume, --timeout."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from formatbook_core.batch import core as batch_core
from formatbook_core.batch.pool import OrderedPool, exit_with_parent
from formatbook_core.cli import batch as cli_batch
from formatbook_core.cli import main
from tests.file_watch import file_open_watch

EXPECT = ["-e", "TEXT", "-e", "MAX 5 WORDS"]


@pytest.fixture
def run(capsys):
    def go(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return go


def _rows(path: Path, n: int, *, extra: dict[int, str] | None = None) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            reply = (extra or {}).get(i, " ".join(["w"] * (i % 9)))
            f.write(json.dumps({"id": i, "reply": reply}) + "\n")
    return path


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_two_workers_write_what_one_process_writes_in_input_order(run, tmp_path):
    rows = _rows(tmp_path / "r.jsonl", 500)
    code1, _, _ = run("check", "--jsonl", str(rows), *EXPECT, "--workers", "1", "--out", str(tmp_path / "one.jsonl"))
    code2, out, _ = run("check", "--jsonl", str(rows), *EXPECT, "--workers", "2", "--out", str(tmp_path / "two.jsonl"))
    assert code1 == code2 == 1
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    records = _records(tmp_path / "two.jsonl")
    assert [r["line"] for r in records] == list(range(1, 501))
    assert [r["id"] for r in records] == list(range(500))
    # row i has i % 9 words: MAX 5 holds for the first six
    assert [r["counts"]["words"] for r in records[:9]] == list(range(9))
    assert [r["expectations"][1]["ok"] for r in records[:9]] == [True] * 6 + [False] * 3
    assert "500 replies" in out


def _slow_in_order(item: int) -> int:
    time.sleep(0.02 * (5 - item % 5))  # later items finish first
    return item * 10


def test_the_pool_gives_results_in_input_order_with_a_bounded_window():
    pool: OrderedPool[int, int] = OrderedPool(_slow_in_order, 2, window=3)
    taken = []

    def source():
        for i in range(12):
            taken.append(i)
            yield i

    results = []
    for result in pool.map(source()):
        results.append(result)
        # never more than the window ahead of what was handed out
        assert len(taken) <= len(results) + 3
    assert results == [i * 10 for i in range(12)]


def test_a_plugin_crash_in_a_worker_costs_one_row(run, tmp_path, monkeypatch):
    real = batch_core.check

    def flaky(reply, exp):
        if reply == "boom":
            raise ValueError("a plugin bug")
        return real(reply, exp)

    monkeypatch.setattr(batch_core, "check", flaky)  # workers are forked after this
    rows = _rows(tmp_path / "r.jsonl", 200, extra={77: "boom"})
    out_file = tmp_path / "v.jsonl"
    code, _, _ = run("check", "--jsonl", str(rows), "-e", "TEXT", "--workers", "2", "--out", str(out_file))
    records = _records(out_file)
    assert len(records) == 200 and code == 1
    assert [r["line"] for r in records if not r["ok"]] == [78]
    assert records[77]["violations"][0]["code"] == "batch.crashed"
    assert "a plugin bug" in records[77]["violations"][0]["message"]


def test_a_worker_that_dies_costs_one_row(run, tmp_path, monkeypatch):
    real = batch_core.check

    def fatal(reply, exp):
        if reply == "die":
            os._exit(3)  # as a segfault in a C extension would end it
        return real(reply, exp)

    monkeypatch.setattr(batch_core, "check", fatal)
    rows = _rows(tmp_path / "r.jsonl", 300, extra={150: "die"})
    out_file = tmp_path / "v.jsonl"
    code, _, _ = run("check", "--jsonl", str(rows), "-e", "TEXT", "--workers", "2", "--out", str(out_file))
    records = _records(out_file)
    assert [r["line"] for r in records] == list(range(1, 301))
    assert [r["line"] for r in records if not r["ok"]] == [151]
    assert records[150]["violations"][0]["code"] == "batch.crashed"
    assert "died" in records[150]["violations"][0]["message"]


def test_a_slow_reply_times_out_in_a_worker(run, tmp_path, monkeypatch):
    real = batch_core.check

    def slow(reply, exp):
        if reply == "slow":
            time.sleep(30)
        return real(reply, exp)

    monkeypatch.setattr(batch_core, "check", slow)
    rows = _rows(tmp_path / "r.jsonl", 100, extra={10: "slow"})
    out_file = tmp_path / "v.jsonl"
    start = time.perf_counter()
    code, _, _ = run(
        "check", "--jsonl", str(rows), "-e", "TEXT", "--workers", "2", "--timeout", "0.5", "--out", str(out_file)
    )
    assert time.perf_counter() - start < 20
    records = _records(out_file)
    assert len(records) == 100
    assert [(r["line"], r["violations"][0]["code"]) for r in records if not r["ok"]] == [(11, "batch.timeout")]


def test_resume_after_a_kill_gives_exactly_one_verdict_a_row(tmp_path):
    # 6,000 rows write 2.4 MB of verdicts (~400 bytes each): the kill at 200 KB leaves over
    # nine tenths of the run to resume
    rows = _rows(tmp_path / "r.jsonl", 6_000)
    reference = tmp_path / "reference.jsonl"
    out_file = tmp_path / "v.jsonl"
    command = [sys.executable, "-m", "formatbook_core", "check", "--jsonl", str(rows), *EXPECT, "--workers", "2"]
    proc = subprocess.Popen(
        [*command, "--out", str(out_file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out_file.exists() and out_file.stat().st_size > 200_000:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, mid-write
    proc.wait()
    cut = out_file.read_bytes()
    written = cut.count(b"\n")
    assert 0 < written < 6_000
    resumed = subprocess.run(
        [*command, "--out", str(out_file), "--resume"], capture_output=True, text=True, timeout=300
    )
    assert resumed.returncode == 1, resumed.stderr
    assert f"resumed: {written} verdicts" in resumed.stderr + resumed.stdout
    assert "6000 replies" in resumed.stderr + resumed.stdout
    subprocess.run([*command, "--workers", "1", "--out", str(reference)], capture_output=True, timeout=300)
    assert out_file.read_bytes() == reference.read_bytes()
    records = _records(out_file)
    assert [r["line"] for r in records] == list(range(1, 6_001))


def test_resume_cuts_a_line_cut_short(run, tmp_path):
    rows = _rows(tmp_path / "r.jsonl", 50)
    reference = tmp_path / "ref.jsonl"
    run("check", "--jsonl", str(rows), *EXPECT, "--out", str(reference))
    whole = reference.read_bytes()
    lines = whole.splitlines(keepends=True)
    out_file = tmp_path / "v.jsonl"
    out_file.write_bytes(b"".join(lines[:20]) + lines[20][:15])  # 20 verdicts and a piece of one
    code, out, _ = run("check", "--jsonl", str(rows), *EXPECT, "--out", str(out_file), "--resume")
    assert code == 1
    assert out_file.read_bytes() == whole
    assert "resumed: 20 verdicts" in out and "50 replies" in out


def test_resume_on_a_finished_run_checks_nothing_again(run, tmp_path, monkeypatch):
    rows = _rows(tmp_path / "r.jsonl", 40)
    out_file = tmp_path / "v.jsonl"
    run("check", "--jsonl", str(rows), *EXPECT, "--out", str(out_file))
    whole = out_file.read_bytes()
    monkeypatch.setattr(batch_core, "check", lambda *a: pytest.fail("checked again"))
    code, out, _ = run("check", "--jsonl", str(rows), *EXPECT, "--out", str(out_file), "--resume")
    assert out_file.read_bytes() == whole and code == 1 and "40 replies" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--resume"], "--resume needs --out"),
        (["--resume", "--out", "x.parquet"], "--resume needs a JSONL --out"),
        (["--workers", "0"], "--workers"),
        (["--timeout", "0"], "--timeout"),
    ],
)
def test_usage_errors(run, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    rows = _rows(tmp_path / "r.jsonl", 3)
    code, out, err = run("check", "--jsonl", str(rows), "-e", "TEXT", *args)
    assert code == 2 and message in err and out == ""


def test_resume_refuses_a_file_it_did_not_write(run, tmp_path):
    rows = _rows(tmp_path / "r.jsonl", 3)
    out_file = tmp_path / "v.jsonl"
    out_file.write_text("not a verdict\n")
    code, _, err = run("check", "--jsonl", str(rows), "-e", "TEXT", "--out", str(out_file), "--resume")
    assert code == 2 and "cannot resume" in err
    assert out_file.read_text() == "not a verdict\n"


def test_rows_with_their_own_expectations(run, tmp_path):
    (tmp_path / "s.json").write_text(json.dumps({"type": "object", "required": ["name"]}))
    rows = tmp_path / "r.jsonl"
    rows.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"reply": '{"name": "Ada"}', "expect": "EXPECT JSON s.json"},
                {"reply": '{"age": 3}', "expect": "EXPECT JSON s.json"},
                {"reply": "three small words", "expect": "EXPECT TEXT\nEXPECT MAX 2 WORDS"},
                {"reply": "no expectations here"},
            ]
        )
        + "\n"
    )
    out_file = tmp_path / "v.jsonl"
    code, _, _ = run("check", "--jsonl", str(rows), "--expect-field", "expect", "--out", str(out_file))
    records = _records(out_file)
    assert code == 1
    assert [r["ok"] for r in records] == [True, False, False, False]
    assert records[1]["violations"][0]["code"].startswith("schema.")
    assert [v["code"] for v in records[2]["violations"]] == ["count.max"]
    assert [v["code"] for v in records[3]["violations"]] == ["batch.expectations"]


def test_a_rows_own_expect_text_reads_schema_files_inside_the_inputs_folder_only(run, tmp_path):
    # issue 30: an EXPECT line may name any file the process can read, so a row's own
    # EXPECT text (data) is confined to the input file's folder; the watch sees no open
    base, outside = tmp_path / "base", tmp_path / "outside"
    base.mkdir()
    outside.mkdir()
    schema = json.dumps({"type": "object", "required": ["name"]})
    (base / "s.json").write_text(schema)
    (outside / "secret.json").write_text(schema)
    (base / "link.json").symlink_to(outside / "secret.json")
    refused = [str(outside / "secret.json"), "../outside/secret.json", "link.json", "s.json allow_fetch=true"]
    rows = base / "r.jsonl"
    rows.write_text(
        "\n".join(
            json.dumps({"id": i, "reply": '{"name": "Ada"}', "expect": f"EXPECT JSON {word}"})
            for i, word in enumerate(["s.json", *refused])
        )
        + "\n"
    )
    out_file = tmp_path / "v.jsonl"
    with file_open_watch(outside) as watch:
        code, _, _ = run("check", "--jsonl", str(rows), "--expect-field", "expect", "--out", str(out_file))
        assert watch.opened() == []
    records = _records(out_file)
    assert code == 1
    assert records[0]["ok"]
    for record in records[1:]:
        assert [v["code"] for v in record["violations"]] == ["batch.expectations"], record
        assert "base_dir" in record["violations"][0]["message"]


def test_expect_field_takes_a_list_of_lines(run, tmp_path):
    # a list of EXPECT lines (as IFEval-like data and Parquet list columns hold them) was
    # refused as "no EXPECT text"; a list of non-strings still is
    rows = tmp_path / "r.jsonl"
    rows.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"reply": "hello there", "expect": ["EXPECT CASE lower", 'EXPECT ENDS WITH "there"']},
                {"reply": "Hello there", "expect": ["EXPECT CASE lower", 'EXPECT ENDS WITH "there"']},
                {"reply": "hello", "expect": [1, 2]},
            ]
        )
        + "\n"
    )
    out_file = tmp_path / "v.jsonl"
    code, _, _ = run("check", "--jsonl", str(rows), "--expect-field", "expect", "--out", str(out_file))
    records = _records(out_file)
    assert code == 1
    assert [r["ok"] for r in records] == [True, False, False]
    assert [v["code"] for v in records[1]["violations"]] == ["instructions.case"]
    assert [v["code"] for v in records[2]["violations"]] == ["batch.expectations"]


def test_parquet_in_and_out(run, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    jsonl = _rows(tmp_path / "r.jsonl", 120)
    source = tmp_path / "r.parquet"
    pq.write_table(pa.Table.from_pylist([json.loads(line) for line in jsonl.read_text().splitlines()]), source)
    out_file = tmp_path / "v.parquet"
    code, _, _ = run("check", "--parquet", str(source), *EXPECT, "--workers", "2", "--out", str(out_file))
    assert code == 1
    table = pq.read_table(out_file)
    run("check", "--jsonl", str(jsonl), *EXPECT, "--out", str(tmp_path / "v.jsonl"))
    expected = _records(tmp_path / "v.jsonl")
    got = table.to_pylist()
    assert [r["line"] for r in got] == list(range(1, 121))
    assert [r["id"] for r in got] == [json.dumps(i) for i in range(120)]
    assert [r["verdict"] for r in got] == [r["verdict"] for r in expected]
    assert [json.loads(r["violations"]) for r in got] == [r["violations"] for r in expected]
    assert [json.loads(r["value"]) for r in got] == [r["value"] for r in expected]
    # Parquet in, JSONL out: the same verdicts as the JSONL input
    run("check", "--parquet", str(source), *EXPECT, "--out", str(tmp_path / "p.jsonl"))
    assert _records(tmp_path / "p.jsonl") == expected


def test_parquet_without_the_field_is_a_usage_error(run, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    source = tmp_path / "r.parquet"
    pq.write_table(pa.table({"answer": ["a"]}), source)
    code, _, err = run("check", "--parquet", str(source), "-e", "TEXT")
    assert code == 2 and "'reply'" in err and "answer" in err


def test_a_worker_stuck_in_c_code_is_ended_and_its_row_times_out(run, tmp_path, monkeypatch):
    real = batch_core.check

    def stuck(reply, exp):
        if reply == "stuck":
            # as a C extension that never returns to Python: the alarm is never handled
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(60)
        return real(reply, exp)

    monkeypatch.setattr(batch_core, "check", stuck)
    # past the first chunk, in a last chunk of four rows (CHUNK is 32): the worker is taken
    # for stuck after the chunk's deadline, --timeout a row and a 2 s margin
    rows = _rows(tmp_path / "r.jsonl", 100, extra={97: "stuck"})
    out_file = tmp_path / "v.jsonl"
    start = time.perf_counter()
    code, _, _ = run(
        "check", "--jsonl", str(rows), "-e", "TEXT", "--workers", "2", "--timeout", "0.2", "--out", str(out_file)
    )
    assert time.perf_counter() - start < 120
    records = _records(out_file)
    assert [r["line"] for r in records] == list(range(1, 101))
    assert [(r["line"], r["violations"][0]["code"]) for r in records if not r["ok"]] == [(98, "batch.timeout")]


# --- faults in the first rows, ids on lost rows, workers that outlive their parent (issue 30) ----


@pytest.mark.parametrize(("rows", "culprit"), [(40, 0), (40, 5), (10, 3), (33, 31)])
def test_a_worker_that_dies_in_the_first_rows_costs_one_row(run, tmp_path, monkeypatch, rows, culprit):
    real = batch_core.check

    def fatal(reply, exp):
        if reply == "die":
            os._exit(3)  # as a segfault in a C extension would end it
        return real(reply, exp)

    monkeypatch.setattr(batch_core, "check", fatal)
    source = _rows(tmp_path / "r.jsonl", rows, extra={culprit: "die"})
    out_file = tmp_path / "v.jsonl"
    code, _, _ = run("check", "--jsonl", str(source), "-e", "TEXT", "--workers", "2", "--out", str(out_file))
    records = _records(out_file)
    assert code == 1
    assert [r["line"] for r in records] == list(range(1, rows + 1))
    assert [r["id"] for r in records] == list(range(rows))  # the lost row keeps its id too
    assert [r["line"] for r in records if not r["ok"]] == [culprit + 1]
    lost = records[culprit]
    assert lost["violations"][0]["code"] == "batch.crashed" and "died" in lost["violations"][0]["message"]
    assert lost["id"] == culprit and list(lost)[:3] == ["line", "id", "ok"]


def test_a_worker_stuck_in_c_code_in_the_first_rows_times_out_with_its_id(run, tmp_path, monkeypatch):
    real = batch_core.check
    tries = tmp_path / "tries"

    def stuck(reply, exp):
        if reply == "stuck":
            with open(tries, "a") as f:  # in the worker: each check of the stuck row, a line
                f.write("tried\n")
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # the alarm is never handled
            time.sleep(60)
        return real(reply, exp)

    monkeypatch.setattr(batch_core, "check", stuck)
    source = tmp_path / "r.jsonl"
    with open(source, "w", encoding="utf-8") as f:
        # a first chunk of six rows: its deadline is 0.2 s a row and a 2 s margin
        for i in range(6):
            f.write(json.dumps({"id": f"row-{i}", "reply": "stuck" if i == 2 else "fine"}) + "\n")
    out_file = tmp_path / "v.jsonl"
    code, _, _ = run(
        "check", "--jsonl", str(source), "-e", "TEXT", "--workers", "2", "--timeout", "0.2", "--out", str(out_file)
    )
    records = _records(out_file)
    assert code == 1 and [r["line"] for r in records] == list(range(1, 7))
    assert [(r["line"], r["id"], r["violations"][0]["code"]) for r in records if not r["ok"]] == [
        (3, "row-2", "batch.timeout")
    ]
    # the row the worker was stuck at times out once: it is not checked again (to hang again)
    assert tries.read_text() == "tried\n"


def test_a_lost_row_keeps_its_id_in_parquet_too(run, tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    real = batch_core.check

    def fatal(reply, exp):
        if reply == "die":
            os._exit(3)
        return real(reply, exp)

    monkeypatch.setattr(batch_core, "check", fatal)
    source = tmp_path / "r.parquet"
    pq.write_table(pa.table({"id": [10, 11, 12], "reply": ["a", "die", "b"]}), source)
    out_file = tmp_path / "v.parquet"
    run("check", "--parquet", str(source), "-e", "TEXT", "--workers", "2", "--out", str(out_file))
    table = pq.read_table(out_file).to_pylist()
    assert [(r["line"], r["id"], r["ok"]) for r in table] == [(1, "10", True), (2, "11", False), (3, "12", True)]
    assert table[1]["violation_codes"] == ["batch.crashed"]


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found.update(int(n) for n in text.split())
    return found


def _alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting for its new parent to reap it)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    state = next(line for line in status.splitlines() if line.startswith("State:"))
    return "Z" not in state.split()[1]


def _wait_until(condition, polls: int = 400, pause: float = 0.05) -> bool:
    for _ in range(polls):
        if condition():
            return True
        time.sleep(pause)
    return condition()


_SLOW_RUN = """
import sys, time
from formatbook_core.batch import core
from formatbook_core.cli import main
real = core.check
def slow(reply, exp):
    time.sleep(0.05)
    return real(reply, exp)
core.check = slow
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_end_when_the_command_is_killed(tmp_path):
    rows = _rows(tmp_path / "r.jsonl", 2000)
    out_file = tmp_path / "v.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-c", _SLOW_RUN, "check", "--jsonl", str(rows), "-e", "TEXT", "--workers", "2"]
    proc = subprocess.Popen(
        [*command, "--out", str(out_file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    workers: set[int] = set()
    try:
        assert _wait_until(lambda: out_file.exists() and out_file.stat().st_size > 0), "no verdict written"
        workers = _children(proc.pid)
        assert len(workers) >= 2, workers
        proc.kill()  # kill -9 of the command alone, not of its process group
        proc.wait()
        assert _wait_until(lambda: not any(_alive(w) for w in workers)), "a worker outlived its parent"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for worker in workers:  # a failed test leaves no process behind
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)


def _grandchild(ready, parent: int) -> None:
    exit_with_parent(parent, use_prctl=False, interval=0.02)  # the portable watchdog alone
    ready.send(os.getpid())
    time.sleep(60)
    os._exit(0)


def _middle(ready) -> None:
    context = multiprocessing.get_context("fork")
    child = context.Process(target=_grandchild, args=(ready, os.getpid()))
    child.start()
    time.sleep(60)  # killed by the test


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_watchdog_ends_a_worker_whose_parent_died_without_prctl():
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    middle = context.Process(target=_middle, args=(send,))
    middle.start()
    grandchild = 0
    try:
        assert receive.poll(30)
        grandchild = receive.recv()
        assert _alive(grandchild)
        os.kill(middle.pid, signal.SIGKILL)
        middle.join()
        assert _wait_until(lambda: not _alive(grandchild)), "the watchdog did not end the orphan"
    finally:
        if middle.is_alive():
            middle.kill()
        if grandchild and _alive(grandchild):
            os.kill(grandchild, signal.SIGKILL)


# --- a row that cannot be read never ends the run (issue 30, held out) -------------------
DEEP = "[" * 100_000 + "]" * 100_000
UNREADABLE = [
    ('{"id": 2, "reply": ' + DEEP + "}", "nested too deeply"),  # json recursed past its limit
    ('{"id": 3, "reply": "x", "meta": ' + DEEP + "}", "nested too deeply"),
    ('{"id": NaN, "reply": "x"}', "NaN is no JSON value"),  # json reads it; no verdict could hold it
    ('{"id": 5, "reply": "x", "score": -Infinity}', "-Infinity is no JSON value"),
]


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(("line", "why"), UNREADABLE)
def test_a_row_json_cannot_read_is_its_own_verdict(run, tmp_path, workers, line, why):
    """A row nested 100,000 deep raised RecursionError in the worker (and NaN made a
    verdict json.dumps refused): the run ended with an internal error, no verdict written."""
    rows = tmp_path / "r.jsonl"
    rows.write_text(
        "\n".join([json.dumps({"id": 1, "reply": "one two"}), line, json.dumps({"id": 9, "reply": "x"})]) + "\n"
    )
    out_file = tmp_path / "v.jsonl"
    code, _, err = run("check", "--jsonl", str(rows), *EXPECT, "--workers", workers, "--out", str(out_file))
    assert code == 1, err
    records = _records(out_file)
    assert [r["line"] for r in records] == [1, 2, 3]
    assert [r["id"] for r in records[::2]] == [1, 9] and records[0]["ok"] and records[2]["ok"]
    assert [v["code"] for v in records[1]["violations"]] == ["input.jsonl"]
    assert why in records[1]["violations"][0]["message"]


def test_a_first_row_json_cannot_read_is_no_internal_error(run, tmp_path):
    rows = tmp_path / "r.jsonl"
    rows.write_text('{"reply": ' + DEEP + "}\n" + json.dumps({"id": 2, "reply": "x"}) + "\n")
    code, _, err = run("check", "--jsonl", str(rows), *EXPECT, "--out", str(tmp_path / "v.jsonl"))
    assert code == 1, err
    assert [r["line"] for r in _records(tmp_path / "v.jsonl")] == [1, 2]


def test_reading_a_row_that_raises_costs_that_row_only(run, tmp_path, monkeypatch):
    real = cli_batch._record

    def flaky(number, item):
        if number == 2:
            raise RuntimeError("reading line 2")
        return real(number, item)

    monkeypatch.setattr(cli_batch, "_record", flaky)
    rows = _rows(tmp_path / "r.jsonl", 3)
    code, _, err = run("check", "--jsonl", str(rows), *EXPECT, "--workers", "1", "--out", str(tmp_path / "v.jsonl"))
    records = _records(tmp_path / "v.jsonl")
    assert [(r["line"], r["id"]) for r in records] == [(1, 0), (2, 1), (3, 2)]
    assert [v["code"] for v in records[1]["violations"]] == ["batch.crashed"]
    assert "RuntimeError: reading line 2" in records[1]["violations"][0]["message"]


def test_an_id_json_cannot_write_as_it_is_keeps_the_run_going(run, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    source = tmp_path / "r.parquet"
    pq.write_table(pa.table({"id": [1.5, float("nan"), float("-inf")], "reply": ["a", "b", "c"]}), source)
    code, _, err = run("check", "--parquet", str(source), *EXPECT, "--workers", "2", "--out", str(tmp_path / "v.jsonl"))
    assert code == 0, err
    assert [r["id"] for r in _records(tmp_path / "v.jsonl")] == [1.5, "NaN", "-Infinity"]
