#!/usr/bin/env python3
"""Set up a virtual environment in .venv (once, and again when pyproject.toml changes) and
run one of formatbook's two everyday jobs in it.

    python3 scripts/dev.py examples      # formatbook check examples/replies/
    python3 scripts/dev.py test [--slow|--all] [ARGS]
                                         # the fast tier of the tests (--slow: the slow
                                         # tier; --all: both), on every core; ARGS to pytest
    python3 scripts/dev.py lint          # ruff (lint, complexity, format check) and mypy
    python3 scripts/dev.py setup         # only create .venv and install what test and lint need
    python3 scripts/dev.py bench [--quick] [--only NAMES]
                                         # every benchmark in benchmarks/ against its peer
                                         # library, one table of ratios and goals
    python3 scripts/dev.py fuzz [--minutes N] [--format NAME] [--seed S] [--jobs J]
                                         # property fuzzing of every format; failures saved
                                         # as repros in tests/fuzz/repros/ (tests/fuzz/README.md)

Needs nothing but Python ≥ 3.10 with venv and pip, and access to PyPI.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tokenize
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".formatbook-installed"
#: test dependencies installed without their own dependencies (see ensure_environment)
TEST_NO_DEPS = ("xgrammar>=0.1.20", "apache-tvm-ffi>=0.1.11")


def ensure_environment(extras: tuple[str, ...] = ("test", "lint")) -> None:
    """Create .venv and install formatbook (editable, with ``extras``) when needed: the
    examples need the base install, pydantic and lingua; the tests and the lint gate the rest.
    The stamp records what was installed for which pyproject.toml."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    installed: set[str] = set()
    if PYTHON.exists() and STAMP.exists():
        digest, _, names = STAMP.read_text().partition(" ")
        if digest == wanted:
            installed = set(names.split(",")) - {""}
    if set(extras) <= installed:
        return
    if not PYTHON.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print(f"installing formatbook[{','.join(extras)}] ...", file=sys.stderr)
    # --no-compile: pip would compile every module of torch, ray and the rest (about 100 s of
    # CPU on a fresh machine); Python compiles, and caches, only what a run imports
    pip = [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile"]
    everything = sorted(installed | set(extras))
    target = f"{ROOT}[{','.join(everything)}]"
    install = _uv_installer(pip, everything)
    if install is None or subprocess.run([*install, "-e", target]).returncode != 0:
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        subprocess.run([*pip, "-e", target], check=True)
        install = pip
    if "test" in everything:
        # xgrammar judges the GBNF exports in the tests; its declared dependencies add triton
        # (about 1 GB of GPU kernels it imports only when asked to), so it comes without them:
        # what its grammar compiler needs (torch, transformers, pydantic, numpy) is in `test`
        subprocess.run([*install, "--no-deps", *TEST_NO_DEPS], check=True)
    STAMP.write_text(f"{wanted} {','.join(everything)}")


def _uv_installer(pip: list[str], extras: list[str]) -> list[str] | None:
    """uv's pip interface in .venv, the pinned torch installed first by pip; None where uv
    cannot be had (pip then installs everything, as it always could, and does so too where
    uv fails).

    uv resolves and installs the test and lint extras in about 12 s from a cold cache, where
    pip took 55 s on a fresh machine. torch alone goes through pip: pip's
    configuration may name a local CPU wheel of the pinned release, which uv does not read,
    and PyPI's build of the same release brings gigabytes of CUDA libraries. With torch
    installed, uv keeps it: the pin is satisfied."""
    try:
        import tomllib  # noqa: PLC0415 - Python 3.11+; on 3.10 pip does the install
    except ImportError:
        return None
    if subprocess.run([*pip, "uv"]).returncode != 0:
        return None
    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    torch = sorted({r for extra in extras for r in optional.get(extra, []) if re.match(r"torch\s*==", r)})
    if torch:
        subprocess.run([*pip, *torch], check=True)
    return [str(BIN / "uv"), "pip", "install", "--quiet", "--python", str(PYTHON)]


def lint() -> int:
    """The gate CI runs: ruff's rules and formatting on the whole tree, mypy on the core
    and the plugins.

    Complexity (mccabe, C901) is one of ruff's rules, so it is enforced: a function above
    the limit is split, or carries ``# noqa: C901 - <why it is long on purpose>``. That
    allow-list is printed, and a line on it without a reason fails the gate.
    """
    steps = [
        ("ruff check", [str(BIN / "ruff"), "check", "."]),
        ("ruff format --check", [str(BIN / "ruff"), "format", "--check", "."]),
        ("mypy formatbook_core plugins", [str(BIN / "mypy")]),
    ]
    failed = []
    for name, command in steps:
        print(f"--- {name}", file=sys.stderr, flush=True)
        if subprocess.run(command, cwd=ROOT).returncode != 0:
            failed.append(name)
    print("--- complexity allow-list (# noqa: C901)", file=sys.stderr, flush=True)
    if not complexity_allow_list():
        failed.append("complexity allow-list")
    if failed:
        print(f"lint failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print("lint passed", file=sys.stderr)
    return 0


def complexity_allow_list() -> bool:
    """Print every function ruff's C901 lets through by a ``noqa`` comment, with its
    reason; False when one gives none."""
    ok = True
    noqa = re.compile(r"#\s*noqa:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)(.*)")
    for path in sorted(ROOT.glob("**/*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0].startswith("."):
            continue  # .venv and other tool directories
        try:
            with tokenize.open(path) as source:
                comments = [t for t in tokenize.generate_tokens(source.readline) if t.type == tokenize.COMMENT]
        except (SyntaxError, tokenize.TokenError, UnicodeDecodeError):
            continue  # not Python that ruff reads either
        for comment in comments:
            found = noqa.match(comment.string)
            if found is None or "C901" not in found.group(1).replace(" ", "").split(","):
                continue
            reason = found.group(2).strip().removeprefix("-").strip()
            print(f"{relative}:{comment.start[0]}: {reason or 'NO REASON GIVEN'}", file=sys.stderr)
            ok = ok and bool(reason)
    return ok


def fuzz(args: list[str]) -> int:
    """The fuzzer over every registered format, with the project's extra targets and seeds;
    new failures are saved as repros for tests/fuzz/test_replay.py."""
    command = [
        str(PYTHON),
        "-m",
        "formatbook_core.fuzzing",
        "--root",
        str(ROOT),
        "--targets",
        str(ROOT / "tests" / "fuzz" / "targets.txt"),
        "--seeds",
        str(ROOT / "examples" / "replies"),
        "--repros",
        str(ROOT / "tests" / "fuzz" / "repros"),
        *args,
    ]
    return subprocess.run(command, cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("examples", "test", "lint", "fuzz", "bench", "setup"):
        print(__doc__, file=sys.stderr)
        return 2
    job, rest = argv[0], argv[1:]
    # the examples need pydantic (their schemas) and lingua (their EXPECT LANGUAGE replies);
    # the benchmarks their peers (fast-json-repair, ruamel's C loader...: the bench extra)
    if job == "examples":
        ensure_environment(("pydantic", "language"))
    else:
        ensure_environment(("test", "lint", "bench") if job == "bench" else ("test", "lint"))
    if job == "setup":
        return 0
    if job == "lint":
        return lint()
    if job == "fuzz":
        return fuzz(rest)
    if job == "bench":
        return subprocess.run([str(PYTHON), str(ROOT / "benchmarks" / "all.py"), *rest], cwd=ROOT).returncode
    if job == "examples":
        command = [str(BIN / "formatbook"), "check", str(ROOT / "examples" / "replies"), *rest]
    else:
        return test(rest)
    return subprocess.run(command, cwd=ROOT, env=_with_bytecode()).returncode


def _with_bytecode() -> dict[str, str]:
    """The environment, with Python allowed to write bytecode caches.

    An editable install is not compiled, so with ``PYTHONDONTWRITEBYTECODE`` set (some
    machines and CI images set it) every process recompiles formatbook_core and the plugins
    it imports: about 0.3 s of CPU a process, and the tests start hundreds of them (the CLI,
    the examples, the batch workers, the pathological and growth subprocesses)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def test(args: list[str]) -> int:
    """The fast tier (every test not marked ``slow``), with ``--slow`` the slow tier alone,
    with ``--all`` both, on every core (pytest-xdist), hypothesis derandomised unless
    ``HYPOTHESIS_PROFILE`` says otherwise (random search for new failures is ``fuzz``'s job)."""
    tier = [] if "--all" in args else ["-m", "slow"] if "--slow" in args else ["-m", "not slow"]
    args = [a for a in args if a not in ("--all", "--slow")]
    workers = [] if any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in args) else ["-n", "auto"]
    if not any(a.startswith("--dist") for a in args):
        # the groups of tests/conftest.py (a format's pathological cases, which share one
        # subprocess) each run on one worker, the other tests one by one. The fast tier has
        # no group: worksteal gives each worker half the tests at once and lets an idle one
        # take the tail of the other's queue, so no worker waits on a batch handed out last
        workers.append("--dist=loadgroup" if tier != ["-m", "not slow"] else "--dist=worksteal")
    env = {**_with_bytecode(), "HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "ci")}
    # compiled once, here, rather than by each worker and subprocess in turn
    subprocess.run([str(PYTHON), "-m", "compileall", "-q", "-j", "0", "formatbook_core", "plugins"], cwd=ROOT, env=env)
    command = [str(PYTHON), "-m", "pytest", *workers, *tier, *args]
    return subprocess.run(command, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
