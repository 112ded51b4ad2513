"""detect → repair → enforce: ``enforce_flex_md`` and the spec's layer-B functions
``validate_output`` and ``extract_output``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from formatbook_core import Repair, SetAside, Violation
from formatbook_core.reply import Reply

from ..contract.coerce import load_spec
from ..contract.level import parse_level
from ..reply.blocks import paused_gc, scan
from ..reply.body import as_text, container_body
from ..reply.outline import MdOutline, outline_for
from ..reply.sections import SectionResult, match_sections
from ..reply.tables import ParsedTable, find_tables
from .envelope import build_issues_envelope
from .issues import Issue
from .plan import run_plan


@dataclass
class Extracted:
    """What a reply holds: the ``outline`` of its Markdown, ``sections_by_name`` (the
    spec's sections found, by the spec's names), every ``tables`` entry, and what was set
    aside: the ``preamble`` (text before the first heading), the text ``outside`` the L2
    container and the ``think`` blocks."""

    outline: MdOutline
    sections_by_name: dict[str, SectionResult] = field(default_factory=dict)
    tables: list[ParsedTable] = field(default_factory=list)
    preamble: str | None = None
    outside: list[str] = field(default_factory=list)
    think: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (what ``json.dumps`` takes): ``sections`` by the spec's names,
        each with its Markdown and its parsed list and table; every table; the
        ``outline``; and what was set aside (``preamble``, ``outside``, ``think``)."""
        return {
            "sections": {name: result.to_json() for name, result in self.sections_by_name.items()},
            "tables": [t.to_json() for t in self.tables],
            "outline": self.outline.to_json(),
            "preamble": self.preamble,
            "outside": list(self.outside),
            "think": list(self.think),
        }


@dataclass
class EnforceResult:
    """The answer of :func:`enforce_flex_md`.

    ``ok``: the repaired reply meets the contract at the level asked. ``repaired_md``: the
    repaired reply (the reply itself when nothing needed repair). ``repairs``: every
    change, in plan order. ``issues``: what could not be repaired. ``set_aside``: what
    was taken out (think blocks, outside text, preamble) with spans into the reply.
    ``output_text``: ``repaired_md`` when ok, else the Issues Envelope.
    """

    ok: bool
    repaired_md: str
    extracted: Extracted
    repairs: list[Repair]
    issues: list[Issue]
    output_text: str
    level: int = 1
    set_aside: list[SetAside] = field(default_factory=list)
    #: the section each repair concerns (parallel to ``repairs``)
    repair_sections: list[str | None] = field(default_factory=list, repr=False)


@dataclass
class ValidationResult:
    """The answer of :func:`validate_output`: ``errors`` break the contract at the level
    asked; ``warnings`` are deviations the repair plan would fix without the contract
    being broken (a preamble, a heading's spelling, a ``<think>`` block...)."""

    ok: bool
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)


#: The violation code of each repair kind (a reply needing a repair is not valid as is).
REPAIR_CODES: dict[str, str] = {
    "think_set_aside": "markdown.think",
    "invisible_removed": "markdown.invisible",
    "heading_split": "markdown.glued_heading",
    "container_unwrapped": "markdown.container",
    "container_tagged": "markdown.container",
    "container_wrapped": "markdown.container",
    "containers_merged": "markdown.container",
    "container_closed": "markdown.container",
    "container_refenced": "markdown.container",
    "outside_set_aside": "markdown.outside",
    "heading_renamed": "markdown.heading_name",
    "heading_from_label": "markdown.heading_name",
    "heading_level": "markdown.heading_level",
    "preamble_set_aside": "markdown.preamble",
    "fence_closed": "markdown.unclosed_fence",
    "html_closed": "markdown.unclosed_html",
    "filled": "markdown.missing_section",
    "list_kind": "markdown.section_kind",
    "table_separator": "markdown.table_separator",
    "table_numbered": "markdown.table_order",
    "empty_value": "markdown.empty_section",
    "underline_as_break": "markdown.long_setext_heading",
}

#: Repair kinds whose reason breaks the contract (errors in ``validate_output``).
CONTRACT_KINDS = frozenset(
    {
        "container_wrapped",
        "containers_merged",
        "container_closed",
        "container_refenced",
        "container_tagged",
        "outside_set_aside",
        "filled",
        "list_kind",
        "table_numbered",
        "empty_value",
    }
)


def enforce_flex_md(reply: Any, spec: Any = None, level: Any = 1) -> EnforceResult:
    """Detect → repair → enforce ``reply`` against the contract ``spec`` at ``level``.

    ``spec`` is an ``OutputFormatSpec``, contract text, a path or a plain structure (see
    ``coerce_spec``), or ``None`` (then only the level's Markdown rules apply). Raises
    ``SpecError`` for an unreadable spec and ``ValueError`` for a level outside 0..3;
    never for the reply. Empty text is not ok (issue ``markdown.empty``).
    """
    text = as_text(reply)
    lvl = parse_level(level)
    spec = load_spec(spec)
    with paused_gc():
        return _enforce(text, spec, lvl)


def _enforce(text: str, spec: Any, lvl: int) -> EnforceResult:
    st, repaired, issues = _plan_issues(text, spec, lvl)
    extracted = extract_body(st.body, spec)
    extracted.preamble = st.preamble if st.preamble is not None else (extracted.outline.preamble or None)
    extracted.outside = list(st.outside)
    extracted.think = [entry.text for entry in st.set_aside if entry.kind == "think"]
    ok = not issues
    output = repaired if ok else build_issues_envelope(issues, st.repairs, lvl)
    return EnforceResult(
        ok, repaired, extracted, list(st.repairs), issues, output, lvl, list(st.set_aside), list(st.repair_sections)
    )


def _plan_issues(text: str, spec: Any, lvl: int) -> tuple[Any, str, list[Issue]]:
    """The plan's state, the repaired text and the issues at ``lvl`` (those of the looser
    levels included), without the extraction a looser level's verdict does not need."""
    st, repaired = run_plan(text, spec, lvl)
    issues = list(st.issues)
    if not _has_content(text) or (st.blank_markdown and (not st.outside or not st.body.strip())):
        # an empty fence holds no Markdown either: healing it would give an empty reply (or
        # an empty container, with what was around it set aside), which is no payload
        issues.insert(
            0,
            Issue(
                "markdown.empty",
                "the reply holds no Markdown (it is empty, blank, only <think> blocks or an empty fence)",
            ),
        )
    if not issues and lvl >= 2 and spec is not None:
        issues = _looser_issues(text, spec, lvl)
    return st, repaired, issues


def _looser_issues(text: str, spec: Any, lvl: int) -> list[Issue]:
    """The issues of the next looser level (L1 for L2, L2 for L3, which asks L1 in turn):
    a stricter level never passes what a looser one fails on the same reply. (L2 reads an
    untagged fence holding a heading as the container, where L1 reads it as code and
    finds no section: the reply is not let through by the stricter reading.)"""
    _st, _repaired, looser = _plan_issues(text, spec, lvl - 1)
    return [Issue(i.code, f"{i.message} (at L{lvl - 1})", i.section, i.span) for i in looser]


def _has_content(text: str) -> bool:
    if not text.strip():
        return False
    return bool(Reply.of(text).stretches())  # something outside the think blocks


def extract_body(body: str, spec: Any) -> Extracted:
    """Outline, sections and tables of a Markdown body (no repair)."""
    sc = scan(body)
    outline = outline_for(sc, spec)
    sections = match_sections(sc, outline, spec)
    tables = []
    declared = list(getattr(spec, "tables", None) or [])
    for block in find_tables(sc):
        table = block.parsed()
        key = frozenset(c.strip().lower() for c in block.header if c.strip() != "#")
        for d in declared:
            if frozenset(c.strip().lower() for c in d.columns) == key:
                table.kind, table.by = d.kind, d.by
                break
        tables.append(table)
    return Extracted(outline, sections, tables, outline.preamble or None)


def extract_output(md: Any, spec: Any = None, level: Any = 1) -> Extracted:
    """Extract ``md`` as it stands (no repair): outline, the spec's sections (bold labels
    read as headings, duplicates resolved), tables and the preamble. A reply that is one
    fenced Markdown block is read inside its fence. Non-text gives an empty result."""
    try:
        text = as_text(md)
    except TypeError:
        text = ""
    parse_level(level)
    spec = load_spec(spec)
    return extract_body(container_body(text), spec)


def validate_output(md: Any, spec: Any = None, level: Any = 1) -> ValidationResult:
    """Flex-MD's validator: is ``md`` within the contract at ``level`` as it stands?

    ``errors``: what the contract forbids (a missing or empty section, a wrong kind, a
    missing container at L2, text outside it...), including what the repair plan could
    fix; ``warnings``: cosmetic deviations the plan would fix. ``ok`` when no errors.
    """
    result = enforce_flex_md(md, spec, level)
    errors = list(result.issues)
    warnings: list[Issue] = []
    for rep, section in zip(result.repairs, result.repair_sections, strict=False):
        issue = Issue(REPAIR_CODES[rep.kind], rep.message, section, rep.span)
        (errors if rep.kind in CONTRACT_KINDS else warnings).append(issue)
    return ValidationResult(not errors, errors, warnings)


def violations_of(result: EnforceResult) -> list[Violation]:
    """A reply's violations: what could not be repaired first, then one per repair (a
    reply that needs repairing is not valid as it stands)."""
    out = [i.to_violation() for i in result.issues]
    for rep, section in zip(result.repairs, result.repair_sections, strict=False):
        out.append(
            Violation(
                REPAIR_CODES[rep.kind],
                rep.message,
                path=(section,) if section else (),
                span=rep.span,
            )
        )
    return out
