"""The ``llm expect`` plugin, run through llm's own CLI with a scripted model registered
the way a plugin registers one; and found through its entry point in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import llm
import pytest
from click.testing import CliRunner
from llm.plugins import pm

from formatbook_core.integrations import llm_plugin
from formatbook_core.testing.llm_server import ScriptedServer

ROOT = Path(__file__).resolve().parents[2]
RUNAWAY = '{"name": "' + "word " * 400 + '"}'  # 503 chunks of 4 characters
FENCED = 'Sure:\n```json\n{"name": "Ada Lovelace",}\n```'


class Scripted(llm.Model):
    """Streams the scripted replies in turn, four characters a chunk; counts what it produced."""

    model_id = "scripted"
    can_stream = True

    def __init__(self) -> None:
        self.replies: list[str] = []
        self.prompts: list[str] = []
        self.chunks = 0

    def execute(self, prompt: llm.Prompt, stream: bool, response: object, conversation: object) -> Iterator[str]:
        self.prompts.append(prompt.prompt)
        text = self.replies[min(len(self.prompts), len(self.replies)) - 1]
        for start in range(0, len(text), 4):
            self.chunks += 1
            yield text[start : start + 4]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[object, Scripted]]:
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path))
    import llm.cli  # noqa: PLC0415 - once LLM_USER_PATH points at the test folder

    model = Scripted()

    class Models:
        @llm.hookimpl
        def register_models(self, register: object) -> None:
            register(model)  # type: ignore[operator]

    models = Models()
    pm.register(models, name="formatbook-test-models")
    llm_plugin.register_commands(llm.cli.cli)  # what llm does for a plugin found by its entry point
    try:
        yield llm.cli.cli, model
    finally:
        pm.unregister(models)


def _run(cli: object, *args: str) -> object:
    return CliRunner().invoke(cli, ["expect", "-m", "scripted", *args])  # type: ignore[arg-type]


def test_the_answer_on_stdout_the_verdict_on_stderr(cli):
    command, model = cli
    model.replies = [RUNAWAY, FENCED]
    run = _run(command, "-e", "JSON", "-e", "MAX 10 WORDS", "Ada's name")
    assert run.exit_code == 0, run.output
    assert run.stdout == '{"name": "Ada Lovelace"}\n'
    assert run.stderr == "HEALED attempt 2 of 3 (json)\n"
    # the runaway reply was stopped: its generator closed long before its 503 chunks
    assert model.chunks < 150
    assert "Reply with a single JSON value only." in model.prompts[0]
    assert "Your reply was stopped after" in model.prompts[1]


def test_a_reply_that_never_passes_exits_1_with_the_violations(cli):
    command, model = cli
    model.replies = ['{"name": "Ada Lovelace"}']
    run = _run(command, "-e", "JSON", "-e", "MAX 1 WORDS", "--attempts", "2", "Ada")
    assert run.exit_code == 1
    assert run.stdout == ""
    assert run.stderr.splitlines()[0] == "FAIL attempt 2 of 2 (json)"
    assert "count.max" in run.stderr
    assert len(model.prompts) == 2


def test_json_holds_every_attempt(cli):
    command, model = cli
    model.replies = ["not json", '{"a": 1}']
    run = _run(command, "-e", "JSON", "--json", "x")
    assert run.exit_code == 0
    data = json.loads(run.stdout)
    assert data["verdict"] == "pass" and data["value"] == {"a": 1}
    assert [a["result"]["verdict"] for a in data["attempts"]] == ["fail", "pass"]


def test_usage_goes_to_stderr_and_a_failed_run_still_has_its_attempts_in_json(cli):
    command, model = cli
    model.replies = ['{"a": 1}']
    run = _run(command, "-e", "JSON", "-u", "x")
    assert run.exit_code == 0 and run.stdout == '{"a": 1}\n'
    assert run.stderr.splitlines()[-1].startswith("Token usage: ")
    model.replies = ["never JSON"]
    run = _run(command, "-e", "JSON", "--json", "--attempts", "2", "x")
    assert run.exit_code == 1
    data = json.loads(run.stdout)
    assert data["verdict"] == "fail" and len(data["attempts"]) == 2


def test_bad_expectations_are_a_usage_error(cli):
    command, model = cli
    run = _run(command, "-e", "JSONN", "x")
    assert run.exit_code == 2
    assert "did you mean JSON?" in run.output
    assert model.prompts == []


def test_no_guidance_sends_the_prompt_alone(cli):
    command, model = cli
    model.replies = ['{"a": 1}']
    assert _run(command, "-e", "JSON", "--no-guidance", "just this").exit_code == 0
    assert model.prompts == ["just this"]


def test_llms_own_openai_model_is_stopped_and_its_connection_closed(cli, tmp_path: Path):
    # llm's built-in OpenAI plugin, pointed at the scripted server by llm's own configuration file
    command, _ = cli
    with ScriptedServer([RUNAWAY, FENCED]) as server:
        (tmp_path / "extra-openai-models.yaml").write_text(
            f"- model_id: scripted-openai\n  model_name: scripted\n  api_base: {server.url}\n"
        )
        run = CliRunner().invoke(
            command, ["expect", "-m", "scripted-openai", "--key", "none", "-e", "JSON", "-e", "MAX 10 WORDS", "Ada"]
        )
        server.wait()
    assert run.exit_code == 0, run.output
    assert run.stdout == '{"name": "Ada Lovelace"}\n'
    first = server.requests[0]
    assert first.closed_early and first.events_sent < first.events_total // 4


def test_pyproject_declares_the_entry_point():
    tomllib = pytest.importorskip("tomllib")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["entry-points"]["llm"] == {"formatbook": "formatbook_core.integrations.llm_plugin"}
    extras = data["project"]["optional-dependencies"]
    assert any(d.startswith("llm") for d in extras["llm"]) and any(d.startswith("llm>") for d in extras["test"])


def test_llm_finds_the_plugin_by_its_entry_point(tmp_path: Path):
    # an installed distribution as llm sees one: a .dist-info with the entry points, on the path
    dist = tmp_path / "formatbook_entry_test-0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: formatbook-entry-test\nVersion: 0\n")
    (dist / "entry_points.txt").write_text(
        "[llm]\nformatbook = formatbook_core.integrations.llm_plugin\nscripted = scripted_models\n"
    )
    (tmp_path / "scripted_models.py").write_text(
        textwrap.dedent(
            """
            import llm

            class Echo(llm.Model):
                model_id = "echo-json"
                def execute(self, prompt, stream, response, conversation):
                    yield '```json\\n{"echo": "ok",}\\n```'

            @llm.hookimpl
            def register_models(register):
                register(Echo())
            """
        )
    )
    env = dict(os.environ, LLM_USER_PATH=str(tmp_path / "user"))
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT), str(ROOT / "plugins"), env.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-m", "llm", "expect", "-m", "echo-json", "-e", "JSON", "hi"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == '{"echo": "ok"}\n'
    assert run.stderr.strip().endswith("HEALED attempt 1 of 3 (json)")
