"""Well-formedness: lxml, and the strict scanner where lxml alone would not do.

A text is well-formed XML for formatbook when the scanner (:mod:`.scan`) accepts it whole
and lxml, with the safe parser (:mod:`.parser`), parses it; the violations are the
scanner's when it refuses, else lxml's. Who reads first is a matter of cost, not of
verdict (``tests/plugins/xml/test_scanner_vs_lxml.py`` checks that the answers are those
of the scanner-first order, violations included):

* a text holding ``<!DOCTYPE`` is read by the scanner first, so that a DOCTYPE declaring
  entities or naming an external DTD never reaches libxml2 at all;
* any other text holds no DTD, and lxml (in C, five to ten times faster than the scanner)
  reads it first. When lxml parses it, the scanner would accept it too: they differ only
  on DOCTYPEs and on the depth limit, checked on the tree when it is below libxml2's own.
  When lxml refuses it, the scanner runs to say where the text breaks, as it always did.
"""

from __future__ import annotations

from typing import Any

from formatbook_core import Span, Violation
from formatbook_core.limits import Limits

from .parser import Problem, offset_of, parse
from .scan import Scanner

__all__ = ["LIBXML_MAX_DEPTH", "DOCTYPE", "holds", "deeper_than", "depth_limit", "check_syntax", "problem_violation"]

#: libxml2 refuses elements nested deeper than this unless XML_PARSE_HUGE is set, which
#: formatbook never sets: the effective depth limit is the smaller of this and max_depth.
LIBXML_MAX_DEPTH = 256


#: How much of a text healing's reading lets the scanner try first (or 1/32 of it).
PREFIX = 4096
#: Only a text holding this can carry a DTD (libxml2 knows no other spelling).
DOCTYPE = "<!DOCTYPE"


def holds(text: str, mark: str) -> bool:
    """``mark in text``, for a ``mark`` opening with ``<!`` (``<!D``, :data:`DOCTYPE`): the
    ``!`` is looked for first. A reply seldom holds one, and one character is found at
    memory speed, where a search for ``<!D`` stops at every ``<`` of the markup (a 1 KB
    reply: 0.05 µs against 0.9). After a few ``!`` that open no ``mark``, the rest is
    searched for it as a whole."""
    at = text.find("!", 1)
    for _ in range(4):
        if at < 0:
            return False
        if text.startswith(mark, at - 1):
            return True
        at = text.find("!", at + 1)
    return at >= 0 and text.find(mark, at - 1) >= 0


def depth_limit(limits: Limits) -> int:
    return min(limits.max_depth, LIBXML_MAX_DEPTH)


def deeper_than(root: Any, limit: int) -> bool:
    """Whether the tree of ``root`` nests elements deeper than ``limit`` (the root is at
    depth 1). libxml2 refuses depth past its own limit; below it, one XPath path of
    ``limit + 1`` child steps finds a deeper element in one pass over the tree."""
    if limit >= LIBXML_MAX_DEPTH:
        return False
    return bool(root.xpath("boolean(" + "/*" * (limit + 1) + ")"))


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


def check_syntax(
    text: Any, limits: Limits, *, explain: bool = True, read: tuple[Any, list[Problem]] | None = None
) -> tuple[Any, list[Violation]]:
    """``(root element, [])`` when ``text`` is well-formed XML with one root element,
    else ``(None, violations)``.

    ``explain=False`` is for a caller that needs only the verdict and whether the scanner
    refused a DOCTYPE (``xml.doctype``, as healing does): a text that holds no ``<!D``
    (the scanner refuses a DOCTYPE only at one) and that lxml refuses gets lxml's first
    violation, without the scanner's pass that would say where it breaks first; in a text
    holding one, the scanner tries a prefix first (its refusal there is the answer, as it
    always is). ``read`` is :func:`.parser.parse`'s answer for ``text`` when the caller
    has it (not parsed again)."""
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
    limit = depth_limit(limits)
    mark = holds(text, "<!D")
    if not explain and mark:
        # a text that may hold a DOCTYPE: the scanner over a bounded prefix refuses many
        # for a fraction of lxml's reading (what it refuses there, it refuses at the same
        # place in the whole text). Any other goes to lxml first, which stops at its first
        # error: in C, faster than the scanner over any prefix (1 KB: 20 µs against 100)
        scanner = Scanner(limit)
        if not scanner.feed(text[: max(PREFIX, len(text) // 32)]) and scanner.error is not None:
            return None, [scan_violation(text, scanner.error)]
    parsed = None
    if not (mark and DOCTYPE in text):
        parsed = parse(text) if read is None else read
        root = parsed[0]
        if root is not None and not deeper_than(root, limit):
            return root, []
        if root is None and not explain and not mark:
            return None, [problem_violation(text, parsed[1][0])]
    scanner = Scanner(limit)
    scanner.feed(text)
    problem = scanner.end_problem()
    if problem is not None:
        return None, [scan_violation(text, problem)]
    root, problems = parsed if parsed is not None else parse(text)
    if root is None:
        return None, [problem_violation(text, p) for p in problems]
    return root, []
