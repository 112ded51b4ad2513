"""A mention is not a payload: where a piece of markup stands inside prose.

A tag that a sentence names ("Wrap it in <b> tags.") or that inline code shows
(`` `<b>` ``) is a mention of markup, not markup: read as a payload it would be taken for
the data, or healed by closing it. Each markup format decides what it does with a
mention (XML and HTML leave it out of their payloads); the judgement of where a piece of
text stands is made here, once. Every test reads a bounded window around the piece:
linear over a reply however many pieces it holds.
"""

from __future__ import annotations

__all__ = ["DATA_INTRODUCERS", "LOOK", "MARKUP_INTRODUCERS", "in_code_span", "in_sentence"]

#: How far a piece's own line is read on each side of it (bounded: linear over a reply).
LOOK = 200
#: What may end the text before a tag on its line without making the tag part of a sentence:
#: an introduction (``Here:``) or another tag.
MARKUP_INTRODUCERS = frozenset(":>")
#: The same for a data payload (JSON): a sentence's end too (``Sure! {...}`` gives data).
DATA_INTRODUCERS = frozenset(":.!?;>\u3002\uff01\uff1f\uff1a")


def in_sentence(text: str, start: int, end: int, *, data: bool = False, words_after: bool = False) -> bool:
    """``text[start:end]`` sits inside a line of prose: text before it on its line that does
    not end with an introduction, and text after it (with ``words_after``, a letter or
    digit: a payload with content may close a sentence, ``[3].`` a bare reference may not).

    A tag is in a sentence whenever such text stands before it (``1. <b> is bold.``,
    ``Tip! <b> is bold.``: a list marker or an exclamation does not introduce markup). A
    ``data`` payload is introduced by a sentence's end as by a colon (``Sure! {...} Hope
    it helps.``), and only prose holding a word makes it part of a sentence."""
    low = max(0, start - LOOK)
    cut = max(text.rfind("\n", low, start), text.rfind("\r", low, start))
    before = text[max(cut + 1, low) : start].rstrip()
    introducers = DATA_INTRODUCERS if data else MARKUP_INTRODUCERS
    if not before or before[-1] in introducers or (data and not any(c.isalnum() for c in before)):
        return False
    line = text[end : end + LOOK]
    stop = min((i for i in (line.find("\n"), line.find("\r")) if i >= 0), default=len(line))
    after = line[:stop].strip()
    if not after:
        return False
    return not words_after or any(c.isalnum() for c in after)


def in_code_span(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is written as inline code: a backtick right before and after it."""
    return text[start - 1 : start] == "`" and text[end : end + 1] == "`"
