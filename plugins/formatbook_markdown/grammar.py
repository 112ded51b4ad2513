"""A Markdown contract's section skeleton as a grammar (``MarkdownFormat.grammar``).

The reply is the contract's sections in the contract's order, each an ATX heading
``## <name as the contract spells it>`` on its own line, then its body: lines of prose
(a paragraph, paragraphs between blank lines) for a text section, ``- item`` lines for a
list, ``1. item`` lines for an ordered list, or the contract's empty value alone. Required
sections are always there, optional ones may be left out; sections are separated by one
blank line. At level 2 and above the whole is one fenced ``markdown`` block. Without a
contract (or at level 0), plain Markdown: blocks of such lines (and ``#`` headings) or GFM
tables of 1 to :data:`MAX_TABLE_COLUMNS` columns, between blank lines.

Free text is free but for what would change the reading the contract is checked on:
no ``#`` and no ``<`` anywhere in a body (no heading, glued or not, no think tag or HTML
block), and no line that opens with what Markdown reads as structure (a list marker in
prose, ``>``, ``|``, a fence, ``=``/``-`` underlines, ``*``/``_`` emphasis that could be
a bold label, ``[`` of a link definition, a digit) or with white space. A line never ends
with white space. A required table is not in the grammar (``ExportError``).
"""

from __future__ import annotations

from typing import Any

from formatbook_core import ExportError
from formatbook_core.grammars import EMPTY, Builder, Expr, Grammar, Rep, alt, chars, lit, opt, plus, seq, star

#: Characters no body line holds: line breaks, heading marks, tags, control characters.
_NEVER = "\r\n#<\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
#: White space and invisible characters: never at a line's start or end.
_SPACES = " \t\x85\xa0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff\xad"
#: What no prose line starts with (Markdown structure).
_STRUCTURE = "-=*+>|`~_[0-9!"


#: Without a contract, tables of 1 to this many columns (one alternative each).
MAX_TABLE_COLUMNS = 8


def markdown_grammar(spec: Any, level: int) -> Grammar:
    """The skeleton of replies to ``spec`` (an ``OutputFormatSpec``) at ``level``, or,
    without a contract (or at level 0), plain Markdown blocks; ``ExportError`` for a
    contract that requires a table."""
    if spec is None or level < 1 or not spec.sections:
        return _Writer(spec, level).free()
    if spec.tables and not spec.tables_optional:
        raise ExportError("the contract asks for a table: a Markdown grammar holds sections only")
    return _Writer(spec, level).grammar()


class _Writer:
    def __init__(self, spec: Any, level: int):
        self.spec = spec
        self.level = level
        self.builder = Builder()
        rest = star(chars(_NEVER, negated=True))
        end = chars(_NEVER, _SPACES, negated=True)
        tail = opt(seq(rest, end))  # the rest of a line: never ending with white space
        first = chars(_NEVER, _SPACES, _STRUCTURE, negated=True)
        self.prose = self.builder.rule("prose line", seq(first, tail), token=True)
        text = seq(chars(_NEVER, _SPACES, negated=True), tail)
        self.bullet = self.builder.rule("bullet", seq(lit("- "), text), token=True)
        self.numbered = self.builder.rule("numbered", seq(plus(chars("0-9")), lit(". "), text), token=True)

    def free(self) -> Grammar:
        """Plain Markdown: blocks between blank lines, each a GFM table or lines of
        headings, prose, ``- `` items and ``1. `` items."""
        nl = lit("\n")
        text = seq(
            chars(_NEVER, _SPACES, negated=True),
            opt(seq(star(chars(_NEVER, negated=True)), chars(_NEVER, _SPACES, negated=True))),
        )
        heading = self.builder.rule("heading", seq(Rep(lit("#"), 1, 6), lit(" "), text), token=True)
        line = alt(self.prose, self.bullet, self.numbered, heading)
        lines = seq(line, star(seq(nl, line)))
        cell_char = chars(_NEVER, "|", negated=True)
        edge = chars(_NEVER, _SPACES, "|", negated=True)
        cell = seq(edge, opt(seq(star(cell_char), edge)))
        rule = seq(opt(lit(":")), plus(lit("-")), opt(lit(":")))
        tables = []
        for n in range(1, MAX_TABLE_COLUMNS + 1):
            row = self.builder.rule(f"row {n}", seq(lit("|"), Rep(seq(lit(" "), cell, lit(" |")), n, n)), token=True)
            line_n = self.builder.rule(
                f"rule {n}", seq(lit("|"), Rep(seq(lit(" "), rule, lit(" |")), n, n)), token=True
            )
            tables.append(seq(row, nl, line_n, star(seq(nl, row))))
        block = alt(self.builder.rule("lines", lines), *tables)
        document = seq(block, star(seq(nl, nl, block)))
        if self.level >= 2:
            document = seq(lit("```markdown\n"), document, nl, lit("```"))
        return self.builder.grammar(self.builder.rule("reply", seq(document, opt(nl))))

    def body(self, kind: str) -> Expr:
        nl = lit("\n")
        if kind == "list":
            found = seq(self.bullet, star(seq(nl, self.bullet)))
        elif kind == "ordered_list":
            found = seq(self.numbered, star(seq(nl, self.numbered)))
        else:
            paragraph = seq(self.prose, star(seq(nl, self.prose)))
            found = seq(paragraph, star(seq(nl, nl, paragraph)))
        empty = self.spec.empty_section_value
        return alt(found, lit(empty)) if empty else found

    def grammar(self) -> Grammar:
        sections: list[tuple[bool, Expr]] = []
        for section in self.spec.sections:
            heading = lit(f"## {section.name}\n")
            sec = self.builder.rule(f"{section.name} section", seq(heading, opt(lit("\n")), self.body(section.kind)))
            sections.append((bool(section.required), sec))
        document = self._ordered(sections)
        if self.level >= 2:
            document = seq(lit("```markdown\n"), document, lit("\n"), lit("```"))
        return self.builder.grammar(self.builder.rule("reply", seq(document, opt(lit("\n")))))

    def _ordered(self, sections: list[tuple[bool, Expr]]) -> Expr:
        """The sections in order, required ones present, one blank line between those written."""
        # two line breaks, not one "\n\n" literal: a lexer reading greedily would take
        # the literal where a paragraph goes on after a blank line
        gap = seq(lit("\n"), lit("\n"))
        tails: list[Expr] = [EMPTY] * (len(sections) + 1)
        for i in range(len(sections) - 1, -1, -1):
            needed, sec = sections[i]
            step = seq(gap, sec)
            tails[i] = seq(step if needed else opt(step), tails[i + 1])
            if len(sections) - i >= 2:
                tails[i] = self.builder.rule(f"sections {i}", tails[i])
        firsts: list[Expr] = []
        for i, (needed, sec) in enumerate(sections):
            firsts.append(seq(sec, tails[i + 1]))
            if needed:
                break  # every section optional: still one at least (an empty reply is none)
        return alt(*firsts)
