"""Ray Data on a local 2-CPU Ray: the verdicts equal the single-process CLI's, row for row."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from formatbook_core.batch.ray_data import actor_pool, check_dataset, checker_kwargs, pool_size
from formatbook_core.cli import main

ray = pytest.importorskip("ray")

SCHEMA = {"type": "object", "required": ["name", "age"], "properties": {"age": {"type": "integer"}}}


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory):
    """A local 2-CPU Ray, started in a folder of its own: its workers' working folder,
    where a relative path of the docs' snippet is read from."""
    folder = tmp_path_factory.mktemp("ray")
    before = os.getcwd()
    os.chdir(folder)
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    finally:
        os.chdir(before)
    yield folder
    ray.shutdown()


def _mixed_rows(folder: Path) -> Path:
    (folder / "person.json").write_text(json.dumps(SCHEMA))
    rows = []
    for i in range(60):
        kind = i % 4
        if kind == 0:
            rows.append(
                {"id": i, "reply": json.dumps({"name": f"n{i}", "age": i}), "expect": "EXPECT JSON person.json"}
            )
        elif kind == 1:
            age = "3" if i % 8 == 1 else '"old"'  # cut off: healed, then the schema holds or not
            rows.append({"id": i, "reply": '{"name": "x", "age": ' + age, "expect": "EXPECT JSON person.json"})
        elif kind == 2:
            rows.append(
                {"id": i, "reply": f"# Title\n\n{'word ' * i}\n", "expect": "EXPECT MARKDOWN\nEXPECT MAX 30 WORDS"}
            )
        else:
            rows.append({"id": i, "reply": "a few words " * (i % 5), "expect": None})
    path = folder / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _cli_records(path: Path, out: Path) -> list[dict]:
    code = main(
        ["check", "--jsonl", str(path), "--expect-field", "expect", "-e", "TEXT", "-e", "MIN 3 WORDS"]
        + ["--workers", "1", "--out", str(out)]
    )
    assert code == 1
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_ray_data_agrees_with_the_cli_row_for_row(local_ray, tmp_path):
    path = _mixed_rows(tmp_path)
    expected = _cli_records(path, tmp_path / "cli.jsonl")
    dataset = ray.data.read_json(str(path))
    verdicts = check_dataset(dataset, "EXPECT TEXT\nEXPECT MIN 3 WORDS", expect_field="expect", base_dir=tmp_path)
    rows = sorted(verdicts.take_all(), key=lambda r: r["id"])
    assert [r["id"] for r in rows] == list(range(60))
    for got, want in zip(rows, expected, strict=True):
        assert got["verdict"] == want["verdict"], got["id"]
        assert got["format"] == want["format"]
        assert json.loads(got["value"]) == want["value"]
        assert json.loads(got["violations"]) == want["violations"]
        assert json.loads(got["repairs"]) == want["repairs"]
        assert json.loads(got["counts"]) == want["counts"]
        assert json.loads(got["expectations"]) == want["expectations"]
        assert list(got["violation_codes"]) == [v["code"] for v in want["violations"]]
    # the mix has each verdict: the comparison is not of uniform rows
    assert {r["verdict"] for r in rows} == {"pass", "healed", "fail"}


def _docs_snippet() -> str:
    """The Ray Data snippet of docs/batch.md, as written there."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "batch.md").read_text()
    after = text.split("Ray Data (`formatbook[ray]`):", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_docs_snippet_runs_on_a_2_cpu_ray(local_ray, monkeypatch):
    pq = pytest.importorskip("pyarrow.parquet")
    snippet = _docs_snippet()
    assert "actor_pool()" in snippet and "read_json" in snippet
    folder = local_ray
    (folder / "replies").mkdir()
    replies = {i: json.dumps({"n": i}) if i % 3 else f"not json {i}" for i in range(12)}
    for i, reply in replies.items():
        (folder / "replies" / f"r{i:02}.json").write_text(json.dumps({"id": i, "reply": reply}) + "\n")
    monkeypatch.chdir(folder)
    # the pool leaves a CPU to the reads: 1 actor here, not 2 (nor the 4 that hung)
    pool = actor_pool()
    assert pool.min_size == pool.max_size == 1 == pool_size(ray.cluster_resources()["CPU"])
    exec(compile(snippet, "docs/batch.md", "exec"), {})
    table = pq.read_table(folder / "verdicts")
    by_id = dict(zip(table.column("id").to_pylist(), table.column("ok").to_pylist(), strict=True))
    assert by_id == {i: bool(i % 3) for i in range(12)}


def test_pool_sizes_leave_a_cpu_to_the_reads():
    assert [pool_size(c) for c in (None, 1, 2, 2.0, 3, 8, 64.0)] == [1, 1, 1, 1, 2, 7, 63]
    with pytest.raises(ValueError, match="at least 1"):
        actor_pool(0)


def test_bad_settings_are_raised_before_reaching_the_cluster():
    with pytest.raises(ValueError):
        checker_kwargs()
