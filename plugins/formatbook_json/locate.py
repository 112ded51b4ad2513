"""Where the JSON sits in a reply: the candidate payloads, best first.

1. A reply that is wholly strict JSON (white space around it allowed) is that JSON, and
   the only candidate: ``"see [1]"`` is a string, not the array inside it.
2. Fenced blocks, paired as CommonMark pairs them (:func:`formatbook_core.locating.fences`):
   blocks tagged ``json`` (any case, also ``jsonc``/``json5``/``jsonl``) whatever they hold,
   then untagged blocks whose body starts with ``{`` or ``[``, then blocks with another tag
   (``js``, ``python``, ``text``...) whose body starts with ``{`` or ``[``.
3. The containers in the rest of the reply (outside the fences taken above; a fence
   whose body is not JSON is prose here, but for its fence lines; think blocks read as
   blank, so a container read across one keeps it inside and healing refuses it with
   ``json.think_inside``: the block may be a note or part of a value), found by one
   scan: every
   top-level balanced ``{…}``/``[…]`` in order of appearance, first those with content,
   then the bare references (``[1]``, ``[see above]``, ``{}``: a ``[…]`` holding no
   string and no container, or an empty container). A container the reply ends inside
   of runs to the end of the reply and keeps its trailing spaces (a cut string keeps
   them); the containers inside it (closed or not) are candidates too when it does not
   read as JSON (no string, comma or colon directly inside: a stray ``[`` in prose cannot
   hide the JSON after it), never when it does (a part of a cut-off payload is not the
   payload). Two containers with only JSON glue between them (a colon, or a comma, a
   quoted key and a colon) are one candidate: the first did not really end there. A
   container that reads as JSON, cut by a fence line (or by the closing fence of its
   own block, 2) and closed after it when read across the fence, is one candidate to
   where it closes, and nothing inside it is one: the payload goes on after the fence
   (healing takes a fence line inside a string whole, and refuses one between tokens
   with ``json.fence_inside``). The payload a stream commits to is read so too.
   A container on one line with prose on both sides of it there is a mention in a
   sentence (``According to [1], the answer is yes.``), no candidate (``_mention``).
   A container followed by JSON glue with a key and closing brackets
   (``{"a": 1}, "b": 2}``) is read on to them: the bracket closed it early.
4. When nothing else is found: the reply without its think blocks.

The core tries the candidates in this order and takes the first one that passes (the
schema included), so a candidate that satisfies the schema beats one that does not.
There is no cap on candidates: they are disjoint (but for at most three unclosed
ones), so trying them all stays linear in the reply. Spans index the reply as received.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from formatbook_core import Reply, Span
from formatbook_core.limits import MAX_DEPTH, MAX_SIZE
from formatbook_core.mentions import in_sentence
from formatbook_core.reply import Fence
from formatbook_core.runs import run
from formatbook_core.spans import SPACE_SET as _BLANK
from formatbook_core.spans import merge_spans, outside_spans

from .commitment import committed_position
from .syntax import strict_reading, strict_value

_TAGS = {"json", "jsonc", "json5", "jsonl"}
_VALUE_START = frozenset('{["-0123456789tfn')
_OPEN = re.compile(r"[{\[]")
# Inside a container: everything up to the next bracket (group 1) that is not inside a
# string or a comment, in one match, reading strings and comments as the healer reads
# them (heal.lexer, heal.strings): brackets within them do not count. A double-quoted
# string, or one opened by ' ‘ ’ or ” where a value or key may start (after a
# bracket, comma or colon, blanks and comments), is closed by its quote (’ for ‘) only where
# the healer closes it: before , : } ] a line break or a comment, or blanks and another
# quote; any other quote is inside it ("He said "hi" to me", 'don't } stop' are one
# string each). Strings opened by “ (“It's”, whose apostrophe is no quote) end at
# the line's end when unclosed, the others run on. Comments: /* … */ anywhere, // to the
# line's end but after a colon (the :// of a URL in prose). Possessive quantifiers: no
# backtracking; a quoted string is tried before a run of blanks, and only right after a
# bracket, comma or colon, so no blank or comment is read more than twice: linear.
_CLOSES = r"""(?:[ \t]*+(?:[,:}\]\n\r]|//|/\*|\Z)|[ \t]++["'\u201c\u2018])"""
_COMMENT = r"(?:/\*(?:[^*]++|\*(?!/))*+(?:\*/)?|(?<![:/])//[^\n]*+)"
_INNER = run(
    rf"""(?:[^{{}}\[\]"'\u201c\u201d\u2018\u2019 \t\r\n/]++
    |(?<=[{{\[,:])(?:[ \t\r\n]++|{_COMMENT})*+(?:'(?:[^'\\]++|\\.|'(?!{_CLOSES}))*+'?
        |[\u2018\u2019](?:[^\u2019\\]++|\\.|\u2019(?!{_CLOSES}))*+\u2019?
        |\u201d(?:[^\u201d\\]++|\\.|\u201d(?!{_CLOSES}))*+\u201d?)
    |[ \t\r\n]++
    |"(?:[^"\\]++|\\.|"(?!{_CLOSES}))*+"?
    |\u201c[^\u201c\u201d\n]*+[\u201d\u201c]?
    |{_COMMENT}
    |[ \t\r\n'/\u201d\u2018\u2019]
    )*+([{{}}\[\]])?""",
    re.VERBOSE | re.DOTALL,
)
_new_tuple = tuple.__new__
_MAX_UNCLOSED = 3  # each unclosed container runs to the end: at most this many are tried
# Between two top-level containers: nothing but the glue of one JSON document — commas and
# colons with quoted strings, numbers and literals between them, a colon among them
# ('}, "a": 1, "b": {'), never prose. Then the first container did not end where its
# brackets seemed to close it (a quote read otherwise, as in [" "hi" "]), and the two are
# one candidate. Linear: each repeat starts with its own comma or colon.
_GLUE = re.compile(
    r'[ \t\r\n]*(?:[,:][ \t\r\n]*(?:"[^"\\\n]{0,200}"|-?[0-9][0-9.eE+\-]{0,40}|true|false|null)?[ \t\r\n]*)+'
)
_QUOTED = re.compile(r'"[^"\\\n]{0,200}"')
_CLOSERS = re.compile(r"(?:[ \t\r\n]*[}\]])+")


def locate(reply: Reply, *, max_depth: int = MAX_DEPTH, max_size: int = MAX_SIZE) -> tuple[list[Span], Any]:
    """Candidate payload spans of ``reply``, best first (see the module doc), and the
    parsed value when the whole reply is strict JSON (else ``None``)."""
    start, end = 0, len(reply)
    if end and (reply[0] in _BLANK or reply[-1] in _BLANK):
        start, end = _strip(reply, Span(start, end))
    if end > start and reply[start] in _VALUE_START:
        verdict, value = strict_reading(reply.plain[start:end], max_depth=max_depth, max_size=max_size)
        if verdict == "ok":
            return [_new_tuple(Span, (start, end))], value  # Span(start, end), without its Python __new__
        if verdict == "json.too_deep":
            # the container opening the reply passes max_depth: refused before any scan
            # (a million brackets cost seconds to pair, for the same json.too_deep)
            return [Span(start, end)], None
    prepared = Reply.of(reply)  # as JsonFormat.prepare read it
    blocks = [f for f in prepared.fences(as_received=True) if not prepared.within_aside(f.span)]
    at = committed_position(prepared.stream_pieces())
    if at is not None:  # the payload, and the only candidate (formatbook_json.commitment)
        return [_with_controls(reply, _unpadded(reply, _committed(prepared, at, blocks)))], None
    own: list[Span] = []
    bare: list[Span] = []
    other: list[Span] = []
    taken: list[Span] = []
    # Think blocks are blanked out, not cut out: a container read across one keeps it
    # inside (healing refuses it, json.think_inside), as the committed payload does;
    # cut out, the part before the block would pass as the whole payload.
    blanked = prepared.blanked()
    across = _Across(blanked)
    crossed: list[Span] = []  # payloads read across a fence line (healing refuses those)
    for f in blocks:
        if crossed and f.span.start < crossed[-1].end:
            continue  # inside a payload read across its fence lines
        body = _body(reply, f)
        if body is None or (f.info not in _TAGS and reply[body.start] not in "{["):
            # prose (a closing fence read as an opening one, say): scanned below, but
            # for the fence lines, which are never JSON
            taken += [Span(f.span.start, f.body.start), Span(f.body.end, f.span.end)]
            continue
        if f.closed:
            # a container the closing fence cuts and that goes on after it is one payload
            close = across.close_of(body.start)
            if close is not None and close > f.body.end:
                body = Span(body.start, close)
                crossed.append(body)
                taken.append(Span(f.span.start, close))
        if f.info in _TAGS:
            own.append(body)
        else:
            (bare if f.info == "" else other).append(body)
        taken.append(f.span)
    content: list[Span] = []
    references: list[Span] = []
    across = _Across(blanked)  # a second reader: its calls come in order of position again
    floor = 0  # what lies before is inside a payload read across a fence line
    for region in outside_spans(len(reply), merge_spans(taken)):
        start = max(region.start, floor)
        if start >= region.end:
            continue
        for span, has_content in _containers(blanked, start, region.end, across):
            if span.end <= region.end and _mention(prepared, blanked, span, has_content):
                continue  # a mention in a sentence is not a payload
            (content if has_content else references).append(span)
            if span.end > region.end:
                crossed.append(span)
                floor = max(floor, span.end)
    candidates: list[Span] = []
    seen: set[Span] = set()
    crossing = set(crossed)
    cover = merge_spans(crossed)
    starts = [c.start for c in cover]
    for span in (*own, *bare, *other, *content, *references):
        if span not in crossing:
            i = bisect_right(starts, span.start) - 1
            if i >= 0 and span.end <= cover[i].end:
                continue  # a part of a payload read across a fence line is not the payload
        if span not in seen:
            seen.add(span)
            candidates.append(_with_controls(reply, _unpadded(reply, span)))
    if not candidates:
        candidates = [_with_controls(reply, s) for s in prepared.stretches()[:1]] or [Span(0, len(reply))]
    return candidates, None


# Between two containers written one per line: blanks, a line break, perhaps a comma.
LINE_GAP = re.compile(r"[ \t]*,?[ \t]*(?:\r\n|\n|\r)[ \t\r\n]*|[ \t]*(?:\r\n|\n|\r)[ \t\r\n]*,[ \t\r\n]*")


def lines_run(reply: Reply, first: Span) -> Span | None:
    """The containers written one per line from the one ``first`` spans (only blanks, a
    line break and perhaps a comma between two), as one span, when there are two or more
    (the schema asks for an array: they are its items, and healing wraps them); else
    ``None``. Think blocks read as blank; linear (one reader, asked in order)."""
    if first.end <= first.start or reply[first.start] not in "{[" or reply[first.end - 1] not in "}]":
        return None
    text = Reply.of(reply).blanked()  # as JsonFormat.prepare read it
    across = _Across(text)
    end = first.end
    while True:
        gap = LINE_GAP.match(text, end)
        if gap is None or gap.end() >= len(text) or text[gap.end()] not in "{[":
            break
        close = across.close_of(gap.end())
        if close is None:
            break
        end = close
    return Span(first.start, end) if end > first.end else None


def _mention(reply: Reply, text: str, span: Span, has_content: bool) -> bool:
    """Whether the container at ``span`` is mentioned in a sentence rather than given as
    data: it lies on one line, with prose on both sides of it there
    (:func:`formatbook_core.mentions.in_sentence`: ``According to [1], the answer is
    yes.``, ``See [2] and [3].``; ``Here is the JSON: {...}`` and ``Sure! {...} Hope it
    helps.`` give data). After a container with content, only words make a sentence go on;
    after a bare reference (``[1]``: no string, no container), anything does (``[3].``).
    ``text`` is the reply with think blocks blanked."""
    starts = reply.line_starts
    line = reply.line_of(span.start)
    line_end = starts[line + 1] if line + 1 < len(starts) else len(text)
    if span.end > line_end or (line + 1 < len(starts) and span.end == line_end and text[span.end - 1] in "\r\n"):
        return False  # over more than one line: laid out as data
    return in_sentence(text, span.start, span.end, data=True, words_after=has_content)


def _committed(reply: Reply, at: int, blocks: list[Fence]) -> Span:
    """The container the bracket at ``at`` opens: the body of the json fence it opens, or
    the container read with think blocks blanked out (the stream reads across them, so a
    think block inside it stays inside the candidate, and healing refuses it)."""
    end = len(reply)
    body: Span | None = None
    for f in blocks:
        if f.span.start <= at < f.span.end:
            body = _body(reply, f)
            if body is None or body.start != at:
                body = None
                end = f.body.end
            break
        if f.span.start > at:
            end = f.span.start
            break
    blanked = reply.blanked()
    # a fence line cuts it where the container goes on after the fence: read across
    close = _Across(blanked).close_of(at)
    if close is not None and close > (body.end if body is not None else end):
        return Span(at, close)
    if body is not None:
        return body
    # the scan above paired the container to the text's end: left open, it runs to the
    # end; closed, the second scan starts after it (to read on past glue) and never reads
    # it again (each scan of 16 MB costs seconds)
    closed = None
    if end == len(blanked) and blanked[at] in "{[":
        if close is None:
            return Span(at, end)
        closed = Span(at, close)
    found = _containers(blanked, at, end, closed=closed)
    if found and found[0][0].start == at:
        return found[0][0]
    return Span(at, end)


def _strip(text: str, span: Span) -> Span:
    """``span`` without the white space around it: ``SPACES``, JSON's four characters and
    the Unicode ones, never a control character (``{"a": 1}`` then U+001F is text after
    the value, which healing sets aside and lists)."""
    start, end = span
    while start < end and text[start] in _BLANK:
        start += 1
    while end > start and text[end - 1] in _BLANK:
        end -= 1
    return Span(start, end)


def _with_controls(reply: str, span: Span) -> Span:
    """``span`` stretched over the white space next to it when that white space holds a
    control character Python calls white space (U+001F...): text after (or before) the
    value, which healing lists, never blank space the core would set aside unlisted."""
    start, end = span
    after = end
    while after < len(reply) and reply[after].isspace():
        after += 1
    if any(c not in _BLANK for c in reply[end:after]):
        end = after
    before = start
    while before > 0 and reply[before - 1].isspace():
        before -= 1
    if any(c not in _BLANK for c in reply[before:start]):
        start = before
    return Span(start, end)


def _body(reply: str, f: Fence) -> Span | None:
    """The fence's content without surrounding blanks (an unclosed fence keeps its
    trailing ones, the reply was cut there, unless what it holds is already strict JSON:
    then they are no part of a value); ``None`` when empty."""
    body = _strip(reply, f.body)
    if not f.closed and body.end < f.body.end and body.end > body.start:
        if not strict_value(reply[body.start : body.end])[0]:
            body = Span(body.start, f.body.end)
    return body if body.end > body.start else None


def _unpadded(reply: str, span: Span) -> Span:
    """A container the reply (or a fence line) cuts keeps its trailing blanks (they may
    belong to a cut string) unless its text is strict JSON without them, as for an
    unclosed fence (``_body``): then they are no part of a value (a think tag inside a
    string, ``{"a": "<think>"}\n``, leaves the container open when read with think blocks
    blanked out, up to the reply's end or the fence line after it); kept, healing would
    keep them once and drop them when run again."""
    if span.end == span.start or reply[span.end - 1] not in " \t\n\r":
        return span
    body = _strip(reply, span)
    if body.end > body.start and strict_value(reply[body.start : body.end])[0]:
        return body
    return span


def _is_glue(text: str, start: int, stop: int) -> bool:
    return _GLUE.fullmatch(text, start, stop) is not None and ":" in _QUOTED.sub("", text[start:stop])


def _glued(text: str, found: list[tuple[Span, bool]], end: int) -> list[tuple[Span, bool]]:
    """Top-level containers joined where only JSON glue stands between them (``_GLUE``),
    with the closing brackets right after the last one: one broken document, tried as
    one candidate, so that a part of it is never taken for the whole."""
    out: list[tuple[Span, bool]] = []
    for span, has_content in found:
        if out and out[-1][0].end > span.start:
            continue  # inside a container read on past its closing bracket (_continued)
        if out and _is_glue(text, out[-1][0].end, span.start):
            closers = _CLOSERS.match(text, span.end, end)
            stop = closers.end() if closers else span.end
            out[-1] = (Span(out[-1][0].start, stop), True)
        elif out and span.end <= out[-1][0].end:
            continue  # swallowed by the closing brackets of a joined candidate
        else:
            out.append((span, has_content))
        out[-1] = (_continued(text, out[-1][0], end), out[-1][1])
    return out


def _continued(text: str, span: Span, end: int) -> Span:
    """``span`` read on past its closing bracket when only JSON glue with a key in it and
    closing brackets follow (``{"a": 1}, "b": 2}``): the bracket closed the document
    early, and the container alone would be a part of the data (healing refuses the
    whole)."""
    glue = _GLUE.match(text, span.end, end)
    if glue is None or glue.end() == span.end or not _is_glue(text, span.end, glue.end()):
        return span
    closers = _CLOSERS.match(text, glue.end(), end)
    return Span(span.start, closers.end()) if closers else span


class _Across:
    """Where the container opened at an offset closes, read across fence lines (as
    ``_containers`` reads, to the end of the text), or ``None`` when it never closes.
    Asked in order of position: each scan records where every container it opens
    closes and runs until the asked one closes (or to the end), so a later question
    inside a scanned stretch is answered from the record (``None`` when that scan read
    the offset as no opening bracket, inside a string say) and the scans stay linear."""

    __slots__ = ("_text", "_closes", "_from", "_to")

    def __init__(self, text: str) -> None:
        self._text = text
        self._closes: dict[int, int] = {}
        self._from = self._to = 0

    def close_of(self, at: int) -> int | None:
        if self._from <= at < self._to:
            return self._closes.get(at)
        text, end = self._text, len(self._text)
        match_inner = _INNER.match
        stack = [at]
        pos = at + 1
        while stack:
            m = match_inner(text, pos, end)
            bracket = m.group(1)
            if bracket is None:
                pos = end
                break
            pos = m.end()
            if bracket == "{" or bracket == "[":
                stack.append(pos - 1)
            else:
                self._closes[stack.pop()] = pos
        self._from, self._to = at, pos
        return self._closes.get(at)


#: the inner containers of an open one that reads as JSON: never listed, so never kept (a
#: million of them cost seconds, and memory, before the limits that refuse the payload)
_NOT_KEPT: list[tuple[Span, bool]] = []


def _containers(
    text: str, start: int, end: int, across: _Across | None = None, *, closed: Span | None = None
) -> list[tuple[Span, bool]]:
    """The top-level containers of ``text[start:end]`` in order, each with whether it has
    content (see the module doc), in one scan: closing brackets pair with the nearest
    open one whatever their kind (a wrong one is the healer's business). Containers left
    open at the end run to ``end``; those closed inside them are listed too. With
    ``across``, a container left open at ``end`` (a fence line there, not the text's end)
    that reads as JSON and closes after it, read across, runs to where it closes: the
    payload goes on after the fence line, and healing refuses it (``json.fence_inside``)
    or takes it whole (the fence line inside a string). ``closed``: the container opening
    at ``start`` is known to close where ``closed`` ends (an ``_Across`` scan of the text to
    its end paired it): listed as one with content, and the scan starts after it."""
    found: list[tuple[Span, bool]] = [(closed, True)] if closed is not None else []
    # open containers: [start, has content, the containers closed directly inside,
    # whether a string, comma or colon stands directly inside (it reads as JSON)]
    stack: list[list[Any]] = []
    search_open = _OPEN.search
    match_inner = _INNER.match
    find = text.find
    pos = start if closed is None else closed.end
    while pos < end:
        if not stack:
            m = search_open(text, pos, end)
            if m is None:
                break
            stack.append([m.start(), False, [], False])
            pos = m.end()
            continue
        m = match_inner(text, pos, end)
        bracket = m.group(1)
        stop = m.start(1) if bracket is not None else m.end()
        if stop > pos:  # what stands directly inside the innermost container
            frame = stack[-1]
            if not frame[1] and (
                find('"', pos, stop) >= 0 or find("\u201c", pos, stop) >= 0 or find("'", pos, stop) >= 0
            ):
                frame[1] = frame[3] = True  # a string: content, and it reads as JSON
                frame[2] = _NOT_KEPT
            if not frame[3] and (find(",", pos, stop) >= 0 or find(":", pos, stop) >= 0):
                frame[3] = True  # a comma or colon: it reads as JSON
                frame[2] = _NOT_KEPT
        if bracket is None:
            break
        pos = m.end()
        if bracket == "{" or bracket == "[":
            stack[-1][1] = True
            stack.append([stop, False, [], False])
        else:
            first, has_content, _, _ = stack.pop()
            if stack and stack[-1][3]:
                continue  # closed inside one that reads as JSON: never listed (see below)
            if not has_content and text[first] == "{":
                has_content = bool(text[first + 1 : pos - 1].strip())
            item = (Span(first, pos), has_content)
            if stack:
                stack[-1][2].append(item)
            else:
                found.append(item)
    found = _glued(text, found, end)
    # Containers the text ends inside of: the outermost few; and the containers closed
    # inside one that does not read as JSON (a stray "[" in prose). Inside one that does,
    # they are parts of a cut-off payload, never the payload: taking one would take a
    # part of the data for the whole.
    for depth, (first, has_content, inner, json_like) in enumerate(stack):
        if json_like and across is not None and end < len(text):
            close = across.close_of(first)
            if close is not None and close > end:
                found.append((Span(first, close), has_content))
                break
        if depth < _MAX_UNCLOSED:
            found.append((Span(first, end), has_content))
        if json_like:
            break
        found.extend(inner)
    found.sort(key=lambda item: item[0].start)
    return found
