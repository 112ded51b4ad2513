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
from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from formatbook_core.collector import paused_gc
from formatbook_core.reply import CLOSING_FENCE, FENCE_LINE

from ..contract.names import normalize_section_name

#: Info strings that make a fenced block a Markdown container.
MARKDOWN_LANGS = frozenset({"markdown", "md"})

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class Line(NamedTuple):
    """One line: ``start``/``end`` offsets of its text (without the line ending) and
    ``next`` (the offset after its line ending)."""

    start: int
    end: int
    next: int


class Lines:
    """The lines of a text, as a sequence of :class:`Line`.

    Each ``Line`` is made when read, from two arrays of offsets: 16 bytes a line, where a list of ``Line`` tuples and their int objects
    took about 130 (a third of a checked reply of short headings)."""

    __slots__ = ("_ends", "_last", "starts")

    def __init__(self, starts: array[int], ends: array[int], last: int) -> None:
        #: each line's start offset; a line's ``next`` is the next line's start
        self.starts = starts
        self._ends = ends
        #: the last line's ``next``
        self._last = last

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i: int) -> Line:
        n = len(self.starts)
        if i < 0:
            i += n
        start, end = self.starts[i], self._ends[i]  # IndexError past the ends
        return Line(start, end, self.starts[i + 1] if i + 1 < n else self._last)

    def __iter__(self) -> Iterator[Line]:
        return map(self.__getitem__, range(len(self.starts)))

    def text(self, text: str, i: int) -> str:
        """Line ``i`` of ``text`` (without its line ending)."""
        return text[self.starts[i] : self._ends[i]]


class LineSet:
    """A set of line numbers held as ranges (what :attr:`Scan.code_lines` is): a fenced
    container around a whole reply makes every line a code line, and a ``set`` of them
    took about 60 bytes a line. Answers ``in``; :meth:`update` takes a ``range``."""

    __slots__ = ("_ends", "_starts")

    def __init__(self) -> None:
        #: sorted, disjoint half-open ranges ``[start, end)``, none touching the next
        self._starts: array[int] = array("q")
        self._ends: array[int] = array("q")

    def update(self, lines: range) -> None:
        """Add the lines of ``lines`` (a ``range`` of step 1)."""
        start, end = lines.start, lines.stop
        if start >= end:
            return
        starts, ends = self._starts, self._ends
        if not starts or start > ends[-1]:  # past the last range: the usual case, in document order
            starts.append(start)
            ends.append(end)
            return
        first = bisect_left(ends, start)  # the ranges this one overlaps or touches
        last = bisect_right(starts, end)
        if first < last:
            start, end = min(start, starts[first]), max(end, ends[last - 1])
        starts[first:last] = array("q", [start])
        ends[first:last] = array("q", [end])

    def __contains__(self, line: object) -> bool:
        if not isinstance(line, int):
            return False
        at = bisect_right(self._starts, line) - 1
        return at >= 0 and line < self._ends[at]

    def __iter__(self) -> Iterator[int]:
        for start, end in zip(self._starts, self._ends, strict=True):
            yield from range(start, end)

    def __len__(self) -> int:
        return sum(end - start for start, end in zip(self._starts, self._ends, strict=True))

    def __bool__(self) -> bool:
        return bool(self._starts)


def split_lines(text: str) -> Lines:
    """The lines of ``text`` with their offsets (a final line ending starts no new line)."""
    starts, ends = array("q"), array("q")
    n = len(text)
    if "\r" not in text:  # the common case, without a regex
        pos, find = 0, text.find
        add_start, add_end = starts.append, ends.append
        while pos < n:
            add_start(pos)
            nl = find("\n", pos)
            if nl < 0:
                add_end(n)
                return Lines(starts, ends, n)
            add_end(nl)
            pos = nl + 1
        return Lines(starts, ends, n)
    last = n
    for m in _LINE.finditer(text):
        starts.append(m.start())
        ends.append(m.start() + len(m.group(0).rstrip("\r\n")))
        last = m.end()
    return Lines(starts, ends, last)


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading at the top level of the document (not inside a list or quote).

    ``line``/``end_line``: its line range (two lines for a setext heading); ``raw``: the
    heading text as written (emphasis kept); ``setext``: underlined with ``=`` or ``-``;
    ``label``: a paragraph line read as a heading by the section matcher (a bold label
    ``**Reasoning:**``, ``##Reasoning``; see :func:`label_lines`), ``rest`` the text
    after a bold label on its line.
    """

    level: int
    raw: str
    line: int
    end_line: int
    setext: bool = False
    label: bool = False
    #: a label's text after it on the same line (``**Short answer:** Yes.``)
    rest: str = ""


@dataclass(frozen=True, slots=True)
class FenceBlock:
    """A fenced code block at the top level: its line range, opening ``marker``
    (```` ``` ```` or ``~~~``, any length), ``info`` string and whether it is closed."""

    line: int
    end_line: int
    marker: str
    info: str
    closed: bool
    #: a Markdown container closed where a reader closes it, past the bare fence that
    #: closes it for CommonMark (that fence closes a tagged block inside: see
    #: :func:`_reader_end`); its fence must be longer to be read so
    nested: bool = False

    @property
    def lang(self) -> str:
        """The first word of the info string, lower case."""
        parts = self.info.split(maxsplit=1)
        return parts[0].lower() if parts else ""


@dataclass
class Scan:
    """The block structure of ``text``."""

    text: str
    lines: Lines
    #: markdown-it's block tokens as records (see :func:`parse_blocks`)
    tokens: list[Block]
    headings: list[Heading] = field(default_factory=list)
    fences: list[FenceBlock] = field(default_factory=list)
    #: line numbers inside fenced or indented code, or raw HTML blocks
    code_lines: LineSet = field(default_factory=LineSet)
    #: (first line, end line) of every top-level paragraph
    paragraphs: list[tuple[int, int]] = field(default_factory=list)

    def line_text(self, i: int) -> str:
        return self.lines.text(self.text, i)

    def offset(self, line: int) -> int:
        """The offset where ``line`` starts (``len(text)`` past the last line)."""
        if line < len(self.lines):
            return self.lines.starts[line]
        return len(self.text)

    def slice(self, start_line: int, end_line: int) -> str:
        """The text of lines ``[start_line, end_line)`` with their line endings."""
        if start_line >= end_line:
            return ""
        # a line's end with its line ending is the next line's start (the last one's: the text's end)
        end = self.lines.starts[end_line] if end_line < len(self.lines) else len(self.text)
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
#: The characters the cached texts may hold together: a scan keeps markdown-it's tokens,
#: about 80 bytes per character of its text, so sixteen large replies checked one after
#: the other kept gigabytes alive. The latest scan is always kept (the repair plan asks
#: for it again); older ones go while the texts hold more than this.
_CACHE_CHARS = 1 << 20


def bold_label(line: str) -> tuple[str, str] | None:
    """``(label, rest)`` when ``line`` starts with a bold label: ``**Reasoning:**`` alone
    (``rest`` empty; the colon optional), or followed by text on the same line
    (``**Short answer:** Yes.``; the colon, inside or right after the bold text, is then
    required: ``**Note** that...`` is a sentence). ``None`` otherwise. A scan, not a
    regular expression: linear whatever follows."""
    s = line.strip()
    delim = s[:2]
    if delim not in ("**", "__") or len(s) < 5 or s[2].isspace():
        return None
    close = s.find(delim, 3)
    if close < 0:
        return None
    label = s[2:close]
    if label[-1].isspace() or delim[0] in (label[0], label[-1]):
        return None
    after = s[close + 2 :]
    colon = label.endswith(":")
    if after.startswith(":"):
        if colon:
            return None  # '**A:**:' is no label
        after, colon = after[1:], True
    if after.strip() and (not colon or not after[:1].isspace()):
        return None
    label = label.rstrip(":").strip()
    return (label, after.strip()) if label else None


def strip_closing_sequence(title: str) -> str:
    """An ATX heading's text without its closing ``#`` sequence (``Reasoning ##`` →
    ``Reasoning``; a title that is only ``#`` marks is empty) and the blanks around it.
    A scan: ``[ \t]+#+[ \t]*$`` is quadratic on spaces."""
    s = title.rstrip(" \t")
    bare = s.rstrip("#")
    if bare != s and (not bare or bare[-1] in " \t"):
        s = bare
    return s.strip(" \t")


def hash_heading(line: str) -> tuple[int, str] | None:
    """``(level, title)`` of a line that is a heading missing the space after its ``#``
    run (``##Short answer``: CommonMark reads it as text), else ``None``."""
    s = line.lstrip(" ")
    if len(line) - len(s) > 3 or not s.startswith("#"):
        return None
    hashes = len(s) - len(s.lstrip("#"))
    title = s[hashes:]
    if hashes > 6 or not title or title[0].isspace():
        return None
    return hashes, strip_closing_sequence(title)


#: What every code or HTML block of markdown-it opens with or holds (see
#: :func:`code_lines_of`): a fence's three backticks or tildes, an HTML block's ``<``, a
#: code block's indentation of four columns (four spaces or a tab: a list item's or a
#: quote's prefix takes markers, the indentation past it is written out)
_CODE_MARKS = ("```", "~~~", "<", "\t", "    ")


def code_lines_of(text: str) -> tuple[Lines, LineSet] | None:
    """``(lines, code_lines)`` of ``text`` as :func:`scan` finds them, without parsing it,
    when ``text`` holds none of :data:`_CODE_MARKS` (no fenced, indented or HTML block can
    stand in it: its code lines are none); else ``None`` (scan it). For the readers of a
    section's text that need only its lines and which of them are code (its list, its
    tables): a section is a stretch of a scanned reply, and its own parse, a second full
    one of the text with every token's record, is seldom needed."""
    for mark in _CODE_MARKS:
        if mark in text:
            return None
    return split_lines(text), LineSet()


def scan(text: str) -> Scan:
    """The block structure of ``text`` (cached: the repair plan rescans unchanged text)."""
    hit = _CACHE.get(text)
    if hit is not None:
        _CACHE.move_to_end(text)
        return hit
    result = _scan(text)
    _CACHE[text] = result
    chars = sum(map(len, _CACHE))
    while len(_CACHE) > 1 and (len(_CACHE) > _CACHE_SIZE or chars > _CACHE_CHARS):
        chars -= len(_CACHE.popitem(last=False)[0])
    return result


#: the tokens nothing in the plugin reads: a table's inside (head, body, rows, cells; a
#: cell's text is its ``inline`` token, kept, and so are ``table_open``/``table_close``),
#: and the closing tokens of paragraphs, list items and quotes (no map, never read: a
#: list's own closing token is read). Eight of a three-column row's eleven tokens, two of
#: a list item's five. A heading's closing token goes too: a heading is one record, its
#: ``heading_open`` carrying the text (see :class:`_Kept`)
_UNREAD = frozenset(
    [f"{part}_{end}" for part in ("thead", "tbody", "tr", "th", "td") for end in ("open", "close")]
    + ["paragraph_close", "list_item_close", "blockquote_close", "heading_close"]
)

#: the tokens whose map markdown-it ends only after their content is parsed (its rule
#: keeps the map list and sets its end last)
_OPEN_ENDED = frozenset(["bullet_list_open", "ordered_list_open", "list_item_open", "blockquote_open", "table_open"])


@dataclass(slots=True, eq=False)
class Block:
    """What the plugin reads of one of markdown-it's block tokens.

    Its ``type``, nesting ``level``, line range ``line``/``end`` (``line`` is ``None``
    for a token without a map, and ``end`` then 0), ``content`` (an ``inline`` token's
    text, a heading's text, a code block's code), ``markup`` and ``info`` (a fence's marker and info
    string, a heading's ``#`` run or setext underline character). Read-only: the scan
    shares one record between all the closing tokens of a type at a level."""

    type: str
    level: int
    line: int | None
    end: int
    content: str
    markup: str
    info: str

    @property
    def map(self) -> list[int] | None:
        """markdown-it's ``map``: ``[line, end]``, or ``None``."""
        return None if self.line is None else [self.line, self.end]

    @property
    def hidden(self) -> bool:
        """Always false: markdown-it's list rule marks a tight list's paragraphs hidden,
        which only renderers read; the mark is dropped."""
        return False

    @hidden.setter
    def hidden(self, value: bool) -> None:
        pass


class _Kept(list[Any]):
    """The scan's token stream, built as markdown-it parses.

    A token of :data:`_UNREAD` is dropped as a rule pushes it, and every other one becomes a :class:`Block` when
    the next token is pushed (a rule sets a token's fields right after pushing it; the
    maps of :data:`_OPEN_ENDED` tokens, ended later, are read by :meth:`finish`). So
    markdown-it's tokens (a slotted object with a map list, two dicts and a children
    list, about 350 bytes each) are never all alive at once: a table of 10 MB held
    2.5 GB of them, and 400,000 headings 480 bytes per character of text. Of the block
    rules, only the list rule reads tokens back: ``type`` and ``level``, to mark a tight
    list's paragraphs hidden (a :class:`Block` takes the mark and drops it; with the
    closing paragraph tokens dropped it falls on the token after the paragraph's text,
    and only renderers read it), and, with the ``tasklists`` option (off here), the
    list's items."""

    __slots__ = ("_open", "_closers", "_numbers")

    def __init__(self) -> None:
        super().__init__()
        #: the records of open-ended tokens and markdown-it's map lists, ended later
        self._open: list[tuple[Block, list[int]]] = []
        #: one shared record per (type, level) of a token without map or content
        self._closers: dict[tuple[str, int], Block] = {}
        #: the int objects of the line numbers the last records hold (see :meth:`_numbered`)
        self._numbers: dict[int, int] = {}

    def _numbered(self, lines: list[int]) -> tuple[int, int]:
        """A map's two line numbers as int objects the records of nearby lines share:
        markdown-it makes new ints for each token's map (a table cell's ``[row, row +
        1]``), 32 bytes a record past line 256, four a three-cell row where one does.
        Records come in document order, so the numbers of the last lines met are kept,
        64 or so (the table is emptied when full)."""
        numbers = self._numbers
        if len(numbers) >= 64:
            numbers.clear()
        line, end = lines
        return numbers.setdefault(line, line), numbers.setdefault(end, end)

    def append(self, token: Any) -> None:
        if self and type(self[-1]) is not Block:
            self._settle()
        if token.type not in _UNREAD:
            list.append(self, token)

    def finish(self) -> list[Block]:
        """The records, every map ended (markdown-it has returned)."""
        if self and type(self[-1]) is not Block:
            self._settle()
        for rec, lines in self._open:
            rec.end = self._numbered(lines)[1]
        self._open.clear()
        self._closers.clear()
        self._numbers.clear()
        return self

    def _settle(self) -> None:
        """Make the last token a record; a heading's text (the ``inline`` token right
        after its ``heading_open``) goes into the heading's record instead."""
        tok = self[-1]
        kind, lines, content = tok.type, tok.map, tok.content
        if lines is None:
            if content:
                self[-1] = Block(kind, tok.level, None, 0, content, tok.markup, tok.info)
                return
            key = (kind, tok.level)
            shared = self._closers.get(key)
            if shared is None:
                shared = self._closers[key] = Block(kind, tok.level, None, 0, "", tok.markup, tok.info)
            self[-1] = shared
        elif kind == "inline":
            if len(self) > 1 and self[-2].type == "heading_open":
                self[-2].content = content
                del self[-1]
            else:
                self[-1] = Block(kind, tok.level, *self._numbered(lines), content, tok.markup, tok.info)
        else:
            rec = self[-1] = Block(kind, tok.level, *self._numbered(lines), content, tok.markup, tok.info)
            if kind in _OPEN_ENDED:
                self._open.append((rec, lines))


def parse_blocks(text: str) -> list[Block]:
    """The block tokens of ``text`` as :class:`Block` records, none that nothing reads
    (see :class:`_Kept`)."""
    from markdown_it.rules_core import StateCore  # noqa: PLC0415 - with markdown-it, on first use

    md = block_parser()
    kept = _Kept()
    state = StateCore(text, md, {})
    state.tokens = kept
    md.core.process(state)
    return kept.finish()


def _scan(text: str) -> Scan:
    lines = split_lines(text)
    with paused_gc():
        try:
            tokens = parse_blocks(text)
        except RecursionError:  # pathological nesting: treat the text as one paragraph
            tokens = []
    sc = Scan(text, lines, tokens)
    nlines = len(lines)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        kind, line = tok.type, tok.line
        if line is None:
            pass
        elif kind in ("fence", "code_block", "html_block"):
            sc.code_lines.update(range(line, min(tok.end, nlines)))
            if kind == "fence" and tok.level == 0:
                sc.fences.append(_fence(sc, tok, line))
        elif kind == "heading_open" and tok.level == 0:
            raw = tok.content  # the heading's text (see _Kept)
            # an ATX heading's markup is its '#' run; a setext one's its underline's character
            setext = tok.markup in ("=", "-")
            level = (1 if tok.markup == "=" else 2) if setext else len(tok.markup)
            sc.headings.append(Heading(level, raw.strip(), line, tok.end, setext))
        elif kind == "paragraph_open" and tok.level == 0:
            sc.paragraphs.append((line, tok.end))
        i += 1
    _pair_containers(sc)
    return sc


def _pair_containers(sc: Scan) -> None:
    """Close each Markdown container where a reader closes it: a ```` ```markdown ````
    block holding a tagged block (```` ```python ````) is, for CommonMark, closed by that
    block's bare closing fence; a reader pairs that fence with the tagged one and closes
    the container at the next bare fence. What CommonMark read inside the container as
    the reader pairs it (headings, paragraphs, fences) is no longer top-level."""
    i = 0
    while i < len(sc.fences):
        f = sc.fences[i]
        i += 1
        if f.lang not in MARKDOWN_LANGS or not f.closed:
            continue
        end = _reader_end(sc, f)
        if end is None or end <= f.end_line:
            continue
        sc.fences[i - 1] = FenceBlock(f.line, end, f.marker, f.info, True, nested=True)
        sc.fences[i:] = [g for g in sc.fences[i:] if g.line >= end]
        sc.headings = [h for h in sc.headings if not f.line < h.line < end]
        sc.paragraphs = [p for p in sc.paragraphs if not f.line < p[0] < end]
        sc.code_lines.update(range(f.line, end))


def _reader_end(sc: Scan, f: FenceBlock) -> int | None:
    """The end line of container ``f`` as a reader pairs fences: inside it a fence with
    an info string opens a block that the next bare fence of its kind (as long or
    longer) closes; the container closes at the first bare fence of its own kind found
    outside such a block. ``None`` when the text ends first."""
    char, length = f.marker[0], len(f.marker)
    inner: tuple[str, int] | None = None
    for i in range(f.line + 1, len(sc.lines)):
        text = sc.line_text(i)
        closing = CLOSING_FENCE.match(text)
        if inner is not None:
            if closing and closing.group(1)[0] == inner[0] and len(closing.group(1)) >= inner[1]:
                inner = None
            continue
        if closing:
            if closing.group(1)[0] == char and len(closing.group(1)) >= length:
                return i + 1
            continue
        m = FENCE_LINE.match(text)
        if m and m.group(3).strip() and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            inner = (m.group(2)[0], len(m.group(2)))
    return None


def _fence(sc: Scan, tok: Block, start: int) -> FenceBlock:
    end = min(tok.end, len(sc.lines))
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


class Label(NamedTuple):
    """A paragraph line read as a section heading: its ``line``, the section ``label``
    as written, the ``rest`` of the line after a bold label (the section's first
    content) and the heading ``level`` it has (``None``: the sections' level)."""

    line: int
    label: str
    rest: str = ""
    level: int | None = None


# a list item's start: text after a label may open the section's list
_ITEM_START = re.compile(r"(?:[-*+]|\d{1,9}[.)])[ \t]")


def label_lines(sc: Scan, names: set[str]) -> list[Label]:
    """Every line of a top-level paragraph that is a section heading in all but syntax,
    naming one of ``names`` (normalised section names), in document order: a bold label
    (``**Reasoning:**``, or ``**Short answer:** Yes.`` with the text after it as the
    section's first line) or a heading without the space after its ``#`` run
    (``##Reasoning``). Any line of the paragraph counts, consecutive labels too.

    Read as a heading, such a line ends the paragraph above it and the next line starts
    a new one, so it counts only when that changes nothing else: it is the paragraph's
    last line, or the next line is a label too, or plain text (a letter, a digit that is
    no list marker, emphasis, a code span...). Before ``<span>``, ``2. x``, indented text
    or a ``[x]: /url`` line it stays text: as a heading it would turn that line into
    HTML, a list, code or a link definition, and the repaired reply would read
    differently from the reply that was checked. The text after a bold label goes on a
    line of its own, so it must be plain text or a list item's start. The repair step
    that writes labels as headings uses this same reading."""

    def label_at(line: int) -> Label | None:
        text = sc.line_text(line)
        if _indent_columns(text) >= 4:
            return None
        found = bold_label(text)
        if found is not None:
            label, rest = found
            if normalize_section_name(label) not in names:
                return None
            if rest and not (_PLAIN.match(rest) or _ITEM_START.match(rest)):
                return None
            return Label(line, label, rest)
        hashed = hash_heading(text)
        if hashed is not None and normalize_section_name(hashed[1]) in names:
            return Label(line, hashed[1], "", hashed[0])
        return None

    found: list[Label] = []
    if not names:
        return found
    for start, end in sc.paragraphs:
        for line in range(start, end):
            label = label_at(line)
            if label is None:
                continue
            nxt = line + 1
            if nxt < end and label_at(nxt) is None and not _PLAIN.match(sc.line_text(nxt)):
                continue
            found.append(label)
    return found


def with_labels(sc: Scan, names: set[str], level: int) -> list[Heading]:
    """The headings of ``sc`` plus the labels naming one of ``names`` (normalised
    section names, see :func:`label_lines`), read as headings (bold labels at ``level``);
    in document order. What follows a label is the section's content."""
    heads = list(sc.headings)
    labels = label_lines(sc, names)
    if labels:
        heads += [Heading(lb.level or level, lb.label, lb.line, lb.line + 1, label=True, rest=lb.rest) for lb in labels]
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
