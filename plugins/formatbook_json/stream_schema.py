"""The stream checkers with a schema: the syntax and the schema's prefix keywords while
the reply streams (:class:`formatbook_core.data_schema.prefix.PrefixChecker`, driven by
:class:`.stream_events.JsonEvents`), and the whole schema once at the end, so that the
strict checker's ``finish()`` says what ``is_valid`` says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from formatbook_core.data_schema.prefix import PrefixChecker
from formatbook_core.limits import MAX_DEPTH
from formatbook_core.results import StreamStatus
from formatbook_core.textlog import TextLog

from .commitment import CERTAIN, UNCERTAIN, CommittedChecker
from .stream import JsonChecker
from .stream_events import JsonEvents

__all__ = ["RelaxedSchemaChecker", "SchemaChecker"]


class SchemaChecker(JsonChecker):
    """``JsonChecker(strict=True)`` that judges the schema's prefix keywords as the text
    streams (a value of the wrong type, an extra key under ``additionalProperties: false``,
    an item past ``maxItems`` ... fail where the text leaves no valid continuation), keeps
    the text it is fed and, when the syntax is complete at ``finish()``, asks ``refusal``
    about the whole text: ``None`` accepts it, a reason refuses it (falsy, at the end of
    the text). Keeps the text: O(len) memory; ``copy()`` stays O(state)."""

    __slots__ = ("_refusal", "_chunks", "_events")

    def __new__(cls, refusal: Callable[[str], str | None], *, schema: Any = None, max_depth: int = MAX_DEPTH) -> Any:
        return object.__new__(cls)

    def __init__(self, refusal: Callable[[str], str | None], *, schema: Any = None, max_depth: int = MAX_DEPTH) -> None:
        super().__init__(True, max_depth=max_depth)
        self._refusal = refusal
        self._chunks = TextLog()  # copies share the text before them: copy() stays O(state)
        self._events = JsonEvents(PrefixChecker(schema)) if schema is not None else None

    def feed(self, chunk: str) -> StreamStatus:
        """Consume the next piece of the document; O(len(chunk))."""
        self._chunks.append(chunk)
        status = JsonChecker.feed(self, chunk)
        events = self._events
        if events is not None and status.ok and not events.feed(chunk):
            assert events.failure is not None
            return self._fail(*events.failure)
        return status

    def finish(self) -> StreamStatus:
        """Truthy when the text fed is a complete document the schema accepts."""
        status = JsonChecker.finish(self)
        if not status:
            return status
        events = self._events
        if events is not None and not events.finish():
            assert events.failure is not None
            return self._fail(*events.failure)
        reason = self._refusal(self._chunks.text())
        if reason is not None:
            return self._fail(self._pos, reason)
        return status

    def copy(self) -> SchemaChecker:
        """An independent clone of the current state (and of the text kept so far)."""
        clone = JsonChecker.copy(self)
        assert isinstance(clone, SchemaChecker)
        clone._refusal = self._refusal
        clone._chunks = self._chunks.copy()
        clone._events = self._events.copy() if self._events is not None else None
        return clone


class RelaxedSchemaChecker:
    """The relaxed checker as ``StreamGuard`` uses it (:class:`.commitment.CommittedChecker`)
    with the schema judged leniently while the reply streams: once the first bracket is
    certainly the payload, a reply whose payload no healing can bring to the schema fails
    where that became certain. What healing may read otherwise is left to ``finish()``
    (see :mod:`.stream_events`); the schema-aware repairs count as possible
    (``PrefixChecker(lenient=True)``)."""

    __slots__ = ("_inner", "_events", "_failed", "_certain")

    def __init__(self, inner: CommittedChecker, schema: Any) -> None:
        self._inner = inner
        self._certain = False  # the payload is certain (it stays so)
        self._events: JsonEvents | None = JsonEvents(PrefixChecker(schema, lenient=True), relaxed=True)
        self._failed: StreamStatus | None = None

    def feed(self, chunk: str) -> StreamStatus:
        """Consume the next piece of the reply; O(len(chunk))."""
        if self._failed is not None:
            return self._failed
        status = self._inner.feed(chunk)
        events = self._events
        if events is None or not status.ok:
            return status
        if not self._certain:
            state = self._inner.state
            if state == UNCERTAIN:
                self._events = None  # check() may take another candidate: nothing to judge
                return status
            self._certain = state == CERTAIN
        if not events.feed(chunk) and self._certain:
            assert events.failure is not None
            self._failed = StreamStatus(False, events.failure[1], events.failure[0])
            return self._failed
        return status

    def finish(self) -> StreamStatus:
        """The reply has ended (the schema is judged by ``check()``)."""
        if self._failed is not None:
            return self._failed
        return self._inner.finish()

    def copy(self) -> RelaxedSchemaChecker:
        """An independent clone."""
        clone = RelaxedSchemaChecker.__new__(RelaxedSchemaChecker)
        clone._inner = self._inner.copy()
        clone._events = self._events.copy() if self._events is not None else None
        clone._failed = self._failed
        clone._certain = self._certain
        return clone
