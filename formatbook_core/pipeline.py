"""The check pipeline: locate → validate → heal → schema → extract → count → compare.

Counting and comparing live in ``tallying``; prompt guidance in ``prompting``.

``check`` never raises because of the reply: a bad reply is a ``CheckResult`` with
violations. It raises ``ExpectationError`` only for bad expectations.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from typing import Any

from .decoding import decode_reply
from .expectations import Expectations, as_expectations
from .limits import limits_from
from .locating import THINK_HEAD, leading_think, outside_spans, outside_think, strip_span, think_spans
from .results import (
    Analysis,
    CheckResult,
    Healed,
    HealError,
    Repair,
    SetAside,
    Span,
    Violation,
)
from .tallying import plugin_failure, tally


@dataclass
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
    exp = as_expectations(expectations)
    schema = exp.loaded_schema  # a schema that cannot be loaded is an ExpectationError
    reply, early = _admit(reply, max_size if max_size is not None else limits_from(exp.options).max_size)
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
    chosen, ok = _select(fmt, reply, schema, exp.options)
    value = chosen.analysis.value if chosen.analysis is not None else None  # what the reply parsed to
    passed = ok and chosen.analysis is not None
    violations, counts = chosen.violations, {}
    if passed:  # counted only on a payload that passed
        as_located = chosen.text == reply[chosen.span.start : chosen.span.end]
        counts, violations = tally(exp, fmt, schema, chosen.text, value, chosen.span.start if as_located else None)
    return CheckResult(
        passed and not violations,
        reply,
        text=chosen.text,
        value=value,
        format=fmt.name,
        repairs=chosen.repairs,
        violations=violations,
        set_aside=chosen.set_aside,
        counts=counts,
    )


def heal(
    reply: str | bytes | None, expectations: Expectations | str | None = None, *, max_size: int | None = None
) -> Healed:
    """The repaired payload of ``reply`` and the repairs made (offsets into ``reply``).

    Raises ``HealError`` (with violations) when no located payload can be repaired (or the
    reply is ``None``: ``reply.empty``).
    """
    exp = as_expectations(expectations)
    schema = exp.loaded_schema
    reply, early = _admit(reply, max_size if max_size is not None else limits_from(exp.options).max_size)
    if early is not None:
        raise HealError(early[0].message, early)
    fmt = exp.fmt
    if fmt is None:
        plain = _plain_text(reply)
        return Healed(plain.text, tuple(plain.repairs), tuple(plain.set_aside))
    chosen, ok = _select(fmt, reply, schema, exp.options)
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
    if len(reply) > max_size:
        return reply, [
            Violation(
                "reply.too_large",
                f"the reply has {len(reply):,} characters, more than the limit of {max_size:,}",
                keyword="max_size",
                expected=max_size,
            )
        ]
    return reply, None


def _plain_text(reply: str) -> _Candidate:
    """Without a format the reply is the text, but for a ``<think>`` block opening it."""
    think = leading_think(reply)
    span = Span(think.end if think else 0, len(reply))
    candidate = _Candidate(span, reply[span.start :])
    if think is not None:
        _set_aside_surroundings("the text", reply, span, candidate)
    return candidate


def _select(fmt: Any, reply: str, schema: Any, options: dict[str, Any]) -> tuple[_Candidate, bool]:
    """The first located candidate that passes (healed if need be), and True; else the
    first candidate, whose violations are the ones reported, and False."""
    try:
        # a plugin that located nothing: the reply without its think blocks (never their text)
        spans = _spans(fmt.locate(reply, schema, **options), len(reply)) or outside_think(
            reply, anywhere=getattr(fmt, "think_anywhere", False)
        )
    except Exception as exc:  # a plugin bug is reported like every other plugin failure
        return _Candidate(Span(0, len(reply)), reply, violations=[plugin_failure(fmt, "locate", exc)]), False
    first: _Candidate | None = None
    thinks: list[Span] | None = None
    cut_short: _Candidate | None = None
    for span in spans:
        candidate = _evaluate(fmt, reply, span, schema, options)
        first = first or candidate
        if candidate.analysis is None or not candidate.analysis.ok:
            continue
        if thinks is None:  # one pass over the reply, shared with setting the rest aside
            thinks = think_spans(reply, anywhere=getattr(fmt, "think_anywhere", False))
        split = _think_tag_opens(fmt, reply, candidate, thinks, schema, options) or _split_by_think(
            fmt, reply, candidate.span, thinks, options
        )
        if split is not None:
            candidate.violations = [split]
            continue
        if not _healed_as_cut_off_midway(candidate, reply):
            return _surrounded(fmt, reply, candidate, thinks), True
        cut_short = cut_short or candidate  # taken only when no later candidate passes
    if cut_short is not None:
        return _surrounded(fmt, reply, cut_short, thinks), True
    if first is None:  # spans is never empty; this only tells the type checker
        first = _Candidate(Span(0, len(reply)), reply)
    if not first.violations:
        first.violations = [Violation(f"{fmt.name}.not_found", f"no {fmt.name.upper()} found in the reply")]
    return _surrounded(fmt, reply, first, thinks), False


def _think_tag_opens(
    fmt: Any, reply: str, candidate: _Candidate, thinks: list[Span], schema: Any, options: dict[str, Any]
) -> Violation | None:
    """The payload's text opens with a think tag that opens no think block in the reply, and
    the format, reading that text again, would not take it whole: U+00A0 then
    ``<think></think>`` (after a no-break space the tag is text, but the payload, its white
    space stripped, opens with it, and read again it is a think block set aside). Which of the two the
    model meant cannot be told, so the candidate is refused. (Costs one ``locate``, only
    when a payload opens with a think tag.)"""
    text = candidate.text
    if getattr(fmt, "think_anywhere", False) or THINK_HEAD.match(text) is None:
        return None
    at = bisect_right(thinks, candidate.span.start, key=lambda t: t.start) - 1
    if at >= 0 and candidate.span.start < thinks[at].end:
        return None  # a think block of the reply the format keeps as payload
    try:
        again = _spans(fmt.locate(text, schema, **options), len(text))
    except Exception:  # a plugin failure: the payload cannot be shown to stand alone
        again = []
    if again and strip_span(text, again[0]) == strip_span(text, Span(0, len(text))):
        return None  # the format keeps the tag in its payload (XML's <reasoning> with root=)
    name = fmt.name
    return Violation(
        f"{name}.think_inside",
        f"the {name.upper()} payload opens with a think tag the reply does not open a think block with "
        "(white space such as U+00A0 before it): a think block or the payload's markup, which cannot be told",
        span=candidate.span,
    )


def _split_by_think(fmt: Any, reply: str, span: Span, thinks: list[Span], options: dict[str, Any]) -> Violation | None:
    """A think block on the payload's edge (only blank space between) with more of the
    payload on its other side: ``a: 1 <think>…</think> b: 2`` located as ``a: 1``, whose
    text read together with ``b: 2`` is valid too. Passing the part on one side would drop
    the other (a note inside the data, or data the model thought over, cannot be told
    apart), so the candidate is refused with ``<format>.think_inside``. The other side is
    read stripped and, for formats where indentation counts, with its first line's
    indentation kept. Costs one or two analyses, and only when a think block touches the
    payload."""
    if not thinks:
        return None
    payload = reply[span.start : span.end]
    # only the nearest block on each side can touch the payload (another has that one's
    # text between): found by bisection, so many candidates and blocks stay linear (a
    # block inside the payload, which XML and YAML may keep, is neither)
    before = bisect_right(thinks, span.start, key=lambda t: t.end) - 1
    after = bisect_left(thinks, span.end, key=lambda t: t.start)
    for i in (before, after):
        if not 0 <= i < len(thinks):
            continue
        t = thinks[i]
        if t.start >= span.end and _blank(reply, span.end, t.start):
            until = thinks[i + 1].start if i + 1 < len(thinks) else len(reply)
            other = reply[t.end : until]
            joins = [f"{payload}\n{o}" for o in _both_ways(other)]
        elif t.end <= span.start and _blank(reply, t.end, span.start):
            other = reply[thinks[i - 1].end if i else 0 : t.start]
            joins = [f"{o}\n{payload}" for o in _both_ways(other)]
        else:
            continue
        if other.strip() and any(_guarded(fmt, "analyze", joined, None, options).ok for joined in joins):
            name = fmt.name
            return Violation(
                f"{name}.think_inside",
                f"a think block sits inside the {name.upper()} payload: the text on its other side "
                "continues the payload (a note inside the data, or data thought over: which cannot be told)",
                span=t,
            )
    return None


def _both_ways(text: str) -> list[str]:
    """``text`` stripped, and (when that differs) with the indentation of its first line
    kept: in YAML, ``a: |`` + ``  x``, a think block, ``  z`` goes on with ``  z``."""
    stripped = text.strip()
    lines = text.rstrip().split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    indented = "\n".join(lines)
    return [stripped] if indented == stripped else [stripped, indented]


def _healed_as_cut_off_midway(candidate: _Candidate, reply: str) -> bool:
    """Healing read the payload as cut off by the end of the reply (a ``truncated_*`` repair,
    the convention every format follows), yet the reply goes on after it: that reading is
    doubtful, so a later candidate that passes is preferred to it."""
    return not _blank(reply, candidate.span.end, len(reply)) and any(
        r.kind.startswith("truncated_") for r in candidate.repairs
    )


_NOT_BLANK = re.compile(r"\S")


def _blank(reply: str, start: int, end: int) -> bool:
    """Only white space (``str.strip``'s) in ``reply[start:end]``, found without copying it:
    a search that stops at the first other character."""
    return _NOT_BLANK.search(reply, start, end) is None


def _surrounded(fmt: Any, reply: str, candidate: _Candidate, thinks: list[Span] | None = None) -> _Candidate:
    """``candidate`` with what surrounds it in the reply set aside (done only for the
    candidate chosen: it costs a pass over the reply, and a reply may hold many)."""
    if candidate.span != (0, len(reply)):
        _set_aside_surroundings(
            f"the {fmt.name.upper()} payload",
            reply,
            candidate.span,
            candidate,
            getattr(fmt, "think_anywhere", False),
            thinks,
        )
    return candidate


def _evaluate(fmt: Any, reply: str, span: Span, schema: Any, options: dict[str, Any]) -> _Candidate:
    """Validate one located payload, healing it when it is not valid as it stands."""
    payload = reply[span.start : span.end]
    candidate = _Candidate(span, payload)
    first = _guarded(fmt, "analyze", payload, schema, options)
    candidate.analysis = first  # a failing candidate still tells what it parsed to
    if first.ok:
        return candidate
    try:
        healed = fmt.heal(payload, schema, **options)
    except HealError as exc:
        candidate.violations = [v.shift(span.start) for v in (exc.violations or first.violations)]
        return candidate
    except Exception as exc:
        candidate.violations = [plugin_failure(fmt, "heal", exc)] + [v.shift(span.start) for v in first.violations]
        return candidate
    if not isinstance(healed, Healed):
        wrong = TypeError(f"returned {type(healed).__name__}, not Healed")
        candidate.violations = [plugin_failure(fmt, "heal", wrong)] + [v.shift(span.start) for v in first.violations]
        return candidate
    candidate.repairs.extend(r.shift(span.start) for r in healed.repairs)
    candidate.set_aside.extend(s.shift(span.start) for s in healed.set_aside)
    candidate.text = healed.text
    second = _guarded(fmt, "analyze", healed.text, schema, options)
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


# A plugin that returns the wrong type is a plugin failure like one that raises: checked
# where the pipeline would otherwise trip over it with an error of its own.
def _spans(located: Any, length: int) -> list[Span]:
    if not isinstance(located, (list, tuple)):
        raise TypeError(f"returned {type(located).__name__}, not a list of Span")
    spans = []
    for span in located:
        if not (
            isinstance(span, tuple)
            and len(span) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in span)
            and 0 <= span[0] <= span[1] <= length
        ):
            raise TypeError(f"returned {span!r}, not a Span inside the {length} characters of the reply")
        spans.append(Span(*span))
    return spans


def _without_span(v: Violation) -> Violation:
    return replace(v, span=None) if v.span is not None else v


def _set_aside_surroundings(
    what: str, reply: str, span: Span, candidate: _Candidate, anywhere: bool = False, thinks: list[Span] | None = None
) -> None:
    """Everything outside the payload (``what``) is kept: ``<think>`` blocks and prose (listed
    before what healing the payload set aside, the ``located`` repair before its repairs)."""
    if thinks is None:
        thinks = think_spans(reply, anywhere=anywhere)
    pieces: list[tuple[str, Span]] = []
    for outer in outside_spans(len(reply), [span]):
        inner_thinks = [t for t in thinks if t.start >= outer.start and t.end <= outer.end]
        for t in inner_thinks:
            pieces.append(("think", t))
        for rest in outside_spans(outer.end, [Span(0, outer.start), *inner_thinks]):
            if reply[rest.start : rest.end].strip():
                pieces.append(("prose", rest))
    pieces.sort(key=lambda p: p[1].start)
    if not pieces:
        return  # only blank space around the payload (a file's final newline): nothing to report
    candidate.set_aside[:0] = [SetAside(kind, reply[piece.start : piece.end], piece) for kind, piece in pieces]
    candidate.repairs.insert(
        0,
        Repair(
            "located",
            f"took {what} at {span.start}–{span.end} out of the reply"
            + (f"; set aside {len(pieces)} surrounding part(s)" if pieces else ""),
            span,
        ),
    )
