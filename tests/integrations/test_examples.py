"""Every script in examples/integrations/ runs offline, exits 0 and prints what it promises."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "examples" / "integrations"
#: each script, and lines its output must hold (checked by hand against the scripts' replies)
EXPECTED = {
    "instructor_hooks.py": [
        "instructor alone: ada@example.org, 2 request(s)",
        "with formatbook: ada@example.org, 1 request(s)",
        "re-ask carries formatbook's correction: True",
        "correction: - 'email' is a required property. Add it.",
    ],
    "langchain_parser.py": [
        "violations: reply.stopped, count.max",
        "parsed: {'city': 'Lisbon', 'sights': ['Belém Tower', 'Alfama']}",
    ],
    "litellm_ask.py": [
        "verdict: healed after 2 attempt(s): {'city': 'Lisbon', 'sights': ['Belém Tower', 'Alfama']}",
        "usage of attempt 2: {'prompt_tokens': 11, 'completion_tokens': 7, 'total_tokens': 18}",
        "async verdict: healed: {'city': 'Lisbon', 'sights': ['Belém Tower', 'Alfama']}",
    ],
    "llm_expect.py": [
        "exit status: 0",
        'stdout: {"city": "Lisbon", "sights": ["Belém Tower", "Alfama"]}',
        "stderr: HEALED attempt 2 of 3 (json)",
    ],
    "pydantic_ai_output.py": [
        "output: Contact(name='Ada Lovelace', email='ada@example.org')",
        "requests: 2",
        "correction sent: - 'email' is a required property. Add it.",
    ],
}


#: Loaded first by the scripts' interpreter: any name lookup or connection beyond this
#: machine is refused and reported (LiteLLM, for one, fetches its cost map on import).
NO_NETWORK = """
import socket, sys
LOCAL = ("127.0.0.1", "localhost", "::1", None)
_lookup, _connect = socket.getaddrinfo, socket.socket.connect
def getaddrinfo(host, *args, **kwargs):
    if host not in LOCAL:
        sys.stderr.write(f"NETWORK: lookup {host}\\n")
        raise OSError("no network in the examples")
    return _lookup(host, *args, **kwargs)
def connect(self, address):
    if isinstance(address, tuple) and address[0] not in LOCAL:
        sys.stderr.write(f"NETWORK: connect {address}\\n")
        raise OSError("no network in the examples")
    return _connect(self, address)
socket.getaddrinfo, socket.socket.connect = getaddrinfo, connect
"""


#: Run before litellm_ask.py, in its interpreter (LiteLLM's import costs about 4.5 s of CPU,
#: paid once for both): LiteLLM imported through formatbook's adapter, without
#: LITELLM_LOCAL_MODEL_COST_MAP in the environment, looks up no name at all (its cost map
#: is not fetched) and leaves the variable set; the finding is written beside this file.
LITELLM_IMPORT_PROBE = """
import os, socket
looked_up = []
guarded = socket.getaddrinfo
def record(host, *args, **kwargs):
    looked_up.append(host)
    raise OSError("no network in this test")
socket.getaddrinfo = record
from formatbook_core.integrations.litellm import import_litellm
import_litellm()
socket.getaddrinfo = guarded
with open(os.path.join(os.path.dirname(__file__), "litellm_import.txt"), "w") as out:
    out.write(f"{os.environ.get('LITELLM_LOCAL_MODEL_COST_MAP')} {looked_up}")
"""


def _run(name: str, tmp_path: Path) -> str:
    probe = LITELLM_IMPORT_PROBE if name == "litellm_ask.py" else ""
    (tmp_path / "sitecustomize.py").write_text(NO_NETWORK + probe)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FORMATBOOK_", "LITELLM_", "LLM_"))}
    paths = [str(tmp_path), str(ROOT), str(ROOT / "plugins"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / name)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "NETWORK:" not in done.stderr, done.stderr
    return done.stdout


def test_the_network_guard_refuses_a_lookup(tmp_path: Path):
    (tmp_path / "sitecustomize.py").write_text(NO_NETWORK)
    code = "import socket\ntry:\n    socket.getaddrinfo('example.com', 443)\nexcept OSError as e:\n    print(e)"
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout.strip() == "no network in the examples"
    assert "NETWORK: lookup example.com" in done.stderr


def test_every_script_is_tested():
    assert sorted(p.name for p in SCRIPTS.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_script_runs_and_prints_what_it_promises(name: str, tmp_path: Path):
    out = _run(name, tmp_path)
    lines = out.splitlines()
    for expected in EXPECTED[name]:
        assert expected in lines, out
    if name == "langchain_parser.py":
        stopped = re.search(r"^stream stopped: (\d+) of (\d+) tokens generated$", out, re.M)
        assert stopped is not None and int(stopped.group(1)) < int(stopped.group(2)) // 4, out
    if name == "litellm_ask.py":
        # the adapter's import, before the script ran (LITELLM_IMPORT_PROBE)
        assert (tmp_path / "litellm_import.txt").read_text() == "True []"
        sent = re.search(r"^attempt 1 stopped: True, server sent (\d+) of (\d+) events$", out, re.M)
        assert sent is not None and int(sent.group(1)) < int(sent.group(2)) // 4, out
    if name == "llm_expect.py":
        chunks = re.search(r"^chunks the model produced: (\d+) \(the runaway reply alone is (\d+)\)$", out, re.M)
        assert chunks is not None and int(chunks.group(1)) < int(chunks.group(2)) // 4, out


def test_the_readme_lists_every_script():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in EXPECTED:
        assert f"examples/integrations/{name}" in readme
