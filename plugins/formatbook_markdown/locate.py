"""Where a Markdown payload sits in a reply: the whole reply, first.

The rules are the README's "Locate".
"""

from __future__ import annotations

from bisect import bisect_right
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
    seen = set(spans)
    around: _Surroundings | None = None
    for span in default_locate(reply, names):
        if span in seen or span.end <= span.start:
            continue
        seen.add(span)
        if keys:
            around = around or _Surroundings(reply, keys)
            if around.name_a_section(span):
                continue
        spans.append(span)
    return spans


class _Surroundings:
    """Whether the text around a span names a section (``naming_line`` on the text before
    it and the text after it), for many spans at the cost of one pass over the reply:
    the whole lines that name a section are found once; only the two lines a span cuts
    are read again."""

    def __init__(self, reply: str, keys: set[str]):
        self.reply = reply
        self.keys = keys
        self.starts: list[int] = []  # where each line starts (str.splitlines' lines)
        self.naming: list[int] = []  # the indexes of the lines that name a section
        pos = 0
        for i, line in enumerate(reply.splitlines(keepends=True)):
            self.starts.append(pos)
            if naming_line([line], keys) is not None:
                self.naming.append(i)
            pos += len(line)
        self.starts.append(pos)

    def name_a_section(self, span: Span) -> bool:
        first = bisect_right(self.starts, span.start) - 1  # the line the span starts in
        last = bisect_right(self.starts, span.end) - 1  # the line it ends in (or after)
        before_cut = span.start > self.starts[first]
        after_cut = last < len(self.starts) - 1 and span.end > self.starts[last]
        # the whole lines before the span (its first line is cut, or starts it) ...
        if self.naming and self.naming[0] < first:
            return True
        # ... and after it (from the line it ends in, unless it cuts that one)
        if self.naming and self.naming[-1] >= (last + 1 if after_cut else last):
            return True
        texts = []
        if before_cut:
            texts.append(self.reply[self.starts[first] : span.start])
        if after_cut:
            texts.append(self.reply[span.end : self.starts[last + 1]])
        return bool(texts) and naming_line(texts, self.keys) is not None
