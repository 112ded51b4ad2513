"""A mention is not a payload: where a piece of markup stands inside prose.

A tag that a sentence names ("Wrap it in <b> tags.") or that inline code shows
(`` `<b>` ``) is a mention of markup, not markup: read as a payload it would be taken for
the data, or healed by closing it. Each markup format decides what it does with a
mention (XML and HTML leave it out of their payloads); the judgement of where a piece of
text stands is made here, once. Every test reads a bounded window around the piece:
linear over a reply however many pieces it holds.
"""

from __future__ import annotations

__all__ = ["LOOK", "in_code_span", "in_sentence"]

#: How far a piece's own line is read on each side of it (bounded: linear over a reply).
LOOK = 200


def in_sentence(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` sits inside a line of prose: text before it on its line that
    does not end with ``:`` or a tag (an introduction: "Here: <done/>"), and text after it."""
    cut = text.rfind("\n", max(0, start - LOOK), start)
    before = text[max(cut + 1, start - LOOK) : start].strip()
    if not before or before.endswith((":", ">")):
        return False
    stop = text.find("\n", end, end + LOOK)
    return bool(text[end : stop if stop >= 0 else end + LOOK].strip())


def in_code_span(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is written as inline code: a backtick right before and after it."""
    return text[start - 1 : start] == "`" and text[end : end + 1] == "`"
