"""Where a Markdown payload sits in a reply: the whole reply, first.

The repair plan needs every fence and ``<think>`` block (it sets them aside itself), so
the whole reply is the best candidate. The spans formatbook's default locator finds
(Markdown fences, then the reply without its ``<think>`` blocks) follow as fallbacks,
tried only when the whole reply cannot be repaired — and only those whose surroundings
name none of the contract's sections: a candidate without that text could pass with the
section filled with the empty value while its content was set aside.
"""

from __future__ import annotations

from typing import Any

from formatbook_core import Span
from formatbook_core.locating import default_locate

from .contract.names import normalize_section_name
from .reply.sections import naming_line


def locate_markdown(reply: Any, names: tuple[str, ...], spec: Any = None) -> list[Span]:
    """The candidate spans of ``reply``, best first: the whole reply, then the default
    locator's spans for the format ``names`` (empty ones, repeats and those whose
    surroundings name a section of ``spec`` left out)."""
    if not isinstance(reply, str):
        return [Span(0, 0)]
    keys = {normalize_section_name(s.name) for s in (getattr(spec, "sections", None) or [])}
    spans = [Span(0, len(reply))]
    for span in default_locate(reply, names):
        if span in spans or span.end <= span.start:
            continue
        if keys and naming_line([reply[: span.start], reply[span.end :]], keys) is not None:
            continue
        spans.append(span)
    return spans
