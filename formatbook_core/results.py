"""The values formatbook answers with: one type each, used by every format.

Offsets (`Span`) always point into the reply *as received*: a repair found inside a
located payload is shifted back by the core before a caller sees it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .serialising import fields_json, json_ready


class Span(NamedTuple):
    """Half-open ``[start, end)`` character offsets into a string."""

    start: int
    end: int

    def shift(self, offset: int) -> Span:
        """The same span seen from a string that starts ``offset`` characters earlier."""
        return Span(self.start + offset, self.end + offset)


@dataclass(frozen=True)
class Violation:
    """One way a reply fails its expectations.

    ``code`` is stable and machine-readable (``"json.syntax"``, ``"count.max"``,
    ``"schema.type"``); ``message`` is for a person; ``path`` leads into the parsed value
    (keys and indexes); ``keyword`` is the failing rule (a JSON Schema keyword, a count);
    ``expected`` is what the rule wanted.
    """

    code: str
    message: str
    path: tuple[str | int, ...] = ()
    span: Span | None = None
    keyword: str | None = None
    expected: Any = None

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = " at " + "/".join(str(p) for p in self.path)
        elif self.span is not None:
            where = f" at offset {self.span.start}"
        return f"{self.message}{where}"

    def shift(self, offset: int) -> Violation:
        """The same violation seen from a string that starts ``offset`` characters earlier."""
        span = self.span
        if span is None or offset == 0:
            return self
        return Violation(
            self.code, self.message, self.path, Span(span[0] + offset, span[1] + offset), self.keyword, self.expected
        )


@dataclass(frozen=True, slots=True)
class Repair:
    """One change made by healing: ``kind`` (stable, e.g. ``"trailing_comma"``), a
    ``message`` for a person and the ``span`` of the reply it concerns.

    Slotted: a heal can list a repair a row (a megabyte of CSV with blanks after its
    commas: 26,000), and an instance without a ``__dict__`` takes half the memory; hot
    paths build it with :func:`make_repair`, without the frozen ``__init__``."""

    kind: str
    message: str
    span: Span | None = None

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled and copied by its fields, as the dict-backed class was, on every
        # Python the project supports (3.10's slotted frozen dataclasses pickle no state)
        return (Repair, (self.kind, self.message, self.span))

    def shift(self, offset: int) -> Repair:
        """The same repair seen from a string that starts ``offset`` characters earlier:
        one new object built directly (``dataclasses.replace`` took three times as long,
        and a heal shifts every one of its repairs)."""
        span = self.span
        if span is None or offset == 0:
            return self
        return make_repair(self.kind, self.message, span[0] + offset, span[1] + offset)


#: The prefix of every repair kind that reads the payload as cut off by the end of the
#: reply (``truncated_string``, ``truncated_element``...), a convention every format follows.
CUT_OFF_PREFIX = "truncated_"


def healed_as_cut_off(repairs: Any) -> bool:
    """Whether ``repairs`` read the payload as cut off by the end of the reply (a repair
    kind starting with :data:`CUT_OFF_PREFIX`): the reply may have stopped mid-answer."""
    return any(r.kind.startswith(CUT_OFF_PREFIX) for r in repairs)


@dataclass(frozen=True)
class SetAside:
    """Text taken out of a reply and kept: a ``<think>`` block, prose around a payload,
    a Markdown preamble, text outside a container. ``kind`` says which."""

    kind: str
    text: str
    span: Span | None = None

    def shift(self, offset: int) -> SetAside:
        """The same text seen from a string that starts ``offset`` characters earlier."""
        span = self.span
        if span is None or offset == 0:
            return self
        return SetAside(self.kind, self.text, Span(span[0] + offset, span[1] + offset))


@dataclass(frozen=True)
class Healed:
    """What ``heal`` returns: the repaired ``text`` and every ``Repair`` made.

    A valid input comes back unchanged with no repairs. ``set_aside`` holds what a
    format took out of the text and kept (the Markdown preamble, for instance).
    """

    text: str
    repairs: tuple[Repair, ...] = ()
    set_aside: tuple[SetAside, ...] = ()
    #: The format's analysis of ``text`` with the schema and options ``heal`` was given,
    #: when healing made one (it confirmed the text): the pipeline then does not read the
    #: healed text again. ``None``: the pipeline analyzes it.
    analysis: Analysis | None = field(default=None, compare=False, repr=False)

    @property
    def changed(self) -> bool:
        return bool(self.repairs)

    @classmethod
    def built(
        cls, text: str, repairs: tuple[Repair, ...], set_aside: tuple[SetAside, ...], analysis: Analysis | None
    ) -> Healed:
        """The healed reply with every field given: equal to the one the constructor
        builds, without its field-by-field ``object.__setattr__`` (a frozen dataclass's:
        a microsecond, a thirtieth of a short reply's heal)."""
        healed = object.__new__(cls)
        fields = healed.__dict__  # set one by one: a keyword dict for update() costs more
        fields["text"] = text
        fields["repairs"] = repairs
        fields["set_aside"] = set_aside
        fields["analysis"] = analysis
        return healed


@dataclass(frozen=True)
class Analysis:
    """A format's one-pass answer on a text: the parsed ``value`` (``None`` when the
    syntax is broken) and the ``violations`` (empty when valid).

    ``document`` is the format's own parse of the text (a YAML reading with its nodes, an
    XML tree...), opaque to the core: the pipeline hands it back to the format's
    ``values_of`` and ``scope_of``, so that counting never parses the text again.

    ``brief`` (an analysis ``candidates`` hands on): the violations of a failing text are
    the verdict and a first account of it, not all ``analyze`` would say; a payload that
    fails goes to healing, which needs only the verdict, and the pipeline asks ``analyze``
    only when it reports them (healing failed without saying why).
    """

    value: Any = None
    violations: tuple[Violation, ...] = ()
    document: Any = field(default=None, compare=False, repr=False)
    brief: bool = field(default=False, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return not self.violations

    @classmethod
    def passed(cls, value: Any, document: Any = None) -> Analysis:
        """The analysis of a valid text: equal to ``Analysis(value, document=document)``,
        built without the frozen dataclass's field-by-field ``__init__`` (a tenth of a
        short valid reply's check)."""
        analysis = object.__new__(cls)
        fields = analysis.__dict__  # (brief: the class's default, False)
        fields["value"] = value
        fields["violations"] = ()
        fields["document"] = document
        return analysis


@dataclass(frozen=True)
class Located:
    """A candidate payload from ``candidates``: its ``span`` in the reply and, when
    locating it already meant analyzing it, that ``analysis`` of ``reply[span]`` (made
    with the schema and options given), which the pipeline then takes instead of reading
    the payload again."""

    span: Span
    analysis: Analysis | None = None

    @classmethod
    def built(cls, span: Span, analysis: Analysis | None) -> Located:
        """Equal to ``Located(span, analysis)``, without the frozen dataclass's
        field-by-field ``__init__`` (made on every check of a wholly valid reply)."""
        located = object.__new__(cls)
        fields = located.__dict__
        fields["span"] = span
        fields["analysis"] = analysis
        return located


@dataclass(frozen=True)
class Attempt:
    """One round of ``ask``: what was sent, the reply received and its verdict.

    ``prompt`` is the text sent to a prompt callable (for a chat model, the last user
    message); ``messages`` the whole conversation sent to a chat model (``None`` for a
    prompt callable). ``reply`` is the reply as received, or the part received before the
    stream was stopped; ``stopped`` says it was stopped early, ``stop_reason`` why and
    ``stop_position`` where (an offset into ``reply``). ``usage`` holds the token counts
    the endpoint reported (``prompt_tokens``, ``completion_tokens``, ``total_tokens``),
    ``None`` when it reported none. A reply that ended before its end (stopped early, a
    failed or dropped stream) seldom gets its counts: then ``usage`` is formatbook's
    estimate, from the characters sent and received, and ``usage_estimated`` is true
    (see :func:`formatbook_core.llm_replies.estimate_tokens`). ``finish_reason`` is the one the endpoint gave
    (``"stop"``, ``"length"``...), ``None`` when it gave none; a reply the model did not
    finish fails with ``reply.cut`` first, saying why.
    """

    prompt: str
    reply: str
    result: CheckResult
    messages: list[dict[str, str]] | None = None
    stopped: bool = False
    stop_reason: str | None = None
    stop_position: int | None = None
    usage: dict[str, int] | None = None
    finish_reason: str | None = None
    usage_estimated: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: every field, the verdict as ``CheckResult.to_dict()`` gives it
        (without its own attempts)."""
        return {
            "prompt": self.prompt,
            "messages": [dict(m) for m in self.messages] if self.messages is not None else None,
            "reply": self.reply,
            "stopped": self.stopped,
            "stop_reason": self.stop_reason,
            "stop_position": self.stop_position,
            "finish_reason": self.finish_reason,
            "usage": json_ready(self.usage),
            "usage_estimated": self.usage_estimated,
            "result": self.result.to_dict(attempts=False),
        }


@dataclass(frozen=True)
class CheckResult:
    """Everything ``check`` found out about one reply.

    ``ok`` is true when the reply meets every expectation (after healing). ``text`` is the
    final payload, ``value`` the parsed value (a pydantic instance when the schema is a
    model). ``counts`` holds only the units the expectations ask for, keyed ``"words"`` or
    ``'words IN "Short answer"'``. Built once, when everything is known, and frozen: a
    stage that finds more (``ask`` stopping a stream, its attempts) builds a new one
    (``dataclasses.replace``).
    """

    ok: bool
    reply: str
    text: str | None = None
    value: Any = None
    format: str | None = None
    repairs: list[Repair] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    attempts: list[Attempt] = field(default_factory=list)

    @classmethod
    def built(
        cls,
        ok: bool,
        reply: str,
        text: str | None,
        value: Any,
        format: str | None,  # noqa: A002 - the field's name
        repairs: list[Repair],
        violations: list[Violation],
        set_aside: list[SetAside],
        counts: dict[str, int],
    ) -> CheckResult:
        """The result with every field but ``attempts`` (none yet) given: equal to the one
        the constructor builds, without its field-by-field ``object.__setattr__`` (a
        frozen dataclass's), which costs a tenth of a short reply's check."""
        result = object.__new__(cls)
        fields = result.__dict__  # set one by one: a keyword dict for update() costs more
        fields["ok"] = ok
        fields["reply"] = reply
        fields["text"] = text
        fields["value"] = value
        fields["format"] = format
        fields["repairs"] = repairs
        fields["violations"] = violations
        fields["set_aside"] = set_aside
        fields["counts"] = counts
        fields["attempts"] = []
        return result

    def __bool__(self) -> bool:
        return self.ok

    @property
    def healed(self) -> bool:
        return self.ok and bool(self.repairs)

    @property
    def truncated(self) -> bool:
        """Whether the payload was healed as cut off by the end of the reply (a
        ``truncated_*`` repair): the reply may have stopped mid-answer, and what it would
        have said after the cut is not in ``value``. ``EXPECT ... truncated=fail``
        refuses such replies."""
        return healed_as_cut_off(self.repairs)

    @property
    def usage(self) -> dict[str, int] | None:
        """The token counts of every attempt of ``ask`` added up (see :func:`total_usage`);
        ``None`` for a plain ``check``."""
        return total_usage(self.attempts)

    @property
    def usage_estimated(self) -> bool:
        """Whether ``usage`` holds an estimate (an attempt ended before the endpoint counted it)."""
        return any(a.usage_estimated for a in self.attempts)

    @property
    def verdict(self) -> str:
        """``"pass"``, ``"healed"`` or ``"fail"``."""
        if not self.ok:
            return "fail"
        return "healed" if self.repairs else "pass"

    def to_dict(self, *, attempts: bool = True) -> dict[str, Any]:
        """A JSON-ready summary: plain JSON data for every field (see :func:`json_ready`),
        so that ``json.loads(json.dumps(result.to_dict())) == result.to_dict()``.

        ``attempts`` (filled by ``ask``) appear under ``"attempts"`` when there are any,
        with their ``"usage"`` added up and ``"usage_estimated"``."""
        data = {
            "ok": self.ok,
            "verdict": self.verdict,
            "truncated": self.truncated,
            "format": self.format,
            "text": self.text,
            "value": json_ready(self.value),
            "repairs": [fields_json(r) for r in self.repairs],
            "violations": [fields_json(v) for v in self.violations],
            "set_aside": [fields_json(s) for s in self.set_aside],
            "counts": dict(self.counts),
        }
        if attempts and self.attempts:
            data["attempts"] = [a.to_dict() for a in self.attempts]
            data["usage"] = self.usage
            data["usage_estimated"] = self.usage_estimated
        return data


def total_usage(attempts: list[Attempt]) -> dict[str, int] | None:
    """The token counts of ``attempts`` added up key by key (``prompt_tokens``,
    ``completion_tokens``, ``total_tokens``), over the attempts that have them; ``None``
    when none has any."""
    counted = [a.usage for a in attempts if a.usage]
    if not counted:
        return None
    total: dict[str, int] = {}
    for usage in counted:
        for key, value in usage.items():
            total[key] = total.get(key, 0) + value
    return total


@dataclass(frozen=True)
class StreamStatus:
    """The answer to one ``feed``: truthy while the text so far can still pass.

    ``reason`` and ``position`` (an offset into the text fed so far) say why not.
    A format's checker also reports the data it has seen settle, so that counts can be
    kept while streaming: ``values`` are values closed by this chunk (each counted on its
    own), ``open`` is text appended by this chunk to a value still open (a string being
    written). ``complete`` is true when the text so far is a complete valid document.
    ``scoped`` are values among ``values`` also settled in a counting scope, each as
    ``(key, value)`` with the key the checker's ``scope_key`` gives for that scope;
    ``open_scope`` is the key of the scope the open value is settled in too (``None``:
    the whole reply only).
    """

    ok: bool = True
    reason: str | None = None
    position: int | None = None
    complete: bool = False
    values: tuple[str, ...] = ()
    open: str = ""
    scoped: tuple[tuple[str, str], ...] = ()
    open_scope: str | None = None

    def __bool__(self) -> bool:
        return self.ok


# --- constructors for hot paths --------------------------------------------------------
# A checker's ``feed`` answers on every chunk and a broken reply's heal can list thousands of
# repairs: plugins build these values through the functions below and never depend on
# how the core stores them. Most feeds settle nothing, so their answer is one shared,
# frozen status (``ok_status()``), which ``StreamGuard`` answers without reading it.
_OK = StreamStatus(True)
_new = object.__new__


# A Repair's slots set through their descriptors, and its Span made by ``tuple.__new__``:
# equal to the constructors' objects in every way (eq, hash, repr, pickle), in a third of
# the time (the frozen ``__init__`` sets each field with ``object.__setattr__``, and a
# NamedTuple's ``__new__`` is a Python function).
_set_kind = Repair.__dict__["kind"].__set__  # the slots' member descriptors
_set_message = Repair.__dict__["message"].__set__
_set_span = Repair.__dict__["span"].__set__
_tuple_new = tuple.__new__


def make_repair(kind: str, message: str, start: int, end: int) -> Repair:
    """``Repair(kind, message, Span(start, end))``."""
    repair = _new(Repair)
    _set_kind(repair, kind)
    _set_message(repair, message)
    _set_span(repair, _tuple_new(Span, (start, end)))
    return repair


def make_repairs(
    kinds: Iterable[str], messages: Iterable[str], starts: Iterable[int], ends: Iterable[int]
) -> list[Repair]:
    """A :func:`make_repair` for each kind, message, start and end taken in step (the
    shortest iterable decides how many), in order: the repairs of a heal that lists one a
    row, made at once."""
    out: list[Repair] = []
    append = out.append
    new, set_kind, set_message, set_span, tuple_new = _new, _set_kind, _set_message, _set_span, _tuple_new
    for kind, message, start, end in zip(kinds, messages, starts, ends):  # noqa: B905 - documented
        repair = new(Repair)
        set_kind(repair, kind)
        set_message(repair, message)
        set_span(repair, tuple_new(Span, (start, end)))
        append(repair)
    return out


def ok_status(values: tuple[str, ...] = (), open: str = "", complete: bool = False) -> StreamStatus:
    """A truthy ``StreamStatus`` with these fields (the shared one when they are empty)."""
    if not (values or open or complete):
        return _OK
    # The frozen dataclass's __init__ sets its eight fields one object.__setattr__ at a
    # time (about 1.5 us, paid on every chunk that closes a value); the three given are
    # written to the instance's __dict__ instead, and the others are the class's defaults
    # (ok=True, reason=None...): an equal status in every way (eq, hash, repr, pickle).
    status = _new(StreamStatus)
    fields = status.__dict__
    fields["values"] = values
    fields["open"] = open
    fields["complete"] = complete
    return status


class Quiet(NamedTuple):
    """A checker's promise to ``StreamGuard`` (its optional ``quiet(counted)``, see
    :class:`formatbook_core.definition.Checker`): the checker may be spared the chunks
    that follow, and be fed them later, with no answer changed.

    It holds while the chunks hold at most ``allowed`` of the ``stops`` characters, all
    told, and at most ``room`` characters. Meanwhile every answer would be truthy, with
    this ``complete``, and what the answers report (``values``, ``open``, ``scoped``) holds,
    all told, at most ``owed`` characters plus two for each character fed.
    """

    stops: str = ""
    allowed: int = 0
    complete: bool = False
    owed: int = 0
    room: int = 1 << 62


class FormatbookError(Exception):
    """Base class of every error formatbook raises on purpose."""


class HealError(FormatbookError, ValueError):
    """A reply could not be repaired; ``violations`` say where and why."""

    def __init__(self, message: str, violations: list[Violation] | tuple[Violation, ...] = ()):
        super().__init__(message)
        self.violations = list(violations)


class ExpectationError(FormatbookError, ValueError):
    """An EXPECT line (or an ``Expectations`` built in code) is malformed or contradictory.

    ``line`` is the offending line when there is one, ``suggestion`` the nearest valid word.
    """

    def __init__(self, message: str, line: str | None = None, suggestion: str | None = None):
        super().__init__(message)
        self.line = line
        self.suggestion = suggestion


class ExportError(FormatbookError, ValueError):
    """The expectations cannot be exported to the target asked for: the format has no
    grammar (or ``response_format``) export, or its schema uses what the target cannot
    say at all (a reference to another document, a schema that accepts nothing)."""


class ScopeNotFound(FormatbookError, LookupError):
    """A counting scope (``IN "..."``) names something the reply does not have."""
