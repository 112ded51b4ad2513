"""One parse of a reply by html5lib's WHATWG parser, with the errors it reports, the
offsets they stand at, and the limits that keep a hostile reply linear.

A reply that starts (after white space) with ``<!DOCTYPE`` or ``<html`` is a document;
anything else a fragment parsed in a ``body`` context (:func:`mode_of`).

The text is given to html5lib through a reader whose end is known: every error html5lib
reports before it asked the reader for more text and got none is *definite* (any text
that continues this one gets it too: the parser is deterministic and has not looked
further); the errors after that are *end-of-input* errors (``<div>`` left open, a tag
cut in the middle), which a continuation may avoid. ``can_be_valid`` and the streaming
checker rest on that split.

Line breaks are normalised here (``\\r\\n`` and ``\\r`` to ``\\n``) before html5lib sees
them, so that offsets into what html5lib reads map back to the reply exactly
(:class:`Offsets`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from formatbook_core.collector import paused_gc

from .tree import Limit, classes

#: Attributes one tag may have: html5lib checks each new attribute against every earlier
#: one of its tag (quadratic in their number), so a tag with more is refused.
MAX_ATTRIBUTES = 100

DOCUMENT = "document"
FRAGMENT = "fragment"
_DOCTYPE = "<!doctype"
_HTML = "<html"
_SPACE = " \t\n\r\f"


def mode_of(text: str) -> str | None:
    """``"document"``, ``"fragment"``, or ``None`` while the start of ``text`` could still
    become either (``"<!DOC"``, ``"<htm"``, ``"<html"`` before the next character)."""
    stripped = text.lstrip(_SPACE)
    head = stripped[:10].lower()
    if head.startswith(_DOCTYPE):
        return DOCUMENT
    if head.startswith(_HTML):
        if len(head) == len(_HTML):
            return None
        return DOCUMENT if head[len(_HTML)] in _SPACE + ">/" else FRAGMENT
    if _DOCTYPE.startswith(head) or _HTML.startswith(head):
        return None  # empty, "<", "<!d", "<ht"...
    return FRAGMENT


class Offsets:
    """Normalises line breaks and maps offsets in the normalised text back to the reply."""

    def __init__(self, text: str):
        self.removed: list[int] = []  # normalised offsets of the "\n" of each "\r\n"
        if "\r" not in text:
            self.text = text
            return
        out: list[str] = []
        pos = 0
        dropped = 0
        while True:
            cr = text.find("\r", pos)
            if cr < 0:
                out.append(text[pos:])
                break
            out.append(text[pos:cr])
            if text.startswith("\r\n", cr):
                self.removed.append(cr - dropped)
                dropped += 1
                pos = cr + 1  # the "\n" is kept
            else:
                out.append("\n")
                pos = cr + 1
        self.text = "".join(out)

    def original(self, offset: int) -> int:
        """The reply offset of normalised offset ``offset``."""
        if not self.removed:
            return offset
        return offset + bisect_right(self.removed, offset)


@dataclass
class ParseError:
    """One error html5lib reported: normalised ``offset`` (just after the character that
    showed it), html5lib's ``code`` and message variables, and whether it came after the
    end of the text was reached (``at_end``)."""

    offset: int
    code: str
    datavars: dict[str, Any]
    at_end: bool


@dataclass
class Parsed:
    """What one parse gives: the tree ``root`` (a document or a fragment node), the errors
    kept (at most ``keep`` of them) and their total ``count``, the ``limit`` passed (the
    parse stopped there), the number of ``start_tags`` read, the elements still open when
    the input ended (``open_at_end``) and the normalised text with its offsets."""

    mode: str
    offsets: Offsets
    root: Any = None
    errors: list[ParseError] = field(default_factory=list)
    count: int = 0
    definite: int = 0  # errors reported before the end of the text was reached
    limit: Limit | None = None
    start_tags: int = 0
    open_at_end: list[Any] = field(default_factory=list)
    stopped: bool = False  # the parse stopped early on purpose (stop_after)
    limit_at_end: bool = False  # the limit was passed after the end of the text was reached


class Stop(Exception):
    """Raised out of the parse to stop it early (enough errors seen)."""


class TextReader:
    """The file-like object html5lib reads from: the whole text, then the end."""

    def __init__(self, text: str):
        self._text = text
        self._pos = 0
        self.at_end = False

    def read(self, size: int = -1) -> str:
        if size == 0:
            return ""
        start = self._pos
        end = len(self._text) if size is None or size < 0 else min(len(self._text), start + size)
        self._pos = end
        if end == start:
            self.at_end = True
        return self._text[start:end]


_PARSER: dict[str, Any] = {}


def parser_class() -> Any:
    """The html5lib parser subclass (built once, on first use)."""
    if _PARSER:
        return _PARSER["parser"]
    from html5lib import html5parser  # noqa: PLC0415 - html5lib is a lazy dependency
    from html5lib._inputstream import HTMLUnicodeInputStream  # noqa: PLC0415
    from html5lib._tokenizer import HTMLTokenizer  # noqa: PLC0415
    from html5lib.constants import EOF, tokenTypes  # noqa: PLC0415

    start_tag = tokenTypes["StartTag"]

    class Stream(HTMLUnicodeInputStream):
        """html5lib's input stream, counting the characters of the chunks read before."""

        def reset(self) -> None:
            super().reset()
            self.base = 0

        def readChunk(self, chunkSize: Any = None) -> Any:
            self.base += self.chunkSize
            return super().readChunk(chunkSize)

        def unget(self, char: Any) -> None:
            if char is not EOF and self.chunkOffset == 0:
                self.base -= 1  # html5lib prepends the character to the chunk
            super().unget(char)

        def offset(self) -> int:
            return self.base + self.chunkOffset

    class Tokenizer(HTMLTokenizer):
        def __init__(self, source: Any, parser: Any):
            super().__init__(source, parser=parser)
            self.stream = Stream(source)

        def attributeNameState(self) -> Any:
            if len(self.currentToken["data"]) > MAX_ATTRIBUTES:
                raise Limit(
                    "html.too_complex", f"a tag has more than {MAX_ATTRIBUTES} attributes", self.stream.offset()
                )
            return super().attributeNameState()

        def emitCurrentToken(self) -> None:
            if self.currentToken["type"] == start_tag:
                self.parser.start_tags += 1
            super().emitCurrentToken()

        def __iter__(self) -> Any:
            yield from super().__iter__()
            self.parser.open_at_end = list(self.parser.tree.openElements)

    class Parser(html5parser.HTMLParser):
        def __init__(self, reader: Any, max_depth: int, keep: int, stop_after: int | None, definite_only: bool):
            tree = classes()["TreeBuilder"]
            super().__init__(tree=tree, namespaceHTMLElements=True)
            self.reader = reader
            self.keep = keep
            self.stop_after = stop_after
            self.definite_only = definite_only
            self.tree.max_depth = max_depth
            self.kept: list[ParseError] = []
            self.count = 0
            self.definite = 0
            self.start_tags = 0
            self.open_at_end: list[Any] = []
            self.tree.on_foster_text = self._foster_text

        def _parse(
            self, stream: Any, innerHTML: bool = False, container: str = "div", scripting: bool = False, **kw: Any
        ) -> None:
            self.innerHTMLMode = innerHTML
            self.container = container
            self.scripting = scripting
            self.tokenizer = Tokenizer(stream, parser=self)
            self.tree.offset = self.tokenizer.stream.offset
            self.reset()
            self.mainLoop()

        def reset(self) -> None:
            super().reset()
            self.kept, self.count, self.definite, self.start_tags = [], 0, 0, 0

        def parseError(self, errorcode: str = "XXX-undefined-error", datavars: Any = None) -> None:
            at_end = self.reader.at_end
            if self.definite_only and at_end:
                return
            self.count += 1
            if not at_end:
                self.definite += 1
            if len(self.kept) < self.keep:
                offset = self.tokenizer.stream.offset()
                self.kept.append(ParseError(offset, errorcode, dict(datavars or {}), at_end))
            if self.stop_after is not None and self.count >= self.stop_after:
                raise Stop

        def _foster_text(self, data: str) -> None:
            # html5lib moves such text before the table without a word; the standard
            # calls it a parse error, and so do we
            self.parseError("foster-parented-text", {"data": data.strip()[:40]})

    _PARSER["parser"] = Parser
    return Parser


def new_parser(
    reader: Any, *, max_depth: int = 1000, keep: int = 50, stop_after: int | None = None, definite_only: bool = False
) -> Any:
    """An html5lib parser reading from ``reader`` (see :func:`parse` for the arguments)."""
    return parser_class()(reader, max_depth, keep, stop_after, definite_only)


def run(parser: Any, reader: Any, mode: str, offsets: Any) -> Parsed:
    """Run ``parser`` over what ``reader`` gives, as a ``mode`` parse; never raises."""
    out = Parsed(mode, offsets)
    try:
        if mode == DOCUMENT:
            out.root = parser.parse(reader)
        else:
            out.root = parser.parseFragment(reader, container="body")
    except Stop:
        out.stopped = True
    except Limit as err:
        out.limit = err
    except RecursionError:
        out.limit = Limit("html.too_deep", "the document is nested too deeply to parse", _where(parser))
    except (ValueError, OverflowError) as err:
        # html5lib reads a numeric character reference with int(): more than 4,300 digits
        # is refused by Python
        out.limit = Limit("html.too_complex", f"html5lib cannot read the text: {err}", _where(parser))
    out.limit_at_end = out.limit is not None and bool(reader.at_end)
    out.errors = parser.kept
    out.count = parser.count
    out.definite = parser.definite
    out.start_tags = parser.start_tags
    out.open_at_end = parser.open_at_end
    return out


def parse(
    text: str,
    mode: str | None = None,
    *,
    max_depth: int = 1000,
    keep: int = 50,
    stop_after: int | None = None,
    definite_only: bool = False,
) -> Parsed:
    """Parse ``text`` (a reply, or a prefix of one) as html5lib does; never raises.

    ``keep`` errors are kept with their offsets (all are counted); with ``stop_after``
    the parse stops after that many errors; with ``definite_only`` end-of-input errors
    are not counted at all (for prefixes).
    """
    offsets = Offsets(text)
    reader = TextReader(offsets.text)
    parser = new_parser(reader, max_depth=max_depth, keep=keep, stop_after=stop_after, definite_only=definite_only)
    with paused_gc():
        return run(parser, reader, mode or mode_of(text) or FRAGMENT, offsets)


def _where(parser: Any) -> int:
    try:
        return int(parser.tokenizer.stream.offset())
    except Exception:  # the parse failed before the tokenizer existed
        return 0


def discard(parsed: Parsed | None) -> None:
    """Take ``parsed``'s tree apart, so that reference counting frees it at once.

    Every node points to its parent (and html5lib's parser to the tree), so a dropped tree
    is freed only by the cyclic garbage collector, whose full pass over a megabyte's tree
    costs a noticeable pause at an unpredictable later moment; taking the tree apart when
    it is done with costs one walk, here."""
    if parsed is None or parsed.root is None:
        return
    stack = [parsed.root]
    parsed.root = None
    parsed.open_at_end = []
    while stack:
        node = stack.pop()
        node.parent = None
        children = getattr(node, "childNodes", None)
        if children:
            stack.extend(children)
            node.childNodes = []


def line_col(text: str, offset: int) -> tuple[int, int]:
    """Line (1-based) and column of ``offset`` in the normalised ``text``, as html5lib
    gives them: the column is the 1-based column of the character just before
    ``offset`` (the one that showed the error), 0 at the start of a line."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1)


class LineIndex:
    """:func:`line_col` of many offsets in one text: the line starts found once."""

    def __init__(self, text: str):
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._starts = starts
        self._length = len(text)

    def __call__(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, self._length))
        line = bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1]
