"""The strict checker with a schema: the syntax while the reply streams, the schema once
at the end, so that its ``finish()`` says what ``is_valid`` says."""

from __future__ import annotations

from collections.abc import Callable

from formatbook_core.limits import MAX_DEPTH
from formatbook_core.results import StreamStatus
from formatbook_core.textlog import TextLog

from .stream import JsonChecker

__all__ = ["SchemaChecker"]


class SchemaChecker(JsonChecker):
    """``JsonChecker(strict=True)`` that keeps the text it is fed and, when the syntax is
    complete at ``finish()``, asks ``refusal`` about the whole text: ``None`` accepts it,
    a reason refuses it (falsy, at the end of the text). A prefix rarely tells whether a
    value will satisfy a schema, so ``feed`` checks the syntax only; the text is parsed
    once more, at the end (``finish`` is called once). Keeps the text: O(len) memory."""

    __slots__ = ("_refusal", "_chunks")

    def __init__(self, refusal: Callable[[str], str | None], *, max_depth: int = MAX_DEPTH) -> None:
        super().__init__(True, max_depth=max_depth)
        self._refusal = refusal
        self._chunks = TextLog()  # copies share the text before them: copy() stays O(state)

    def feed(self, chunk: str) -> StreamStatus:
        """Consume the next piece of the document; O(len(chunk))."""
        self._chunks.append(chunk)
        return JsonChecker.feed(self, chunk)

    def finish(self) -> StreamStatus:
        """Truthy when the text fed is a complete document the schema accepts."""
        status = JsonChecker.finish(self)
        if not status:
            return status
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
        return clone
