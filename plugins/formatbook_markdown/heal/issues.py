"""What the repair plan cannot fix: an :class:`Issue` (a code, the section it concerns,
a message). Issues make ``enforce_flex_md`` not ok and become the format's violations."""

from __future__ import annotations

from dataclasses import dataclass

from formatbook_core import Span, Violation


@dataclass(frozen=True)
class Issue:
    """One contract violation the repair plan could not repair.

    Codes (stable): ``markdown.empty``, ``markdown.container_depth``, ``markdown.no_sections``,
    ``markdown.missing_section``, ``markdown.section_kind``, ``markdown.table_columns``,
    ``markdown.missing_table``, ``markdown.level``, ``markdown.spec``.
    """

    code: str
    message: str
    section: str | None = None
    span: Span | None = None

    def to_violation(self) -> Violation:
        """The same issue as a formatbook ``Violation`` (``path`` is the section name)."""
        return Violation(self.code, self.message, path=(self.section,) if self.section else (), span=self.span)
