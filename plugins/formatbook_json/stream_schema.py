"""The stream checkers with a schema: the syntax and the schema's prefix keywords while
the reply streams (:class:`formatbook_core.data_schema.prefix.PrefixChecker`, driven by
:class:`.stream_events.JsonEvents`), and the whole schema once at the end, so that the
strict checker's ``finish()`` says what ``is_valid`` says."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from formatbook_core.data_schema.closing import UNKNOWN, Open
from formatbook_core.data_schema.prefix import PrefixChecker
from formatbook_core.limits import MAX_DEPTH
from formatbook_core.results import StreamStatus
from formatbook_core.textlog import TextLog

from .commitment import CERTAIN, UNCERTAIN
from .stream import (
    _AFTER,
    _ARR_FIRST,
    _COLON,
    _DONE,
    _ESC,
    _KEY,
    _LIT,
    _LOW_U,
    _N_ZERO,
    _NUM,
    _OBJ_FIRST,
    _STR,
    _VALUE,
    CommittedChecker,
    JsonChecker,
)
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

    def closing(self) -> str | None:
        """The shortest text after which ``finish()`` accepts, by the grammar and the
        schema's prefix keywords: the open token completed, the value still to be written
        as the shortest one the schema accepts, and each open container's missing
        required members (or items, to ``minItems``) before it closes. ``None`` when the
        schema cannot tell (a ``pattern`` no filler matches, a failure). A hint for
        generation (see :mod:`formatbook_core.data_schema.closing`); O(depth x required)."""
        syntax = JsonChecker.closing(self)
        events = self._events
        if syntax is None or events is None:
            return syntax
        checker = events.checker
        needs = checker.needs()
        if needs is None or len(needs) != len(self._stack):
            return None
        head = _head(self, checker, needs, syntax[: len(syntax) - len(self._stack)])
        if head is None:
            return None
        out = [head]
        for index, need in enumerate(needs):
            # the innermost container has content when it had members or the head wrote
            # one; an outer one always does (the inner container is its member)
            content = index > 0 or need.members > 0 or bool(head and self._st not in _NO_MEMBER)
            for missing in need.missing:
                text = _dump(missing[0]) + ":" + _dump(missing[1]) if need.kind == "object" else _dump(missing)
                out.append("," + text if content else text)
                content = True
            out.append("}" if need.kind == "object" else "]")
        return "".join(out)

    def copy(self) -> SchemaChecker:
        """An independent clone of the current state (and of the text kept so far)."""
        clone = JsonChecker.copy(self)
        assert isinstance(clone, SchemaChecker)
        clone._refusal = self._refusal
        clone._chunks = self._chunks.copy()
        clone._events = self._events.copy() if self._events is not None else None
        return clone


# states whose head writes no member of the innermost container (only completes a token)
_NO_MEMBER = frozenset({_NUM, _LIT, _AFTER, _OBJ_FIRST, _ARR_FIRST, _DONE})


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _head(checker: SchemaChecker, prefix: PrefixChecker, needs: list[Open], syntax: str) -> str | None:  # noqa: C901 - one case per state
    """What completes the open token and, where a value or member must follow, writes the
    shortest one the schema accepts; drops from ``needs`` what it writes. ``None``: not known."""
    st = checker._st
    if st == _NUM:  # the number as written, else with one more digit, that the schema takes
        number = "".join(checker._numparts)
        if syntax:  # a digit is due (after '-', '.', 'e'): any digit will do
            more: tuple[str, ...] = tuple("0123456789")
        else:
            more = ("",) if checker._nsub == _N_ZERO else ("", *"0123456789")
        return next((d for d in more if prefix.fits(number + d)), None)
    if _STR <= st <= _LOW_U and checker._collect:  # a string value: its rest, as the schema takes it
        text = "".join(checker._parts)
        if st != _STR:  # the escape, completed as the grammar's closing does, is one character
            text += "\n" if st == _ESC else "\x00"
        rest = prefix.string_ends(text)
        return None if rest is None else syntax[:-1] + _dump(rest)[1:-1] + '"'

    if st in _NO_MEMBER or (st > _DONE and checker._collect):
        return syntax  # a token to complete (an escape in a string value), or nothing
    if st == _VALUE or st == _COLON:
        value = prefix.expected()
        if value is UNKNOWN:
            return None
        if needs and needs[0].kind == "array":
            needs[0].missing = needs[0].missing[1:]  # the head writes the next item
        return (":" if st == _COLON else "") + _dump(value)
    if st == _KEY:  # after a comma: a member must follow
        if needs and needs[0].missing:
            key, value = needs[0].missing.pop(0)
            return _dump(key) + ":" + _dump(value)
        names = prefix.properties()
        key = names[0] if prefix.closed_keys() and names else ""
        if prefix.closed_keys() and not names:
            return None
        value = prefix.expected(key)
        return None if value is UNKNOWN else _dump(key) + ":" + _dump(value)
    written = prefix.key_text()
    if written is None:
        return None
    if st != _STR:  # an escape in a key: the grammar completes it and the key
        if prefix.closed_keys():
            return None
        value = prefix.expected(written)
        return None if value is UNKNOWN else syntax[:-1] + _dump(value)  # its value for ':0'
    # inside a key: the first required (then named) key it begins, else the key as written
    missing = needs[0].missing if needs else []
    choices = [k for k, _ in missing] + list(prefix.properties())
    begun = next((k for k in choices if k.startswith(written)), None)
    if begun is None and prefix.closed_keys():
        return None
    whole = written if begun is None else begun
    value = prefix.expected(whole)
    if value is UNKNOWN:
        return None
    if needs:
        needs[0].missing = [m for m in missing if m[0] != whole]
    return _dump(whole[len(written) :])[1:-1] + '":' + _dump(value)


class RelaxedSchemaChecker:
    """The relaxed checker as ``StreamGuard`` uses it (:class:`.stream.CommittedChecker`)
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
