"""Where the XML payload sits in a reply: the candidates, best first.

The rules are the README's "locate" choice. Matching a closing tag to its element is
tolerant here (case-insensitive, misnested tags closed through), as healing reads them:
the walk is linear in the reply.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from formatbook_core import Repair, Span
from formatbook_core.mentions import in_code_span, in_sentence
from formatbook_core.reply import Fence, Reply, note_end, note_names
from formatbook_core.spans import blank_out, strip_span

from .markup import CDATA, COMMENT, DOCTYPE, EMPTY, END, PI, START, STRAY, TEXT, Token, tokens
from .parser import Problem, parse
from .scan import NAME_START, NAME_START_CHARS, Scanner
from .syntax import deeper_than

#: How far into a reply the element opening it is followed to see whether it nests past
#: ``max_depth`` (characters): refusing such a reply is then decided before any walk.
DEPTH_PROBE = 1 << 16

__all__ = ["locate", "element_spans", "markup_names"]

_PROLOG = (COMMENT, PI, DOCTYPE)
#: A '<' the tokenizer reads as a stray one (see :func:`.markup.tokens`): no markup opens there.
_STRAY_LT = re.compile(f"<(?![{NAME_START_CHARS}!?/])")


def _mention(text: str, tok: Token) -> bool:
    """A top-level tag prose only names: written as inline code (`` `<b>` ``), a start
    tag followed by prose and then the same start tag ("in an <answer> tag: <answer>42"),
    or an empty element inside a sentence ("Use <br/> for breaks."). Read as a root, it
    would be taken for the payload, or swallow the payload after it (healing closing it
    at the end). A start tag inside a sentence that is never closed is one too: see
    :func:`element_spans`."""
    if in_code_span(text, tok.start, tok.end):
        return True
    if tok.kind == EMPTY and in_sentence(text, tok.start, tok.end):
        return True
    if tok.kind != START:
        return False
    nxt = text.find("<", tok.end)
    if nxt < 0 or not text[tok.end : nxt].strip():
        return False
    after = nxt + 1 + len(tok.name)
    return text.startswith(tok.name, nxt + 1) and text[after : after + 1] in (">", " ", "\t", "\n", "\r", "/")


#: How many start tags inside sentences and never closed are read as mentions, at most
#: (each one reads the rest of the reply again).
MAX_MENTIONS = 16


def element_spans(text: str, *, together: bool, notes: Collection[str] = ()) -> list[Span]:
    """The top-level XML documents in ``text`` (see the module doc), in order. A top-level
    element that opens a think block (named in ``notes``: ``formatbook_core.reply.note_end``)
    is skipped through its first closing tag (to the end when there is none), as the
    prepared reply reads it; inside an element it is an element like any other.

    A last root never closed whose start tag sits inside a sentence ("The tag <b> is
    bold. Here: <root>ok</root>") is a tag prose names, not a cut-off payload: the text
    after it is read again without it."""
    found: list[Span] = []
    begin = 0
    for _ in range(MAX_MENTIONS + 1):
        spans, unclosed = _walk(text, begin, together=together, notes=notes)
        if unclosed is None or not in_sentence(text, unclosed.start, unclosed.end):
            return found + spans
        found += spans[:-1]
        begin = unclosed.end
    return found + spans


class _Open:
    """The names of the open elements, innermost last, with a count per name: whether a
    name is open is a look-up, and closing it costs the elements it closes (each is
    closed once), so a walk through thousands of unclosed elements stays linear."""

    __slots__ = ("names", "count")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.count: Counter[str] = Counter()

    def __bool__(self) -> bool:
        return bool(self.names)

    def push(self, name: str) -> None:
        self.names.append(name)
        self.count[name] += 1

    def close(self, name: str) -> list[str] | None:
        """Close the innermost open ``name`` and what is open inside it (returned: their
        own end tags come later), or ``None`` when no ``name`` is open."""
        if not self.count[name]:
            return None
        through: list[str] = []
        while (top := self.names.pop()) != name:
            through.append(top)
            self.count[top] -= 1
        self.count[name] -= 1
        return through[::-1]


def _walk(  # noqa: C901 - one-pass token automaton; states share locals
    text: str, begin: int, *, together: bool, notes: Collection[str], first: bool = False
) -> tuple[list[Span], Token | None]:
    """:func:`element_spans` from ``begin``, and the start tag of the last root when it is
    never closed (else ``None``). With ``first``, the first element is the root (never a
    mention) and the walk ends with its candidate."""
    found: list[Span] = []
    it = tokens(text, begin)
    root: Token | None = None  # the current candidate's root start tag
    stack = _Open()
    start: int | None = None  # where the current candidate starts
    prolog: int | None = None  # where a run of prolog markup before an element starts
    end: int | None = None  # where the current candidate's root ended
    closed_early: Counter[str] = Counter()  # elements closed through by a misnested end tag
    mentioned: list[Token] = []  # top-level start tags read as mentions
    while (tok := next(it, None)) is not None:
        kind = tok.kind
        if not stack and kind == START and (skip := note_end(text, tok.name, tok.end, notes)) is not None:
            if end is not None:  # a think block after a root ends its candidate
                found.append(Span(start, end))  # type: ignore[arg-type]
                if first:
                    return found, None
                start = end = prolog = None
                closed_early = Counter()
            it = tokens(text, skip)
            continue
        if stack:
            if kind == START:
                stack.push(tok.name.lower())
            elif kind == END:
                name = tok.name.lower()
                through = stack.close(name)
                if through is not None:
                    closed_early.update(through)  # misnested: their own end tags come later
                elif closed_early[name]:
                    closed_early[name] -= 1
                if not stack:
                    end = tok.end
            continue
        if end is not None:  # after a root: its trailing comments and PIs, maybe more roots
            if kind == TEXT and not text[tok.start : tok.end].strip():
                continue
            if kind == END and mentioned and start is not None and mentioned[-1].start < start:
                if mentioned[-1].name.lower() == tok.name.lower():
                    # the end tag of a start tag read as a mention ("<a>x<a>y</a></a>", as
                    # healing closes "<a>x<a>y"): it was an element around this root
                    start, end = mentioned.pop().start, tok.end
                    continue
            if kind in (COMMENT, PI) or (kind == END and closed_early[tok.name.lower()]):
                if kind == END:
                    closed_early[tok.name.lower()] -= 1
                end = tok.end
                continue
            if together and kind in (START, EMPTY):
                end = tok.end if kind == EMPTY else None
                if kind == START:
                    stack.push(tok.name.lower())
                continue
            found.append(Span(start, end))  # type: ignore[arg-type]
            if first:
                return found, None
            start = end = prolog = None
            closed_early = Counter()
        if kind in (START, EMPTY) and not first and _mention(text, tok):
            prolog = None
            if kind == START:
                mentioned.append(tok)
            continue
        if kind in (START, EMPTY):
            start = prolog if prolog is not None else tok.start
            prolog = None
            root = tok
            if kind == START:
                stack.push(tok.name.lower())
            else:
                end = tok.end
        elif kind in _PROLOG:
            if prolog is None:
                prolog = tok.start
        elif kind == TEXT and not text[tok.start : tok.end].strip():
            pass
        elif kind in (TEXT, STRAY, CDATA, END):
            prolog = None
    if start is not None:
        found.append(Span(start, end if end is not None and not stack else len(text)))
        if stack and root is not None and root.kind == START and root.start == start:
            return found, root
    return found, None


def _root(reply: str, span: Span) -> tuple[str, bool]:
    """The root's name in ``span``, and whether the span is that one element empty
    (``<a/>``, ``<a></a>``, white space inside)."""
    it = tokens(reply, span.start)
    first = next(it, None)
    if first is None or first.kind not in (START, EMPTY):
        return "", False
    following = next(it, None)
    if first.kind == START and following is not None and following.kind == TEXT:
        if reply[following.start : min(following.end, span.end)].strip():
            return first.name, False
        following = next(it, None)
    if first.kind == START:
        empty = following is not None and following.kind == END and following.end == span.end
    else:
        empty = first.end == span.end
    return first.name, empty


def _placeholders_last(reply: str, spans: list[Span]) -> list[Span]:
    """An empty element followed by an element of the same name is a placeholder prose
    names ("put it in <answer></answer> tags: <answer>42</answer>"): tried last."""
    later: list[Span] = []
    filled: set[str] = set()  # names of the non-empty roots after the one looked at
    for span in reversed(spans):
        name, empty = _root(reply, span)
        if not empty:
            filled.add(name)
        elif name in filled:
            later.append(span)
    moved = set(later)
    return [s for s in spans if s not in moved] + later[::-1]


def markup_names(root: str | None) -> tuple[str, ...]:
    """The names of think tags XML reads as its own elements: with ``root`` a
    ``<reasoning>`` element is part of the payload."""
    return ("reasoning",) if root is not None else ()


def _outside_fences(reply: str, blocks: Sequence[Fence], *, together: bool, notes: Collection[str]) -> list[Span]:
    """:func:`element_spans` of ``reply`` with its fences blanked, but for an element that a
    fence opens inside: those lines are its text, and healing reads them as markup, so the
    element is read again with them, from its start tag on (else a healed text, ``<p>``
    fence ``<p>`` fence ``a</p></p>``, would be located again without them). Only where it
    ends is read again: which tag is the root was decided on the text without the fence
    (a tag inside a code sample never makes the element around it a mention)."""
    starts = [f.span.start for f in blocks]
    found: list[Span] = []
    outside = blank_out(reply, [f.span for f in blocks])
    for span in element_spans(outside, together=together, notes=notes):
        if found and span.start < found[-1].end:
            continue  # inside the element before it, read with its fences
        at = bisect_left(starts, span.start)
        if at < len(starts) and starts[at] < span.end:
            again, _ = _walk(reply, span.start, together=together, notes=notes, first=True)
            # a tag in the fence closing the element sooner is taken only when nothing but
            # fence lines follows inside it: else the element would lose the text after the
            # fence, a reading as doubtful as the other
            if again and (again[0].end >= span.end or not outside[again[0].end : span.end].strip()):
                span = again[0]
        found.append(span)
    return found


def opens_too_deep(reply: Reply, max_depth: int) -> Span | None:
    """The reply when the element opening it nests past ``max_depth`` within its first
    ``DEPTH_PROBE`` characters (``None`` otherwise): a candidate on its own, refused with
    ``xml.too_deep`` without walking the rest (a million nested elements took seconds
    and 100 MB to walk, for the same verdict). The element opening a reply is its payload,
    as a stream reads it; a think block opening it is not one."""
    whole = strip_span(reply, Span(0, len(reply)))
    if not reply.startswith("<", whole.start) or reply.aside_starting(whole.start) is not None:
        return None
    scanner = Scanner(max_depth)
    scanner.feed(reply[whole.start : whole.start + DEPTH_PROBE])
    return whole if scanner.error is not None and scanner.error[0] == "xml.too_deep" else None


def one_document(reply: str, notes: Collection[str], max_depth: int | None) -> Span | None:
    """The span :func:`element_spans` finds in ``reply`` when it is one XML document (see
    :func:`read_one_document`), else ``None``."""
    read = read_one_document(reply, notes, max_depth)
    return None if read is None else read[0]


#: What ``read_one_document`` may ask instead of parsing a text with ``&`` and stray ``<``
#: masked (see there): the tree of that text healed by escaping them, or ``None``.
Mend = Callable[[str, tuple[Any, list[Problem]]], Any]


def read_one_document(
    reply: str, notes: Collection[str], max_depth: int | None, mend: Mend | None = None
) -> tuple[Span, tuple[Any, list[Problem]]] | None:
    """The span :func:`element_spans` finds in ``reply`` when, think blocks opening it
    skipped, it holds one XML document lxml parses from its first ``<`` to its last ``>``
    with no ``<`` in the prose around it (``None`` when it does not, or when the document
    nests deeper than ``max_depth``): one parse in C instead of the walk over every token.
    With the span, lxml's reading of it as it stands (:func:`.parser.parse`'s root element
    and problems; no root when the text is not well-formed: see below).

    The walk's answer there is that one span (a bare ``&`` or ``<`` in its text aside,
    which the walk reads as text): the document's top level holds only its
    prolog (comments, PIs, the XML declaration; a DOCTYPE, whose internal subset the
    tokenizer reads roughly, is left to the walk), the root and comments or PIs after
    it, and the prose around holds no markup. The walk's reading of the root (a think block, a mention) is
    asked of the same functions.

    ``mend`` (the check's locating, which heals next): asked first, with the text and
    lxml's reading of it, where lxml refuses the text as it stands; a tree it answers is
    taken for the masked text's (see :func:`mended_like_masked`), ``None`` asks lxml."""
    pos = 0
    opening: Token | None = None
    while True:
        first = reply.find("<", pos)
        if first < 0:
            return None
        if not NAME_START.match(reply, first + 1):
            break  # no start tag here (a PI, a comment...): no think block opens
        opening = next(tokens(reply, first))  # (a token starts at '<')
        if opening.kind != START or (skip := note_end(reply, opening.name, opening.end, notes)) is None:
            break
        pos = skip  # a think block opening the reply: the walk skips it the same way
    last = reply.rfind(">")
    if last < first or reply.find("<", last) >= 0:
        return None
    at = first  # the prolog, read as the tokens read it (PIs, comments, blank text between)
    while True:
        if reply.startswith("<?", at):
            end, closer = reply.find("?>", at + 2), 2
        elif reply.startswith("<!--", at):
            end, closer = reply.find("-->", at + 4), 3
        else:
            break
        if end < 0:
            return None  # cut off: no root follows
        at = end + closer
        lt = reply.find("<", at)
        if lt < 0 or reply[at:lt].strip():
            return None  # text (or nothing) after the prolog: no root
        at = lt
    head = opening if at == first and opening is not None else next(tokens(reply, at))
    if head.kind not in (START, EMPTY) or _mention(reply, head):
        return None  # the walk would not take it for the root: parsing would not say more
    if head.kind == START and note_end(reply, head.name, head.end, notes) is not None:
        return None
    doc = reply[first : last + 1]
    as_it_stands = parse(doc)
    tree = as_it_stands[0]
    if tree is None and ("&" in doc or _STRAY_LT.search(doc)):
        # a bare '&' or '<' in text (AT&T, a < b): the tokenizer never reads an '&', and
        # reads a stray '<' as text, so the walk reads the text as it reads it with both
        # written '_' (the same length), and a parse of that says whether it is one document
        tree = mend(doc, as_it_stands) if mend is not None else None
        if tree is None:
            tree = parse(_STRAY_LT.sub("_", doc.replace("&", "_")))[0]
    if tree is None or (max_depth is not None and deeper_than(tree, max_depth)):
        return None
    return Span(first, last + 1), as_it_stands


#: The longest text :func:`mended_like_masked` answers for (see there).
MENDED_MAX = 2_000_000
#: A predefined reference as the masked text writes it (``&amp;`` as ``_amp;``).
_MASKED_REF = re.compile("_(?:lt|gt|amp|apos|quot);")
#: Repairs of text the masked text keeps as it is (``]]>``, a character XML refuses).
_UNMASKED = frozenset({"escaped_cdata_end", "invalid_char"})


def mended_like_masked(doc: str, repairs: Iterable[Repair]) -> bool:
    """Whether ``doc``, healed well-formed by escaping its text only (the escaping-only
    heal's ``repairs``), is then one document with ``&`` and stray ``<`` masked
    (:func:`read_one_document`), with the same elements. The two differ only in text,
    comments, CDATA, PIs and attribute values: where the healed text escapes a bare
    ``&`` or ``<``, the masked one writes ``_``; every reference (``&amp;``, ``&nbsp;``,
    ``&#0;``) reads ``_name;``, text still. Not so where healing mends what masking keeps
    (``]]>`` in text, a character XML refuses: those repairs), where masking makes two
    namespace names equal (``&amp;`` beside ``_amp;``: attributes would repeat; only
    with ``xmlns`` and such a name), where a stray ``<`` is followed by ``&`` (masked
    ``<_``, a start tag: the ``&`` is masked first), and past :data:`MENDED_MAX`
    characters (a masked text node, ``_amp;`` for ``&``, might pass libxml2's 10 MB one)."""
    if len(doc) > MENDED_MAX or any(r.kind in _UNMASKED for r in repairs) or "<&" in doc:
        return False
    return "xmlns" not in doc or _MASKED_REF.search(doc) is None


def locate(reply: str, *, root: str | None = None, max_depth: int | None = None, walk_only: bool = False) -> list[Span]:
    """Candidate payloads of ``reply``, best first (see the module doc); with ``max_depth``
    a reply opening with an element nested deeper is its one candidate. ``walk_only``
    skips the one-parse reading (:func:`one_document`): the tests compare the two."""
    return locate_read(reply, root=root, max_depth=max_depth, walk_only=walk_only)[0]


def locate_read(
    reply: str,
    *,
    root: str | None = None,
    max_depth: int | None = None,
    walk_only: bool = False,
    mend: Mend | None = None,
) -> tuple[list[Span], tuple[Any, list[Problem]] | None]:
    """:func:`locate`'s candidates, and lxml's reading of the one candidate when
    :func:`read_one_document` located it (its root element and problems), else ``None``.
    ``mend``: see :func:`read_one_document`."""
    prepared = Reply.of(reply)
    together = root is not None
    markup = markup_names(root)
    # every block is a note without markup: read only when a fence or prose needs them
    kept = prepared.notes(markup) if markup else None
    blocks = prepared.payload_fences(blocks=kept)
    doc = read = None
    if not walk_only and not blocks:
        one = read_one_document(reply, note_names(markup), max_depth if root is None else None, mend)
        doc, read = one if one is not None else (None, None)
    # a document opening the reply within max_depth is not too deep: that was just seen
    if max_depth is not None and root is None and (doc is None or reply[: doc.start].strip()):
        deep = opens_too_deep(prepared, max_depth)
        if deep is not None:
            return [deep], None
    if doc is not None:
        return [strip_span(reply, doc)], read
    candidates: list[Span] = []
    for f in blocks:
        body = strip_span(reply, f.body)
        if f.info == "xml" and body.end > body.start:
            candidates.append(body)
    seen = set(candidates)  # a set: a reply may hold thousands of fences
    for f in blocks:
        body = strip_span(reply, f.body)
        if f.info == "" and reply.startswith("<", body.start) and body not in seen:
            seen.add(body)
            candidates.append(body)
    found = []
    for span in _outside_fences(reply, blocks, together=together, notes=note_names(markup)):
        span = strip_span(reply, span)
        if span not in seen:
            seen.add(span)
            found.append(span)
    candidates += _placeholders_last(reply, found)
    if not candidates:
        candidates += prepared.prose_candidates(blocks=kept)
    return candidates, None
