"""Well-formedness: the strict scanner first, then lxml on what it accepted.

A text is well-formed XML for formatbook when the scanner (:mod:`.scan`) accepts it whole
and lxml, with the safe parser (:mod:`.parser`), parses it. The scanner runs first so
that a hostile reply (a DOCTYPE declaring entities, an external DTD) never reaches
libxml2 at all, and so that the incremental checker and ``is_valid`` agree by
construction.
"""

from __future__ import annotations

from typing import Any

from formatbook_core import Span, Violation
from formatbook_core.limits import Limits

from .parser import Problem, offset_of, parse
from .scan import Scanner

__all__ = ["LIBXML_MAX_DEPTH", "depth_limit", "check_syntax", "problem_violation"]

#: libxml2 refuses elements nested deeper than this unless XML_PARSE_HUGE is set, which
#: formatbook never sets: the effective depth limit is the smaller of this and max_depth.
LIBXML_MAX_DEPTH = 256


def depth_limit(limits: Limits) -> int:
    return min(limits.max_depth, LIBXML_MAX_DEPTH)


def _span(text: str, position: int) -> Span:
    position = max(0, min(position, len(text)))
    return Span(position, min(position + 1, len(text)))


def scan_violation(text: str, problem: tuple[str, str, int]) -> Violation:
    code, message, position = problem
    return Violation(code, message, span=_span(text, position))


def problem_violation(text: str, problem: Problem, code: str = "xml.syntax") -> Violation:
    """A violation for one error of lxml's log, with its line and column."""
    if problem.type_name.startswith("NS_"):
        code = "xml.namespace"
    where = f"line {problem.line}, column {problem.column}"
    return Violation(
        code, f"{problem.message} ({where})", span=_span(text, offset_of(text, problem.line, problem.column))
    )


def check_syntax(text: Any, limits: Limits) -> tuple[Any, list[Violation]]:
    """``(root element, [])`` when ``text`` is well-formed XML with one root element,
    else ``(None, violations)``."""
    if not isinstance(text, str):
        return None, [Violation("xml.syntax", f"an XML reply is text, not {type(text).__name__}")]
    if len(text) > limits.max_size:
        return None, [
            Violation(
                "xml.too_large",
                f"the text has {len(text):,} characters, more than the limit of {limits.max_size:,} (max_size)",
                keyword="max_size",
                expected=limits.max_size,
            )
        ]
    scanner = Scanner(depth_limit(limits))
    scanner.feed(text)
    problem = scanner.end_problem()
    if problem is not None:
        return None, [scan_violation(text, problem)]
    root, problems = parse(text)
    if root is None:
        return None, [problem_violation(text, p) for p in problems]
    return root, []
