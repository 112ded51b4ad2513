"""The repair machinery every format shares (:mod:`formatbook_core.healing`)."""

from __future__ import annotations

import importlib
import importlib.util
import inspect

import pytest

from formatbook_core import list_formats
from formatbook_core.healing import Heal, Step, run_plan


def _heal_packages() -> list[str]:
    """The ``heal/`` package of every registered format's plugin that has one."""
    found = set()
    for entry in list_formats():
        package = type(entry.format).__module__.rpartition(".")[0]
        if package and importlib.util.find_spec(f"{package}.heal") is not None:
            found.add(f"{package}.heal")
    return sorted(found)


def _shape(signature: inspect.Signature) -> list[tuple[str, object, object, str]]:
    return [(p.name, p.kind, p.default, str(p.annotation)) for p in signature.parameters.values()]


def test_formats_have_heal_packages() -> None:
    """The check below is not vacuous: the built-in formats do heal in a package."""
    assert len(_heal_packages()) >= 2


@pytest.mark.parametrize("package", _heal_packages())
def test_every_heal_entry_point_has_the_one_signature(package: str) -> None:
    """Issue 24: one ``heal`` signature for every format's ``heal/`` entry point (there
    were seven), the one :class:`~formatbook_core.healing.Heal` declares."""
    entry = importlib.import_module(package).heal
    expected = inspect.signature(Heal.__call__)
    expected = expected.replace(parameters=list(expected.parameters.values())[1:])  # no self
    assert _shape(inspect.signature(entry)) == _shape(expected)
    assert str(inspect.signature(entry).return_annotation) == "Healed"


def test_run_plan_runs_the_steps_whose_condition_holds_in_order() -> None:
    """Steps run in order; a step whose ``when`` is false is skipped."""
    seen: list[str] = []
    plan = (
        Step("a", lambda h: h.append("a")),
        Step("b", lambda h: h.append("b"), lambda h: False),
        Step("c", lambda h: h.append("c"), lambda h: h == ["a"]),
    )
    run_plan(plan, seen)
    assert seen == ["a", "c"]
