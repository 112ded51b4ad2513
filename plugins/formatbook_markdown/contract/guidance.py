"""Prompt instructions for a Markdown contract: Flex-MD's instruction enricher and the
level-by-level guidance (L0–L3). Only the rules a spec needs are written, to spend few
tokens: a spec without lists says nothing about bullets.
"""

from __future__ import annotations

from typing import Any

from .coerce import coerce_spec
from .level import parse_level
from .model import OutputFormatSpec

__all__ = ["enrich_instructions", "build_markdown_guidance"]


def enrich_instructions(spec: Any) -> str:
    """Flex-MD's ``enrichInstructions`` (spec §5.2): a ``Rules:`` block with one line per
    feature the spec uses (the empty value, list, ordered-list, table, ordered-table
    rules), each line starting with ``- ``, ending with a newline; ``""`` when no rule
    applies. ``spec`` is anything :func:`coerce_spec` accepts."""
    spec = coerce_spec(spec)
    lines: list[str] = []
    if spec.empty_section_value:
        lines.append(f"If a section is empty, write `{spec.empty_section_value}`.")
    if any(s.kind == "list" for s in spec.sections):
        lines.append("List sections must use '-' bullets (nested allowed).")
    if any(s.kind == "ordered_list" for s in spec.sections):
        lines.append("Ordered-list sections must use numbered items (nested allowed).")
    if spec.tables:
        lines.append("Tables must be Markdown pipe tables with the specified columns.")
    if any(t.kind == "ordered_table" for t in spec.tables):
        lines.append("Ordered tables must add a first column named '#' with rows numbered 1..N.")
    if not lines:
        return ""
    return "Rules:\n" + "\n".join(f"- {line}" for line in lines) + "\n"


def _names(names: list[str]) -> str:
    return ", ".join(f'"{n}"' for n in names)


def build_markdown_guidance(spec: Any, level: Any = 1) -> str:
    """The instructions to put in a prompt for ``spec`` at strictness ``level``:

    * L0: ``Reply in Markdown.``
    * L1: also the headings to include (one per line, ``(optional)`` marked, the
      contract's hint after a dash), whether their order matters, and the empty value
      (or, when the contract has none, that no section may be left empty);
    * L2: also the whole reply inside one fenced ```` ```markdown ```` block;
    * L3: also the kind rules the spec needs: which sections are ``-`` bullets, which are
      numbered, the table columns and the ``#`` column of ordered tables.

    ``spec`` may be ``None`` (no sections: the L0 and L2 sentences only) or anything
    :func:`coerce_spec` accepts. An invalid level raises ``ValueError`` (a
    :class:`SpecError`, also a ``ValueError``, for an unreadable spec).
    """
    lvl = parse_level(level)
    parts = ["Reply in Markdown."]
    if lvl == 0:
        return parts[0]
    sp: OutputFormatSpec | None = None if spec is None else coerce_spec(spec)
    if sp is not None and sp.sections:
        order = "in this order" if sp.section_order_matters else "in any order"
        lines = [f"Include these headings ({order}, any heading level):"]
        for s in sp.sections:
            line = f"- {s.name}"
            if not s.required:
                line += " (optional)"
            if s.hint:
                line += f" — {s.hint}"
            lines.append(line)
        parts.append("\n".join(lines))
        if sp.empty_section_value is not None:
            parts.append(f"If a section is empty, write `{sp.empty_section_value}` under its heading.")
        else:
            parts.append("Do not leave a section empty.")
    if lvl >= 2:
        parts.append(
            "Put the whole reply inside one fenced Markdown block (```markdown ... ```), with nothing outside it."
        )
    if lvl >= 3 and sp is not None:
        rules: list[str] = []
        bullets = [s.name for s in sp.sections if s.kind == "list"]
        numbered = [s.name for s in sp.sections if s.kind == "ordered_list"]
        if bullets:
            rules.append(f"- {_names(bullets)}: '-' bullet items (nesting allowed).")
        if numbered:
            rules.append(f"- {_names(numbered)}: numbered items 1. 2. 3. (nesting allowed).")
        for t in sp.tables:
            cols = " | ".join(t.columns)
            if t.kind == "ordered_table":
                by = f" (by {t.by})" if t.by else ""
                rules.append(
                    f"- Ordered table{by}: a pipe table with columns # | {cols}; the # column numbers rows 1..N."
                )
            else:
                rules.append(f"- Table: a pipe table with columns {cols}.")
        if sp.tables:
            rules.append("- Add tables only if needed." if sp.tables_optional else "- Include every table.")
        if rules:
            parts.append("Rules:\n" + "\n".join(rules))
    return "\n".join(parts)
