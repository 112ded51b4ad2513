"""The check pipeline: locate → validate → heal → schema → extract → count → compare.

Counting and comparing live in ``tallying``; prompt guidance in ``prompting``.

``check`` never raises because of the reply: a bad reply is a ``CheckResult`` with
violations. It raises ``ExpectationError`` only for bad expectations.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from .collector import paused_gc
from .decoding import decode_reply
from .expectations import Expectations, shared_expectations
from .limits import limits_from, too_large
from .reply import Reply, alone, is_blank, think_inside, think_tags_of
from .results import (
    Analysis,
    CheckResult,
    Healed,
    HealError,
    Located,
    Repair,
    SetAside,
    Span,
    Violation,
    healed_as_cut_off,
)
from .spans import no_payload
from .tallying import plugin_failure, tally


@dataclass(slots=True)
class _Candidate:
    """One located payload and what became of it."""

    span: Span
    text: str
    analysis: Analysis | None = None
    repairs: list[Repair] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)


def check(
    reply: str | bytes | None, expectations: Expectations | str | None = None, *, max_size: int | None = None
) -> CheckResult:
    """Check ``reply`` against ``expectations`` (an ``Expectations`` or EXPECT text).

    Returns a ``CheckResult``: ``ok``, the final payload ``text``, the parsed ``value``, the
    ``repairs`` made, the ``violations`` (most relevant first), what was ``set_aside`` and
    the ``counts`` the expectations ask for. A reply of ``None`` (an LLM message whose
    content is ``None``) fails with the violation ``reply.empty``. Raises
    ``ExpectationError`` for bad expectations and ``TypeError`` for a reply that is not
    ``str``, UTF-8 ``bytes`` or ``None``.
    """
    exp = shared_expectations(expectations)
    schema = exp.loaded_schema  # a schema that cannot be loaded is an ExpectationError
    max_size = max_size if max_size is not None else limits_from(exp.options).max_size
    if reply.__class__ is not str or len(reply) > max_size:  # (a str within the limit is admitted as it is)
        reply, early = _admit(reply, max_size)
        if early is not None:
            return CheckResult(False, reply, format=exp.format, violations=early)
    fmt = exp.fmt
    if fmt is None:
        plain = _plain_text(reply)
        counts, violations = tally(exp, None, schema, plain.text, plain.text, plain.span.start)
        return CheckResult(
            not violations,
            reply,
            text=plain.text,
            value=plain.text,
            repairs=plain.repairs,
            violations=violations,
            set_aside=plain.set_aside,
            counts=counts,
        )
    options = exp.options
    prepared = Reply.of(reply, think_tags_of(fmt))  # notes and fences found once, for every stage
    found, lone = _candidates(fmt, prepared, reply, schema, options)
    if lone is not None and not (exp.counts or exp.instructions) and _blank_around(reply, lone[0]):
        # the reply is one payload, valid as it stands, with nothing to set aside around
        # it, and nothing is counted: the result _select and the steps below would build,
        # without building what nobody reads
        return CheckResult.built(True, reply, lone[1], lone[2].value, fmt.name, [], [], [], {})
    chosen, ok = _select(fmt, prepared, reply, found, lone, schema, options, max_size)
    value = chosen.analysis.value if chosen.analysis is not None else None  # what the reply parsed to
    passed = ok and chosen.analysis is not None
    violations, counts = chosen.violations, {}
    if passed and (exp.counts or exp.instructions):  # counted only on a payload that passed
        as_located = chosen.text == reply[chosen.span.start : chosen.span.end]
        offset = chosen.span.start if as_located else None
        counts, violations = tally(exp, fmt, schema, chosen.text, value, offset, chosen.analysis)
    return CheckResult.built(
        passed and not violations,
        reply,
        chosen.text,
        value,
        fmt.name,
        chosen.repairs,
        violations,
        chosen.set_aside,
        counts,
    )


def heal(
    reply: str | bytes | None, expectations: Expectations | str | None = None, *, max_size: int | None = None
) -> Healed:
    """The repaired payload of ``reply`` and the repairs made (offsets into ``reply``).

    Raises ``HealError`` (with violations) when no located payload can be repaired (or the
    reply is ``None``: ``reply.empty``).
    """
    exp = shared_expectations(expectations)
    schema = exp.loaded_schema
    max_size = max_size if max_size is not None else limits_from(exp.options).max_size
    reply, early = _admit(reply, max_size)
    if early is not None:
        raise HealError(early[0].message, early)
    fmt = exp.fmt
    if fmt is None:
        plain = _plain_text(reply)
        return Healed(plain.text, tuple(plain.repairs), tuple(plain.set_aside))
    options = exp.options
    prepared = Reply.of(reply, think_tags_of(fmt))  # notes and fences found once, for every stage
    found, lone = _candidates(fmt, prepared, reply, schema, options)
    chosen, ok = _select(fmt, prepared, reply, found, lone, schema, options, max_size)
    if ok:
        return Healed(chosen.text, tuple(chosen.repairs), tuple(chosen.set_aside))
    raise HealError(f"cannot heal the reply as {fmt.name.upper()}: {chosen.violations[0].message}", chosen.violations)


# --- pipeline steps ------------------------------------------------------------------


def _admit(reply: Any, max_size: int) -> tuple[str, list[Violation] | None]:
    """Turn the reply into text or say why it cannot be checked at all."""
    if reply is None:
        return "", [Violation("reply.empty", "there is no reply: it is None (an LLM message without content)")]
    if isinstance(reply, (bytes, bytearray)):
        reply, bad = decode_reply(reply)
        if bad is not None:
            return reply, [bad]
    if not isinstance(reply, str):
        raise TypeError(f"a reply is str (or UTF-8 bytes), not {type(reply).__name__}")
    refused = too_large(len(reply), max_size)  # a length: decided before any reading of the text
    if refused is not None:
        return reply, [refused]
    return reply, None


def _plain_text(reply: str) -> _Candidate:
    """Without a format the reply is the text, but for a ``<think>`` block opening it."""
    prepared = Reply.of(reply)
    span = prepared.whole_payload()
    candidate = _Candidate(span, reply[span.start :])
    if span.start:
        _set_aside(prepared, "the text", candidate)
    return candidate


def _candidates(
    fmt: Any, prepared: Reply, reply: str, schema: Any, options: dict[str, Any]
) -> tuple[Any, tuple[Span, str, Analysis] | None]:
    """The format's candidates in ``prepared`` (``reply`` prepared), or the exception it
    raised; and, when they are one payload that passed as located
    (:func:`_passed_as_located`), its span, text and analysis."""
    try:
        found = fmt.candidates(prepared, schema, **options)
        return found, _passed_as_located(found, reply)
    except Exception as exc:  # a plugin bug: _select reports it
        return _Raised(exc), None


class _Raised(NamedTuple):
    """A format's ``candidates`` raised ``error`` (told from anything it may return)."""

    error: Exception


def _select(
    fmt: Any,
    prepared: Reply,
    reply: str,
    found: Any,
    lone: tuple[Span, str, Analysis] | None,
    schema: Any,
    options: dict[str, Any],
    max_size: int,
) -> tuple[_Candidate, bool]:
    """The first located candidate that passes (healed if need be, within ``max_size``),
    and True; else the first candidate, whose violations are the ones reported, and False.
    ``found``, ``lone``: :func:`_candidates`' answer on ``prepared``, ``reply`` prepared."""
    if lone is not None:
        return _surrounded(fmt, prepared, _Candidate(*lone)), True
    if found.__class__ is _Raised:  # a plugin bug is reported like every other plugin failure
        return _Candidate(Span(0, len(reply)), reply, violations=[plugin_failure(fmt, "locate", found.error)]), False
    try:
        # a plugin that located nothing: the reply without its think blocks (never their text)
        located = _located(found, len(reply)) or [
            (span, None) for span in (prepared.longest_stretches() or [no_payload(reply)])
        ]
    except Exception as exc:  # a plugin bug is reported like every other plugin failure
        return _Candidate(Span(0, len(reply)), reply, violations=[plugin_failure(fmt, "locate", exc)]), False

    def relocate(text: str) -> list[Span]:
        try:
            return _spans(fmt.locate(Reply.of(text), schema, **options), len(text))
        except Exception:  # a plugin failure: the payload cannot be shown to stand alone
            return []

    def reads(text: str) -> bool:
        return _guarded(fmt, "analyze", text, None, options).ok

    first: _Candidate | None = None
    cut_short: _Candidate | None = None
    refuse_cut = options.get("truncated") == "fail"
    for span, analysis in located:
        candidate = _evaluate(fmt, reply, span, schema, options, max_size, analysis)
        first = first or candidate
        if candidate.analysis is None or not candidate.analysis.ok:
            continue
        split = think_inside(prepared, fmt.name, candidate.span, candidate.text, relocate, reads)
        if split is not None:
            candidate.violations = [split]
            continue
        if refuse_cut and healed_as_cut_off(candidate.repairs):
            candidate.violations = [_truncated(fmt)]
            continue
        if not _healed_as_cut_off_midway(candidate, reply):
            return _surrounded(fmt, prepared, candidate), True
        cut_short = cut_short or candidate  # taken only when no later candidate passes
    if cut_short is not None:
        return _surrounded(fmt, prepared, cut_short), True
    if first is None:  # spans is never empty; this only tells the type checker
        first = _Candidate(Span(0, len(reply)), reply)
    if not first.violations:
        first.violations = [Violation(f"{fmt.name}.not_found", f"no {fmt.name.upper()} found in the reply")]
    return _surrounded(fmt, prepared, first), False


def _passed_as_located(found: Any, reply: str) -> tuple[Span, str, Analysis] | None:
    """The one candidate locating found (its span, text and analysis), when its analysis already passed and nothing
    else can matter, else ``None`` (the general path decides). Nothing else matters
    when no think block can touch the payload nor open it (the reply holds no ``<``,
    with which every think tag opens, or :func:`~formatbook_core.reply.alone`) and the
    candidate was not healed (no cut-off reading): then the general path would take this
    candidate as it is. A valid reply is so decided without building the candidate list
    or reading its think blocks, which cost more than the parse of a short reply."""
    if found.__class__ is not list or len(found) != 1:
        return None
    (only,) = found
    if only.__class__ is not Located:
        return None
    span, analysis = only.span, only.analysis
    if analysis.__class__ is not Analysis or analysis.violations or span.__class__ is not Span:
        return None
    start, end = span
    if not (start.__class__ is int and end.__class__ is int and 0 <= start <= end <= len(reply)):
        return None
    payload = reply[start:end]
    if "<" in reply and not alone(reply, span, payload):
        return None
    return span, payload, analysis


def _truncated(fmt: Any) -> Violation:
    """Why a payload healed as cut off fails under ``truncated=fail``."""
    return Violation(
        "reply.truncated",
        f"the {fmt.name.upper()} payload was cut off by the end of the reply (healing would close it): "
        "the reply stopped mid-answer; ask again, or for a shorter answer",
        keyword="truncated",
        expected="fail",
    )


def _healed_as_cut_off_midway(candidate: _Candidate, reply: str) -> bool:
    """Healing read the payload as cut off by the end of the reply (a ``truncated_*`` repair,
    the convention every format follows), yet the reply goes on after it: that reading is
    doubtful, so a later candidate that passes is preferred to it."""
    return not is_blank(reply, candidate.span.end, len(reply)) and healed_as_cut_off(candidate.repairs)


def _blank_around(reply: str, span: Span) -> bool:
    """Whether only white space surrounds ``span`` in ``reply`` (or nothing): then
    :func:`_surrounded` sets nothing aside (:meth:`Reply.set_aside` answers so first)."""
    start, end = span
    n = len(reply)
    return (start == 0 or is_blank(reply, 0, start)) and (end == n or is_blank(reply, end, n))


def _surrounded(fmt: Any, reply: Reply, candidate: _Candidate) -> _Candidate:
    """``candidate`` with what surrounds it in the reply set aside (done only for the
    candidate chosen: it costs a pass over the reply, and a reply may hold many)."""
    if candidate.span != (0, len(reply)):
        _set_aside(reply, f"the {fmt.name.upper()} payload", candidate)
    return candidate


def _set_aside(reply: Reply, what: str, candidate: _Candidate) -> None:
    """Everything outside the payload (``what``) is kept: ``<think>`` blocks and prose (listed
    before what healing the payload set aside, the ``located`` repair before its repairs)."""
    located, kept = reply.set_aside(candidate.span, what)
    if located is not None:
        candidate.set_aside[:0] = kept
        candidate.repairs.insert(0, located)


def _evaluate(
    fmt: Any,
    reply: str,
    span: Span,
    schema: Any,
    options: dict[str, Any],
    max_size: int,
    analysis: Analysis | None = None,
) -> _Candidate:
    """Validate one located payload, healing it when it is not valid as it stands
    (``analysis``: the payload's, when locating made one). A payload healed past
    ``max_size`` fails (``reply.too_large``, :func:`formatbook_core.limits.too_large`),
    for every format alike, before its healed text is read again."""
    payload = reply[span.start : span.end]
    candidate = _Candidate(span, payload)
    first = analysis if analysis is not None else _guarded(fmt, "analyze", payload, schema, options)
    candidate.analysis = first  # a failing candidate still tells what it parsed to
    if first.ok:
        return candidate

    def reported() -> list[Violation]:
        """``first``'s violations, into the reply (a brief analysis explained first)."""
        told = _guarded(fmt, "analyze", payload, schema, options) if first.brief else first
        return [v.shift(span.start) for v in told.violations]

    try:
        # a heal makes objects per repair, all alive until the answer: the cyclic
        # collector waits (formatbook_core.collector), for every format alike
        with paused_gc():
            if any(v.code == "plugin.error" for v in first.violations):  # no analysis to go on
                healed = fmt.heal(payload, schema, **options)
            else:  # healing starts from the analysis made, not from reading the payload again
                healed = fmt.heal_analyzed(first, payload, schema, **options)
    except HealError as exc:
        candidate.violations = [v.shift(span.start) for v in exc.violations] if exc.violations else reported()
        return candidate
    except Exception as exc:
        candidate.violations = [plugin_failure(fmt, "heal", exc), *reported()]
        return candidate
    if not isinstance(healed, Healed):
        wrong = TypeError(f"returned {type(healed).__name__}, not Healed")
        candidate.violations = [plugin_failure(fmt, "heal", wrong), *reported()]
        return candidate
    grown = too_large(len(healed.text), max_size, healed=True) if isinstance(healed.text, str) else None
    if grown is not None:  # the answer would be longer than the limit: heal(heal(x)) would refuse it
        candidate.violations = [grown]  # the healing failed: its repairs are not listed
        return candidate
    if span.start:
        with paused_gc():  # one new repair per repair: O(1) each, the collector still waits
            candidate.repairs.extend(r.shift(span.start) for r in healed.repairs)
            candidate.set_aside.extend(s.shift(span.start) for s in healed.set_aside)
    else:  # a payload at the reply's start: each shift would return its repair as it is
        candidate.repairs.extend(healed.repairs)
        candidate.set_aside.extend(healed.set_aside)
    candidate.text = healed.text
    # the analysis heal confirmed its text with, else a fresh one
    second = healed.analysis if isinstance(healed.analysis, Analysis) else None
    second = second or _guarded(fmt, "analyze", healed.text, schema, options)
    candidate.analysis = second
    if not second.ok:
        # offsets into healed text cannot be mapped back to the reply: keep the paths only
        candidate.violations = [v if healed.text == payload else _without_span(v) for v in second.violations]
    return candidate


def _guarded(fmt: Any, method: str, text: str, schema: Any, options: dict[str, Any]) -> Analysis:
    try:
        analysis = getattr(fmt, method)(text, schema, **options)
    except Exception as exc:
        return Analysis(None, (plugin_failure(fmt, method, exc),))
    if not isinstance(analysis, Analysis):
        wrong = TypeError(f"returned {type(analysis).__name__}, not Analysis")
        return Analysis(None, (plugin_failure(fmt, method, wrong),))
    return analysis


def _located(candidates: Any, length: int) -> list[tuple[Span, Analysis | None]]:
    """``candidates``' answer as spans, each with the analysis locating made (or ``None``)."""
    if not isinstance(candidates, (list, tuple)):
        raise TypeError(f"returned {type(candidates).__name__}, not a list of Span")
    spans = [c.span if isinstance(c, Located) else c for c in candidates]
    analyses = [c.analysis if isinstance(c, Located) and isinstance(c.analysis, Analysis) else None for c in candidates]
    return list(zip(_spans(spans, length), analyses, strict=True))


# A plugin that returns the wrong type is a plugin failure like one that raises: checked
# where the pipeline would otherwise trip over it with an error of its own.
def _spans(located: Any, length: int) -> list[Span]:
    if not isinstance(located, (list, tuple)):
        raise TypeError(f"returned {type(located).__name__}, not a list of Span")
    spans = []
    for span in located:
        if not (isinstance(span, tuple) and len(span) == 2):
            raise TypeError(f"returned {span!r}, not a Span inside the {length} characters of the reply")
        start, end = span
        if not (
            isinstance(start, int)
            and isinstance(end, int)
            and start.__class__ is not bool
            and end.__class__ is not bool
            and 0 <= start <= end <= length
        ):
            raise TypeError(f"returned {span!r}, not a Span inside the {length} characters of the reply")
        spans.append(span if span.__class__ is Span else Span(start, end))  # a Span is immutable: kept
    return spans


def _without_span(v: Violation) -> Violation:
    return replace(v, span=None) if v.span is not None else v
