"""The contract's data: the section and table kinds, :class:`OfsSection`,
:class:`OfsTable`, :class:`OutputFormatSpec` and :class:`SpecError`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from formatbook_core import ExpectationError

from .names import normalize_section_name

SectionKind = Literal["prose", "list", "ordered_list"]
TableKind = Literal["table", "ordered_table"]

# Words a contract may use for each kind (lower case). The first word of each kind is the
# one `stringify_output_format_spec` writes.
SECTION_KIND_WORDS: dict[str, str] = {
    "text": "prose",
    "prose": "prose",
    "list": "list",
    "bullets": "list",
    "bullet list": "list",
    "bulleted list": "list",
    "bullet points": "list",
    "unordered list": "list",
    "ordered list": "ordered_list",
    "numbered list": "ordered_list",
}
TABLE_KIND_WORDS: dict[str, str] = {
    "table": "table",
    "ordered table": "ordered_table",
    "numbered table": "ordered_table",
}


@dataclass
class OfsSection:
    """One section the reply must (``required``) or may hold."""

    name: str
    kind: SectionKind = "prose"
    required: bool = True
    hint: str | None = None


@dataclass
class OfsTable:
    """A table the reply may add: its ``columns`` (without the implied ``#`` column of an
    ordered table) and the informational ``by`` dimension."""

    columns: list[str]
    kind: TableKind = "table"
    by: str | None = None


@dataclass
class OutputFormatSpec:
    """A parsed Markdown contract (Flex-MD's ``OutputFormatSpec``).

    ``empty_section_value`` is what an empty section says (default ``"None"``); ``None``
    means the contract declares no empty value. ``title`` is the heading the contract was
    written under. ``descriptor_type``, ``format`` are Flex-MD's constant fields.
    """

    sections: list[OfsSection]
    tables: list[OfsTable] = field(default_factory=list)
    tables_optional: bool = True
    empty_section_value: str | None = "None"
    title: str | None = None
    descriptor_type: str = "output_format_spec"
    format: str = "markdown"
    section_order_matters: bool = False

    def section(self, name: str) -> OfsSection | None:
        """The section whose name matches ``name`` after :func:`normalize_section_name`."""
        key = normalize_section_name(name)
        for sec in self.sections:
            if normalize_section_name(sec.name) == key:
                return sec
        return None


class SpecError(ExpectationError):
    """A contract that cannot be read: a bad contract is a bad expectation (so this is a
    ``FormatbookError`` and a ``ValueError``). ``line`` is the offending line (or ``None``
    for a plain structure), ``line_number`` its 1-based number, ``suggestion`` the nearest
    valid word when there is one."""

    def __init__(
        self, message: str, line: str | None = None, line_number: int | None = None, suggestion: str | None = None
    ):
        self.line_number = line_number
        if line_number is not None:
            shown = line if line is None or len(line) <= 120 else line[:117] + "..."
            message = f"line {line_number}: {message} (in {shown!r})"
        super().__init__(message, line, suggestion)
