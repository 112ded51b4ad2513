"""Writing a contract back as Markdown: :func:`stringify_output_format_spec`."""

from __future__ import annotations

import re

from .coerce import coerce_spec
from .model import OfsSection, OutputFormatSpec, SpecError
from .parse import parse_output_format_spec

_WRITE_SECTION_KIND = {"prose": "text", "list": "list", "ordered_list": "ordered list"}
_WRITE_TABLE_KIND = {"table": "table", "ordered_table": "ordered table"}


def _code_span(value: str) -> str:
    longest = max((len(m.group(0)) for m in re.finditer(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") or (value.startswith(" ") and value.endswith(" ")) else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def _section_line(section: OfsSection) -> str:
    """The contract line of ``section``: ``- Name — kind (required) — hint``, or, when
    that reads back differently (a name starting with ``(`` makes a line ending with
    ``)`` a table line), ``- Name (required) — kind — hint``."""
    kind = _WRITE_SECTION_KIND.get(section.kind, section.kind)
    flag = "required" if section.required else "optional"
    hint = f" — {section.hint}" if section.hint is not None else ""
    candidates = (f"- {section.name} — {kind} ({flag}){hint}", f"- {section.name} ({flag}) — {kind}{hint}")
    for line in candidates:
        try:
            back = parse_output_format_spec("## Output format\n" + line).sections
        except SpecError:
            continue
        if back == [section]:
            return line
    return candidates[0]  # the whole contract is read back below, and refused


def stringify_output_format_spec(spec: OutputFormatSpec) -> str:
    """Write ``spec`` as a Markdown contract that :func:`parse_output_format_spec` reads
    back equal to ``spec``.

    Raises :class:`SpecError` when ``spec`` holds something the Markdown syntax cannot
    carry faithfully (a name on several lines, a name that reads as a kind, a column
    holding a comma...): the written text is parsed back and compared before returning.
    """
    spec = coerce_spec(spec)
    out: list[str] = []
    if spec.title is not None:
        out += [f"## {spec.title}", ""]
    if spec.sections:
        out.append(
            "Include these sections in this order:"
            if spec.section_order_matters
            else "Include these sections somewhere (order does not matter):"
        )
        out += [_section_line(s) for s in spec.sections]
        out.append("")
    if spec.tables or not spec.tables_optional:
        out.append("Tables (only if needed):" if spec.tables_optional else "Tables (required):")
        for t in spec.tables:
            line = f"- ({', '.join(t.columns)} — {_WRITE_TABLE_KIND.get(t.kind, t.kind)}"
            if t.by is not None:
                line += f", by {t.by}"
            out.append(line + ")")
        out.append("")
    out.append("Empty sections:")
    if spec.empty_section_value is None:
        out.append("- Empty sections are not allowed.")
    else:
        out.append(f"- If a section is empty, write {_code_span(spec.empty_section_value)}.")
    text = "\n".join(out) + "\n"
    try:
        back = parse_output_format_spec(text)
    except SpecError as exc:
        raise SpecError(f"this spec cannot be written as a Markdown contract: {exc}") from None
    if back != spec:
        raise SpecError(
            "this spec cannot be written faithfully as a Markdown contract (a name, hint or column holds syntax of the contract)"
        )
    return text
