"""The cyclic garbage collector paused while many acyclic objects are made at once.

Reading or healing a long reply makes one object or more per token, node or repair (a
broken megabyte of JSON: tens of thousands of repairs and edits), none of them in cycles,
all alive until the answer is returned. The collector, run each time allocations pile
up, walks every live object again and can free nothing: a quarter of the time of healing
10 MB, and work that grows faster than the text. Paused, the cost follows the size; the
objects are collected later as usual. Used by the pipeline around healing, by HTML's tree
builder and Markdown's block reader.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused for the ``with`` block, then restored as it
    was (left disabled when the caller had disabled it; re-enabled on any exit)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
