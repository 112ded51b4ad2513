"""The TOML example plugin (examples/formatbook-toml) installed the way a user installs a
third-party plugin: into a throwaway virtual environment, where `formatbook formats` must
list it exactly like the built-in formats. This test process must never see it."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest

from formatbook_core import get_format
from formatbook_core.registry import UnknownFormatError

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "formatbook-toml"


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _setuptools_usable() -> bool:
    """setuptools able to build a wheel from pyproject metadata is importable here (>= 70.1
    has bdist_wheel built in; older needs `wheel`): build offline, without isolation.
    Otherwise pip fetches setuptools into an isolated build environment."""
    if importlib.util.find_spec("setuptools") is None:
        return False

    try:
        major, minor = (int(p) for p in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    if (major, minor) >= (70, 1):
        return True
    return major >= 61 and importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="module")
def toml_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv that sees this environment's packages (formatbook and its
    dependencies, through a .pth file) plus the TOML plugin, installed into it alone."""
    base = tmp_path_factory.mktemp("third-party")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = _venv_python(venv)
    site_dir = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # addsitedir (not a bare path) so that the .pth files there run too: the editable
    # install of formatbook is itself a .pth file.
    ours = sysconfig.get_paths()["purelib"]
    Path(site_dir, "_formatbook_host.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    # build from a copy, so that setuptools' build/ and *.egg-info stay out of the repo
    source = base / "formatbook-toml"
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    command = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"]
    if _setuptools_usable():
        command.append("--no-build-isolation")
    subprocess.run([*command, str(source)], check=True)
    return venv


def _plugin_copy(venv: Path) -> Path:
    return venv.parent / "formatbook-toml"


def _formatbook(venv: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FORMATBOOK_")}
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [str(_venv_python(venv)), "-m", "formatbook_core.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def test_toml_is_listed_like_the_built_in_formats(toml_venv: Path) -> None:
    done = _formatbook(toml_venv, "formats", "--json")
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert rows["toml"]["plugin"] == "toml"
    assert rows["toml"]["mime_types"] == ["application/toml"]
    assert "tml" in rows["toml"]["aliases"]
    # the built-in ones are still there, each named by its own entry point, like toml
    assert rows["text"]["plugin"] == "text"
    plain = _formatbook(toml_venv, "formats")
    assert plain.returncode == 0
    toml_line = next(line for line in plain.stdout.splitlines() if line.startswith("toml "))
    assert "application/toml" in toml_line and " toml " in toml_line


def test_toml_entry_point_is_in_the_formatbook_group(toml_venv: Path) -> None:
    code = (
        "from importlib import metadata; "
        "print(sorted((e.name, e.value) for e in metadata.entry_points(group='formatbook')))"
    )
    done = subprocess.run([str(_venv_python(toml_venv)), "-c", code], capture_output=True, text=True, check=True)
    assert "('toml', 'formatbook_toml')" in done.stdout
    assert "('text', 'formatbook_text')" in done.stdout


def test_a_toml_reply_is_checked_and_healed_there(toml_venv: Path, tmp_path: Path) -> None:
    # the bundled sample: prose around a ```toml fence and a Python-style `False`
    sample = PLUGIN / "samples" / "config.toml"
    done = _formatbook(toml_venv, "check", str(sample), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "healed"
    assert result["format"] == "toml"
    assert "toml.boolean_case" in [r["kind"] for r in result["repairs"]]
    assert result["value"]["server"]["debug"] is False
    # values, not keys: 0.0.0.0, 8080, false, Ada Lovelace -> 5 words at most 6
    assert result["counts"]["words"] <= 6

    refusal = tmp_path / "refusal.txt"
    refusal.write_text("Sorry, I cannot write TOML today.\n")
    done = _formatbook(toml_venv, "check", str(refusal), "-e", "TOML")
    assert done.returncode == 1
    assert done.stdout.startswith("FAIL")

    bad = _formatbook(toml_venv, "check", str(refusal), "-e", "TOMLL")
    assert bad.returncode == 2
    assert "TOML" in bad.stderr


def test_the_toml_format_does_not_leak_into_this_process(toml_venv: Path) -> None:
    with pytest.raises(UnknownFormatError):
        get_format("toml")
    assert importlib.util.find_spec("formatbook_toml") is None


def test_the_plugin_keeps_the_format_contract_there(toml_venv: Path) -> None:
    # formatbook's reusable contract suite (formatbook_core.testing), run by the plugin's
    # own tests on the installed plugin
    source = _plugin_copy(toml_venv)
    done = subprocess.run(
        [str(_venv_python(toml_venv)), "-m", "pytest", "-q", "-p", "no:cacheprovider", str(source / "tests")],
        capture_output=True,
        text=True,
        cwd=source,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
