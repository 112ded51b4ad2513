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

from formatbook_core.locating import CLOSING_FENCE

from ..contract.names import normalize_section_name

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
    from markdown_it import MarkdownIt  # noqa: PLC0415 - markdown-it-py loads on first use: importing the plugin stays cheap

    return MarkdownIt("commonmark").enable("table").disable(["inline", "text_join"])


@lru_cache(maxsize=1)
def inline_parser() -> Any:
    """markdown-it configured for CommonMark + GFM tables, with inline parsing."""
    from markdown_it import MarkdownIt  # noqa: PLC0415 - markdown-it-py loads on first use: importing the plugin stays cheap

    return MarkdownIt("commonmark").enable("table")


_CACHE: OrderedDict[str, Scan] = OrderedDict()
_CACHE_SIZE = 16
_LABEL = re.compile(r"^(\*\*|__)(?!\s)(.+?)(?<!\s)\1\s*:?\s*$", re.DOTALL)


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
        m = CLOSING_FENCE.match(sc.line_text(end - 1))
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


# a line that starts a paragraph wherever it stands, and that no block can take in: a
# letter or digit (not an ordered-list marker), emphasis, a code span, a quote or bracket
_PLAIN = re.compile(r" {0,3}(?:(?!\d{1,9}[.)](?:[ \t]|$))[^\W_]|[*_]+(?=[^\s*_])|`(?!``)|[\"'(])")


def label_lines(sc: Scan, names: set[str]) -> list[tuple[int, str]]:
    """``(line, label)`` of every bold label naming one of ``names`` (normalised section
    names), in document order.

    A label is a line of a top-level paragraph that is only bold text (``**Reasoning:**``):
    the paragraph's first line, or a line right after a label (``**Assumptions:**\n
    **Assumptions:**`` is two labels). Read as a heading, a label ends its paragraph and
    the next line starts a new one, so a label counts only when that changes nothing else:
    it is the paragraph's last line, or the next line is a label too, or plain text (a
    letter, a digit that is no list marker, emphasis, a code span...). Before ``<span>``,
    ``2. x``, indented text or a ``[x]: /url`` line it stays bold text: as a heading it
    would turn that line into HTML, a list, code or a link definition, and the repaired
    reply would read differently from the reply that was checked. The repair step that
    writes labels as headings uses this same reading."""

    def label_at(line: int) -> str | None:
        text = sc.line_text(line)
        if _indent_columns(text) >= 4:
            return None
        label = bold_label(text)
        return label if label is not None and normalize_section_name(label) in names else None

    found: list[tuple[int, str]] = []
    if not names:
        return found
    for start, end in sc.paragraphs:
        for line in range(start, end):
            label = label_at(line)
            if label is None:
                break
            nxt = line + 1
            following = nxt < end and label_at(nxt) is not None
            if nxt < end and not following and not _PLAIN.match(sc.line_text(nxt)):
                break
            found.append((line, label))
            if not following:
                break
    return found


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
