"""The values formatbook answers with: one type each, used by every format.

Offsets (`Span`) always point into the reply *as received*: a repair found inside a
located payload is shifted back by the core before a caller sees it.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import json.encoder
import math
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, NamedTuple, Protocol


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
        if self.span is None or offset == 0:
            return self
        return _replace(self, span=self.span.shift(offset))


@dataclass(frozen=True)
class Repair:
    """One change made by healing: ``kind`` (stable, e.g. ``"trailing_comma"``), a
    ``message`` for a person and the ``span`` of the reply it concerns."""

    kind: str
    message: str
    span: Span | None = None

    def __str__(self) -> str:
        return self.message

    def shift(self, offset: int) -> Repair:
        if self.span is None or offset == 0:
            return self
        return _replace(self, span=self.span.shift(offset))


@dataclass(frozen=True)
class SetAside:
    """Text taken out of a reply and kept: a ``<think>`` block, prose around a payload,
    a Markdown preamble, text outside a container. ``kind`` says which."""

    kind: str
    text: str
    span: Span | None = None

    def shift(self, offset: int) -> SetAside:
        if self.span is None or offset == 0:
            return self
        return _replace(self, span=self.span.shift(offset))


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


@dataclass(frozen=True)
class Analysis:
    """A format's one-pass answer on a text: the parsed ``value`` (``None`` when the
    syntax is broken) and the ``violations`` (empty when valid).

    ``document`` is the format's own parse of the text (a YAML reading with its nodes, an
    XML tree...), opaque to the core: the pipeline hands it back to the format's
    ``values_of`` and ``scope_of``, so that counting never parses the text again.
    """

    value: Any = None
    violations: tuple[Violation, ...] = ()
    document: Any = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return not self.violations


@dataclass(frozen=True)
class Located:
    """A candidate payload from ``candidates``: its ``span`` in the reply and, when
    locating it already meant analyzing it, that ``analysis`` of ``reply[span]`` (made
    with the schema and options given), which the pipeline then takes instead of reading
    the payload again."""

    span: Span
    analysis: Analysis | None = None


@dataclass
class Attempt:
    """One round of ``ask``: what was sent, the reply received and its verdict.

    ``prompt`` is the text sent to a prompt callable (for a chat model, the last user
    message); ``messages`` the whole conversation sent to a chat model (``None`` for a
    prompt callable). ``reply`` is the reply as received, or the part received before the
    stream was stopped; ``stopped`` says it was stopped early, ``stop_reason`` why and
    ``stop_position`` where (an offset into ``reply``). ``usage`` holds the token counts
    the endpoint reported (``prompt_tokens``, ``completion_tokens``, ``total_tokens``),
    ``None`` when it reported none.
    """

    prompt: str
    reply: str
    result: CheckResult
    messages: list[dict[str, str]] | None = None
    stopped: bool = False
    stop_reason: str | None = None
    stop_position: int | None = None
    usage: dict[str, int] | None = None

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
            "usage": json_ready(self.usage),
            "result": self.result.to_dict(attempts=False),
        }


@dataclass
class CheckResult:
    """Everything ``check`` found out about one reply.

    ``ok`` is true when the reply meets every expectation (after healing). ``text`` is the
    final payload, ``value`` the parsed value (a pydantic instance when the schema is a
    model). ``counts`` holds only the units the expectations ask for, keyed ``"words"`` or
    ``'words IN "Short answer"'``.
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

    def __bool__(self) -> bool:
        return self.ok

    @property
    def healed(self) -> bool:
        return self.ok and bool(self.repairs)

    @property
    def verdict(self) -> str:
        """``"pass"``, ``"healed"`` or ``"fail"``."""
        if not self.ok:
            return "fail"
        return "healed" if self.repairs else "pass"

    def to_dict(self, *, attempts: bool = True) -> dict[str, Any]:
        """A JSON-ready summary: plain JSON data for every field (see :func:`json_ready`),
        so that ``json.loads(json.dumps(result.to_dict())) == result.to_dict()``.

        ``attempts`` (filled by ``ask``) appear under ``"attempts"`` when there are any."""
        data = {
            "ok": self.ok,
            "verdict": self.verdict,
            "format": self.format,
            "text": self.text,
            "value": json_ready(self.value),
            "repairs": [_as_dict(r) for r in self.repairs],
            "violations": [_as_dict(v) for v in self.violations],
            "set_aside": [_as_dict(s) for s in self.set_aside],
            "counts": dict(self.counts),
        }
        if attempts and self.attempts:
            data["attempts"] = [a.to_dict() for a in self.attempts]
        return data


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


# --- cheap constructors --------------------------------------------------------------
# A broken reply's heal can list thousands of repairs and a checker's ``feed`` on a short
# chunk must cost well under a microsecond; a frozen dataclass's ``__init__`` costs several
# times what the object needs. Every field of these classes has a class-level default or is
# set here, so an instance made with ``object.__new__`` and its ``__dict__`` filled is equal
# in every way to one built by the constructor (checked once at import; if a class ever
# changes shape, for example to ``__slots__``, the constructors are used instead). Plugins
# call these and never depend on how the core stores its objects.
_new = object.__new__
_tuple_new = tuple.__new__


def _repair_fast(kind: str, message: str, start: int, end: int) -> Repair:
    r = _new(Repair)
    d = r.__dict__
    d["kind"] = kind
    d["message"] = message
    d["span"] = _tuple_new(Span, (start, end))
    return r


def _repair_slow(kind: str, message: str, start: int, end: int) -> Repair:  # pragma: no cover
    return Repair(kind, message, Span(start, end))


def _status_fast(values: tuple[str, ...] = (), open: str = "", complete: bool = False) -> StreamStatus:
    s = _new(StreamStatus)
    d = s.__dict__
    if values:
        d["values"] = values
    if open:
        d["open"] = open
    if complete:
        d["complete"] = True
    return s


def _status_slow(values: tuple[str, ...] = (), open: str = "", complete: bool = False) -> StreamStatus:
    return StreamStatus(True, complete=complete, values=values, open=open)  # pragma: no cover


def _fast_paths_hold() -> bool:
    try:
        probe = _repair_fast("k", "m", 1, 2)
        status = _status_fast(("a",), "b", True)
    except (AttributeError, TypeError):  # pragma: no cover - a class with __slots__
        return False
    return (
        probe == Repair("k", "m", Span(1, 2))
        and type(probe.span) is Span
        and hash(probe) == hash(Repair("k", "m", Span(1, 2)))
        and status == StreamStatus(True, complete=True, values=("a",), open="b")
        and _status_fast() == StreamStatus(True)
    )


_FAST = _fast_paths_hold()

#: ``make_repair(kind, message, start, end)`` is ``Repair(kind, message, Span(start, end))``, cheaper.
make_repair = _repair_fast if _FAST else _repair_slow
#: ``ok_status(values, open, complete)`` is a truthy ``StreamStatus`` with those fields, cheaper.
ok_status = _status_fast if _FAST else _status_slow


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


class ScopeNotFound(FormatbookError, LookupError):
    """A counting scope (``IN "..."``) names something the reply does not have."""


def _replace(obj: Any, **changes: Any) -> Any:
    return replace(obj, **changes)


def _as_dict(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in obj.__dataclass_fields__:
        value = getattr(obj, name)
        if isinstance(value, Span):
            value = [value.start, value.end]
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = json_ready(value)
    return out


class JSONValue(Protocol):
    """A value that knows its JSON form: ``to_json()`` returns JSON-ready data (dicts with
    ``str`` keys, lists, ``str``, ``int``, ``float``, ``bool``, ``None``, or more values
    that ``json_ready`` converts). ``CheckResult.to_dict()`` serialises such a value
    through it (Markdown's ``Extracted`` is one)."""

    def to_json(self) -> Any: ...


class ExactNumber(float):
    """A decimal number that no ``float`` holds exactly (``0.10000000000000000000001``).

    It is the nearest ``float`` (so ``json.dumps`` writes a number and the round trip
    through ``json`` compares equal) and keeps the exact digits in ``text``, which
    :func:`dumps_json` (the CLI's writer) writes as they are.
    """

    text: str

    def __new__(cls, value: Decimal) -> ExactNumber:
        number = super().__new__(cls, float(value))
        number.text = _decimal_text(value)
        return number

    def __repr__(self) -> str:
        return f"ExactNumber({self.text})"


# Python refuses to turn an int of more digits than this into text (CVE-2020-10735), so
# json.dumps cannot write it: a larger integral Decimal is not turned into an int.
_INT_DIGITS = 4300
# Values nested deeper than this are written as a note, not followed (a cycle made by a
# to_json() that returns itself, or a value no JSON reader could take).
_MAX_JSON_DEPTH = 10_000
_NON_FINITE = {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}


def _decimal_text(value: Decimal) -> str:
    """``value`` in JSON number syntax, exact (``Decimal("1E+2")`` is ``1E+2``)."""
    text = str(value)
    return text[:-1] if text.endswith(".") else text


def _number(value: float | Decimal) -> Any:
    """A float or Decimal as plain JSON: exact where JSON can be; never Infinity or NaN."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            return _NON_FINITE["nan" if value.is_nan() else ("-inf" if value.is_signed() else "inf")]
        if value == value.to_integral_value() and value.adjusted() < _INT_DIGITS:
            return int(value)
        nearest = float(value)
        if not math.isfinite(nearest):  # beyond a float's range: the exact digits, as text
            return _decimal_text(value)
        return nearest if Decimal(nearest) == value else ExactNumber(value)
    if math.isfinite(value):
        return float(value)
    return _NON_FINITE[repr(float(value))]


_CONTAINER = object()  # what _scalar answers for a value holding other values


def _scalar(value: Any) -> Any:
    """``value`` as plain JSON when it holds no other values, else ``_CONTAINER``."""
    if value is None or isinstance(value, (bool, ExactNumber)):
        return value
    if isinstance(value, str):
        return str.__str__(value)  # a str subclass (a str Enum) as its plain text
    if isinstance(value, int):
        return int(value)
    if isinstance(value, (float, Decimal)):
        return _number(value)
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    return _CONTAINER


class _Instead(NamedTuple):
    """What ``_expand`` answers for a value that another value stands for (its JSON form)."""

    value: Any


def _expand(value: Any) -> Any:
    """A value made of other values, as a ``dict`` or a sequence of them; an ``_Instead``
    holding the value that stands for it; or its ``str()``."""
    if isinstance(value, dict):
        return value
    if isinstance(value, (list, tuple)):
        return value
    if isinstance(value, (set, frozenset)):
        try:
            return sorted(value)
        except TypeError:
            return list(value)
    if isinstance(value, enum.Enum):
        return _Instead(value.value)
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        try:
            return _Instead(to_json())
        except Exception:  # a value that cannot convert itself is shown by its str()
            return str(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return _Instead(dump(mode="json"))
        except Exception:  # a model that cannot dump itself is shown by its repr
            return repr(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    return str(value)


def json_ready(value: Any) -> Any:
    """``value`` as plain JSON data, which ``json.dumps`` writes and ``json.loads`` reads back equal.

    ``None``, ``bool``, ``str`` and ``int`` stay as they are; a finite ``float`` stays; an
    infinite or NaN one (or ``Decimal``) becomes the string ``"Infinity"``, ``"-Infinity"``
    or ``"NaN"``, never a bare ``Infinity``. A ``Decimal`` becomes an ``int`` when whole, a
    ``float`` when one holds it exactly, else an :class:`ExactNumber` (its exact digits kept
    for :func:`dumps_json`); one beyond a float's range and not a whole number of at most
    4,300 digits becomes its digits as a string. Dates and times become ISO strings; a value
    with ``to_json()`` (:class:`JSONValue`) goes through it; a pydantic model through
    ``model_dump(mode="json")``; a dataclass instance becomes a dict of its fields; tuples
    and sets become lists (sets sorted when they can be); dict keys become strings. Any other
    value becomes its ``str()``. Works iteratively: deep values do not exhaust the stack.
    """
    return _convert(value)[0]


# Deeper than this, the C encoder of json.dumps may run out of stack: dumps_json writes
# such data itself.
_C_ENCODER_DEPTH = 200
_PLAIN = (str, int, bool, type(None))  # exact types that are plain JSON as they are
_encode_str = json.encoder.encode_basestring  # a str as json.dumps(..., ensure_ascii=False) writes it


def _convert(value: Any) -> tuple[Any, bool]:
    """``json_ready(value)``, and whether ``json.dumps`` cannot write it as it should (it
    holds an ``ExactNumber`` or is nested deeper than ``_C_ENCODER_DEPTH``)."""
    holder: list[Any] = [None]
    special = False
    stack: list[tuple[Any, Any, Any, int]] = [(value, holder, 0, 0)]
    while stack:
        item, parent, key, depth = stack.pop()
        if type(item) in _PLAIN:  # the common case, first
            parent[key] = item
            continue
        kind = type(item)
        plain = _CONTAINER if kind is dict or kind is list else _scalar(item)
        if plain is not _CONTAINER:
            special = special or type(plain) is ExactNumber
            parent[key] = plain
            continue
        if depth > _MAX_JSON_DEPTH:
            parent[key] = f"(nested deeper than {_MAX_JSON_DEPTH} levels)"
            continue
        special = special or depth >= _C_ENCODER_DEPTH
        expanded = item if kind is dict or kind is list else _expand(item)
        if isinstance(expanded, str):
            parent[key] = expanded
        elif isinstance(expanded, dict):
            out: dict[str, Any] = {}
            parent[key] = out
            for k, v in expanded.items():
                name = k if type(k) is str else (str.__str__(k) if isinstance(k, str) else str(k))
                out[name] = v
                if type(v) not in _PLAIN:
                    stack.append((v, out, name, depth + 1))
        elif isinstance(expanded, _Instead):  # to_json(), model_dump(), an Enum's value
            stack.append((expanded.value, parent, key, depth + 1))
        else:
            items = list(expanded)
            parent[key] = items
            for i, v in enumerate(items):
                if type(v) not in _PLAIN:
                    stack.append((v, items, i, depth + 1))
    return holder[0], special


def dumps_json(data: Any, indent: int | None = None) -> str:
    """JSON text for ``data`` (as :func:`json_ready` gives it), written as ``json.dumps``
    writes it, except that an :class:`ExactNumber` keeps its exact digits and that no
    ``Infinity`` or ``NaN`` is ever written. Works at any depth."""
    data, special = _convert(data)
    if not special:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=indent)
    parts: list[str] = []
    item_sep, key_sep = (",", ": ") if indent is not None else (", ", ": ")
    # the stack holds (value, nesting level) to write, and (raw, text) to write as it is
    raw = object()
    stack: list[tuple[Any, Any]] = [(data, 0)]
    while stack:
        item, level = stack.pop()
        if item is raw:
            parts.append(level)
            continue
        if isinstance(item, ExactNumber):
            parts.append(item.text)
        elif isinstance(item, dict) and item:
            pad = "" if indent is None else "\n" + " " * (indent * (level + 1))
            end = "" if indent is None else "\n" + " " * (indent * level)
            stack.append((raw, end + "}"))
            entries = list(item.items())
            for i in range(len(entries) - 1, -1, -1):
                k, v = entries[i]
                stack.append((v, level + 1))
                lead = ("{" if i == 0 else item_sep) + pad
                stack.append((raw, lead + _encode_str(k) + key_sep))
        elif isinstance(item, list) and item:
            pad = "" if indent is None else "\n" + " " * (indent * (level + 1))
            end = "" if indent is None else "\n" + " " * (indent * level)
            stack.append((raw, end + "]"))
            for i in range(len(item) - 1, -1, -1):
                stack.append((item[i], level + 1))
                stack.append((raw, ("[" if i == 0 else item_sep) + pad))
        elif type(item) is str:
            parts.append(_encode_str(item))
        else:
            parts.append(json.dumps(item, ensure_ascii=False, allow_nan=False))
    return "".join(parts)
