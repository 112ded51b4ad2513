"""One block-level scan of a Markdown text with markdown-it-py (CommonMark + GFM tables).

Everything in this plugin that needs structure (headings, fences, which lines are code)
reads a :class:`Scan`. Scans are block-level only (inline parsing is done lazily, only
where text without syntax is wanted) and cached by text, because the repair plan asks for
the same text several times.

Lines are split exactly as markdown-it splits them (``\\r\\n``, ``\\r`` and ``\\n`` end a
line), so a token's ``map`` (a half-open range of line numbers) indexes :attr:`Scan.lines`.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class Line(NamedTuple):
    """One line: ``start``/``end`` offsets of its text (without the line ending) and
    ``next`` (the offset after its line ending)."""

    start: int
    end: int
    next: int


def split_lines(text: str) -> list[Line]:
    """The lines of ``text`` with their offsets (a final line ending starts no new line)."""
    out: list[Line] = []
    if "\r" not in text:  # the common case, without a regex
        pos, n, find = 0, len(text), text.find
        while pos < n:
            nl = find("\n", pos)
            if nl < 0:
                out.append(Line(pos, n, n))
                break
            out.append(Line(pos, nl, nl + 1))
            pos = nl + 1
        return out
    for m in _LINE.finditer(text):
        raw = m.group(0)
        stripped = raw.rstrip("\r\n")
        out.append(Line(m.start(), m.start() + len(stripped), m.end()))
    return out


@dataclass(frozen=True)
class Heading:
    """A heading at the top level of the document (not inside a list or quote).

    ``line``/``end_line``: its line range (two lines for a setext heading); ``raw``: the
    heading text as written (emphasis kept); ``setext``: underlined with ``=`` or ``-``;
    ``label``: a paragraph that is only a bold label (``**Reasoning:**``), read as a
    heading by the section matcher.
    """

    level: int
    raw: str
    line: int
    end_line: int
    setext: bool = False
    label: bool = False


@dataclass(frozen=True)
class FenceBlock:
    """A fenced code block at the top level: its line range, opening ``marker``
    (```` ``` ```` or ``~~~``, any length), ``info`` string and whether it is closed."""

    line: int
    end_line: int
    marker: str
    info: str
    closed: bool

    @property
    def lang(self) -> str:
        """The first word of the info string, lower case."""
        parts = self.info.split(maxsplit=1)
        return parts[0].lower() if parts else ""


@dataclass
class Scan:
    """The block structure of ``text``."""

    text: str
    lines: list[Line]
    tokens: list[Any]
    headings: list[Heading] = field(default_factory=list)
    fences: list[FenceBlock] = field(default_factory=list)
    #: line numbers inside fenced or indented code, or raw HTML blocks
    code_lines: set[int] = field(default_factory=set)
    #: (first line, end line) of every top-level paragraph
    paragraphs: list[tuple[int, int]] = field(default_factory=list)

    def line_text(self, i: int) -> str:
        ln = self.lines[i]
        return self.text[ln.start : ln.end]

    def offset(self, line: int) -> int:
        """The offset where ``line`` starts (``len(text)`` past the last line)."""
        if line < len(self.lines):
            return self.lines[line].start
        return len(self.text)

    def slice(self, start_line: int, end_line: int) -> str:
        """The text of lines ``[start_line, end_line)`` with their line endings."""
        if start_line >= end_line:
            return ""
        end = self.lines[end_line - 1].next if end_line - 1 < len(self.lines) else len(self.text)
        return self.text[self.offset(start_line) : end]


@lru_cache(maxsize=1)
def block_parser() -> Any:
    """markdown-it configured for CommonMark + GFM tables, block rules only."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").disable(["inline", "text_join"])


@lru_cache(maxsize=1)
def inline_parser() -> Any:
    """markdown-it configured for CommonMark + GFM tables, with inline parsing."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


_CACHE: "OrderedDict[str, Scan]" = OrderedDict()
_CACHE_SIZE = 16
_LABEL = re.compile(r"^(\*\*|__)(?!\s)(.+?)(?<!\s)\1\s*:?\s*$", re.DOTALL)
_CLOSING_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")


def bold_label(content: str) -> str | None:
    """The label of a paragraph that is only bold text (``**Reasoning:**``), else None."""
    if "\n" in content.strip():
        return None
    m = _LABEL.match(content.strip())
    if not m or m.group(1) in m.group(2):
        return None
    return m.group(2).strip()


def scan(text: str) -> Scan:
    """The block structure of ``text`` (cached: the repair plan rescans unchanged text)."""
    hit = _CACHE.get(text)
    if hit is not None:
        _CACHE.move_to_end(text)
        return hit
    result = _scan(text)
    _CACHE[text] = result
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result


def _scan(text: str) -> Scan:
    lines = split_lines(text)
    try:
        tokens = block_parser().parse(text)
    except RecursionError:  # pathological nesting: treat the text as one paragraph
        tokens = []
    sc = Scan(text, lines, tokens)
    nlines = len(lines)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type in ("fence", "code_block", "html_block") and tok.map:
            sc.code_lines.update(range(tok.map[0], min(tok.map[1], nlines)))
            if tok.type == "fence" and tok.level == 0:
                sc.fences.append(_fence(sc, tok))
        elif tok.type == "heading_open" and tok.level == 0 and tok.map:
            raw = tokens[i + 1].content if i + 1 < len(tokens) else ""
            setext = tok.markup in ("=", "-")
            sc.headings.append(Heading(int(tok.tag[1]), raw.strip(), tok.map[0], tok.map[1], setext))
        elif tok.type == "paragraph_open" and tok.level == 0 and tok.map:
            sc.paragraphs.append((tok.map[0], tok.map[1]))
        i += 1
    return sc


def _fence(sc: Scan, tok: Any) -> FenceBlock:
    start, end = tok.map[0], min(tok.map[1], len(sc.lines))
    closed = False
    if end - 1 > start:
        m = _CLOSING_FENCE.match(sc.line_text(end - 1))
        closed = bool(m and m.group(1)[0] == tok.markup[0] and len(m.group(1)) >= len(tok.markup))
    return FenceBlock(start, end, tok.markup, tok.info.strip(), closed)


def _indent_columns(line: str) -> int:
    """The column a line's text starts at (tabs stop every 4 columns)."""
    col = 0
    for ch in line:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            break
    return col


#: rounds of re-reading after labels were taken as headings (see :func:`label_lines`)
_LABEL_ROUNDS = 16


def _label_runs(sc: Scan, names: set[str], known: set[int]) -> tuple[list[tuple[int, str]], bool]:
    """The labels of ``sc``'s paragraphs not in ``known``: each paragraph's first line and
    the label lines right after it; and whether the rest of some paragraph must be re-read
    (it starts with something else than plain text, so it may not stay a paragraph)."""
    from .spec import normalize_section_name

    found: list[tuple[int, str]] = []
    again = False
    for start, end in sc.paragraphs:
        line = start
        while line < end and (line == start or _indent_columns(sc.line_text(line)) < 4):
            label = bold_label(sc.line_text(line))
            if label is None or normalize_section_name(label) not in names:
                break
            if line not in known:
                found.append((line, label))
            line += 1
        if start < line < end:
            rest = sc.line_text(line)
            # a line starting with a letter (indented < 4) starts a paragraph that runs on
            # as the old one did; anything else (indented code, "2." list, HTML, a link
            # definition...) may parse differently once it follows a heading
            if _indent_columns(rest) >= 4 or not rest.lstrip()[:1].isalpha():
                again = True
    return found, again


def label_lines(sc: Scan, names: set[str]) -> list[tuple[int, str]]:
    """``(line, label)`` of every bold label naming one of ``names`` (normalised section
    names), in document order.

    A label is a top-level paragraph's first line when that line is only bold text
    (``**Reasoning:**``). Read as a heading, it ends there, and the rest of its paragraph
    is read again on its own: so the next line is a label too when it is one
    (``**Assumptions:**\n**Assumptions:**`` is two labels), and when the rest starts with
    something else than plain text (indented code, a ``2.`` list, HTML) the text is read
    again with the labels found taken as headings, until no new label appears (at most
    ``_LABEL_ROUNDS`` rounds). The repair step that writes labels as headings uses this
    same reading, so a repaired reply holds no label left to convert."""
    if not names or not sc.paragraphs:
        return []
    found: dict[int, str] = {}
    current = sc
    for _round in range(_LABEL_ROUNDS):
        new, again = _label_runs(current, names, set(found))
        found.update(new)
        if not new or not again:
            break
        # the text as the repair step would write it: each label line an ATX heading
        lines = [current.line_text(i) for i in range(len(current.lines))]
        for line in found:
            lines[line] = "# " + found[line]
        current = scan("\n".join(lines))
    return sorted(found.items())


def with_labels(sc: Scan, names: set[str], level: int) -> list[Heading]:
    """The headings of ``sc`` plus bold labels naming one of ``names`` (normalised
    section names, see :func:`label_lines`), read as headings of ``level``; in document
    order. The rest of a label's paragraph is the section's first content."""
    heads = list(sc.headings)
    labels = label_lines(sc, names)
    if labels:
        heads += [Heading(level, label, line, line + 1, label=True) for line, label in labels]
        heads.sort(key=lambda h: h.line)
    return heads


def inline_text(markdown: str) -> str:
    """The text of an inline Markdown fragment without its syntax (emphasis, code
    backticks, link targets); soft and hard breaks become spaces."""
    if not markdown.strip():
        return ""
    try:
        tokens = inline_parser().parseInline(markdown)
    except RecursionError:
        return markdown
    parts: list[str] = []
    for tok in tokens:
        for child in tok.children or ():
            if child.type in ("text", "code_inline"):
                parts.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append(" ")
            elif child.type == "image":
                parts.append(child.content)
    return "".join(parts)
