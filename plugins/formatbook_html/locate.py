"""Where the HTML sits in a reply: the candidate payloads, best first.

The rules are the README's "Locating". One scan with ``str.find``: linear.
"""

from __future__ import annotations

import re

from formatbook_core import Span
from formatbook_core.mentions import LOOK, in_code_span, in_sentence
from formatbook_core.reply import Reply
from formatbook_core.spans import no_payload, strip_span

_TAGS = {"html", "htm", "xhtml"}


def _tag_start(text: str, pos: int, end: int) -> int:
    """The first ``<`` in ``text[pos:end]`` that opens a tag, comment or doctype, or -1."""
    find = text.find
    while True:
        lt = find("<", pos, end)
        if lt < 0 or lt + 1 >= end:
            return -1
        nxt = text[lt + 1]
        if nxt.isalpha() or nxt == "!":
            return lt
        pos = lt + 1


def _last_close(text: str, start: int, end: int) -> int:
    """The end of the last closing tag ``</name ...>`` in ``text[start:end]``, or -1."""
    last_gt = text.rfind(">", start, end)
    pos = last_gt
    while pos > start:
        lt = text.rfind("</", start, pos)
        if lt < 0:
            return -1
        if text[lt + 2].isalpha():  # lt + 2 <= last_gt: a ">" follows, so it closes
            return text.find(">", lt, end) + 1
        pos = lt
    return -1


def _blank(text: str, start: int, end: int) -> bool:
    return not text[start:end].strip()


def _block_start(text: str, pos: int, floor: int) -> int:
    """The start of the block (lines up to a blank line) holding ``pos``."""
    start = text.rfind("\n", floor, pos) + 1 or floor
    start = max(start, floor)
    while start > floor:
        prev = max(text.rfind("\n", floor, start - 1) + 1, floor)
        if _blank(text, prev, start - 1):
            break
        start = prev
    return start


def _block_end(text: str, pos: int, ceiling: int) -> int:
    """The end of the block (lines up to a blank line) holding ``pos``."""
    end = text.find("\n", pos, ceiling)
    end = ceiling if end < 0 else end
    while end < ceiling:
        nxt = text.find("\n", end + 1, ceiling)
        nxt = ceiling if nxt < 0 else nxt
        if _blank(text, end + 1, nxt):
            break
        end = nxt
    return end


#: Elements with no content and no end tag: never left open, so never a tag prose names
#: by leaving it open (``Line one<br>line two`` is HTML).
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())

_SENTENCE_ENDS = (".", "!", "?", ":", ")", "\u2026", "\u3002", "\uff01", "\uff1f")

#: How many tags prose names are skipped in a region, at most (each reads the rest of the
#: region again to see whether it is closed).
MAX_MENTIONS = 16


def _start_tag(text: str, lt: int, end: int) -> tuple[str, int] | None:
    """The lower-cased name and the end of the start tag at ``lt`` (``<b>``, ``<b class=x>``),
    or ``None`` (an end tag, a comment, a tag not closed by ``>`` on its line)."""
    j = lt + 1
    while j < end and j - lt <= 64 and (text[j].isalnum() or text[j] == "-"):
        j += 1
    if j == lt + 1 or not text[lt + 1].isalpha():
        return None
    gt = text.find(">", j, min(end, j + LOOK))
    if gt < 0 or "\n" in text[j:gt] or text[j : j + 1] not in (">", " ", "\t", "/"):
        return None
    return text[lt + 1 : j].lower(), gt + 1


def _closed(text: str, name: str, pos: int, end: int) -> bool:
    """An end tag ``</name>`` in ``text[pos:end]`` closes the element opened before ``pos``
    (start tags of the same name after ``pos`` claim the end tags after them first)."""
    depth = 0
    for m in re.finditer(r"<(/?)" + re.escape(name) + r"(?=[\s/>])", text[pos:end], re.IGNORECASE):
        if not m.group(1):
            depth += 1
        elif depth:
            depth -= 1
        else:
            return True
    return False


def _mention(text: str, lt: int, end: int) -> int:
    """The end of the start tag at ``lt`` when prose only names it (else -1): written as
    inline code (`` `<b>` ``), or inside a sentence and never closed ("Wrap it in <b>
    tags."), as XML judges it (:mod:`formatbook_core.mentions`). Healing would close it and
    take the sentence for HTML."""
    tag = _start_tag(text, lt, end)
    if tag is None:
        return -1
    name, after = tag
    if in_code_span(text, lt, after):
        return after
    if name in _VOID or text[after - 2] == "/" or not in_sentence(text, lt, after):
        return -1
    if _closed(text, name, after, end):
        return -1
    line_end = text.find("\n", after, end)
    if line_end < 0 or not text[line_end:end].strip():
        # the tag's line is the last: a reply cut off inside the HTML ("Hello <b>world")
        # ends mid-sentence, a sentence naming a tag ends like one
        if not text[after:end].rstrip().endswith(_SENTENCE_ENDS):
            return -1
    return after


def _payload(text: str, region: Span) -> Span | None:
    floor = region.start
    first = _tag_start(text, floor, region.end)
    for _ in range(MAX_MENTIONS):
        named = _mention(text, first, region.end) if first >= 0 else -1
        if named < 0:
            break
        floor = named  # a tag prose names: the HTML, if any, comes after it
        first = _tag_start(text, floor, region.end)
    if first < 0:
        if floor > region.start:  # only tags prose names: no element (html.no_element)
            return strip_span(text, Span(floor, region.end))
        return None
    start = _block_start(text, first, floor)
    close = _last_close(text, first, region.end)
    if close < 0 or _tag_start(text, close, region.end) >= 0:
        return strip_span(text, Span(start, region.end))
    return strip_span(text, Span(start, _block_end(text, close, region.end)))


def _cut_short(text: Reply, found: Span, region: Span) -> bool:
    """Whether the payload ``found`` runs to the end of ``region`` (no closing tag, or a tag
    opened after the last one) where the reply goes on past a block set aside there."""
    if found.end != strip_span(text, Span(found.start, region.end)).end:
        return False
    close = _last_close(text, found.start, region.end)
    if close >= 0 and _tag_start(text, close, region.end) < 0:
        return False
    return text.continues_after(region.end)


def locate(reply: str) -> list[Span]:
    """Candidate payload spans of ``reply``, best first (see the module doc)."""
    prepared = Reply.of(reply)
    blanked = prepared.blanked()
    tagged: list[Span] = []
    bare: list[Span] = []
    taken: list[Span] = []
    for f in prepared.fences():
        body = strip_span(blanked, f.body)  # a think block inside a fence is no part of it
        if body.end <= body.start:
            continue
        if _mention(blanked, _tag_start(blanked, body.start, body.end), body.end) >= 0:
            body = _payload(blanked, body) or body  # a fenced sentence naming a tag names it too
        if f.info in _TAGS:
            tagged.append(body)
            taken.append(f.span)
        elif f.info == "" and blanked[body.start] == "<":
            bare.append(body)
            taken.append(f.span)
    candidates: list[Span] = [*tagged, *bare]
    regions = prepared.between(taken)
    for region in regions:
        found = _payload(reply, region)
        if found is not None:  # a tag, or prose naming tags only (maybe empty after them)
            if _cut_short(prepared, found, region):
                # the HTML goes on after a think block inside it ('<div>\n<think>…</think>\n
                # <p>a</p></div>'): read through it, never closed at the block (which dropped
                # what follows); healing refuses an element named like a think block
                found = strip_span(reply, Span(found.start, len(reply)))
            candidates.append(found)
            break
    if not candidates:
        # the first stretch outside think blocks (a reply that is all think block has no
        # payload: an empty one, judged as such)
        candidates = [*prepared.stretches()[:1]] or [no_payload(reply)]
    out: list[Span] = []
    seen: set[Span] = set()
    for span in candidates:
        if span not in seen:
            seen.add(span)
            out.append(span)
    return out
