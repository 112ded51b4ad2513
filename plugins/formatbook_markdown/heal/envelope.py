"""The Issues Envelope: a short Markdown document saying why a reply failed its
contract, that a program can parse back (:func:`parse_issues_envelope`).

Format (one value per line; line breaks inside values become spaces)::

    # Flex-MD Issues Envelope

    - status: failed
    - level: 1

    ## Issues

    - code: markdown.missing_section
      section: Reasoning
      message: the required section 'Reasoning' is missing

    ## Repairs

    - kind: filled
      message: added the missing required section 'Assumptions' holding 'None'

A list with nothing in it is written ``- none``. ``section`` is left out when an issue
concerns no section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from formatbook_core import Repair

from .issues import Issue

TITLE = "# Flex-MD Issues Envelope"
# the value is stripped in code: a lazy group before `\s*$` is quadratic on spaces
_TOP = re.compile(r"^- (status|level):(.*)$")
_ITEM = re.compile(r"^- (code|kind):(.*)$")
_FIELD = re.compile(r"^  (section|message):(.*)$")


@dataclass
class IssuesEnvelope:
    """A parsed envelope: ``status`` (``"failed"`` or ``"ok"``), ``level``, the
    ``issues`` and the ``repairs`` (kind and message; spans are not written)."""

    status: str
    level: int | None
    issues: list[Issue] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def build_issues_envelope(
    issues: Iterable[Issue], repairs: Iterable[Repair] = (), level: int | None = None, status: str = "failed"
) -> str:
    """Write the envelope for ``issues`` and the ``repairs`` that were made."""
    out = [TITLE, "", f"- status: {status}"]
    if level is not None:
        out.append(f"- level: {level}")
    out += ["", "## Issues", ""]
    issues = list(issues)
    for issue in issues:
        out.append(f"- code: {_one_line(issue.code)}")
        if issue.section:
            out.append(f"  section: {_one_line(issue.section)}")
        out.append(f"  message: {_one_line(issue.message)}")
    if not issues:
        out.append("- none")
    out += ["", "## Repairs", ""]
    repairs = list(repairs)
    for rep in repairs:
        out.append(f"- kind: {_one_line(rep.kind)}")
        out.append(f"  message: {_one_line(rep.message)}")
    if not repairs:
        out.append("- none")
    return "\n".join(out) + "\n"


def parse_issues_envelope(text: str) -> IssuesEnvelope | None:
    """Read an envelope back; ``None`` when ``text`` is not one (no title line, or not a
    string). Unknown lines are skipped, so a lightly edited envelope still parses."""
    if not isinstance(text, str) or TITLE not in text:
        return None
    status, level = "", None
    issues: list[Issue] = []
    repairs: list[Repair] = []
    part = "head"
    current: dict[str, str] | None = None

    def flush() -> None:
        nonlocal current
        if current is None:
            return
        if "code" in current:
            issues.append(Issue(current["code"], current.get("message", ""), current.get("section") or None))
        else:
            repairs.append(Repair(current["kind"], current.get("message", "")))
        current = None

    for line in text[text.index(TITLE) :].splitlines():
        stripped = line.strip()
        if stripped.lower() == "## issues":
            flush()
            part = "issues"
            continue
        if stripped.lower() == "## repairs":
            flush()
            part = "repairs"
            continue
        if part == "head":
            m = _TOP.match(line)
            if m and m.group(1) == "status":
                status = m.group(2).strip()
            elif m:
                value = m.group(2).strip()
                level = int(value) if value.isdigit() else None
            continue
        m = _ITEM.match(line)
        if m and ((m.group(1) == "code") == (part == "issues")):
            flush()
            current = {m.group(1): m.group(2).strip()}
            continue
        f = _FIELD.match(line)
        if f and current is not None:
            value = f.group(2)
            current[f.group(1)] = (value[1:] if value[:1].isspace() else value).rstrip()
    flush()
    return IssuesEnvelope(status or "failed", level, issues, repairs)
