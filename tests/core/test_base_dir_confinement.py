"""EXPECT text confined to ``base_dir`` (``confine=True``, what the batch CLI uses for a
row's own EXPECT text): a schema is a file inside the folder, and nothing outside it is
opened, whatever the text names (issue 30, security)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from formatbook_core import ExpectationError, check, parse_expectations
from formatbook_core.batch import check_row
from formatbook_core.batch.cache import ExpectationCache
from formatbook_core.batch.columns import BatchChecker
from tests.file_watch import file_open_watch

SCHEMA = {"type": "object", "required": ["name"]}


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """``(base, outside)``: base holds s.json, sub/t.json and links; outside a schema of its own."""
    base = tmp_path / "base"
    outside = tmp_path / "outside"
    (base / "sub").mkdir(parents=True)
    outside.mkdir()
    for path in (base / "s.json", base / "sub" / "t.json", outside / "secret.json"):
        path.write_text(json.dumps(SCHEMA), encoding="utf-8")
    (base / "out-link.json").symlink_to(outside / "secret.json")
    (base / "out-dir").symlink_to(outside, target_is_directory=True)
    (base / "in-link.json").symlink_to(base / "sub" / "t.json")
    return base, outside


@pytest.mark.parametrize("word", ["s.json", "sub/t.json", "./s.json", "in-link.json"])
def test_a_schema_inside_base_dir_is_read(word, folders):
    base, _ = folders
    exp = parse_expectations(f"EXPECT JSON {word}", base_dir=base, confine=True)
    assert Path(exp.schema).is_relative_to(base.resolve())
    assert check('{"name": "Ada"}', exp).ok
    assert not check('{"age": 3}', exp).ok


def _outside_words(base: Path, outside: Path) -> dict[str, str]:
    home_relative = os.path.relpath(outside / "secret.json", Path.home())
    return {
        "absolute": str(outside / "secret.json"),
        "dot-dot": "../outside/secret.json",
        "dot-dot-inside": "sub/../s.json",
        "home": f"~/{home_relative}",
        "file-symlink": "out-link.json",
        "folder-symlink": "out-dir/secret.json",
        "file-url": f"file://{outside / 'secret.json'}",
        "http-url": "http://127.0.0.1:9/s.json",
    }


@pytest.mark.parametrize("name", list(_outside_words(Path("/b"), Path("/o"))))
def test_a_schema_outside_base_dir_is_refused_and_never_opened(name, folders):
    base, outside = folders
    word = _outside_words(base, outside)[name]
    with file_open_watch(outside) as watch:
        with pytest.raises(ExpectationError, match="base_dir"):
            parse_expectations(f"EXPECT JSON {word}", base_dir=base, confine=True)
        assert watch.opened() == []


@pytest.mark.parametrize("word", ["loop.json", "nul\x00.json"])
def test_a_name_that_cannot_be_looked_up_is_an_expectation_error(word, folders):
    base, _ = folders
    (base / "loop.json").symlink_to(base / "loop.json")
    with pytest.raises(ExpectationError, match="cannot be looked up"):
        parse_expectations([f"EXPECT JSON {word}"], base_dir=base, confine=True)


@pytest.mark.parametrize("option", ["allow_fetch=true", "base_dir=/"])
def test_options_reaching_past_base_dir_are_refused(option, folders):
    base, _ = folders
    with pytest.raises(ExpectationError, match="confined to base_dir"):
        parse_expectations(f"EXPECT JSON s.json {option}", base_dir=base, confine=True)


def test_without_confine_an_expect_line_still_names_any_file(folders):
    # the default is unchanged: EXPECT text from the caller is trusted
    base, outside = folders
    for word in (str(outside / "secret.json"), "../outside/secret.json", "out-link.json"):
        with file_open_watch(outside) as watch:
            parse_expectations(f"EXPECT JSON {word}", base_dir=base).loaded_schema  # noqa: B018 - loading is the test
            assert watch.opened() == ["secret.json"]  # what the watch above would have seen


def test_the_cache_keeps_confined_and_trusted_text_apart(folders):
    base, outside = folders
    cache = ExpectationCache()
    text = f"EXPECT JSON {outside / 'secret.json'}"
    assert cache.get(text, base).schema is not None
    with pytest.raises(ExpectationError, match="base_dir"):
        cache.get(text, base, confine=True)


def test_check_row_confines_only_the_rows_own_expect_text(folders):
    base, outside = folders
    trusted = f"EXPECT JSON {outside / 'secret.json'}"
    row = {"reply": '{"name": "Ada"}'}
    assert check_row(row, trusted, base_dir=base, confine=True)["ok"]
    own = {**row, "expect": trusted}
    record = check_row(own, None, expect_field="expect", base_dir=base, confine=True)
    assert [v["code"] for v in record["violations"]] == ["batch.expectations"]
    assert check_row(
        {**row, "expect": "EXPECT JSON sub/t.json"}, None, expect_field="expect", base_dir=base, confine=True
    )["ok"]


def test_batch_checker_confines_a_rows_own_expect_text(folders):
    base, outside = folders
    rows = {
        "reply": ['{"name": "Ada"}'] * 2,
        "expect": ["EXPECT JSON s.json", f"EXPECT JSON {outside / 'secret.json'}"],
    }
    confined = BatchChecker(expect_field="expect", base_dir=base, confine=True).check_columns(rows)
    assert confined["ok"] == [True, False]
    trusting = BatchChecker(expect_field="expect", base_dir=base).check_columns(rows)
    assert trusting["ok"] == [True, True]  # the default is unchanged
