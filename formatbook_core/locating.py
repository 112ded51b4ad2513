"""Helpers formats use to find their payload in a reply.

What a reply holds around a payload (think blocks, fences, line starts) is owned by the
prepared reply, :mod:`formatbook_core.reply`; the names below that come from it (and from
:mod:`formatbook_core.spans`) are kept here so that plugins find every locating helper in
one place. Offsets are into the reply as received; every pattern here is linear.
"""

from __future__ import annotations

from .reply import (
    CLOSING_FENCE,
    FENCE_LINE,
    FENCE_OPEN,
    LINE_BREAK,
    THINK_HEAD,
    THINK_LINE,
    THINK_OPEN,
    THINK_OPEN_MAX,
    THINK_TAGS,
    Fence,
    Reply,
    ThinkTags,
    at_line_start,
    fences,
    think_close,
    think_open,
)
from .results import Span
from .spans import containing, no_payload, outside_spans, overlaps_any, strip_span

__all__ = [
    "CLOSING_FENCE",
    "FENCE_LINE",
    "FENCE_OPEN",
    "LINE_BREAK",
    "THINK_HEAD",
    "THINK_LINE",
    "THINK_OPEN",
    "THINK_OPEN_MAX",
    "THINK_TAGS",
    "Fence",
    "Reply",
    "ThinkTags",
    "at_line_start",
    "containing",
    "default_locate",
    "fences",
    "leading_think",
    "no_payload",
    "outside_spans",
    "outside_think",
    "overlaps_any",
    "strip_span",
    "think_close",
    "think_open",
    "think_spans",
]


def _tags(anywhere: bool) -> ThinkTags:
    return ThinkTags.ANYWHERE if anywhere else ThinkTags.LINE_START


def think_spans(reply: str, *, anywhere: bool = False) -> list[Span]:
    """Spans of ``<think>…</think>`` blocks: :meth:`Reply.think_blocks` (``anywhere``:
    as a format whose ``think_tags`` is ``ANYWHERE`` reads them)."""
    return list(Reply.of(reply).think_blocks(_tags(anywhere)))


def leading_think(reply: str) -> Span | None:
    """The span of the ``<think>`` blocks that open the reply: :meth:`Reply.leading_think`."""
    return Reply.of(reply).leading_think()


def outside_think(reply: str, thinks: list[Span] | None = None, *, anywhere: bool = False) -> list[Span]:
    """The stretches of ``reply`` outside its think blocks (``thinks``, by default the
    reply's own), without the white space around each, longest first; when there is none,
    ``[no_payload(reply)]``. Never empty, never a think block's text."""
    if thinks is None:
        spans = list(Reply.of(reply).longest_stretches(_tags(anywhere)))
    else:
        spans = [strip_span(reply, s) for s in outside_spans(len(reply), thinks)]
        spans = [s for s in spans if s.end > s.start]
        spans.sort(key=lambda s: s.start - s.end)  # stable: of two as long, the first first
    return spans or [no_payload(reply)]


def default_locate(reply: str, names: tuple[str, ...]) -> list[Span]:
    """Fences tagged with one of ``names`` first, then untagged fences, then the reply
    without its ``<think>`` blocks (each remaining stretch, longest first); for a reply
    with nothing outside its think blocks, :func:`no_payload`."""
    prepared = Reply.of(reply)
    wanted = {n.lower() for n in names}
    # a fence inside a <think> block is a draft, closed or not: never a candidate
    blocks = prepared.fences(ThinkTags.LINE_START)
    tagged = [strip_span(reply, f.body) for f in blocks if f.info in wanted]
    bare = [strip_span(reply, f.body) for f in blocks if f.info == ""]
    # in order, each once (a set: a reply may hold thousands of fences)
    candidates = list(dict.fromkeys([*tagged, *bare, *prepared.longest_stretches()]))
    return candidates or [no_payload(reply)]
