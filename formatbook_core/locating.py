"""Helpers formats use to find their payload in a reply.

What a reply holds around a payload (think blocks, fences, line starts) is owned by the
prepared reply, :mod:`formatbook_core.reply`; set operations on spans are in
:mod:`formatbook_core.spans`. Offsets are into the reply as received.
"""

from __future__ import annotations

from .reply import Reply
from .results import Span
from .spans import strip_span

__all__ = ["default_locate"]


def default_locate(reply: str, names: tuple[str, ...]) -> list[Span]:
    """Fences tagged with one of ``names`` first, then untagged fences, then the reply
    without its ``<think>`` blocks (each remaining stretch, longest first); for a reply
    with nothing outside its think blocks, :func:`no_payload`."""
    prepared = Reply.of(reply)
    wanted = {n.lower() for n in names}
    # a fence inside a <think> block is a draft, closed or not: never a candidate
    blocks = prepared.fences()
    tagged = [strip_span(reply, f.body) for f in blocks if f.info in wanted]
    bare = [strip_span(reply, f.body) for f in blocks if f.info == ""]
    # in order, each once (a set: a reply may hold thousands of fences)
    candidates = list(dict.fromkeys([*tagged, *bare, *prepared.longest_stretches()]))
    return candidates or prepared.prose_candidates()
