"""StreamGuard: check a reply while it streams, so a doomed generation can be stopped.

``feed(chunk)`` answers a ``StreamStatus``: truthy while the reply can still pass
``check()``, falsy (with ``reason`` and ``position``) once it cannot. By default the guard is
as tolerant as ``check()`` (the format's relaxed checker: prose before the payload and
anything healing repairs are fine); ``strict=True`` applies the strict grammar.

MAX limits are kept while streaming: every value the format's checker reports as settled
is counted once, and the value still being written adds a lower bound that only grows.
Total work is linear in the reply's length.
"""

from __future__ import annotations

import re
from typing import Any

from .expectations import Count, Expectations, as_expectations
from .locating import THINK_TAGS, think_close
from .pipeline import check
from .results import CheckResult, StreamStatus

_THINK_OPEN = re.compile(rf"\s*<({'|'.join(THINK_TAGS)})>", re.IGNORECASE)
_THINK_PREFIXES = tuple(f"<{tag}>" for tag in THINK_TAGS)


class _ThinkFilter:
    """Passes a reply through, holding back a leading ``<think>…</think>`` block.

    Only a block at the very start (after white space) is removed: that is where models put
    it, and it keeps the filter's work linear.
    """

    def __init__(self) -> None:
        self._state = "start"  # start → (think) → body
        self._held = ""
        self._closing: re.Pattern[str] | None = None
        self._offset = 0  # characters of the reply consumed before the body began

    @property
    def offset(self) -> int:
        return self._offset

    def feed(self, chunk: str) -> str:
        """The part of ``chunk`` that belongs to the body."""
        if self._state == "body":
            return chunk
        self._held += chunk
        if self._state == "start":
            stripped = self._held.lstrip().lower()
            if not stripped:
                return ""
            match = _THINK_OPEN.match(self._held)
            if match is None:
                if any(p.startswith(stripped) for p in _THINK_PREFIXES):
                    return ""  # maybe the start of a think tag: wait for more
                return self._to_body(0)
            self._state = "think"
            self._closing = think_close(match.group(1))
            self._offset = match.end()
            self._held = self._held[match.end() :]
        # inside a think block: look for its closing tag, keeping a short tail in case the
        # tag is split across chunks
        if self._closing is None:  # the states above always set it; never lose text if not
            return self._to_body(0)
        found = self._closing.search(self._held)
        if found is None:
            keep = min(len(self._held), 16)
            self._offset += len(self._held) - keep
            self._held = self._held[len(self._held) - keep :]
            return ""
        self._offset += found.end()
        return self._to_body(found.end())

    def _to_body(self, start: int) -> str:
        body = self._held[start:]
        self._held = ""
        self._state = "body"
        return body

    def flush(self) -> str:
        """At the end of the reply: whatever was held back but is no think block."""
        if self._state == "start":
            return self._to_body(0)
        return ""


class _Limit:
    """One MAX (or EXACTLY) count kept while streaming."""

    def __init__(self, count: Count, upper: int, unit: Any, base: Any):
        from .counting import IncrementalCount  # noqa: PLC0415 - counting (and regex) only when limits are kept

        self._fresh = lambda: IncrementalCount(base)
        self.count = count
        self.upper = upper
        self.unit = unit
        self.base = base  # the unit actually counted (lines, for pages)
        self.settled = 0
        self._open = self._fresh()

    def values(self, closed: tuple[str, ...], opened: str) -> None:
        if closed:
            for value in closed:
                self.settled += self.base.count(value)
            self._open = self._fresh()
        if opened:
            self._open.feed(opened)

    def lower_bound(self) -> int:
        total = self.settled + self._open.settled()
        if self.base is not self.unit:
            return self.unit.from_base(total)
        return total


class StreamGuard:
    """Check a reply chunk by chunk. ``finish()`` gives the full ``CheckResult``."""

    def __init__(self, expectations: Expectations | str | None = None, *, strict: bool = False):
        self.expectations = exp = as_expectations(expectations)
        self.strict = strict
        self._parts: list[str] = []
        self._length = 0
        self._failed: StreamStatus | None = None
        self._think = _ThinkFilter()
        fmt = exp.fmt
        self._checker = fmt.stream(exp.loaded_schema, strict=strict, **exp.options) if fmt is not None else None
        registry = exp._registry()
        self._limits: list[_Limit] = []
        for count in exp.counts:
            upper = count.upper
            if upper is None or count.scope is not None:
                continue  # MIN counts and scoped counts are settled by finish()
            unit = registry.unit(count.unit)
            base = registry.unit(unit.based_on) if getattr(unit, "based_on", None) else unit
            self._limits.append(_Limit(count, upper, unit, base))

    @property
    def text(self) -> str:
        """The reply received so far."""
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def feed(self, chunk: str) -> StreamStatus:
        """Take the next piece of the reply; falsy once the reply cannot pass any more."""
        if not isinstance(chunk, str):
            raise TypeError(f"StreamGuard.feed takes str, not {type(chunk).__name__}")
        self._parts.append(chunk)
        self._length += len(chunk)
        if self._failed is not None:
            return self._failed
        body = self._think.feed(chunk)
        return self._advance(body)

    def _advance(self, body: str) -> StreamStatus:
        if not body:
            return StreamStatus(True)
        if self._checker is None:
            status = StreamStatus(True, open=body)
        else:
            status = self._checker.feed(body)
            if not status:
                position = status.position
                if position is not None:
                    position += self._think.offset
                self._failed = StreamStatus(False, status.reason or "the reply cannot become valid", position)
                return self._failed
        for limit in self._limits:
            limit.values(status.values, status.open)
            bound = limit.lower_bound()
            if bound > limit.upper:
                self._failed = StreamStatus(
                    False,
                    f"{bound} {limit.count.unit} already exceed {limit.count.describe()}",
                    self._length,
                )
                return self._failed
        return StreamStatus(True, complete=status.complete)

    def finish(self) -> CheckResult:
        """The reply has ended: the full verdict, exactly as ``check()`` gives it."""
        rest = self._think.flush()
        if rest and self._failed is None:
            self._advance(rest)
        return check(self.text, self.expectations)

    @property
    def status(self) -> StreamStatus:
        """The latest verdict without feeding anything."""
        return self._failed or StreamStatus(True)
