"""The ``markdown`` format: Flex-MD v3 Markdown output contracts in Python.

A contract (an Output Format Spec) names the sections a reply holds, their kinds
(prose, list, ordered list), optional tables and the empty-section value. This package
reads contracts, writes prompt guidance for levels L0–L3, parses replies with a real
CommonMark parser (markdown-it-py), repairs them with a deterministic nine-step plan and
reports what it could not repair in an Issues Envelope. It registers the format
``markdown`` (alias ``md``, MIME type ``text/markdown``). See README.md beside this file.

    from formatbook_markdown import parse_output_format_spec, enforce_flex_md
    spec = parse_output_format_spec(contract_md)
    result = enforce_flex_md(reply, spec, level=1)
    result.ok; result.extracted.sections_by_name["Short answer"].md; result.output_text

Names are imported on first use, so registering the plugin stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from formatbook_core import hookimpl

_EXPORTS: dict[str, str] = {
    # the contract (spec.py)
    "OutputFormatSpec": "spec",
    "OfsSection": "spec",
    "OfsTable": "spec",
    "SpecError": "spec",
    "normalize_section_name": "spec",
    "parse_output_format_spec": "spec",
    "stringify_output_format_spec": "spec",
    "coerce_spec": "spec",
    # guidance (guidance.py)
    "enrich_instructions": "guidance",
    "build_markdown_guidance": "guidance",
    # frames and detection (layers A and C)
    "parse_flex_md": "frames",
    "stringify_flex_md": "frames",
    "validate_flex_md": "frames",
    "detect_objects": "detect",
    "parse_any": "detect",
    # outline, lists, tables, sections
    "MdNode": "outline",
    "MdOutline": "outline",
    "build_outline": "outline",
    "render_outline": "outline",
    "ListItem": "lists",
    "ParsedList": "lists",
    "parse_list": "lists",
    "ParsedTable": "tables",
    "parse_tables": "tables",
    "SectionResult": "sections",
    # detect → repair → enforce
    "enforce_flex_md": "enforce",
    "EnforceResult": "enforce",
    "Extracted": "enforce",
    "validate_output": "enforce",
    "extract_output": "enforce",
    "ValidationResult": "enforce",
    "Issue": "issues",
    "build_issues_envelope": "envelope",
    "parse_issues_envelope": "envelope",
    "IssuesEnvelope": "envelope",
    "PLAN": "repair",
    # the format
    "MarkdownFormat": "format",
}

__all__ = sorted(_EXPORTS) + ["register_formats"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'formatbook_markdown' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


@hookimpl
def register_formats(register):
    """Register the ``markdown`` format (alias ``md``, MIME type ``text/markdown``)."""
    from .format import MarkdownFormat

    register(MarkdownFormat())
