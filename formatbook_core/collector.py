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
from types import TracebackType

__all__ = ["paused_gc"]


class paused_gc:  # noqa: N801 - used as the function it replaced: ``with paused_gc():``
    """The cyclic garbage collector paused for the ``with`` block, then restored as it
    was (left disabled when the caller had disabled it; re-enabled on any exit). A class,
    not a ``contextlib.contextmanager``: entering and leaving cost a third as much, and a
    short reply's heal enters it on every call."""

    __slots__ = ("_enabled",)

    def __enter__(self) -> None:
        self._enabled = gc.isenabled()
        gc.disable()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._enabled:
            gc.enable()
