"""Grammars for constrained decoding: a small IR (:mod:`.ir`) that each format builds from
its expectations (``FormatDefinition.grammar``), written as GBNF or Lark (:mod:`.render`).

The core knows no format by name: JSON, CSV and Markdown build their grammars in their
plugins, from these pieces. Nothing here needs a dependency.
"""

from __future__ import annotations

from .ir import EMPTY, Alt, Builder, Chars, Expr, Grammar, Lit, Ref, Rep, Seq, alt, chars, lit, opt, plus, seq, star
from .render import to_gbnf, to_lark

__all__ = [
    "EMPTY",
    "Alt",
    "Builder",
    "Chars",
    "Expr",
    "Grammar",
    "Lit",
    "Ref",
    "Rep",
    "Seq",
    "alt",
    "chars",
    "lit",
    "opt",
    "plus",
    "seq",
    "star",
    "to_gbnf",
    "to_lark",
]
