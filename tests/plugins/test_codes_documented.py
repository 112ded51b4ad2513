"""Every violation code and repair kind a built-in plugin emits is listed in its README's
tables ("## Violation codes", "## Repair kinds"), and every row there is still emitted.

Codes are found in the plugin's source: violation codes are the dotted string literals
under the plugin's own prefix (``json.syntax``) or ``schema.``; repair kinds are the string
literals passed first to ``Repair``/``make_repair`` (or a plugin's repair helper) and the
keys of its ``*MESSAGES`` tables; a plugin that uses the shared schema layer
(``formatbook_core.data_schema``) emits that layer's codes and kinds too. Codes are written
as literals so that this can see them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "plugins"
_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|", re.MULTILINE)
_REPAIR_CALLS = {"Repair", "make_repair", "repair", "add_repair", "_repair"}


def _table(readme: str, heading: str) -> set[str]:
    match = re.search(rf"^## {heading}\s*$(.*?)(?=^## |\Z)", readme, re.MULTILINE | re.DOTALL)
    assert match, f"no '## {heading}' section"
    return set(_ROW.findall(match.group(1)))


def _emitted(package: Path, prefix: str) -> tuple[set[str], set[str], set[str]]:
    """(violation codes, repair kinds, every string literal) found in the package."""
    dotted = re.compile(rf"^(?:{re.escape(prefix)}|schema)\.[a-z0-9_]+$")
    codes: set[str] = set()
    kinds: set[str] = set()
    literals: set[str] = set()
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
                if dotted.match(node.value):
                    codes.add(node.value)
            elif isinstance(node, ast.Call) and node.args:
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                first = node.args[0]
                if name in _REPAIR_CALLS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                    kinds.add(first.value)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if any(t.endswith("MESSAGES") for t in targets):
                    kinds.update(k.value for k in node.value.keys if isinstance(k, ast.Constant))
    return codes, kinds, literals


DATA_SCHEMA = ROOT / "formatbook_core" / "data_schema"


def _uses_data_schema(package: Path) -> bool:
    return any("formatbook_core.data_schema" in p.read_text(encoding="utf-8") for p in package.rglob("*.py"))


BUILTIN = sorted(p.name.removeprefix("formatbook_") for p in PLUGINS.glob("formatbook_*") if (p / "README.md").exists())


def test_the_plugins_with_readmes_include_json_and_markdown():
    assert {"json", "markdown"} <= set(BUILTIN)


@pytest.mark.parametrize("name", BUILTIN)
def test_every_emitted_code_is_in_the_readme_and_every_row_is_emitted(name):
    package = PLUGINS / f"formatbook_{name}"
    readme = (package / "README.md").read_text(encoding="utf-8")
    documented_codes = _table(readme, "Violation codes")
    documented_kinds = _table(readme, "Repair kinds")
    codes, kinds, literals = _emitted(package, name)
    if _uses_data_schema(package):  # the shared schema layer's codes are the plugin's too
        shared = _emitted(DATA_SCHEMA, name)
        codes, kinds, literals = codes | shared[0], kinds | shared[1], literals | shared[2]
    assert codes - documented_codes == set(), "violation codes missing from the README table"
    assert kinds - documented_kinds == set(), "repair kinds missing from the README table"
    # a plugin's README may also name a core code it leads to (the core emits those)
    architecture = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    core = set(_ROW.findall(architecture))
    # and a code the core builds from the format's name (`<format>.think_inside`)
    core |= {f"{name}.{suffix}" for suffix in re.findall(r"`<(?:format|name)>\.([a-z_]+)`", architecture)}
    stale = {c for c in documented_codes | documented_kinds if c not in literals | core and "<" not in c}
    assert stale == set(), "README rows for codes the source no longer has"


def test_the_collector_finds_codes_and_kinds(tmp_path):
    # the check itself can fail: a tiny fake plugin's codes are found
    (tmp_path / "m.py").write_text(
        'MESSAGES = {"quote_style": "x"}\n'
        'def f():\n    Violation("fake.bad", "m")\n    make_repair("wrapped", "m", 0, 1)\n    x = "fake.other"\n'
    )
    codes, kinds, _ = _emitted(tmp_path, "fake")
    assert codes == {"fake.bad", "fake.other"}
    assert kinds == {"quote_style", "wrapped"}
