"""The `formatbook` command: exit statuses, output, input decoding, folder and JSONL modes.

Most tests run `main([...])` in this process; a few run the real command in a subprocess.
Output is piped here (not a terminal), so it is the plain rendering.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from formatbook_core import HealError, check, get_format, heal, list_formats
from formatbook_core.cli import main
from formatbook_core.cli.common import count_lines
from formatbook_core.cli.render import PlainRenderer, RichRenderer, make_renderer


def _has_format(name: str) -> bool:
    try:
        get_format(name)
    except Exception:
        return False
    return True


def needs_json(test):
    """The JSON plugin ships with formatbook: a test needing it fails loudly without it."""
    assert _has_format("json"), "the built-in JSON plugin is not registered"
    return test


@pytest.fixture
def run(capsys, monkeypatch):
    """main(args) with optional stdin bytes -> (exit status, stdout, stderr)."""
    monkeypatch.delenv("NO_COLOR", raising=False)

    def _run(*args: str, stdin: bytes | str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return _run


# --- basics ----------------------------------------------------------------------------


def test_help_and_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for command in ("formats", "check", "heal", "guidance"):
        assert command in out
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("formatbook 0.")


def test_no_command_is_a_usage_error(run):
    code, out, _ = run()
    assert code == 2
    assert "usage:" in out


def test_formats_lists_the_text_format_with_its_plugin(run):
    code, out, _ = run("formats", "--json")
    assert code == 0
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["text"]["plugin"] == "text"
    assert "txt" in rows["text"]["aliases"]
    assert rows["text"]["mime_types"] == ["text/plain"]
    code, out, _ = run("formats")
    assert code == 0
    assert any(line.split()[:1] == ["text"] and "text/plain" in line for line in out.splitlines())


def test_formats_lists_every_registered_format(run):
    code, out, _ = run("formats", "--json")
    assert code == 0
    listed = [(r["name"], r["plugin"]) for r in json.loads(out)]
    assert sorted(listed) == sorted((e.format.name, e.plugin) for e in list_formats())


# --- check one reply ----------------------------------------------------------------------


def test_text_within_the_limit_passes(run):
    code, out, _ = run("check", "-e", "TEXT", "-e", "MAX 3 WORDS", stdin="Hello brave world")
    assert code == 0
    assert out.startswith("PASS")
    assert "words: 3 (max 3)" in out


def test_text_over_the_limit_fails(run):
    code, out, _ = run("check", "-e", "EXPECT TEXT", "-e", "- EXPECT MAX 3 WORDS", stdin="one two three four")
    assert code == 1
    assert out.startswith("FAIL")
    assert "words: 4 (max 3)" in out


def test_json_output_parses(run):
    code, out, _ = run("check", "-e", "TEXT", "-e", "MIN 2 WORDS", "--json", stdin="Just one")
    assert code == 0
    data = json.loads(out)
    assert data["ok"] is True
    assert data["verdict"] == "pass"
    assert data["counts"] == {"words": 2}
    assert data["file"] is None


@needs_json
def test_issue_2_four_words_exceed_three(run):
    reply = '{"firstName": "John Smith", "lastName": "Peter Green"}'
    code, out, _ = run("check", "-e", "JSON", "-e", "MIN 2 WORDS", "-e", "MAX 3 WORDS", stdin=reply)
    assert code == 1
    assert out.startswith("FAIL")
    violation = next(line for line in out.splitlines() if "count." in line)
    assert "4" in violation and "3" in violation
    code, out, _ = run("check", "-e", "JSON", "-e", "MIN 2 WORDS", "-e", "MAX 3 WORDS", "--json", stdin=reply)
    data = json.loads(out)
    assert data["counts"]["words"] == 4
    assert [v["code"] for v in data["violations"]] == ["count.max"]


@needs_json
def test_issue_2_two_words_pass(run):
    reply = '{"firstName": "John", "lastName": "Smith"}'
    code, out, _ = run("check", "-e", "JSON", "-e", "MIN 2 WORDS", "-e", "MAX 3 WORDS", stdin=reply)
    assert code == 0
    assert out.startswith("PASS")


def test_misspelt_unit_is_a_usage_error_with_a_suggestion(run):
    code, out, err = run("check", "-e", "TEXT", "-e", "MAX 3 WRODS", stdin="Hello")
    assert code == 2
    assert out == ""
    assert "WRODS" in err
    assert "WORDS" in err.replace("WRODS", "")
    assert "Traceback" not in err


def test_unknown_format_is_a_usage_error_with_a_suggestion(run):
    code, _, err = run("check", "-e", "TEXTT", stdin="Hello")
    assert code == 2
    assert "TEXT" in err.replace("TEXTT", "")


def test_contradictory_limits_are_a_usage_error(run):
    code, _, err = run("check", "-e", "TEXT", "-e", "MIN 5 WORDS", "-e", "MAX 3 WORDS", stdin="Hello")
    assert code == 2
    assert "5" in err and "3" in err


def test_missing_files_are_usage_errors(run, tmp_path):
    code, _, err = run("check", str(tmp_path / "nope.txt"), "-e", "TEXT")
    assert code == 2
    assert "no such file" in err
    reply = tmp_path / "r.txt"
    reply.write_text("Hi")
    code, _, err = run("check", str(reply), "--expect-file", str(tmp_path / "nope.expect"))
    assert code == 2
    assert "nope.expect" in err
    code, _, err = run("check", str(reply), "-e", "TEXT missing-schema.json")
    assert code == 2
    assert "missing-schema.json" in err


def test_no_expectations_is_a_usage_error(run, tmp_path):
    reply = tmp_path / "r.txt"
    reply.write_text("Hi")
    code, _, err = run("check", str(reply))
    assert code == 2
    assert "-e" in err


def test_a_reply_file_uses_the_expect_file_beside_it(run, tmp_path):
    (tmp_path / "r.txt").write_text("one two three four five")
    (tmp_path / "r.expect").write_text("EXPECT TEXT\nEXPECT MAX 4 WORDS\n")
    code, out, _ = run("check", str(tmp_path / "r.txt"))
    assert code == 1
    assert "words: 5 (max 4)" in out


def test_expect_file_and_e_lines_are_joined(run, tmp_path):
    (tmp_path / "e.expect").write_text("# a comment\nEXPECT TEXT\n")
    code, out, _ = run("check", "--expect-file", str(tmp_path / "e.expect"), "-e", "MAX 1 WORD", stdin="two words")
    assert code == 1
    assert "words: 2 (max 1)" in out
    # a second format on the command line contradicts the file's
    code, _, err = run("check", "--expect-file", str(tmp_path / "e.expect"), "-e", "TEXT", stdin="x")
    assert code == 2
    assert "two formats" in err


# --- input decoding ----------------------------------------------------------------------


def test_bytes_that_are_not_utf8_fail_with_their_offset(run):
    code, out, err = run("check", "-e", "TEXT", stdin=b"ab\xffcd")
    assert code == 1
    assert out.startswith("FAIL")
    assert "reply.encoding" in out
    assert "byte offset 2" in out
    assert "Traceback" not in err


def test_offset_counts_the_bom_and_json_output_names_the_code(run):
    code, out, _ = run("check", "-e", "TEXT", "--json", stdin=b"\xef\xbb\xbfabc\xc3")
    assert code == 1
    data = json.loads(out)
    assert data["verdict"] == "fail"
    assert data["violations"][0]["code"] == "reply.encoding"
    assert "byte offset 6" in data["violations"][0]["message"]


def test_a_bom_is_dropped(run):
    code, out, _ = run("check", "-e", "TEXT", "-e", "EXACTLY 1 CHARACTER", "--json", stdin=b"\xef\xbb\xbfA")
    assert code == 0
    assert json.loads(out)["text"] == "A"


# --- folders -----------------------------------------------------------------------------


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "replies"
    folder.mkdir()
    (folder / "short.txt").write_text("Yes, it works.")
    (folder / "short.expect").write_text("EXPECT TEXT\nEXPECT MAX 3 WORDS\n")
    (folder / "long.txt").write_text("No, it does not work at all.")
    (folder / "long.expect").write_text("EXPECT TEXT\nEXPECT MAX 3 WORDS\n")
    (folder / "README.md").write_text("notes, not a reply")
    return folder


def test_folder_checks_each_reply_against_its_expect_file(run, tmp_path):
    code, out, err = run("check", str(_folder(tmp_path)))
    assert code == 1
    lines = out.splitlines()
    assert any(line.startswith("FAIL") and "long.txt" in line for line in lines)
    assert any(line.startswith("PASS") and "short.txt" in line for line in lines)
    assert "2 replies: 1 pass, 0 healed, 1 fail" in out
    assert "README.md" in err  # skipped, and said so


def test_folder_where_everything_passes_exits_0(run, tmp_path):
    folder = _folder(tmp_path)
    (folder / "long.txt").unlink()
    (folder / "long.expect").unlink()
    code, out, _ = run("check", str(folder))
    assert code == 0
    assert "1 reply: 1 pass, 0 healed, 0 fail" in out


def test_folder_json(run, tmp_path):
    code, out, _ = run("check", str(_folder(tmp_path)), "--json")
    assert code == 1
    data = json.loads(out)
    verdicts = {r["name"]: r["verdict"] for r in data["results"]}
    assert verdicts == {"long": "fail", "short": "pass"}
    assert data["summary"] == {"pass": 1, "healed": 0, "fail": 1}


def test_folder_with_a_bad_expect_file_exits_2_and_checks_the_rest(run, tmp_path):
    folder = _folder(tmp_path)
    (folder / "long.expect").write_text("EXPECT TEXT\nEXPECT MAX 3 WRODS\n")
    code, out, _ = run("check", str(folder))
    assert code == 2
    assert any(line.startswith("ERROR") and "long.txt" in line for line in out.splitlines())
    assert any(line.startswith("PASS") and "short.txt" in line for line in out.splitlines())


def test_folder_schema_paths_are_relative_to_the_folder(run, tmp_path, monkeypatch):
    folder = _folder(tmp_path)
    (folder / "schemas").mkdir()
    (folder / "schemas" / "any.txt").write_text("")
    (folder / "short.expect").write_text("EXPECT TEXT schemas/any.txt\n")
    monkeypatch.chdir(tmp_path)  # not the folder: the path must still resolve
    code, out, err = run("check", str(folder), "--json")
    verdicts = {r["name"]: r["verdict"] for r in json.loads(out)["results"]}
    assert verdicts["short"] == "pass", err


def test_empty_folder_is_a_usage_error(run, tmp_path):
    code, _, err = run("check", str(tmp_path))
    assert code == 2
    assert "NAME.expect" in err


# --- JSONL -------------------------------------------------------------------------------


def _jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "replies.jsonl"
    path.write_text(
        "\n".join(
            [
                json.dumps({"id": "a", "reply": "two words"}),
                json.dumps({"id": "b", "reply": "far too many words here"}),
                "{not json",
                json.dumps({"id": "d", "answer": "no reply field"}),
                "",
                json.dumps({"id": "f", "reply": "fine"}),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    return path


def test_jsonl_writes_verdicts_to_out(run, tmp_path):
    out_file = tmp_path / "verdicts.jsonl"
    code, out, _ = run(
        "check",
        "--jsonl",
        str(_jsonl(tmp_path)),
        "--field",
        "reply",
        "-e",
        "TEXT",
        "-e",
        "MAX 3 WORDS",
        "--out",
        str(out_file),
    )
    assert code == 1
    records = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [(r["line"], r.get("id"), r["verdict"]) for r in records] == [
        (1, "a", "pass"),
        (2, "b", "fail"),
        (3, None, "fail"),
        (4, "d", "fail"),
        (6, "f", "pass"),
    ]
    assert records[0]["counts"] == {"words": 2}
    assert records[2]["violations"][0]["code"] == "input.jsonl"
    assert "'reply'" in records[3]["violations"][0]["message"]
    assert "5 replies: 2 pass, 0 healed, 3 fail" in out


def test_jsonl_goes_to_stdout_when_piped(run, tmp_path):
    code, out, err = run("check", "--jsonl", str(_jsonl(tmp_path)), "-e", "TEXT", "-e", "MAX 3 WORDS")
    assert code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 5
    assert "5 replies: 2 pass, 0 healed, 3 fail" in err


def test_jsonl_other_field_and_bare_strings(run, tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"text": "a b"}) + "\n" + json.dumps("a b c d") + "\n")
    code, out, _ = run("check", "--jsonl", str(path), "--field", "text", "-e", "TEXT", "-e", "MAX 2 WORDS")
    assert code == 1
    assert [json.loads(line)["verdict"] for line in out.splitlines()] == ["pass", "fail"]


def test_jsonl_all_pass_exits_0(run, tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"reply": "ok"}) + "\n")
    code, _, _ = run("check", "--jsonl", str(path), "-e", "TEXT")
    assert code == 0


# --- heal --------------------------------------------------------------------------------


def test_heal_leaves_valid_text_unchanged(run):
    code, out, err = run("heal", "--format", "text", stdin="Already fine.\n")
    assert code == 0
    assert out == "Already fine.\n"
    assert "nothing to repair" in err


def test_heal_needs_a_format(run):
    code, _, err = run("heal", stdin="x")
    assert code == 2
    assert "--format" in err


def test_heal_non_utf8_exits_1(run):
    code, out, err = run("heal", "--format", "text", stdin=b"\xff")
    assert code == 1
    assert out == ""
    assert "byte offset 0" in err


@needs_json
def test_heal_diff_shows_the_repair(run):
    code, out, _ = run("heal", "--format", "json", "--diff", stdin='{"a": 1,}\n')
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("---") and lines[1].startswith("+++")
    assert '-{"a": 1,}' in lines
    added = [line[1:] for line in lines if line.startswith("+") and not line.startswith("+++")]
    assert json.loads("\n".join(added)) == {"a": 1}


@needs_json
def test_heal_prints_the_repaired_text_and_json(run):
    code, out, _ = run("heal", "--format", "json", stdin='{"a": [1, 2,], }')
    assert code == 0
    assert json.loads(out) == {"a": [1, 2]}
    code, out, _ = run("heal", "--format", "json", "--json", stdin='{"a": 1,}')
    data = json.loads(out)
    assert data["ok"] is True and data["changed"] is True
    assert json.loads(data["text"]) == {"a": 1}
    assert data["repairs"]


@needs_json
def test_heal_that_cannot_heal_exits_1_with_violations(run, tmp_path):
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"type": "object", "required": ["name"]}))
    code, out, err = run("heal", "--format", "json", "--schema", str(schema), stdin='{"age": 3}')
    assert code == 1
    assert out == ""
    assert "name" in err


# --- guidance ----------------------------------------------------------------------------


def test_guidance_mentions_the_limit(run):
    code, out, _ = run("guidance", "-e", "TEXT", "-e", "MAX 12 WORDS")
    assert code == 0
    assert "12" in out
    code, _, err = run("guidance", "-e", "MAX 12 WRODS")
    assert code == 2


# --- rendering ---------------------------------------------------------------------------


class _FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_terminal_output_is_coloured_unless_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    result = check("one two three four", "EXPECT TEXT\nEXPECT MAX 3 WORDS")
    stream = _FakeTerminal()
    renderer = make_renderer(stream)
    assert isinstance(renderer, RichRenderer)
    renderer.result(result, label="reply.txt")
    assert re.search(r"\x1b\[(?:\d+;)*31(?:;\d+)*m", stream.getvalue())  # FAIL in red
    assert "FAIL" in stream.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    stream = _FakeTerminal()
    make_renderer(stream).result(result, label="reply.txt")
    # bold and dim may stay; colours (SGR 30-37, 38;5;n, 90-97) must go
    assert not re.search(r"\x1b\[(?:\d+;)*(?:3[0-8]|9[0-7])(?:;\d+)*m", stream.getvalue())
    assert "FAIL" in stream.getvalue() and "reply.txt" in stream.getvalue()


def test_piped_output_is_plain():
    assert type(make_renderer(io.StringIO())) is PlainRenderer


def test_terminal_without_rich_gets_plain_lines(monkeypatch):
    # rich is the `pretty` extra: a base install prints plain lines on a terminal too
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "rich" else real(name, *a))
    monkeypatch.setenv("TERM", "xterm-256color")
    stream = _FakeTerminal()
    renderer = make_renderer(stream)
    assert type(renderer) is PlainRenderer
    renderer.result(check("one two three four", "EXPECT TEXT\nEXPECT MAX 3 WORDS"), label="r.txt")
    assert "\x1b[" not in stream.getvalue() and "FAIL" in stream.getvalue()


# --- the real command --------------------------------------------------------------------


def _command() -> list[str]:
    script = Path(sys.executable).with_name("formatbook")
    return [str(script)] if script.exists() else [sys.executable, "-m", "formatbook_core.cli"]


def _sub(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([*_command(), *args], input=stdin, capture_output=True, text=True, env=env, timeout=60)


def test_command_exit_statuses_in_a_subprocess():
    assert _sub("check", "-e", "TEXT", "-e", "MAX 3 WORDS", stdin="a b c").returncode == 0
    over = _sub("check", "-e", "TEXT", "-e", "MAX 3 WORDS", stdin="a b c d")
    assert over.returncode == 1
    assert over.stdout.startswith("FAIL")
    bad = _sub("check", "-e", "MAX 3 WRODS", stdin="a")
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr


@needs_json
def test_issue_2_in_a_subprocess():
    e = ["-e", "JSON", "-e", "MIN 2 WORDS", "-e", "MAX 3 WORDS"]
    assert _sub("check", *e, stdin='{"firstName": "John Smith", "lastName": "Peter Green"}').returncode == 1
    assert _sub("check", *e, stdin='{"firstName": "John", "lastName": "Smith"}').returncode == 0


def test_help_imports_nothing_heavy():
    code = (
        "import sys\n"
        "from formatbook_core.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('rich', 'lxml', 'jsonschema', 'ruamel', 'icalendar', 'vobject')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_package_runs_as_a_module():
    """``python -m formatbook_core.cli`` (and ``-m formatbook_core``) runs the command."""
    for module in ("formatbook_core.cli", "formatbook_core"):
        done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "usage: formatbook" in done.stdout


# --- format options -----------------------------------------------------------------------


def test_formats_options_lists_each_declared_option_with_type_and_default(run):
    code, out, _ = run("formats", "--options")
    assert code == 0
    rows = [line.split() for line in out.splitlines()]
    row = rows[[r[:2] for r in rows].index(["json", "max_depth"])]
    assert row[:6] == ["json", "max_depth", "a", "whole", "number", "1000"]
    assert any(r[:2] == ["markdown", "level"] for r in rows)


def test_formats_json_carries_the_options(run):
    code, out, _ = run("formats", "--json")
    assert code == 0
    by_name = {row["name"]: row for row in json.loads(out)}
    options = {o["name"]: o for o in by_name["json"]["options"]}
    assert options["allow_fetch"]["default"] is False and options["allow_fetch"]["type"] == "true or false"
    assert options["max_size"]["default"] == 16 * 1024 * 1024


def test_a_misspelt_option_is_a_usage_error_naming_the_nearest(run):
    code, _, err = run("check", "-e", "JSON max_dpth=3", stdin=b"{}")
    assert code == 2
    assert "did you mean max_depth?" in err


# --- issue 8: up-front usage errors, replies of None, JSON that is plain JSON ------------


def _rows(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _no_check(monkeypatch):
    """Make any reply check fail the test: what follows must stop before the first one."""

    def refuse(*args, **kwargs):
        raise AssertionError("a reply was checked")

    monkeypatch.setattr("formatbook_core.pipeline.check", refuse)


def test_jsonl_field_missing_from_the_rows_is_a_usage_error(run, tmp_path, monkeypatch):
    _no_check(monkeypatch)
    path = _rows(tmp_path, "", "  ", json.dumps({"id": 1, "reply": "a", "model": "m"}), json.dumps({"reply": "b"}))
    out_file = tmp_path / "verdicts.jsonl"
    code, out, err = run("check", "--jsonl", str(path), "--field", "response", "-e", "TEXT", "--out", str(out_file))
    assert code == 2
    assert out == ""
    assert "'response'" in err and "line 3" in err
    assert '"id", "reply", "model"' in err  # the fields the first row has
    assert not out_file.exists()  # no verdict was written anywhere
    assert "Traceback" not in err


def test_jsonl_field_missing_names_at_most_twenty_fields(run, tmp_path, monkeypatch):
    _no_check(monkeypatch)
    path = _rows(tmp_path, json.dumps({f"k{i}": i for i in range(30)}))
    code, _, err = run("check", "--jsonl", str(path), "-e", "TEXT")
    assert code == 2
    assert '"k19"' in err and '"k20"' not in err and "..." in err


def test_jsonl_field_missing_on_an_empty_object(run, tmp_path, monkeypatch):
    _no_check(monkeypatch)
    code, _, err = run("check", "--jsonl", str(_rows(tmp_path, "{}")), "-e", "TEXT")
    assert code == 2 and "no fields" in err


def test_jsonl_field_missing_read_from_stdin(run, monkeypatch):
    _no_check(monkeypatch)
    code, out, err = run("check", "--jsonl", "-", "-e", "TEXT", stdin=json.dumps({"text": "a"}) + "\n")
    assert code == 2 and out == "" and '"text"' in err


@pytest.mark.parametrize(
    "first",
    [
        json.dumps("a bare string"),  # no fields to miss
        "{not json",  # reported on its line, like any other
        json.dumps({"reply": None}),  # the field is there, holding no reply
    ],
)
def test_jsonl_a_first_row_that_does_not_miss_the_field_goes_on(run, tmp_path, first):
    path = _rows(tmp_path, first, json.dumps({"reply": "two words"}))
    code, out, _ = run("check", "--jsonl", str(path), "-e", "TEXT")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in records] == [1, 2]
    assert records[1]["verdict"] == "pass"
    assert code == (0 if first.startswith('"') else 1)


def test_jsonl_a_null_reply_is_an_empty_reply(run, tmp_path):
    path = _rows(tmp_path, json.dumps({"id": "x", "reply": None}))
    code, out, _ = run("check", "--jsonl", str(path), "-e", "TEXT")
    assert code == 1
    [record] = [json.loads(line) for line in out.splitlines()]
    assert record["id"] == "x" and [v["code"] for v in record["violations"]] == ["reply.empty"]


def test_jsonl_line_numbers_and_the_line_count(tmp_path):
    path = _rows(tmp_path, "", json.dumps({"reply": "a"}), "", json.dumps({"reply": "b"}))
    assert count_lines(str(path)) == 4
    path.write_bytes(b"a\nb")  # no final line break
    assert count_lines(str(path)) == 2
    assert count_lines("-") is None


def test_markdown_level_5_exits_2_before_any_reply_is_checked(run, tmp_path, monkeypatch):
    _no_check(monkeypatch)
    reply = tmp_path / "r.md"
    reply.write_text("# Title\n\nBody.\n")
    code, out, err = run("check", str(reply), "-e", "MARKDOWN level=5")
    assert code == 2 and out == ""
    assert "level" in err and "Traceback" not in err
    rows = _rows(tmp_path, json.dumps({"reply": "# T\n\nBody."}), json.dumps({"reply": "# U\n\nBody."}))
    code, out, err = run("check", "--jsonl", str(rows), "-e", "MARKDOWN level=5")
    assert code == 2 and out == "" and "level" in err
    code, out, err = run("check", "-e", "MARKDOWN level=5", stdin="# Title\n")
    assert code == 2 and out == "" and "level" in err


def _plain_json(text: str):
    def refuse(name):
        raise AssertionError(f"{name} in the output")

    return json.loads(text, parse_constant=refuse)


def test_check_json_writes_a_markdown_value_as_json(run):
    code, out, _ = run("check", "--json", "-e", "MARKDOWN", stdin="# Title\n\nBody text.\n")
    assert code == 0
    value = _plain_json(out)["value"]
    assert isinstance(value, dict), value  # not the repr of a Python object


def test_check_json_and_jsonl_never_write_infinity(run, tmp_path):
    reply = '{"big": 1e400, "small": -1e400, "n": 2}'
    code, out, _ = run("check", "--json", "-e", "JSON", stdin=reply)
    value = _plain_json(out)["value"]
    assert value["n"] == 2 and "Infinity" not in out.replace('"Infinity"', "").replace('"-Infinity"', "")
    code, out, _ = run("check", "--jsonl", str(_rows(tmp_path, json.dumps({"reply": reply}))), "-e", "JSON")
    [record] = [_plain_json(line) for line in out.splitlines()]
    assert record["value"]["n"] == 2


def test_check_none_is_reply_empty_not_a_type_error():
    for expect in ("EXPECT JSON", "EXPECT TEXT", "EXPECT MARKDOWN", None):
        result = check(None, expect)
        assert not result.ok
        assert [v.code for v in result.violations] == ["reply.empty"]
        assert result.reply == ""
    with pytest.raises(TypeError):
        check(42, "EXPECT TEXT")  # still documented: a reply is str, bytes or None


def test_heal_none_is_a_heal_error_naming_reply_empty():
    with pytest.raises(HealError) as exc:
        heal(None, "EXPECT JSON")
    assert [v.code for v in exc.value.violations] == ["reply.empty"]


def test_jsonl_memory_does_not_grow_with_the_input(run, tmp_path):
    # Memory, not time: the input is read a line at a time, so ten times the rows (a
    # 5 MB file) do not raise the peak by anything like the file's size (4.5 MB more,
    # over twice the margin allowed: reading the file whole still fails).
    import tracemalloc  # noqa: PLC0415 - only this test measures memory

    row = json.dumps({"reply": "word " * 200}) + "\n"
    peaks = []
    run("check", "--jsonl", str(_rows(tmp_path, row)), "-e", "TEXT")  # plugins loaded before measuring
    for rows in (500, 5_000):
        path = tmp_path / f"{rows}.jsonl"
        path.write_text(row * rows, encoding="utf-8")
        tracemalloc.start()
        code, _, _ = run("check", "--jsonl", str(path), "-e", "TEXT", "--out", str(tmp_path / "v.jsonl"))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert code == 0
    assert peaks[1] < peaks[0] + 2_000_000, peaks  # the file grew by 4.5 MB
