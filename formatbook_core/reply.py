"""The prepared reply: what every format needs to know about the text around a payload.

A :class:`Reply` is the reply text (a ``str``: every ``str`` operation works on it) that
knows, computed on first use and then cached, its ``<think>`` blocks, its fences (paired
as CommonMark pairs them), its line starts, its text with think blocks blanked out, and how
to set everything around a payload aside (the ``located`` repair and its ``SetAside``
entries). The pipeline builds one per ``check()`` / ``heal()`` and hands it to
``locate``; a plugin that is given a bare ``str`` builds one with :meth:`Reply.of`, which
returns the same object when it already is one. So no plugin scans for think blocks or
fences itself, and each is scanned once per reply.

Think blocks have one scanner, :class:`ThinkScanner`: an automaton fed chunk by chunk.
``StreamGuard`` feeds it a stream's chunks; :meth:`Reply.think_blocks` feeds it the whole
reply at once. Being one automaton, the stream and the whole reply cannot disagree about
where a block is. How think tags relate to a format's syntax is the format's
``think_tags`` (:class:`ThinkTags`).

Offsets are into the reply as received; every pattern here is linear.
"""

from __future__ import annotations

import enum
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol, TypeVar

from .results import HealError, Repair, SetAside, Span, Violation
from .spans import blank_out, containing, merge_spans, no_payload, outside_spans, overlaps_any, strip_span

# --- think tags -------------------------------------------------------------------------

#: The tags models wrap their reasoning in (``<think>…</think>``).
THINK_TAGS = ("think", "thinking", "reasoning")
#: An opening think tag (any of ``THINK_TAGS``, any case); group 1 is the tag's name.
THINK_OPEN = re.compile(rf"<({'|'.join(THINK_TAGS)})>", re.IGNORECASE)
#: The longest opening think tag: a streaming checker keeps this many characters minus
#: one of a chunk's tail to find a tag split across chunks.
THINK_OPEN_MAX = max(len(f"<{tag}>") for tag in THINK_TAGS)
#: An opening think tag where a model writes one, at a given start (the reply's, a line's or
#: a think block's end): blanks on the line (spaces, tabs), then the tag.
THINK_HEAD = re.compile(rf"[ \t]*<({'|'.join(THINK_TAGS)})>", re.IGNORECASE)
#: An opening think tag at the start of a line: a line break, blanks, the tag (group 1).
THINK_LINE = re.compile(rf"[\r\n][ \t]*<({'|'.join(THINK_TAGS)})>", re.IGNORECASE)
_OPEN_TAGS = tuple(f"<{tag}>" for tag in THINK_TAGS)
# blank space that may come before the think blocks opening a reply (not U+00A0: after
# it a tag is text, as ``THINK_HEAD`` and ``THINK_LINE`` read it)
_LEAD_BLANKS = re.compile(r"[ \t\r\n]*")
_BLANKS = re.compile(r"[ \t]*")


class ThinkTags(enum.Enum):
    """How think tags relate to a format's syntax (a format's ``think_tags``)."""

    #: A tag opens a think block only where a model writes one: at the start of the reply,
    #: of a line, or right after a block, after blanks (spaces, tabs) only. Mid-line it is
    #: text (``a: "<think>"`` is a value). The default.
    LINE_START = "line start"
    #: Any opening tag opens a block, mid-line too: the format's own reading tells a tag
    #: in a value from a note (JSON: ``json.think_inside``).
    ANYWHERE = "anywhere"
    #: The tags may be the format's own markup (an XML ``<reasoning>`` element): blocks are
    #: found as at ``LINE_START``, and the format's ``locate`` decides whether one is its
    #: payload (the pipeline asks it again before refusing a payload opening with a tag).
    MARKUP = "markup"


def think_tags_of(fmt: Any) -> ThinkTags:
    """The format's :class:`ThinkTags`: ``LINE_START`` without a format, or for a format
    object that never went through registration (which gives every format one)."""
    tags = getattr(fmt, "think_tags", ThinkTags.LINE_START)
    return tags if isinstance(tags, ThinkTags) else ThinkTags.LINE_START


#: The closing tag of each think tag, by its name (``</think >`` allowed, any case).
_CLOSE = {tag: re.compile(rf"</{tag}\s*>", re.IGNORECASE) for tag in THINK_TAGS}


def note_names(markup: Collection[str] = ()) -> frozenset[str]:
    """The names of the tags that open a think block for a format whose own markup holds
    elements named ``markup`` (lower case): ``THINK_TAGS`` less those, which it reads as
    its payload's elements (XML's ``<reasoning>`` with ``root=``)."""
    if not markup:
        return _EVERY_NOTE  # (asked on every locate: one set, not one per call)
    return frozenset(tag for tag in THINK_TAGS if tag not in markup)


_EVERY_NOTE = frozenset(THINK_TAGS)


def note_end(text: str, name: str, pos: int, names: Collection[str]) -> int | None:
    """Where the think block opened by a tag named ``name`` (any case) and ending at
    ``pos`` ends: after its first closing tag (``</name >``), else at the end of ``text``;
    ``None`` when ``name`` is none of ``names`` (:func:`note_names`): a format walking its
    own markup asks this of each top-level start tag."""
    if name.lower() not in names:
        return None
    close = _CLOSE[name.lower()].search(text, pos)
    return close.end() if close else len(text)


def think_open(reply: str, pos: int, *, at_start: bool = True, anywhere: bool = False) -> re.Match[str] | None:
    """The first opening think tag at or after ``pos`` that opens a think block (group 1 is
    the tag's name; the tag starts at ``m.start(1) - 1``), or ``None``.

    A tag opens a block only where a model writes one: at ``pos`` when ``at_start`` (the
    start of the reply or the end of a think block) or at the start of a line, after blanks
    (spaces, tabs) only; mid-line it is text. With ``anywhere`` any tag opens one.
    """
    if anywhere:
        return THINK_OPEN.search(reply, pos)
    if at_start and (m := THINK_HEAD.match(reply, pos)) is not None:
        return m
    return THINK_LINE.search(reply, pos)


def at_line_start(text: str, pos: int, end: int, at_start: bool) -> bool:
    """Whether only blanks (spaces, tabs) precede ``end`` on its line, given ``at_start``
    (whether they do at ``pos``): what a stream carries to tell where :func:`think_open`
    may find a tag in its next chunk."""
    brk = max(text.rfind("\n", pos, end), text.rfind("\r", pos, end))
    return (at_start or brk >= 0) and _BLANKS.fullmatch(text, max(pos, brk + 1), end) is not None


def _indented(text: str, at: int) -> bool:
    """Blanks, and only blanks, stand before ``at`` on its line (read back over the blanks
    only: a line of many think blocks costs no more than its length)."""
    i = at
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    return i < at and (i == 0 or text[i - 1] == "\n")


def _open_tag_start(text: str, pos: int) -> int:
    """Where a possible opening think tag cut by the end of ``text`` starts (``len(text)``
    when there is none): only the last ``<`` can start one, within the tag's length."""
    lt = text.rfind("<", max(pos, len(text) - (THINK_OPEN_MAX - 1)))
    if lt >= 0:
        cut = text[lt:].lower()
        if any(tag.startswith(cut) for tag in _OPEN_TAGS):
            return lt
    return len(text)


def _close_tag_tail(text: str, pos: int, tag: str) -> str:
    """What a think block's text must keep for the next chunk to find its closing tag
    (``</tag``, white space, ``>``): the last ``<`` onwards when it may start the tag, with
    the white space after the name kept as one space, so the tail stays bounded."""
    lt = text.rfind("<", pos)
    if lt < 0:
        return ""
    rest = text[lt:]
    head = rest.rstrip()
    wanted = f"</{tag}"
    if head.lower() == wanted:
        return head + (" " if len(head) < len(rest) else "")
    if head == rest and wanted.startswith(head.lower()):
        return head
    return ""


class ThinkScanner:
    """The think-block automaton: fed a reply chunk by chunk (a stream) or whole (one
    ``feed``), it finds the same blocks either way.

    An opening tag (any of ``THINK_TAGS``, any case) at the start of the reply, of a line
    or right after a block (blanks before it allowed; with ``ANYWHERE``, wherever it is)
    starts a block; the first closing tag of the same name (``</think >`` too) ends it; an
    unclosed block runs to the end of the reply.

    ``feed`` answers the stretches outside the blocks, each with its offset into the reply
    and without its leading white space (as ``strip_span`` takes a located payload out of
    the reply). Only a bounded tail is held back between feeds: the start of what may be an
    opening tag (outside a block) or a closing tag (inside one); each feed scans the chunk
    and that tail once. With ``record`` the blocks' spans are kept in ``blocks`` (an
    unclosed one is added by ``flush``).

    With ``leading_only`` only the blocks that open the reply (after spaces, tabs and line
    breaks, one or several in a row) are set aside: once other text has begun, everything
    passes through.
    """

    def __init__(
        self, tags: ThinkTags = ThinkTags.LINE_START, *, leading_only: bool = False, record: bool = False
    ) -> None:
        self._leading_only = leading_only
        self._anywhere = tags is ThinkTags.ANYWHERE
        self._at_line = True  # outside a block: only blanks precede the held text on its line
        self._closing: re.Pattern[str] | None = None  # set inside a block
        self._tag = ""
        self._held = ""
        self._fed = 0  # characters of the reply taken so far
        self._blank = True  # no stretch has begun yet since the start or the last block
        self._done_lead = False  # leading-only mode: the lead (blank space and think blocks) is over
        self._block_start = 0  # where the open block began
        self.blocks: list[Span] | None = [] if record else None
        self.first_open: int | None = None  # where the first block opened (closed or not)

    @property
    def taken(self) -> int:
        """How many characters of the reply were fed so far (the offset of the next)."""
        return self._fed

    @property
    def holding(self) -> bool:
        """Whether text fed is held back or inside an open block: the next text may not
        reach the payload as it is written."""
        return bool(self._held) or self._closing is not None

    def copy(self) -> ThinkScanner:
        """An independent clone (every other field is immutable: strings, flags, a pattern)."""
        clone = object.__new__(type(self))  # copy.copy, without its generic dispatch: hot in generation
        clone.__dict__.update(self.__dict__)
        if self.blocks is not None:
            clone.blocks = list(self.blocks)
        return clone

    def plain(self) -> bool:
        """Whether :meth:`pass_through` takes any chunk holding no ``<`` as it is, only
        counting its characters (nothing held, outside any block, a stretch begun, and no
        line start to track): a caller that knows it may then take such a chunk past the
        scanner by adding its length to ``_fed``, until it feeds the scanner anything else."""
        if self._held or self._closing is not None or self._blank:
            return False
        return self._done_lead if self._leading_only else self._anywhere

    def pass_through(self, chunk: str) -> bool:
        """Takes ``chunk`` whole when it is plain text outside any block that cannot begin
        a tag, and nothing is held (the common case, checked without a scan): the caller
        then feeds it on as one stretch."""
        if self._held or self._closing is not None or self._blank:
            return False
        if self._leading_only:
            if not self._done_lead:
                return False
        elif "<" in chunk:
            return False
        elif not self._anywhere:  # (where any tag opens a block, the line start is never asked)
            self._after(chunk, 0, len(chunk))
        self._fed += len(chunk)
        return True

    def _stretch(self, pieces: list[tuple[int, str]], offset: int, text: str) -> None:
        if self._blank:
            stripped = text.lstrip()
            offset += len(text) - len(stripped)
            text = stripped
            self._blank = not text
        if text:
            pieces.append((offset, text))

    def feed(self, chunk: str) -> list[tuple[int, str]]:
        """The stretches of ``chunk`` (with what was held) outside think blocks, each with
        its offset into the reply."""
        pieces: list[tuple[int, str]] = []
        self._run(chunk, pieces)
        return pieces

    def scan(self, chunk: str) -> None:
        """Take ``chunk`` as :meth:`feed` does, without answering the stretches (for a
        caller that wants only ``blocks`` or ``first_open``: a scanner is fed by one of
        ``scan`` and ``feed``, not both)."""
        self._run(chunk, None)

    def _run(self, chunk: str, pieces: list[tuple[int, str]] | None) -> None:
        text = self._held + chunk if self._held else chunk  # a whole reply is not copied
        self._fed += len(chunk)
        start = self._fed - len(text)  # offset of text[0]; held text is never rewritten outside a block
        pos = 0
        while True:
            if self._closing is None and self._leading_only and self._past_lead(text, pos):
                if pieces is not None:
                    self._stretch(pieces, start + pos, text[pos:])
                self._held = ""
                return
            if self._closing is None:
                found = think_open(text, pos, at_start=self._at_line, anywhere=self._anywhere)
                end = len(text) if found is None else found.start(1) - 1
                if found is None:
                    end = _open_tag_start(text, pos)
                if end > pos:
                    if pieces is not None:  # (scan(): no stretch is answered, so none is copied)
                        self._stretch(pieces, start + pos, text[pos:end])
                    self._after(text, pos, end)
                if found is None:
                    self._held = text[end:]
                    return
                self._tag = found.group(1).lower()
                self._closing = _CLOSE[self._tag]
                self._block_start = start + end
                if self.first_open is None:
                    self.first_open = self._block_start
                pos = found.end()
            else:
                found = self._closing.search(text, pos)
                if found is None:
                    self._held = _close_tag_tail(text, pos, self._tag)
                    return
                # the match ends in the new chunk (the held tail alone held no closing tag),
                # so offsets after it are exact even when held white space was shortened
                self._closing = None
                self._blank = True
                self._at_line = True
                pos = found.end()
                start = self._fed - len(text)
                if self.blocks is not None:
                    self.blocks.append(Span(self._block_start, start + pos))

    def _after(self, text: str, pos: int, end: int) -> None:
        """Whether only blanks precede ``end`` on its line, once ``text[pos:end]`` is out."""
        self._at_line = at_line_start(text, pos, end, self._at_line)

    def _past_lead(self, text: str, pos: int) -> bool:
        """Leading-only mode: text other than a think block has begun (at ``pos`` or before)."""
        if self._done_lead:
            return True
        at = _LEAD_BLANKS.match(text, pos).end()  # type: ignore[union-attr]  # matches empty
        if at == len(text) or (
            text[at] == "<" and any(t.startswith(text[at : at + len(t)].lower()) for t in _OPEN_TAGS)
        ):
            return False  # blank so far, or maybe an opening tag: wait and see
        self._done_lead = True
        return True

    def flush(self) -> list[tuple[int, str]]:
        """At the end of the reply: held text that is no think tag (an unclosed block runs
        to the end, so nothing of it comes out)."""
        held, self._held = self._held, ""
        pieces: list[tuple[int, str]] = []
        if self._closing is None:
            self._stretch(pieces, self._fed - len(held), held)
        elif self.blocks is not None:
            self.blocks.append(Span(self._block_start, self._fed))
        return pieces


# --- fences ---------------------------------------------------------------------------

#: The characters of a line break.
LINE_ENDS = "\r\n"
#: One line break: ``\r\n``, ``\r`` or ``\n`` (CommonMark's line endings).
LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: One line (without its break) that opens or closes a fence: indentation (group 1), the
#: marker run (group 2) and the rest of the line (group 3, an info string when opening).
FENCE_LINE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
#: A line that can only close a fence: the marker run (group 1) and blanks.
CLOSING_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")
#: An opening fence anywhere in a text (multi-line mode): indentation, marker run and the
#: info string (which cannot hold a backtick).
FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^\n`]*)$", re.MULTILINE)
_FENCE_MARK = re.compile(r" {0,3}(```|~~~)")


@dataclass(frozen=True)
class Fence:
    """A fenced code block: ``info`` is the info string's first word (lower case, may be
    empty); ``body`` the span of its content; ``span`` the whole block with its fences;
    ``closed`` false when the reply ended inside it."""

    info: str
    body: Span
    span: Span
    closed: bool


def fences(reply: str) -> list[Fence]:
    """Every top-level fenced block of ``reply``, in order (CommonMark fence rules:
    up to three spaces of indentation, a closing fence at least as long as the opening)."""
    found: list[Fence] = []
    pos = 0
    n = len(reply)
    tick = tilde = -1  # the next run of three backticks, of three tildes (n: none left)
    while True:
        # a fence opens with such a run: the regex starts at the line of the first one (a
        # substring search), not at every line before it; each search looks past the last
        if tick < pos:
            tick = reply.find("```", pos) % (n + 1)
        if tilde < pos:
            tilde = reply.find("~~~", pos) % (n + 1)
        run = min(tick, tilde)
        if run == n:
            return found
        m = FENCE_OPEN.search(reply, max(pos, reply.rfind("\n", pos, run) + 1))
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


# --- the prepared reply -----------------------------------------------------------------


_T = TypeVar("_T")
_new_str = str.__new__


class Reply(str):
    """The reply text, prepared: think blocks, fences, line starts, the text with think
    blocks blanked and what surrounds a payload, each computed on first use and cached.

    Build one with :meth:`Reply.of`, read as a format declares (:attr:`tags`, its
    ``think_tags``; ``MARKUP`` finds the blocks ``LINE_START`` finds): every answer is
    for that reading. Answers are shared: a caller never changes them (they are tuples).
    """

    # Made on every check(): slots for what every Reply holds (filled by of(), which costs
    # a third as much as writing them into a dict); the answers computed on first use
    # (line starts...) are kept in the instance's dict.
    __slots__ = ("__dict__", "_answers", "plain", "tags")

    #: The reading of think tags the methods use when given none (see :meth:`of`).
    tags: ThinkTags
    #: The text as a plain ``str``: the one this reply was made of, when :meth:`of` made it
    #: (a slice of a ``str`` subclass is a copy, even of the whole text; a slice of this
    #: one, for the whole text, is the text itself).
    plain: str
    _answers: dict[object, object] | None

    @classmethod
    def of(cls, text: str, tags: ThinkTags | None = None) -> Reply:
        """``text`` prepared, read with ``tags`` (the format's ``think_tags``) by the
        methods given no reading: the same object when it already is a :class:`Reply` read
        so (``tags=None``: any :class:`Reply` as it is, a ``str`` read at ``LINE_START``).
        Another reading of a :class:`Reply` shares its cached answers (keyed by reading)."""
        if isinstance(text, Reply):
            if tags is None or tags is text.tags:
                return text
            read = _new_str(cls, text)
            read.__dict__.update(text.__dict__)  # line starts...: the same text
            read._answers = text._cache  # one cache, keyed by reading: each scan once
            read.plain = text.plain
            read.tags = tags
            return read
        prepared = _new_str(cls, text)
        # (the cache of answers is made by the first question: a valid JSON reply is
        # decided asking none)
        prepared._answers = None
        prepared.plain = text if text.__class__ is str else str.__str__(prepared)  # no copy of a str
        prepared.tags = ThinkTags.LINE_START if tags is None else tags
        return prepared

    def __new__(cls, text: object = "") -> Reply:
        """``Reply(text)``: the text read at ``LINE_START``, as :meth:`of` prepares a
        ``str`` (which builds without this call). No ``__getattr__`` fills the slots
        instead: a class with one reads every attribute through a slower hook."""
        reply = _new_str(cls, text)
        reply._answers = None
        reply.plain = str.__str__(reply)
        reply.tags = ThinkTags.LINE_START
        return reply

    @property
    def _cache(self) -> dict[object, object]:
        """The answers computed so far, by question (made on first use)."""
        cache = self._answers
        if cache is None:
            cache = self._answers = {}
        return cache

    def _cached(self, key: object, compute: Callable[[], _T]) -> _T:
        """The answer cached under ``key``, computed (once) when there is none yet."""
        cache = self._cache
        found = cache.get(key)
        if found is None:
            found = cache[key] = compute()
        return found  # type: ignore[return-value]  # the key says what was cached

    def _scan(self, tags: ThinkTags, *, leading_only: bool = False) -> tuple[Span, ...]:
        """The blocks :class:`ThinkScanner` finds fed the whole reply (none without a
        ``<``: every think tag opens with one)."""
        if "<" not in self:
            return ()
        scanner = ThinkScanner(tags, leading_only=leading_only, record=True)
        scanner.scan(self)
        scanner.flush()
        return tuple(scanner.blocks or ())

    def think_blocks(self, tags: ThinkTags | None = None) -> tuple[Span, ...]:
        """Spans of the ``<think>…</think>`` blocks (also ``<thinking>``, ``<reasoning>``),
        in order, found by :class:`ThinkScanner`; an unclosed one runs to the end."""
        tags = self.tags if tags is None else tags
        return self._cached(("blocks", tags is ThinkTags.ANYWHERE), lambda: self._scan(tags))

    @cached_property
    def _leading(self) -> Span | None:
        # a block opens the reply only with a whole opening tag after the blank space:
        # else the scanner finds none (a healed payload is asked this on every heal)
        if THINK_OPEN.match(self, _LEAD_BLANKS.match(self).end()) is None:  # type: ignore[union-attr]
            return None
        blocks = self._scan(ThinkTags.LINE_START, leading_only=True)
        return Span(blocks[0].start, blocks[-1].end) if blocks else None

    def leading_think(self) -> Span | None:
        """The span of the think blocks that open the reply (after spaces, tabs and line
        breaks only: ``"\\xa0<think>"`` is text; several in a row are one run), or ``None``:
        what a format whose payload is the whole reply sets aside, as StreamGuard does."""
        return self._leading

    def whole_payload(self) -> Span:
        """The reply as the payload of a format whose payload is the whole reply (plain
        text): all of it but for the think blocks opening it (:meth:`leading_think`)."""
        think = self._leading
        return Span(think.end if think else 0, len(self))

    def within_aside(self, span: Span) -> bool:
        """Whether ``span`` lies within one think block (a draft fence inside a note)."""
        block = containing(self.think_blocks(), span.start)
        return block is not None and span.end <= block.end

    def aside_starting(self, pos: int) -> Span | None:
        """The think block that starts at ``pos``, or ``None`` (by bisection)."""
        block = containing(self.think_blocks(), pos)
        return block if block is not None and block.start == pos else None

    def continues_after(self, pos: int) -> bool:
        """Whether a think block starts at ``pos`` with more than white space after it: a
        payload that runs up to the block may go on past it."""
        block = self.aside_starting(pos)
        return block is not None and not is_blank(self, block.end, len(self))

    def notes(self, markup: Collection[str] = ()) -> list[Span]:
        """The think blocks but for those opened by a tag named in ``markup`` (lower case:
        elements of a format's payload, :func:`note_names`): what a format that keeps some
        blocks passes as ``blocks=``."""
        names = note_names(markup)
        return [s for s in self.think_blocks() if self.think_name(s) in names]

    def notes_around_data(self, holds: Callable[[Span, int], bool], limit: int) -> list[Span]:
        """The think blocks, but for those a format reads as part of its data: a block whose
        opening tag stands indented (blanks, and only blanks, before it on its line) and
        for which ``holds(region, at)`` is true, ``region`` being the reply from the last
        block kept to the next block and ``at`` where the tag opens (YAML: the tag inside
        a literal block scalar). ``holds`` is asked at most ``limit`` times (each reading
        parses the text around it again)."""
        blocks = self.think_blocks()
        kept: list[Span] = []
        tries = 0
        for i, t in enumerate(blocks):
            if tries < limit and _indented(self, t.start):
                tries += 1
                until = blocks[i + 1].start if i + 1 < len(blocks) else len(self)
                if holds(Span(kept[-1].end if kept else 0, until), t.start):
                    continue
            kept.append(t)
        return kept

    def note_inside(self, name: str) -> Violation | None:
        """``<name>.think_inside`` at the first think block when the reply (a payload about
        to be healed, of the format named ``name``) holds one, else ``None``: whether the
        block belongs to a value or is a note cannot be told, and dropping either reading's
        text could give wrong data."""
        found = self.think_blocks()
        if not found:
            return None
        payload = name.upper()
        return _inside(
            name,
            f"a think block inside the {payload} payload: it may be a note or part of a value; "
            f"set it outside the {payload}",
            Span(found[0].start, found[0].end),
        )

    def opens_with_note(self, markup: Collection[str] = ()) -> bool:
        """Whether think blocks open the reply (:meth:`leading_think`), the first opened by
        a tag not named in ``markup``: ``check()`` would set it aside."""
        lead = self._leading
        return lead is not None and self.think_name(lead) in note_names(markup)

    def refuse_healed_notes(self, name: str, *, opening: bool = False, markup: Collection[str] = ()) -> None:
        """Raise ``HealError`` (``<name>.syntax``) when this text, a format's healed payload,
        holds a think block (or, with ``opening``, opens with a note: :meth:`opens_with_note`):
        an element named like one (``<think\n>`` written out as ``<think>``) that ``check()``
        would set aside, so that the repair would change what the reply says."""
        if not (self.opens_with_note(markup) if opening else self.think_blocks()):
            return
        held, why, keyword = (
            ("open with", "cannot open the payload", None) if opening else ("hold", "cannot be healed", "think-element")
        )
        tags = "" if opening else " (<think>, <reasoning>...)"
        raise HealError(
            f"cannot heal the {name.upper()}: it would {held} an element named like a think block{tags}",
            [Violation(f"{name}.syntax", f"an element named like a think block {why}", keyword=keyword)],
        )

    def between(self, spans: Iterable[Span] = ()) -> list[Span]:
        """The stretches of the reply outside its think blocks and ``spans`` (the fences a
        format took, say), in order: what is left to read once both are set aside."""
        return outside_spans(len(self), merge_spans([*self.think_blocks(), *spans]))

    def stream_pieces(self, tags: ThinkTags = ThinkTags.LINE_START) -> list[tuple[int, str]]:
        """The stretches outside think blocks, each with its offset, as a stream's
        :class:`ThinkScanner` answers them fed the whole reply (read with ``tags``)."""
        scanner = ThinkScanner(tags)
        return scanner.feed(self) + scanner.flush()

    def think_name(self, block: Span) -> str:
        """The name of the think tag opening ``block`` (one of ``THINK_TAGS``, lower case;
        ``""`` when no tag opens it): a format that reads some tags as its own markup
        (XML's ``<reasoning>`` with ``root=``) keeps those blocks as text."""
        m = THINK_OPEN.match(self, block.start)
        return m.group(1).lower() if m else ""

    def _reading(self, blocks: Sequence[Span] | None) -> tuple[tuple[Span, ...], object]:
        """The think blocks read as such and the cache key of that reading: ``blocks`` when
        a format keeps only some of them (XML's ``<reasoning>`` with ``root=``, YAML's tag
        inside a block scalar), else all of them (as the reply was prepared to read them)."""
        every = self.think_blocks()
        if blocks is None or len(blocks) == len(every):  # a subset as long is every block
            return every, self.tags is ThinkTags.ANYWHERE
        kept = tuple(blocks)
        return kept, kept

    def blanked(self, *, blocks: Sequence[Span] | None = None) -> str:
        """The text with each think block (or each of ``blocks``, those a format keeps of
        them) replaced by as many spaces (offsets hold)."""
        thinks, reading = self._reading(blocks)
        return self._cached(("blanked", reading), lambda: blank_out(self, thinks))

    def set_notes_aside(self) -> tuple[str, Repair | None, list[SetAside]]:
        """The text with its think blocks cut out (offsets do not hold: see
        :meth:`blanked`), the ``think_set_aside`` repair saying so (``None`` when there is
        none) and each block as a ``SetAside`` entry, spans into this text: what a format
        that reads the reply whole (Markdown's plan) keeps of them."""
        found = self.think_blocks()
        if not found:
            return self, None, []
        kept = "".join(self[s.start : s.end] for s in outside_spans(len(self), found))
        where = Span(found[0].start, found[-1].end)
        repair = Repair("think_set_aside", f"set {len(found)} <think> block(s) aside", where)
        return kept, repair, self._aside(found)

    def _aside(self, blocks: Iterable[Span]) -> list[SetAside]:
        """Each of ``blocks`` (think blocks) as a ``SetAside`` entry."""
        return [SetAside("think", self[b.start : b.end], b) for b in blocks]

    def fences(self, *, blocks: Sequence[Span] | None = None, as_received: bool = False) -> tuple[Fence, ...]:
        """The top-level fenced blocks, paired as CommonMark pairs them in the text with its
        think blocks (or ``blocks``, those a format keeps of them) blanked: a draft fence
        inside a block is none, closed or not. ``as_received``: those of the text as it is."""
        if ("`" not in self or "```" not in self) and ("~" not in self or "~~~" not in self):
            # no fence opens without such a run (blanking think blocks adds none); one
            # character is looked for first: 20x faster than three in a non-ASCII text
            return ()
        if as_received:
            return self._cached(("fences", None), lambda: tuple(fences(self)))
        key = ("fences", self._reading(blocks)[1])
        return self._cached(key, lambda: tuple(fences(self.blanked(blocks=blocks))))

    def stretches(self, *, blocks: Sequence[Span] | None = None) -> tuple[Span, ...]:
        """The stretches outside think blocks (or outside ``blocks``, those a format keeps
        of them) without the white space around each, empty ones left out, in the reply's
        order."""
        thinks, reading = self._reading(blocks)

        def compute() -> tuple[Span, ...]:
            spans = [strip_span(self, s) for s in outside_spans(len(self), thinks)]
            return tuple(s for s in spans if s.end > s.start)

        return self._cached(("stretches", reading), compute)

    def longest_stretches(self, *, blocks: Sequence[Span] | None = None) -> tuple[Span, ...]:
        """:meth:`stretches`, longest first (of two as long, the first first): the
        candidates of a reply read without its think blocks (or without ``blocks``)."""
        key = ("longest", self._reading(blocks)[1])
        ordered = self.stretches(blocks=blocks)
        return self._cached(key, lambda: tuple(sorted(ordered, key=lambda s: s.start - s.end)))

    def payload_fences(self, *, blocks: Sequence[Span] | None = None) -> tuple[Fence, ...]:
        """The fences that may hold a payload: :meth:`fences` read with think blocks
        blanked, less those whose body holds a think block (``check()`` would set the block
        aside, so the body could never check as it stands)."""
        every = self.fences(blocks=blocks)
        if not every:
            return ()  # no fence: the think blocks are not read to filter none
        thinks, reading = self._reading(blocks)
        return self._cached(
            ("payload fences", reading),
            lambda: tuple(f for f in every if not overlaps_any(thinks, f.body.start, f.body.end)),
        )

    def prose_candidates(self, *, blocks: Sequence[Span] | None = None) -> list[Span]:
        """The reply read as prose: its longest stretch outside think blocks; for a reply
        of think blocks only, an empty payload (:func:`~formatbook_core.spans.no_payload`),
        never their text."""
        return [*self.longest_stretches(blocks=blocks)[:1]] or [no_payload(self)]

    @cached_property
    def line_starts(self) -> tuple[int, ...]:
        """Where each line starts (after ``\\r\\n``, ``\\r`` or ``\\n``)."""
        return (0, *(m.end() for m in LINE_BREAK.finditer(self)))

    @cached_property
    def fence_marks(self) -> tuple[int, ...]:
        """Where a fence line's marker run (```` ``` ````, ``~~~``, after at most three
        spaces) starts, on any line, paired or not: what a format that refuses a fence
        line inside its payload looks for. A text without a run of three backticks or
        tildes has none: told by searches in C (one character first, the cheapest),
        before any line is looked at."""
        if ("`" not in self or "```" not in self) and ("~" not in self or "~~~" not in self):
            return ()
        return tuple(m.start(1) for at in self.line_starts if (m := _FENCE_MARK.match(self, at)) is not None)

    def lines_outside(self, lines: Sequence[Line]) -> tuple[list[Line], list[Span]]:
        """``lines`` (``(start, end, ...)`` tuples into the reply, in order) without those
        a think block covers whole, and the thinks that covered some, in order: what a
        line-based format reads, and what lies between its lines and is no part of them.
        One pass: a block that ends before a line's end covers no later line."""
        thinks = self.think_blocks()
        if not thinks:
            return list(lines), []
        kept: list[Line] = []
        covering: list[Span] = []
        at = 0
        for line in lines:
            start, end = line[0], line[1]
            while at < len(thinks) and thinks[at].end < end:
                at += 1
            if at < len(thinks) and thinks[at].start <= start:
                if not covering or covering[-1] != thinks[at]:
                    covering.append(thinks[at])
                continue
            kept.append(line)
        return kept, covering

    def line_of(self, pos: int) -> int:
        """The line (from 0) ``pos`` is on."""
        return bisect_right(self.line_starts, pos) - 1

    def set_aside(self, span: Span, what: str) -> tuple[Repair | None, list[SetAside]]:
        """Everything outside the payload at ``span`` (``what``, for the message), kept:
        the ``located`` repair and the think blocks and prose as ``SetAside`` entries, in
        order; ``(None, [])`` when only blank space surrounds it."""
        if is_blank(self, 0, span.start) and is_blank(self, span.end, len(self)):
            return None, []  # (no think block either: one opens with '<')
        thinks = self.think_blocks()
        kept: list[SetAside] = []
        for outer in outside_spans(len(self), [span]):
            inner = [t for t in thinks if t.start >= outer.start and t.end <= outer.end]
            kept += self._aside(inner)
            for rest in outside_spans(outer.end, [Span(0, outer.start), *inner]):
                if self[rest.start : rest.end].strip():
                    kept.append(SetAside("prose", self[rest.start : rest.end], rest))
        if not kept:
            return None, []  # only blank space around the payload (a file's final newline)
        kept.sort(key=lambda k: k.span.start)  # type: ignore[union-attr]  # every entry here has one
        located = Repair(
            "located",
            f"took {what} at {span.start}–{span.end} out of the reply; set aside {len(kept)} surrounding part(s)",
            span,
        )
        return located, kept


# --- lines with think blocks between them ------------------------------------------------

#: A line as a line-based healer holds it: its start and end offsets first.
Line = TypeVar("Line", bound=tuple[Any, ...])


class SettingAside(Protocol):
    """A healing state that sets parts of its text aside (iCalendar's, vCard's)."""

    text: str
    set_aside: list[SetAside]

    def repair(self, kind: str, message: str, start: int, end: int) -> None: ...


def set_aside_between(h: SettingAside, lines: list[Line], kind: str) -> list[Line]:
    """``lines`` (into ``h.text``) without those a think block covers whole
    (:meth:`Reply.lines_outside`); each block that covered some set aside in ``h``, with
    a ``kind`` repair: a block between content lines is no part of a value."""
    reply = Reply.of(h.text)  # the caller's prepared reply, or one prepared here
    kept, thinks = reply.lines_outside(lines)
    h.set_aside += reply._aside(thinks)
    for t in thinks:
        h.repair(kind, "set aside a think block between the content lines", t.start, t.end)
    return kept


# --- a payload and the think blocks around it ---------------------------------------------


def think_inside(
    reply: Reply,
    name: str,
    span: Span,
    text: str,
    relocate: Callable[[str], list[Span]],
    reads: Callable[[str], bool],
) -> Violation | None:
    """``<name>.think_inside`` when a think block may be part of the payload at ``span``
    (``text``: the payload, healed or not) rather than a note beside it, else ``None``.

    ``reply`` is read as it was prepared (the format's ``think_tags``), ``relocate`` is
    the format's ``locate`` on a text (``[]`` when it fails), ``reads`` whether the format
    analyzes a text as valid. See :func:`_opens_with_tag` and :func:`_split_by_think`.
    """
    if alone(reply, span, text):
        return None
    thinks = reply.think_blocks()
    return _opens_with_tag(name, reply.tags, span, text, thinks, relocate) or _split_by_think(
        reply, name, span, thinks, reads
    )


def alone(reply: str, span: Span, text: str) -> bool:
    """Whether :func:`think_inside` answers ``None`` for the payload at ``span`` (``text``)
    without reading the reply's think blocks: only white space surrounds it in the reply
    (no block can touch it from outside: a block opens with ``<``) and its text opens with
    no think tag."""
    return THINK_HEAD.match(text) is None and is_blank(reply, 0, span.start) and is_blank(reply, span.end, len(reply))


def _opens_with_tag(
    name: str, tags: ThinkTags, span: Span, text: str, thinks: tuple[Span, ...], relocate: Callable[[str], list[Span]]
) -> Violation | None:
    """The payload's text opens with a think tag that opens no think block in the reply, and
    the format, reading that text again, would not take it whole: U+00A0 then
    ``<think></think>`` (after a no-break space the tag is text, but the payload, its white
    space stripped, opens with it, and read again it is a think block set aside). Which of
    the two the model meant cannot be told, so the candidate is refused. (Costs one
    ``locate``, only when a payload opens with a think tag.)"""
    if tags is ThinkTags.ANYWHERE or THINK_HEAD.match(text) is None:
        return None
    at = bisect_right(thinks, span.start, key=lambda t: t.start) - 1
    if at >= 0 and span.start < thinks[at].end:
        return None  # a think block of the reply the format keeps as payload
    again = relocate(text)
    if again and strip_span(text, again[0]) == strip_span(text, Span(0, len(text))):
        return None  # the format keeps the tag in its payload (XML's <reasoning> with root=)
    return _inside(
        name,
        f"the {name.upper()} payload opens with a think tag the reply does not open a think block with "
        "(white space such as U+00A0 before it): a think block or the payload's markup, which cannot be told",
        span,
    )


def _split_by_think(
    reply: Reply, name: str, span: Span, thinks: tuple[Span, ...], reads: Callable[[str], bool]
) -> Violation | None:
    """A think block on the payload's edge (only blank space between) with more of the
    payload on its other side: ``a: 1 <think>…</think> b: 2`` located as ``a: 1``, whose
    text read together with ``b: 2`` is valid too. Passing the part on one side would drop
    the other (a note inside the data, or data the model thought over, cannot be told
    apart), so the candidate is refused with ``<format>.think_inside``. The other side is
    read stripped and, for formats where indentation counts, with its first line's
    indentation kept. Costs one or two analyses, and only when a think block touches the
    payload."""
    if not thinks:
        return None
    payload = reply[span.start : span.end]
    # only the nearest block on each side can touch the payload (another has that one's
    # text between): found by bisection, so many candidates and blocks stay linear (a
    # block inside the payload, which XML and YAML may keep, is neither)
    before = bisect_right(thinks, span.start, key=lambda t: t.end) - 1
    after = bisect_left(thinks, span.end, key=lambda t: t.start)
    for i in (before, after):
        if not 0 <= i < len(thinks):
            continue
        t = thinks[i]
        # joined by one line break (a payload may keep its last ones: CSV's rows end so)
        if t.start >= span.end and is_blank(reply, span.end, t.start):
            until = thinks[i + 1].start if i + 1 < len(thinks) else len(reply)
            other = reply[t.end : until]
            joins = [f"{payload.rstrip(LINE_ENDS)}\n{o}" for o in _both_ways(other)]
        elif t.end <= span.start and is_blank(reply, t.end, span.start):
            other = reply[thinks[i - 1].end if i else 0 : t.start]
            joins = [f"{o}\n{payload}" for o in _both_ways(other)]
        else:
            continue
        if other.strip() and any(reads(joined) for joined in joins):
            return _inside(
                name,
                f"a think block sits inside the {name.upper()} payload: the text on its other side "
                "continues the payload (a note inside the data, or data thought over: which cannot be told)",
                t,
            )
    return None


def _inside(name: str, message: str, span: Span) -> Violation:
    """The ``<name>.think_inside`` violation at ``span``: a note or part of the payload."""
    return Violation(f"{name}.think_inside", message, span=span)


def _both_ways(text: str) -> list[str]:
    """``text`` stripped, and (when that differs) with the indentation of its first line
    kept: in YAML, ``a: |`` + ``  x``, a think block, ``  z`` goes on with ``  z``."""
    stripped = text.strip()
    lines = text.rstrip().split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    indented = "\n".join(lines)
    return [stripped] if indented == stripped else [stripped, indented]


_NOT_BLANK = re.compile(r"\S")


def is_blank(reply: str, start: int, end: int) -> bool:
    """Only white space (``str.strip``'s) in ``reply[start:end]``, found without copying it:
    a search that stops at the first other character."""
    return _NOT_BLANK.search(reply, start, end) is None
