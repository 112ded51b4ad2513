"""Helpers formats use to find their payload in a reply: a ``<think>`` splitter, a
Markdown fence scanner and the patterns they are built from, shared so that no plugin
keeps a private copy. Offsets are into the reply as received; every pattern here is linear."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from .results import Span

#: The tags models wrap their reasoning in (``<think>…</think>``).
THINK_TAGS = ("think", "thinking", "reasoning")
_THINK_OPEN = re.compile(rf"<({'|'.join(THINK_TAGS)})>", re.IGNORECASE)
#: An opening think tag (any of ``THINK_TAGS``, any case); group 1 is the tag's name.
THINK_OPEN = _THINK_OPEN
#: The longest opening think tag: a streaming checker keeps this many characters minus
#: one of a chunk's tail to find a tag split across chunks.
THINK_OPEN_MAX = max(len(f"<{tag}>") for tag in THINK_TAGS)

#: One line break: ``\r\n``, ``\r`` or ``\n`` (CommonMark's line endings).
LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: One line (without its break) that opens or closes a fence: indentation (group 1), the
#: marker run (group 2) and the rest of the line (group 3, an info string when opening).
FENCE_LINE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
#: A line that can only close a fence: the marker run (group 1) and blanks.
CLOSING_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")


def think_close(tag: str) -> re.Pattern[str]:
    """The closing tag for an opening think tag named ``tag`` (``</think >`` allowed)."""
    return re.compile(rf"</{re.escape(tag)}\s*>", re.IGNORECASE)


#: An opening think tag where a model writes one, at a given start (the reply's, a line's or
#: a think block's end): blanks on the line (spaces, tabs), then the tag.
THINK_HEAD = re.compile(rf"[ \t]*<({'|'.join(THINK_TAGS)})>", re.IGNORECASE)
#: An opening think tag at the start of a line: a line break, blanks, the tag (group 1).
THINK_LINE = re.compile(rf"[\r\n][ \t]*<({'|'.join(THINK_TAGS)})>", re.IGNORECASE)


def think_open(reply: str, pos: int, *, at_start: bool = True, anywhere: bool = False) -> re.Match[str] | None:
    """The first opening think tag at or after ``pos`` that opens a think block (group 1 is
    the tag's name; the tag starts at ``m.start(1) - 1``), or ``None``.

    A tag opens a block only where a model writes one: at ``pos`` when ``at_start`` (the
    start of the reply or the end of a think block) or at the start of a line, after blanks
    (spaces, tabs) only; mid-line it is text (``a: "<think>"`` is a value). With
    ``anywhere`` (JSON, whose own reading tells a value from a note) any tag opens one.
    """
    if anywhere:
        return _THINK_OPEN.search(reply, pos)
    if at_start and (m := THINK_HEAD.match(reply, pos)) is not None:
        return m
    return THINK_LINE.search(reply, pos)


def at_line_start(text: str, pos: int, end: int, at_start: bool) -> bool:
    """Whether only blanks (spaces, tabs) precede ``end`` on its line, given ``at_start``
    (whether they do at ``pos``): what a stream carries to tell where :func:`think_open`
    may find a tag in its next chunk."""
    brk = max(text.rfind("\n", pos, end), text.rfind("\r", pos, end))
    return (at_start or brk >= 0) and text[max(pos, brk + 1) : end].strip(" \t") == ""


def think_spans(reply: str, *, anywhere: bool = False) -> list[Span]:
    """Spans of ``<think>…</think>`` blocks (also ``<thinking>``, ``<reasoning>``).

    An opening tag counts only at the start of the reply, of a line or right after a think
    block (blanks before it allowed; see :func:`think_open`; ``anywhere``: wherever it is).
    An unclosed block runs to the end of the reply (a model cut off mid-thought).
    """
    spans: list[Span] = []
    pos = 0
    while True:
        m = think_open(reply, pos, anywhere=anywhere)
        if m is None:
            return spans
        close = think_close(m.group(1)).search(reply, m.end())
        end = close.end() if close else len(reply)
        spans.append(Span(m.start(1) - 1, end))
        pos = end


_LEADING_THINK = re.compile(rf"[ \t\r\n]*<({'|'.join(THINK_TAGS)})>", re.IGNORECASE)


def leading_think(reply: str) -> Span | None:
    """The span of the ``<think>`` blocks that open the reply (after spaces, tabs and line
    breaks only, as :func:`think_open` reads a tag: ``"\xa0<think>"`` is text; several in a
    row count as one run), or ``None``.

    These are the blocks StreamGuard sets aside while a reply streams; an unclosed one runs
    to the end of the reply. Formats whose payload is the whole reply (text) drop only these,
    so that what is left never opens with a think block (healing it again changes nothing).
    """
    start: int | None = None
    pos = 0
    while (m := _LEADING_THINK.match(reply, pos)) is not None:
        if start is None:
            start = m.start(1) - 1
        close = think_close(m.group(1)).search(reply, m.end())
        pos = close.end() if close else len(reply)
    return None if start is None else Span(start, pos)


def containing(spans: list[Span], pos: int) -> Span | None:
    """The span of ``spans`` (sorted, not overlapping) that holds ``pos``, or ``None``;
    by bisection, so a reply with many think blocks and many fences stays linear."""
    i = bisect_right(spans, pos, key=lambda s: s.start) - 1
    return spans[i] if i >= 0 and pos < spans[i].end else None


def overlaps_any(spans: list[Span], start: int, end: int) -> bool:
    """Whether one of ``spans`` (sorted, not overlapping) overlaps ``[start, end)``
    (``s.start < end and start < s.end``); by bisection."""
    i = bisect_right(spans, start, key=lambda s: s.end)  # the first span ending after start
    return i < len(spans) and spans[i].start < end


def outside_spans(text_length: int, removed: list[Span]) -> list[Span]:
    """The complement of ``removed`` (sorted, non-overlapping) within ``[0, text_length)``."""
    out: list[Span] = []
    pos = 0
    for span in removed:
        if span.start > pos:
            out.append(Span(pos, span.start))
        pos = max(pos, span.end)
    if pos < text_length:
        out.append(Span(pos, text_length))
    return out


def no_payload(reply: str) -> Span:
    """The candidate of a reply with nothing outside its ``<think>`` blocks but blank space
    (a model that only thought, or was cut off mid-thought): an empty span at its end.

    A format falls back on it when it found nothing else: it judges the empty payload as
    it judges an empty text (its ``empty`` violation), so ``check`` fails and ``heal``
    raises ``HealError``. The whole reply is never that fallback: the text of a think
    block would be read as the payload (``<think>a: 1`` as the YAML ``{'<think>a': 1}``).
    """
    return Span(len(reply), len(reply))


def outside_think(reply: str, thinks: list[Span] | None = None, *, anywhere: bool = False) -> list[Span]:
    """The stretches of ``reply`` outside its think blocks (``thinks``, by default
    :func:`think_spans`), without the white space around each, longest first; when there
    is none, ``[no_payload(reply)]``. Never empty, never a think block's text."""
    spans = [
        strip_span(reply, s)
        for s in outside_spans(len(reply), think_spans(reply, anywhere=anywhere) if thinks is None else thinks)
    ]
    spans = [s for s in spans if s.end > s.start]
    spans.sort(key=lambda s: s.start - s.end)  # stable: of two as long, the first first
    return spans or [no_payload(reply)]


@dataclass(frozen=True)
class Fence:
    """A fenced code block: ``info`` is the info string's first word (lower case, may be
    empty); ``body`` the span of its content; ``span`` the whole block with its fences;
    ``closed`` false when the reply ended inside it."""

    info: str
    body: Span
    span: Span
    closed: bool


#: An opening fence anywhere in a text (multi-line mode): indentation, marker run and the
#: info string (which cannot hold a backtick).
FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^\n`]*)$", re.MULTILINE)
_FENCE_OPEN = FENCE_OPEN


def fences(reply: str) -> list[Fence]:
    """Every top-level fenced block of ``reply``, in order (CommonMark fence rules:
    up to three spaces of indentation, a closing fence at least as long as the opening)."""
    found: list[Fence] = []
    pos = 0
    while True:
        m = _FENCE_OPEN.search(reply, pos)
        if m is None:
            return found
        marker = m.group(2)
        info = m.group(3).strip().split(maxsplit=1)
        info_word = info[0].lower() if info else ""
        body_start = m.end() + 1 if m.end() < len(reply) else m.end()
        # (a "\r" before the newline is allowed: replies with Windows line endings)
        close = re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*\r?$", re.MULTILINE).search(
            reply, body_start
        )
        if close is None:
            found.append(Fence(info_word, Span(body_start, len(reply)), Span(m.start(), len(reply)), False))
            return found
        body_end = close.start()
        # the newline before the closing fence belongs to the fence, not the body
        if body_end > body_start and reply[body_end - 1] == "\n":
            body_end -= 1
            if body_end > body_start and reply[body_end - 1] == "\r":
                body_end -= 1
        found.append(Fence(info_word, Span(body_start, max(body_start, body_end)), Span(m.start(), close.end()), True))
        pos = close.end()


def strip_span(text: str, span: Span) -> Span:
    """``span`` without leading and trailing white space."""
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Span(start, end)


def default_locate(reply: str, names: tuple[str, ...]) -> list[Span]:
    """Fences tagged with one of ``names`` first, then untagged fences, then the reply
    without its ``<think>`` blocks (each remaining stretch, longest first); for a reply
    with nothing outside its think blocks, :func:`no_payload`."""
    wanted = {n.lower() for n in names}
    thoughts = think_spans(reply)
    # A fence inside a <think> block is a draft: scan with the blocks blanked out (same
    # length, so offsets hold), so that a draft, closed or not, is never a candidate.
    pieces, pos = [], 0
    for start, end in thoughts:
        pieces += [reply[pos:start], " " * (end - start)]
        pos = end
    blocks = fences("".join(pieces) + reply[pos:])
    tagged = [strip_span(reply, f.body) for f in blocks if f.info in wanted]
    bare = [strip_span(reply, f.body) for f in blocks if f.info == ""]
    rest = [strip_span(reply, s) for s in outside_spans(len(reply), thoughts)]
    rest = [s for s in rest if s.end > s.start]
    if len(rest) > 1:
        rest.sort(key=lambda s: s.start - s.end)
    # in order, each once (a set: a reply may hold thousands of fences)
    candidates = list(dict.fromkeys([*tagged, *bare, *rest]))
    return candidates or [no_payload(reply)]
