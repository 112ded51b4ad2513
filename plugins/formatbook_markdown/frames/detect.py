"""Finding Flex-MD objects in arbitrary text (the spec's layer C).

Tiers, from the most to the least certain (fences are found by markdown-it-py, a real
CommonMark parser: a ```` ``` ```` line inside an indented code block is no fence):

1. ``flexmd_fence`` — a fenced block whose info string starts with ``flexmd`` or
   ``flex-md`` (confidence 0.95; 0.8 when the text ends before the closing fence);
   ``inner`` is the block's content.
2. ``flexdoc_json_fence`` — a ```` ```json ```` block whose content parses as a JSON
   object with a ``frames`` list of objects (confidence 0.9).
3. ``raw_flexmd`` — outside those fences, a frame header line (``[[type ...]]`` or
   ``## [[type ...]]``) such that the 40 lines from it (lines inside fenced or indented
   code left out) hold at least two strong markers — frame headers, ``@key:`` meta lines,
   ``@payload:name:`` lines — of which that header is one. A frame header is required,
   so two ``@name:`` lines of chat are not taken for Flex-MD. The object starts at that
   header (or at the ``# title`` / ``@key:`` lines just above it) and runs to the next
   object or the end of the text (frames run to the end). Confidence
   ``min(0.85, 0.55 + 0.1 × markers)``.
4. ``markdown_snippet`` — every other stretch of non-blank text, trimmed: confidence 0.5
   when a line of it shows Markdown structure (an ATX heading, list item, table
   separator row, block quote, fence or rule), else 0.3.

``none`` (confidence 0, the whole text) is the only object of a blank text.
Objects come in text order; ``start``/``end`` are offsets into the text as given and
``raw == text[start:end]``.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from typing import Literal

from formatbook_core.reply import LINE_BREAK

from .header import HeaderError, read_header
from .json_form import flex_document_from_dict, is_flex_document_shape
from .model import FlexDocument
from .parse import parse_flex_md

__all__ = ["DetectedKind", "DetectedObject", "ParseAnyResult", "detect_objects", "parse_any", "SNIFF_LINES"]

DetectedKind = Literal["flexmd_fence", "flexdoc_json_fence", "raw_flexmd", "markdown_snippet", "none"]

SNIFF_LINES = 40  # the "first N lines" of the spec's raw sniff

_META = re.compile(r"^@[A-Za-z_][\w.-]*:(?:[ \t]|$)")
_PAYLOAD = re.compile(r"^@payload:name:[ \t]*\S")
_TITLE = re.compile(r"^ {0,3}#[ \t]+\S")
_FLEX_INFOS = ("flexmd", "flex-md")
# Markdown structure in a snippet: a heading, block quote, list item, rule, fence or a
# table's separator row (a cheap line test; it only sets a snippet's confidence)
_STRUCTURE = re.compile(
    r"^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|[-*+][ \t]|\d{1,9}[.)][ \t]|(?:[-*_][ \t]*){3,}$|```|~~~)"
    r"|^ {0,3}\|?[ \t]*:?-+:?[ \t]*\|",
    re.MULTILINE,
)
# any fence marker, anywhere: a cheap test before the parse (a fence line needs more)
_FENCE_MARK = re.compile(r"```|~~~")


@dataclass(frozen=True)
class DetectedObject:
    """A detected object: its ``kind``, a ``confidence`` in [0, 1], ``start``/``end``
    offsets into the text, the ``raw`` text there and, for fenced blocks, ``inner`` (the
    block's content)."""

    kind: DetectedKind
    confidence: float
    start: int
    end: int
    raw: str
    inner: str | None = None


@dataclass
class ParseAnyResult:
    """``flex_docs``: one :class:`FlexDocument` per Flex-MD object, in text order;
    ``markdown_snippets``: the other stretches of text; ``remainder``: the text with the
    Flex-MD objects taken out (the stretches left, trimmed, joined by a blank line)."""

    flex_docs: list[FlexDocument] = field(default_factory=list)
    markdown_snippets: list[str] = field(default_factory=list)
    remainder: str = ""


_parser = None


def _markdown():
    global _parser
    if _parser is None:
        from markdown_it import MarkdownIt  # noqa: PLC0415 - markdown-it-py loads on first use: importing the plugin stays cheap

        # only fences are needed: inline parsing and setext headings are most of the cost
        _parser = MarkdownIt("commonmark", {"maxNesting": 100}).disable(["inline", "lheading"])
    return _parser


class _Lines:
    """Line start/end offsets, counting ``\\r\\n``, ``\\r`` and ``\\n`` as markdown-it does."""

    def __init__(self, text: str):
        self.starts = [0]
        self.ends: list[int] = []
        for m in LINE_BREAK.finditer(text):
            self.ends.append(m.start())
            self.starts.append(m.end())
        self.ends.append(len(text))
        self.text = text

    def __len__(self) -> int:
        return len(self.starts)

    def line(self, i: int) -> str:
        return self.text[self.starts[i] : self.ends[i]]


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _is_header(line: str) -> bool:
    try:
        return read_header(line) is not None
    except HeaderError:
        return False


def _is_marker(line: str) -> bool:
    return _PAYLOAD.match(line) is not None or _META.match(line) is not None or _is_header(line)


def detect_objects(text: str) -> list[DetectedObject]:
    """The Flex-MD objects and Markdown snippets in ``text``, in text order (see the module
    docstring for the tiers). A blank text gives one ``none`` object. Never raises on any
    ``str`` (a non-``str`` raises ``TypeError``)."""
    if not isinstance(text, str):
        raise TypeError(f"detect_objects reads str, not {type(text).__name__}")
    if not text.strip():
        return [DetectedObject("none", 0.0, 0, len(text), text)]
    lines = _Lines(text)
    n = len(lines)
    in_code = bytearray(n)  # lines inside fenced or indented code
    flex: list[DetectedObject] = []
    # Without a fence marker there is no fence, and code indented four spaces cannot hold
    # a marker (they start within three spaces), so the CommonMark parse (about 2 s per
    # line-dense megabyte) is needed only when a fence marker is present.
    tokens = _markdown().parse(text) if _FENCE_MARK.search(text) else []
    for tok in tokens:
        if tok.type not in ("fence", "code_block") or not tok.map:
            continue
        first, last = tok.map[0], min(tok.map[1], n) - 1
        for i in range(first, last + 1):
            in_code[i] = 1
        if tok.type != "fence":
            continue
        info = tok.info.strip().split(maxsplit=1)
        word = info[0].lower() if info else ""
        start, end = lines.starts[first], lines.ends[last]
        if word in _FLEX_INFOS:
            closed = last > first and _closes(lines.line(last), tok.markup)
            flex.append(
                DetectedObject("flexmd_fence", 0.95 if closed else 0.8, start, end, text[start:end], tok.content)
            )
        elif word == "json":
            try:
                value = json.loads(tok.content)
            except (ValueError, RecursionError):
                continue
            if is_flex_document_shape(value):
                flex.append(DetectedObject("flexdoc_json_fence", 0.9, start, end, text[start:end], tok.content))
    objects: list[DetectedObject] = []
    pos = 0
    for obj in [*flex, None]:
        gap_end = obj.start if obj is not None else len(text)
        objects.extend(_scan_gap(text, lines, in_code, pos, gap_end))
        if obj is not None:
            objects.append(obj)
            pos = obj.end
    return objects


def _closes(line: str, markup: str) -> bool:
    stripped = re.sub(r"^[\s>]*", "", line).rstrip()  # a fence in a block quote
    return bool(markup) and stripped.startswith(markup) and not stripped.strip(markup[0])


def _line_index(lines: _Lines, offset: int) -> int:
    return max(0, bisect.bisect_right(lines.starts, offset) - 1)


def _scan_gap(text: str, lines: _Lines, in_code: bytearray, start: int, end: int) -> list[DetectedObject]:
    """Objects in ``text[start:end]``, a stretch outside Flex-MD fences: a raw Flex-MD
    object and the Markdown snippets around it."""
    if start >= end:
        return []
    first = _line_index(lines, start)
    last = _line_index(lines, max(start, end - 1))
    raw_from: int | None = None
    markers = 0
    for i in range(first, last + 1):
        if in_code[i] or lines.starts[i] < start:
            continue
        if not _is_header(lines.line(i)):
            continue
        count = 0
        seen = 0
        j = i
        while j <= last and seen < SNIFF_LINES:
            if not in_code[j]:
                if _is_marker(lines.line(j)):
                    count += 1
            seen += 1
            j += 1
        if count >= 2:
            raw_from, markers = i, count
            break
    out: list[DetectedObject] = []
    if raw_from is None:
        out.extend(_snippet(text, start, end))
        return out
    # take in the document title and meta lines just above the first header
    top = raw_from
    k = raw_from - 1
    while k >= first and lines.starts[k] >= start and not in_code[k]:
        line = lines.line(k)
        if not line.strip() or _META.match(line):
            k -= 1
            if line.strip():
                top = k + 1
            continue
        if _TITLE.match(line):
            top = k
        break
    raw_start = lines.starts[top]
    out.extend(_snippet(text, start, raw_start))
    s, e = _trim(text, raw_start, end)
    out.append(DetectedObject("raw_flexmd", min(0.85, 0.55 + 0.1 * markers), s, e, text[s:e]))
    return out


def _snippet(text: str, start: int, end: int) -> list[DetectedObject]:
    s, e = _trim(text, start, end)
    if s >= e:
        return []
    # the snippet starts at a line's first non-blank character: look from its line start
    line_start = text.rfind("\n", 0, s) + 1
    structured = _STRUCTURE.search(text, line_start, e) is not None
    return [DetectedObject("markdown_snippet", 0.5 if structured else 0.3, s, e, text[s:e])]


def parse_any(text: str) -> ParseAnyResult:
    """Detect the objects in ``text`` and parse each: Flex-MD fences and raw Flex-MD
    with :func:`parse_flex_md`, FlexDocument JSON fences from their JSON; the rest are
    Markdown snippets. Never raises on any ``str``."""
    result = ParseAnyResult()
    rest: list[str] = []
    for obj in detect_objects(text):
        if obj.kind == "flexmd_fence":
            result.flex_docs.append(parse_flex_md(obj.inner or ""))
        elif obj.kind == "flexdoc_json_fence":
            result.flex_docs.append(flex_document_from_dict(json.loads(obj.inner or "")))
        elif obj.kind == "raw_flexmd":
            result.flex_docs.append(parse_flex_md(obj.raw))
        elif obj.kind == "markdown_snippet":
            result.markdown_snippets.append(obj.raw)
            rest.append(obj.raw)
    result.remainder = "\n\n".join(rest)
    return result
