"""formatbook: check what an LLM wrote against what the caller expected.

The core knows no format by name: formats come from plugins (entry point group
``formatbook``). See DESIGN.md for the contracts.
"""

from __future__ import annotations

from .definition import BaseFormat, Checker, FormatDefinition
from .hookspecs import hookimpl, hookspec
from .registry import ConflictError, UnknownFormatError, get_format, list_formats
from .results import (
    Analysis,
    Attempt,
    CheckResult,
    ExpectationError,
    FormatbookError,
    Healed,
    HealError,
    Repair,
    ScopeNotFound,
    SetAside,
    Span,
    StreamStatus,
    Violation,
)

__all__ = [
    "Analysis", "Attempt", "BaseFormat", "CheckResult", "Checker", "ConflictError", "Count",
    "ExpectationError", "Expectations", "FormatDefinition", "FormatbookError", "Healed",
    "HealError", "Repair", "ScopeNotFound", "SetAside", "Span", "StreamGuard", "StreamStatus",
    "UnknownFormatError", "Violation", "AskError", "ask", "ask_async", "check", "get_format",
    "guidance", "heal", "hookimpl", "hookspec", "list_formats", "parse_expectations",
]

_LAZY = {
    "Count": "expectations", "Expectations": "expectations", "parse_expectations": "expectations",
    "check": "check", "heal": "check", "guidance": "check",
    "StreamGuard": "streaming",
    "ask": "llm", "ask_async": "llm", "AskError": "llm",
}


def __getattr__(name: str):
    # The pipeline modules are imported on first use, so that `import formatbook_core`
    # and `formatbook --help` stay fast.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'formatbook_core' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
