"""The recipes in examples/batch/: promptfoo, DeepEval, Spark mapInPandas, datasets.map.

Each is called as its tool calls it, without installing promptfoo, DeepEval or Spark
(``datasets`` installs cheaply and is run for real)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from formatbook_core import check

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "batch"))

import datasets_recipe  # noqa: E402
import deepeval_formatbook  # noqa: E402
import promptfoo_formatbook  # noqa: E402
import spark_recipe  # noqa: E402

EXPECT = "EXPECT JSON\nEXPECT MAX 3 WORDS"


# --- promptfoo ---------------------------------------------------------------------------------


def test_promptfoo_passes_a_reply_that_meets_the_expectations():
    result = promptfoo_formatbook.get_assert('{"name": "Ada Lovelace"}', {"config": {"expect": EXPECT}, "vars": {}})
    assert result == {"pass": True, "score": 1.0, "reason": "formatbook: pass"}


def test_promptfoo_fails_with_a_score_and_the_violation():
    result = promptfoo_formatbook.get_assert('{"name": "one two three four"}', {"vars": {"expect": EXPECT}})
    assert result["pass"] is False
    assert result["score"] == 0.5  # JSON met, MAX 3 WORDS not
    assert "count.max" in result["reason"] and "4 words" in result["reason"]


def test_promptfoo_healed_replies_pass_unless_told_otherwise():
    cut = '{"name": "Ada"'
    assert check(cut, EXPECT).verdict == "healed"
    passed = promptfoo_formatbook.get_assert(cut, {"config": {"expect": EXPECT}})
    assert passed["pass"] is True and "repaired: truncated_container" in passed["reason"]
    strict = promptfoo_formatbook.get_assert(cut, {"config": {"expect": EXPECT, "healed_passes": False}})
    # refused, it scores nothing: its lines were met only by the healed reading, the one refused
    assert strict["pass"] is False and strict["score"] == 0.0
    assert strict["reason"].startswith("formatbook: fail (healed, and healed replies do not pass here)")


def test_promptfoo_without_expectations_fails_and_says_why():
    result = promptfoo_formatbook.get_assert("x", {"vars": {}})
    assert result["pass"] is False and "no EXPECT lines" in result["reason"]


def test_promptfoo_a_syntax_failure_scores_nothing():
    result = promptfoo_formatbook.get_assert("not json at all", {"config": {"expect": EXPECT}})
    assert result["pass"] is False and result["score"] == 0.0  # the count is not evaluated


REPLIES = [
    '{"name": "Ada"}',  # pass
    '{"name": "Ada"',  # healed: cut off
    'Sure:\n```json\n{"name": "Ada",}\n```',  # healed: fenced, a trailing comma
    '{"name": "one two three four"}',  # fail: one line of two
    '{"name": "one two three four"',  # fail once healed: one line of two
    "not json at all",  # fail: no line
    "",  # fail: empty
]


@pytest.mark.parametrize("healed_passes", [True, False])
@pytest.mark.parametrize("reply", REPLIES)
def test_the_score_never_contradicts_the_verdict(reply, healed_passes):
    config = {"config": {"expect": EXPECT, "healed_passes": healed_passes}}
    result = promptfoo_formatbook.get_assert(reply, config)
    metric = deepeval_formatbook.FormatbookMetric(EXPECT, threshold=0.0, healed_passes=healed_passes)
    metric.measure(LLMTestCase("q", reply))
    for passed, score in ((result["pass"], result["score"]), (metric.success, metric.score)):
        assert score == 1.0 if passed else score is not None and score < 1.0
    assert (result["pass"], result["score"]) == (metric.success, metric.score)
    verdict = check(reply, EXPECT).verdict
    assert result["pass"] is (verdict == "pass" or (verdict == "healed" and healed_passes))


def test_every_recipe_imports_on_its_own(tmp_path):
    # as promptfoo loads a file (by its path) and as a user imports one (its folder on the
    # path), in a fresh interpreter run elsewhere: no recipe leans on another
    folder = Path(__file__).resolve().parents[2] / "examples" / "batch"
    code = (
        "import importlib.util, sys\n"
        f"folder = {str(folder)!r}\n"
        "names = sys.argv[1:]\n"
        "for name in names:\n"
        "    spec = importlib.util.spec_from_file_location('loaded_' + name, f'{folder}/{name}.py')\n"
        "    spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "sys.path.insert(0, folder)\n"
        "for name in names:\n"
        "    __import__(name)\n"
        "print('imported', len(names))\n"
    )
    names = sorted(p.stem for p in folder.glob("*.py"))
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.path.join(root, "plugins")])}
    done = subprocess.run(
        [sys.executable, "-c", code, *names], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"imported {len(names)}" and len(names) == 4


def test_promptfoo_python_is_documented():
    root = Path(__file__).resolve().parents[2]
    for path in (root / "docs" / "batch.md", root / "examples" / "batch" / "promptfoo_formatbook.py"):
        assert "PROMPTFOO_PYTHON" in path.read_text(), path


# --- DeepEval ----------------------------------------------------------------------------------


@dataclass
class LLMTestCase:  # DeepEval's test case, as far as the metric reads it
    input: str
    actual_output: str | None


def test_deepeval_metric_measures_like_deepeval_calls_it():
    metric = deepeval_formatbook.FormatbookMetric(EXPECT)
    assert metric.measure(LLMTestCase("who?", '{"name": "Ada"}')) == 1.0
    assert metric.is_successful() and metric.success is True and metric.reason == "formatbook: pass"
    assert metric.__name__ == "Formatbook"
    score = asyncio.run(metric.a_measure(LLMTestCase("who?", '{"name": "a b c d e"}')))
    assert score == 0.5 and not metric.is_successful()
    assert "count.max" in (metric.reason or "")


def test_deepeval_metric_refusing_healed_replies_scores_them_0():
    metric = deepeval_formatbook.FormatbookMetric(EXPECT, healed_passes=False)
    assert metric.measure(LLMTestCase("q", '{"name": "Ada"')) == 0.0
    assert not metric.is_successful() and "healed replies do not pass" in (metric.reason or "")
    lenient = deepeval_formatbook.FormatbookMetric(EXPECT)
    assert lenient.measure(LLMTestCase("q", '{"name": "Ada"')) == 1.0 and lenient.is_successful()


def test_deepeval_metric_threshold_and_none_output():
    lenient = deepeval_formatbook.FormatbookMetric(EXPECT, threshold=0.5)
    lenient.measure(LLMTestCase("q", '{"name": "a b c d e"}'))
    assert lenient.score == 0.5 and not lenient.is_successful()  # the reply still fails an EXPECT line
    metric = deepeval_formatbook.FormatbookMetric(EXPECT)
    metric.measure(LLMTestCase("q", None))
    assert metric.score == 0.0 and "reply.empty" in (metric.reason or "")


# --- Spark mapInPandas (the function, on pandas frames) -------------------------------------------


def test_spark_function_on_pandas_frames():
    pd = pytest.importorskip("pandas")
    fn = spark_recipe.check_partitions(EXPECT)
    frames = [
        pd.DataFrame({"id": [1, 2], "reply": ['{"a": "x y"}', '{"a": "w x y z"}'], "other": [0, 0]}),
        pd.DataFrame({"id": [3], "reply": ["nope"], "other": [0]}),
    ]
    out = pd.concat(list(fn(iter(frames))))
    assert list(out.columns) == [part.split()[0] for part in spark_recipe.SPARK_SCHEMA.split(", ")]
    assert out["id"].tolist() == ["1", "2", "3"]
    assert out["ok"].tolist() == [True, False, False]
    assert json.loads(out["counts"].iloc[1]) == {"words": 4}
    assert list(out["violation_codes"].iloc[1]) == ["count.max"]


# --- Hugging Face datasets ------------------------------------------------------------------------


def test_datasets_map_batched_with_two_processes():
    datasets = pytest.importorskip("datasets")
    rows = {"id": list(range(40)), "reply": [json.dumps({"a": "w " * (i % 5)}) for i in range(40)]}
    ds = datasets_recipe.add_verdicts(datasets.Dataset.from_dict(rows), EXPECT, num_proc=2)
    assert ds["id"] == list(range(40))
    assert ds["ok"] == [i % 5 <= 3 for i in range(40)]
    assert ds["verdict"] == [check(r, EXPECT).verdict for r in rows["reply"]]
