"""Where the YAML sits in a reply: the candidate payloads, best first.

1. Fenced blocks tagged ``yaml`` or ``yml`` (any case), then untagged fenced blocks;
   a block's first and last lines that read as sentences are prose, as in 2.
2. The reply (outside ``<think>`` blocks) with its leading and trailing prose set
   aside: lines before the first line that opens YAML data (a ``key:`` line, a ``- ``
   item, ``---``, a ``{``/``[`` line) and lines after the last line of the data (a line
   at the margin that is neither a key nor an item, nor a comment, and reads as a
   sentence — three words or more, or an end in ``. ! ? :`` — and what follows it).
   An introduction like "Here is the YAML:" would read as a key with no value: a line
   ending with a colon whose key holds three words or more, followed by a line at the
   same margin, is prose. Data that would end with a ``key:`` line over prose (``Steps:``
   over a numbered list, ``bio:`` over ``Loves maths``) is not trimmed into a key of
   null: the prose may be its value.
3. The reply without its think blocks, whole (when it differs from 2), unless every
   line 2 set aside reads as a sentence: prose is never read as data, not even as a
   fallback ("Here is the list:" over a list that does not heal is no key).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from formatbook_core import Span
from formatbook_core.locating import fences, outside_spans, strip_span, think_spans

_TAGS = {"yaml", "yml"}
# a line that opens YAML data at the margin: an item, a marker, a flow collection, a key
# (a word or a quoted key, then ": " or ":" at the end; a plain key may hold a ':' that no
# space follows, as YAML reads "a::" and "http://x: 1"); linear: each repetition is one
# character (a ':' only with a lookahead of one), at most 200 of them from a line start
_DATA = re.compile(
    r"""(?:-(?:[ \t]|$)|---|\{|\[|"[^"\n]{0,200}"[ \t]*:(?:[ \t]|$)|'[^'\n]{0,200}'[ \t]*:(?:[ \t]|$)|[^\s:#"'\-\[\]{}](?:[^:\n]|:(?=[^ \t\n])){0,200}?:(?:[ \t]|$))"""
)


def _is_prose_key(line: str, next_line: str | None) -> bool:
    """ "Here is the YAML:" — a sentence ending with a colon, not a parent key."""
    body = line.rstrip()
    if not body.endswith(":") or len(body[:-1].split()) < 3:
        return False
    return next_line is None or not next_line[:1].isspace() or next_line.strip() == ""


def _prose_like(line: str) -> bool:
    """A line at the margin that reads as a sentence, not as YAML syntax."""
    first = line[:1]
    return first.isalnum() or first in "(\u201c\u00ab\u00bf\u00a1" or line.startswith("**")


def _sentence(line: str) -> bool:
    """Prose after the data reads as a sentence: three words or more, or an ending in
    ``. ! ? :``. A short line (``cherries`` under ``- bananas``, ``age 36``) is data
    the writer got wrong or a cut-off line: healing judges it, it is not set aside."""
    body = line.strip()
    return len(body.split()) >= 3 or body.endswith((".", "!", "?", ":"))


def trimmed(reply: str, span: Span) -> Span:
    """``span`` of ``reply`` without its leading and trailing prose lines."""
    text = reply[span.start : span.end]
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    offsets = []
    pos = 0
    for line in text.split("\n"):
        offsets.append(pos)
        pos += len(line) + 1
    first = None
    for i, line in enumerate(lines):
        if line.strip() == "" or line.lstrip().startswith("#"):
            continue
        nxt = next((x for x in lines[i + 1 :] if x.strip()), None)
        if _DATA.match(line) and not _is_prose_key(line, nxt):
            first = i
            break
        if line[:1].isspace() or not _prose_like(line):  # not prose to skip: keep it all
            return span
    if first is None:
        return span
    while first > 0 and lines[first - 1].startswith("#"):
        first -= 1  # comment lines right above the data belong to it (healing keeps them)
    last = first
    for i in range(first + 1, len(lines)):
        line = lines[i]
        if line.strip() == "" or line[:1].isspace() or line.startswith("#"):
            continue
        if _DATA.match(line) or not _prose_like(line) or not _sentence(line):
            last = i
            continue
        break
    else:
        last = len(lines) - 1
    # the data runs to the last non-blank line before the prose
    end_line = last
    for i in range(last, len(lines)):
        if i > last and lines[i][:1] not in (" ", "\t", "#", "") and lines[i].strip():
            break
        if lines[i].strip():
            end_line = i
    if lines[end_line].split(" #", 1)[0].rstrip().endswith(":") and any(x.strip() for x in lines[end_line + 1 :]):
        # "Steps:" over a numbered list, "bio:" over "Loves maths": the lines after may be
        # that key's value (a heading of the prose, or a value at the key's margin), so
        # the reply is not trimmed into a key of null
        return span
    start = span.start + offsets[first]
    end = span.start + offsets[end_line] + len(lines[end_line])
    return strip_span(reply, Span(start, end))


def _sentences_around(reply: str, outer: Span, inner: Span) -> bool:
    """Every non-blank line cut off by ``inner`` reads as a sentence (three words or more,
    or an ending in . ! ? :)."""
    cut = reply[outer.start : inner.start] + "\n" + reply[inner.end : outer.end]
    for line in cut.split("\n"):
        line = line.strip()
        if line and len(line.split()) < 3 and not line.endswith((".", "!", "?", ":")):
            return False
    return True


def _without_sentences(text: str, body: Span) -> Span:
    """A fenced ``body`` without the first and last lines the reply would lose as prose
    (when every line cut reads as a sentence): the payload healing gives is the text a
    reply without the fence would give, so healing it again changes nothing."""
    inner = trimmed(text, body)
    return inner if inner != body and _sentences_around(text, body, inner) else body


def locate(reply: str, is_valid: Callable[[str], bool]) -> list[Span]:
    """Candidate spans of ``reply``, best first (see the module doc)."""
    thoughts = think_spans(reply)
    pieces, pos = [], 0
    for start, end in thoughts:
        pieces += [reply[pos:start], " " * (end - start)]
        pos = end
    blanked = "".join(pieces) + reply[pos:]
    blocks = fences(blanked)
    candidates: list[Span] = []
    # a body is trimmed in the blanked text: a think block that ends it (an unclosed one
    # runs to the end) is no part of the payload, as heal's second pass would find
    tagged = [_without_sentences(blanked, strip_span(blanked, f.body)) for f in blocks if f.info in _TAGS]
    bare = [_without_sentences(blanked, strip_span(blanked, f.body)) for f in blocks if f.info == ""]
    rest = [strip_span(reply, s) for s in outside_spans(len(reply), thoughts)]
    rest = [s for s in rest if s.end > s.start]
    rest.sort(key=lambda s: s.start - s.end)
    whole = rest[:1]
    inner = [trimmed(reply, s) for s in whole]
    if whole and inner[0] != whole[0] and _sentences_around(reply, whole[0], inner[0]):
        # the lines cut off read as sentences: prose, never data. The whole reply is no
        # candidate, valid or healed (a heading "Here is the list:" read as a key, and
        # healing's text located again without it: two values for one reply)
        whole = []
    elif whole and not tagged and is_valid(reply[whole[0].start : whole[0].end]):
        # a valid reply keeps its first and last lines unless they read as sentences
        return whole
    for span in [*tagged, *bare, *inner, *whole]:
        if span.end > span.start and span not in candidates:
            candidates.append(span)
    return candidates or [Span(0, len(reply))]
