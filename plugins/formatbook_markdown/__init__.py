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

The public names are imported on first use (the format itself imports its machinery on
first use too), so registering the plugin stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from formatbook_core import hookimpl

from .format import MarkdownFormat

_EXPORTS: dict[str, str] = {
    # the contract
    "OutputFormatSpec": "contract.model",
    "OfsSection": "contract.model",
    "OfsTable": "contract.model",
    "SpecError": "contract.model",
    "normalize_section_name": "contract.names",
    "parse_output_format_spec": "contract.parse",
    "stringify_output_format_spec": "contract.write",
    "coerce_spec": "contract.coerce",
    "enrich_instructions": "contract.guidance",
    "build_markdown_guidance": "contract.guidance",
    # Flex-MD frames and detection (layers A and C)
    "parse_flex_md": "frames.parse",
    "stringify_flex_md": "frames.write",
    "validate_flex_md": "frames.validate",
    "detect_objects": "frames.detect",
    "parse_any": "frames.detect",
    # reading a reply: outline, lists, tables, sections
    "MdNode": "reply.outline",
    "MdOutline": "reply.outline",
    "build_outline": "reply.outline",
    "render_outline": "reply.outline",
    "ListItem": "reply.lists",
    "ParsedList": "reply.lists",
    "parse_list": "reply.lists",
    "ParsedTable": "reply.tables",
    "parse_tables": "reply.tables",
    "SectionResult": "reply.sections",
    # detect → repair → enforce
    "enforce_flex_md": "heal.enforce",
    "EnforceResult": "heal.enforce",
    "Extracted": "heal.enforce",
    "validate_output": "heal.enforce",
    "extract_output": "heal.enforce",
    "ValidationResult": "heal.enforce",
    "Issue": "heal.issues",
    "build_issues_envelope": "heal.envelope",
    "parse_issues_envelope": "heal.envelope",
    "IssuesEnvelope": "heal.envelope",
    "PLAN": "heal.plan",
}

__all__ = sorted([*_EXPORTS, "MarkdownFormat"]) + ["register_formats"]


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
    register(MarkdownFormat())
