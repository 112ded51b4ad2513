"""A bounded cache of parsed expectations, so that a million rows sharing one EXPECT text
parse it (and compile its schema) once per process."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..expectations import Expectations, parse_expectations
from ..results import ExpectationError

#: distinct EXPECT texts kept per process; a compiled schema can weigh megabytes, so the
#: cache is bounded and the least recently used text goes first.
DEFAULT_SIZE = 256


class ExpectationCache:
    """EXPECT text → ``Expectations`` (schema loaded), least recently used evicted.

    The key is the text, the folder its schema paths are read from (the same text in two
    folders may name two different schema files) and whether it is confined to that
    folder (``confine``, see :func:`~formatbook_core.expectations.parse_expectations`). A
    text that is not valid raises ``ExpectationError`` every time (errors are not cached:
    they are cheap to make again and hold tracebacks).
    """

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if size < 1:
            raise ValueError("the cache holds at least one entry")
        self.size = size
        self._entries: OrderedDict[tuple[str, str, bool], Expectations] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, text: str, base_dir: str | Path | None = None, *, confine: bool = False) -> Expectations:
        key = (text, str(base_dir) if base_dir is not None else "", confine)
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
            self.hits += 1
            return found
        self.misses += 1
        exp = parse_expectations(text, base_dir=base_dir, confine=confine)
        exp.loaded_schema  # noqa: B018 - compile the schema now, once, while the entry is cached
        self._entries[key] = exp
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return exp

    def clear(self) -> None:
        self._entries.clear()


_cache = ExpectationCache()


def cached_expectations(text: str, base_dir: str | Path | None = None, *, confine: bool = False) -> Expectations:
    """The process-wide cache's ``Expectations`` for ``text`` (see :class:`ExpectationCache`)."""
    return _cache.get(text, base_dir, confine=confine)


def process_cache() -> ExpectationCache:
    """The cache :func:`cached_expectations` uses (for its statistics, or to clear it)."""
    return _cache


def as_cached(expect: Any, base_dir: str | Path | None = None, *, confine: bool = False) -> Expectations:
    """``Expectations`` given as they are; EXPECT text through the cache (``confine``d to
    ``base_dir`` when asked); ``None``: none."""
    if isinstance(expect, Expectations):
        return expect
    if expect is None:
        return Expectations()
    if isinstance(expect, str):
        return cached_expectations(expect, base_dir, confine=confine)
    raise ExpectationError(f"expectations must be Expectations or EXPECT text, not {type(expect).__name__}")
