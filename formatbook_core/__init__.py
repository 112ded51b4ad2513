"""formatbook: check what an LLM wrote against what the caller expected.

The core knows no format by name: formats come from plugins (entry point group
``formatbook``). ARCHITECTURE.md describes the contracts and the layers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .definition import AnalyzingFormat, BaseFormat, Checker, FormatDefinition
from .expectations import Count, Expectations, parse_expectations
from .hookspecs import hookimpl, hookspec
from .limits import MAX_DEPTH, MAX_SIZE, Limits, limits_from
from .options import COMMON_OPTIONS, Option
from .pipeline import check, heal
from .prompting import guidance
from .registry import ConflictError, UnknownFormatError, get_format, list_formats
from .reply import Reply, ThinkTags
from .results import (
    Analysis,
    Attempt,
    CheckResult,
    ExpectationError,
    ExportError,
    FormatbookError,
    Healed,
    HealError,
    Located,
    Repair,
    ScopeNotFound,
    SetAside,
    Span,
    StreamStatus,
    Violation,
)
from .streaming import StreamGuard

__all__ = [
    "COMMON_OPTIONS",
    "Limits",
    "MAX_DEPTH",
    "MAX_SIZE",
    "Option",
    "limits_from",
    "Analysis",
    "Attempt",
    "AnalyzingFormat",
    "BaseFormat",
    "CheckResult",
    "Checker",
    "ConflictError",
    "Count",
    "ExpectationError",
    "Expectations",
    "ExportError",
    "FormatDefinition",
    "FormatbookError",
    "Healed",
    "HealError",
    "Located",
    "Repair",
    "Reply",
    "ScopeNotFound",
    "SetAside",
    "Span",
    "StreamGuard",
    "StreamStatus",
    "ThinkTags",
    "TransportError",
    "UnknownFormatError",
    "Violation",
    "AskError",
    "ChatModel",
    "ask",
    "ask_async",
    "check",
    "get_format",
    "guidance",
    "heal",
    "hookimpl",
    "hookspec",
    "list_formats",
    "parse_expectations",
]

if TYPE_CHECKING:
    from .llm import AskError, ChatModel, TransportError, ask, ask_async

#: The ask loop's names, imported on first use: a check never pays for the model clients.
_LAZY = {"AskError", "ChatModel", "TransportError", "ask", "ask_async"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        from . import llm  # noqa: PLC0415 - the ask loop, imported when a caller asks for it

        return getattr(llm, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
