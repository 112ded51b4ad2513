"""The contract test-suite (formatbook_core.testing) over every registered format.

A built-in plugin (a package under ``plugins/``) has its own contract class in
``tests/plugins/<name>/test_contract.py``, contributing its own attack and damaged inputs.
Any other registered format (a third-party plugin installed beside formatbook) gets a
generic ``Test<Name>Contract`` class built here at collection time, so it is covered as soon
as its entry point registers it.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from formatbook_core import list_formats
from formatbook_core.testing import FormatContract, make_contract

_ROOT = Path(__file__).resolve().parents[2]
_ENTRIES = list_formats()


def _is_builtin(entry) -> bool:
    module = sys.modules.get(type(entry.format).__module__)
    path = Path(getattr(module, "__file__", "") or "/").resolve()
    return (_ROOT / "plugins") in path.parents


for _entry in _ENTRIES:
    if not _is_builtin(_entry):
        _cls = make_contract(_entry.format)
        globals()[_cls.__name__] = _cls


def test_every_builtin_format_has_its_own_contract_class():
    builtins = [e for e in _ENTRIES if _is_builtin(e)]
    assert {e.format.name for e in builtins} >= {"text", "json", "markdown"}
    for entry in builtins:
        module = importlib.import_module(f"tests.plugins.{entry.format.name}.test_contract")
        classes = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, FormatContract)]
        assert any(type(c.format) is type(entry.format) for c in classes), entry.format.name
        assert any(c.attack_inputs for c in classes), f"{entry.format.name} contributes no attack inputs"


def test_every_registered_format_has_a_non_empty_sample():
    # The contract's sample checks are only as good as the samples: each format needs at
    # least one that carries something.
    for entry in _ENTRIES:
        assert any(s.strip() for s in entry.format.samples), f"format {entry.format.name!r} has no non-empty sample"
