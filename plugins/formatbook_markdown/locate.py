"""Where a Markdown payload sits in a reply: the whole reply, first.

The repair plan needs every fence and ``<think>`` block (it sets them aside itself), so
the whole reply is the best candidate. The spans formatbook's default locator finds
(Markdown fences, then the reply without its ``<think>`` blocks) follow as fallbacks,
tried only when the whole reply cannot be repaired.
"""

from __future__ import annotations

from typing import Any

from formatbook_core import Span
from formatbook_core.locating import default_locate


def locate_markdown(reply: Any, names: tuple[str, ...]) -> list[Span]:
    """The candidate spans of ``reply``, best first: the whole reply, then the default
    locator's spans for the format ``names`` (empty ones and repeats left out)."""
    if not isinstance(reply, str):
        return [Span(0, 0)]
    spans = [Span(0, len(reply))]
    for span in default_locate(reply, names):
        if span not in spans and span.end > span.start:
            spans.append(span)
    return spans
