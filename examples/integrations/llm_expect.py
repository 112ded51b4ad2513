"""simonw's llm with formatbook's plugin: `llm expect` asks a model, checks the reply with
formatbook, re-asks with what was wrong, prints the answer on stdout and the verdict on stderr.

Run: python examples/integrations/llm_expect.py      (needs: pip install 'formatbook[llm]')

Installed, the plugin is found through its entry point and the command is simply
    llm expect -e JSON -e "MAX 12 WORDS" "Lisbon's sights" -m gpt-4o-mini
Offline, this script registers a scripted model and the plugin by hand and runs the command
with click's test runner (llm's own logs and keys go to a temporary folder).
"""

import os
import tempfile

os.environ["LLM_USER_PATH"] = tempfile.mkdtemp(prefix="formatbook-llm-")

import llm  # noqa: E402
import llm.cli  # noqa: E402
from click.testing import CliRunner  # noqa: E402
from llm.plugins import pm  # noqa: E402

from formatbook_core.integrations import llm_plugin  # noqa: E402

RUNAWAY = '{"city": "Lisbon", "sights": ["' + "Belém Tower, " * 200 + '"]}'
FENCED = 'Here you go:\n```json\n{"city": "Lisbon", "sights": ["Belém Tower", "Alfama"],}\n```'


class Scripted(llm.Model):
    """A model that streams the scripted replies four characters at a time."""

    model_id = "scripted"
    can_stream = True
    calls = 0
    chunks = 0

    def execute(self, prompt, stream, response, conversation):  # type: ignore[no-untyped-def]
        text = (RUNAWAY, FENCED)[min(Scripted.calls, 1)]
        Scripted.calls += 1
        for start in range(0, len(text), 4):
            Scripted.chunks += 1
            yield text[start : start + 4]


class ScriptedPlugin:
    @llm.hookimpl
    def register_models(self, register):  # type: ignore[no-untyped-def]
        register(Scripted())


pm.register(ScriptedPlugin(), name="scripted-model")
if not pm.is_registered(llm_plugin):  # installed, the entry point has registered it already
    pm.register(llm_plugin, name="formatbook")
    llm_plugin.register_commands(llm.cli.cli)

run = CliRunner().invoke(llm.cli.cli, ["expect", "-m", "scripted", "-e", "JSON", "-e", "MAX 12 WORDS", "Lisbon"])
print("exit status:", run.exit_code)
print("stdout:", run.stdout.strip())
print("stderr:", run.stderr.strip())
print(f"chunks the model produced: {Scripted.chunks} (the runaway reply alone is {len(RUNAWAY) // 4 + 1})")
