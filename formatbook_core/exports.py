"""Expectations exported to the engines that constrain decoding: OpenAI's
``response_format`` and grammars in GBNF (llama.cpp) and Lark (Outlines, vLLM,
llguidance).

Each format says what it can export (``FormatDefinition.grammar``,
``FormatDefinition.response_format``; JSON, CSV and Markdown have grammars, JSON a
``response_format``); a format without one raises :class:`~formatbook_core.ExportError`.
An export constrains the reply's shape only: counts, instructions and what the export
lists in :func:`left_to_check` are judged by ``check()``, which a caller runs on the reply
as always (``ask`` does).

    from formatbook_core.exports import export
    export("EXPECT JSON contact.json", "gbnf")          # the GBNF text
    export("EXPECT CSV columns.json", "lark")           # the Lark text
    export("EXPECT JSON contact.json", "response_format")  # a dict for the request
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .expectations import Expectations, as_expectations
from .results import ExportError

if TYPE_CHECKING:
    from .grammars import Grammar

__all__ = ["TARGETS", "ResponseFormat", "export", "grammar", "left_to_check", "response_format"]

#: What :func:`export` writes.
TARGETS = ("response_format", "gbnf", "lark")


@dataclass(frozen=True)
class ResponseFormat:
    """An OpenAI ``response_format`` (``body``, sent as it is) and what the conversion to
    strict mode ``lost`` (one line each, with its JSON pointer)."""

    body: dict[str, Any]
    lost: tuple[str, ...] = field(default=())


def _format(exp: Expectations, what: str) -> Any:
    fmt = exp.fmt
    if fmt is None:
        raise ExportError(f"the expectations name no format: there is no {what} to export")
    return fmt


def grammar(expectations: Expectations | str) -> Grammar:
    """The grammar of replies the expectations' format and schema accept (``ExportError``
    when the format has none)."""
    exp = as_expectations(expectations)
    return _format(exp, "grammar").grammar(exp.loaded_schema, **exp.options)


def response_format(expectations: Expectations | str) -> ResponseFormat:
    """The ``response_format`` for an OpenAI-compatible request (``ExportError`` when the
    format has none: only JSON replies do)."""
    exp = as_expectations(expectations)
    found = _format(exp, "response_format").response_format(exp.loaded_schema, **exp.options)
    return found if isinstance(found, ResponseFormat) else ResponseFormat(found)


def export(expectations: Expectations | str, to: str) -> str | dict[str, Any]:
    """The expectations exported ``to`` one of :data:`TARGETS`: grammar text for ``gbnf``
    and ``lark``, the request's dict for ``response_format``."""
    if to not in TARGETS:
        raise ExportError(f"unknown export target {to!r}: one of {', '.join(TARGETS)}")
    if to == "response_format":
        return response_format(expectations).body
    found = grammar(expectations)
    return found.to_gbnf() if to == "gbnf" else found.to_lark()


def left_to_check(expectations: Expectations | str, to: str) -> list[str]:
    """What an export to ``to`` does not enforce, one line each: the keywords the grammar
    or strict mode leave to the checker, the counts and the instructions."""
    exp = as_expectations(expectations)
    if to == "response_format":
        lines = list(response_format(exp).lost)
    elif to in TARGETS:
        lines = list(grammar(exp).left)
    else:
        raise ExportError(f"unknown export target {to!r}: one of {', '.join(TARGETS)}")
    lines += [count.describe() for count in exp.counts]
    lines += [instruction.describe() for instruction in exp.instructions]
    return lines


def dumps(value: str | dict[str, Any]) -> str:
    """An export as text: grammar text as it is, a ``response_format`` as indented JSON."""
    return value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False) + "\n"
