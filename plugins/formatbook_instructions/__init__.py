"""Verifiable instructions as EXPECT lines: the units (quoted literals, BULLETS,
HIGHLIGHTS, PLACEHOLDERS, CAPITAL WORDS, PARAGRAPHS/RESPONSES SEPARATED BY, SECTIONS
MARKED) through ``register_units`` and the kinds that are not counts (CONTAINS, NOT
CONTAINS, STARTS WITH, ENDS WITH, CASE, ONE OF, TITLE, POSTSCRIPT, QUOTED, PARAGRAPH n
STARTS WITH) through ``register_expectation_kinds`` — registered exactly as a third-party
plugin registers its own. Definitions: README.md.
"""

from __future__ import annotations

from typing import Any

from formatbook_core import hookimpl

from .instructions import (
    Case,
    Contains,
    EndsWith,
    NotContains,
    OneOf,
    ParagraphStartsWith,
    Postscript,
    Quoted,
    StartsWith,
    Title,
    kinds,
)
from .literal import DEFINITIONS, Literal
from .units import (
    Bullets,
    CapitalWords,
    Highlights,
    LiteralUnit,
    Placeholders,
    SectionsMarked,
    SeparatedParts,
    units,
)

__all__ = [
    "Bullets",
    "Case",
    "CapitalWords",
    "Contains",
    "DEFINITIONS",
    "EndsWith",
    "Highlights",
    "InstructionsPlugin",
    "Literal",
    "LiteralUnit",
    "NotContains",
    "OneOf",
    "ParagraphStartsWith",
    "Placeholders",
    "Postscript",
    "Quoted",
    "SectionsMarked",
    "SeparatedParts",
    "StartsWith",
    "Title",
    "ifeval_registry",
    "kinds",
    "units",
]


@hookimpl
def register_units(register):
    """The instruction units, formatbook's definitions."""
    for unit in units():
        register(unit)


@hookimpl
def register_expectation_kinds(register):
    """The instruction kinds, formatbook's definitions."""
    for kind in kinds():
        register(kind)


class InstructionsPlugin:
    """The same units and kinds in one definition (``"ifeval"``: IFEval's reference
    checker's rules), as a plugin object for a registry of its own."""

    def __init__(self, definition: str = "formatbook"):
        self.definition = definition

    @hookimpl
    def register_units(self, register):
        for unit in units(self.definition):
            register(unit)

    @hookimpl
    def register_expectation_kinds(self, register):
        for kind in kinds(self.definition):
            register(kind)


def ifeval_registry(**kwargs: Any) -> Any:
    """A registry with every format plugin as usual but this plugin's units and kinds
    following IFEval's definitions (``parse_expectations(text, registry=...)``,
    ``Expectations(..., registry=...)``). ``kwargs`` go to ``Registry``."""
    from formatbook_core.registry import Registry  # noqa: PLC0415

    blocked = [*kwargs.pop("blocked", ()), "instructions"]
    registry = Registry(blocked=blocked, **kwargs)
    registry.load()
    registry.register_plugin(InstructionsPlugin("ifeval"), "instructions-ifeval")
    return registry
