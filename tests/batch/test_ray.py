"""Ray Data on a local 2-CPU Ray: the verdicts equal the single-process CLI's, row for row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formatbook_core.batch import BatchChecker
from formatbook_core.batch.ray_data import check_dataset, checker_kwargs
from formatbook_core.cli import main

ray = pytest.importorskip("ray")

SCHEMA = {"type": "object", "required": ["name", "age"], "properties": {"age": {"type": "integer"}}}


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
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


def test_the_three_line_recipe_writes_parquet(local_ray, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps({"id": i, "reply": "word " * i}) + "\n" for i in range(10)))
    # the recipe of docs/batch.md
    ds = ray.data.read_json(str(path))
    ds = ds.map_batches(
        BatchChecker,
        fn_constructor_kwargs={"expect": "EXPECT TEXT\nEXPECT MAX 5 WORDS"},
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=1),
    )
    ds.write_parquet(str(tmp_path / "verdicts"))
    table = pq.read_table(tmp_path / "verdicts")
    by_id = dict(zip(table.column("id").to_pylist(), table.column("ok").to_pylist(), strict=True))
    assert by_id == {i: i <= 5 for i in range(10)}


def test_bad_settings_are_raised_before_reaching_the_cluster():
    with pytest.raises(ValueError):
        checker_kwargs()
