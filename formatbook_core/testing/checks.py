"""The contract's checks: plain functions that raise ``AssertionError`` (explicitly, so
that they hold under ``python -O`` too), usable from any test runner."""

from __future__ import annotations

import inspect
from typing import Any

from ..definition import Checker, FormatDefinition
from ..results import Analysis, Healed, HealError, Repair, ScopeNotFound, Violation
from .guard import Guard, check_spans, check_status, chunks, feed
from .inputs import CHAR_FEED_LIMIT, PREFIX_LIMIT, prefix_positions, show, wrap_in_prose


def check_protocol(fmt: Any) -> None:
    """The attributes and method signatures the format definition requires of every format."""
    g = Guard(fmt)
    if not (isinstance(fmt, FormatDefinition)):
        raise AssertionError(f"{fmt!r} does not follow the FormatDefinition protocol")
    name = fmt.name
    if not (isinstance(name, str) and name.strip()):
        raise AssertionError(f"{fmt!r}: name must be a non-empty str")
    if not (name == name.lower() and name == name.strip()):
        raise AssertionError(f"{fmt!r}: name {name!r} must be lower case, no spaces around")
    for attr in ("aliases", "mime_types"):
        value = getattr(fmt, attr)
        if not (isinstance(value, (tuple, list)) and all(isinstance(v, str) and v.strip() for v in value)):
            raise AssertionError(f"{g.name}.{attr} must be a tuple of non-empty str, got {value!r}")
    if not (all("/" in m for m in fmt.mime_types)):
        raise AssertionError(f"{g.name}.mime_types must look like type/subtype: {fmt.mime_types!r}")
    if not (fmt.scope_kind is None or isinstance(fmt.scope_kind, str)):
        raise AssertionError(f"{g.name}.scope_kind must be None or str")
    samples = fmt.samples
    if not (isinstance(samples, (tuple, list)) and all(isinstance(s, str) for s in samples)):
        raise AssertionError(f"{g.name}.samples must be a tuple of str")
    for method in ("is_valid", "can_be_valid", "heal", "extract_values", "locate", "stream"):
        fn = getattr(fmt, method)  # present: the protocol's isinstance check above
        if not (callable(fn)):
            raise AssertionError(f"{g.name}.{method} is missing")
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):  # a builtin or C method: nothing to inspect
            continue
        if not ("schema" in params):
            raise AssertionError(f"{g.name}.{method} must take a `schema` argument")
        if not (any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())):
            raise AssertionError(f"{g.name}.{method} must take **options")
        if method == "stream":
            if not ("strict" in params):
                raise AssertionError(f"{g.name}.stream must take a `strict` keyword")
    # Calling them the documented way works.
    sample = samples[0] if samples else ""
    if not (isinstance(fmt.is_valid(sample, schema=None), bool)):
        raise AssertionError(f"{g.name}.is_valid must return a bool")
    if not (isinstance(fmt.can_be_valid(sample, schema=None), bool)):
        raise AssertionError(f"{g.name}.can_be_valid must return a bool")
    if not (isinstance(fmt.extract_values(sample, schema=None), list)):
        raise AssertionError(f"{g.name}.extract_values must return a list")
    if not (isinstance(fmt.locate(sample, schema=None), list)):
        raise AssertionError(f"{g.name}.locate must return a list")
    if not (isinstance(fmt.stream(schema=None, strict=False), Checker)):
        raise AssertionError(f"{g.name}.stream must return a Checker")
    text = fmt.guidance(schema=None)
    if not (isinstance(text, str) and text.strip()):
        raise AssertionError(f"{g.name}.guidance must return a non-empty str")


def check_extract_values(fmt: Any, text: str, schema: Any = None, options: dict[str, Any] | None = None) -> list[str]:
    """``extract_values`` returns ``list[str]`` and leaves whitespace-only values out."""
    g = Guard(fmt, schema, options)
    return _check_values(g, text)


def _check_values(g: Guard, text: str, analysis: Any = None) -> list[str]:
    """``check_extract_values``; ``analysis``: ``analyze``'s answer on ``text``, when made."""
    values = g.call("extract_values", text)
    if not (isinstance(values, list)):
        raise AssertionError(f"{g.name}.extract_values returned {type(values).__name__}, not list, on {show(text)}")
    for v in values:
        if not (isinstance(v, str)):
            raise AssertionError(f"{g.name}.extract_values returned a {type(v).__name__} item {v!r} on {show(text)}")
        if not (v.strip()):
            raise AssertionError(f"{g.name}.extract_values returned a whitespace-only value {v!r} on {show(text)}")
    if analysis is None:
        analysis = g.call("analyze", text)
    if isinstance(analysis, Analysis) and analysis.ok:
        _check_from_analysis(g, analysis, text, values)
    return values


def _check_from_analysis(g: Guard, analysis: Analysis, text: str, values: list[str]) -> None:
    """``values_of`` on ``text``'s valid analysis (what the pipeline counts) gives what
    ``extract_values`` gives on the text (the public verb)."""
    try:
        from_parse = g.fmt.values_of(analysis, text, g.schema, **g.options)
    except Exception as exc:
        raise AssertionError(f"{g.name}.values_of raised {type(exc).__name__}: {exc} on input {show(text)}") from exc
    if from_parse != values:
        raise AssertionError(
            f"{g.name}.values_of(analyze(text)) gives {from_parse!r:.200} but extract_values(text) "
            f"{values!r:.200}, on {show(text)}"
        )


def _heal(g: Guard, text: str) -> Healed | None:
    """``heal`` under guard: the result, or None when it raised ``HealError`` (checked)."""
    try:
        healed = g.call("heal", text, allowed=(HealError,))
    except HealError as err:
        if not (isinstance(err.violations, list) and all(isinstance(v, Violation) for v in err.violations)):
            raise AssertionError(f"{g.name}.heal: HealError.violations must be a list of Violation") from err
        return None
    if not (isinstance(healed, Healed)):
        raise AssertionError(f"{g.name}.heal returned {type(healed).__name__}, not Healed, on {show(text)}")
    if not (isinstance(healed.text, str)):
        raise AssertionError(f"{g.name}.heal returned a non-str text on {show(text)}")
    if not (all(isinstance(r, Repair) for r in healed.repairs)):
        raise AssertionError(f"{g.name}.heal: repairs must be Repair objects")
    check_spans(g, (r.span for r in healed.repairs), len(text), "heal (repair span)", text)
    if healed.analysis is not None:  # what the pipeline takes instead of analyzing the text
        again = g.call("analyze", healed.text)
        if [v.code for v in healed.analysis.violations] != [v.code for v in again.violations]:
            raise AssertionError(
                f"{g.name}.heal hands on an analysis of {show(healed.text)} that analyze does not give: "
                f"{[v.code for v in healed.analysis.violations]} vs {[v.code for v in again.violations]}"
            )
        if again.ok:
            _check_from_analysis(g, healed.analysis, healed.text, g.call("extract_values", healed.text))
    if healed.text != text:
        if not (healed.repairs):
            raise AssertionError(
                f"{g.name}.heal changed {show(text)} into {show(healed.text)} without listing a repair"
            )
    return healed


def check_heal_idempotent(
    fmt: Any, text: str, schema: Any = None, options: dict[str, Any] | None = None
) -> Healed | None:
    """When ``heal(text)`` succeeds, healing its output again changes nothing and lists no
    repairs; without a schema, the output is valid. Returns the first ``Healed`` (or None
    when the text cannot be healed)."""
    g = Guard(fmt, schema, options)
    first = _heal(g, text)
    if first is None:
        return None
    if schema is None:
        if not (g.call("is_valid", first.text) is True):
            raise AssertionError(
                f"{g.name}.heal returned {show(first.text)} for {show(text)}, which is not valid: "
                "heal must raise HealError when it cannot repair"
            )
    second = _heal(g, first.text)
    if not (second is not None):
        raise AssertionError(
            f"{g.name}.heal is not idempotent: healing {show(text)} gave {show(first.text)}, and healing that raised HealError"
        )
    if not (second.text == first.text and not second.repairs):
        raise AssertionError(
            f"{g.name}.heal is not idempotent: {show(text)} -> {show(first.text)} -> {show(second.text)} "
            f"with repairs {[r.kind for r in second.repairs]}"
        )
    return first


def _check_validate_agrees(g: Guard, text: str, valid: bool) -> Analysis:
    """``validate`` and ``analyze`` (the format's own, or ``BaseFormat``'s that the guard
    gives a format without them) agree with ``is_valid``. Returns the analysis."""
    violations = g.call("validate", text)
    if not (isinstance(violations, list) and all(isinstance(v, Violation) for v in violations)):
        raise AssertionError(f"{g.name}.validate must return a list of Violation on {show(text)}")
    check_spans(g, (v.span for v in violations), len(text), "validate (violation span)", text)
    if not ((not violations) == valid):
        raise AssertionError(
            f"{g.name}: validate gives {len(violations)} violations but is_valid is {valid} on {show(text)}"
        )
    analysis = g.call("analyze", text)
    if not (isinstance(analysis, Analysis)):
        raise AssertionError(f"{g.name}.analyze returned {type(analysis).__name__}, not Analysis")
    if not (all(isinstance(v, Violation) for v in analysis.violations)):
        raise AssertionError(f"{g.name}.analyze: violations must be Violation")
    check_spans(g, (v.span for v in analysis.violations), len(text), "analyze (violation span)", text)
    if not (analysis.ok == valid):
        raise AssertionError(
            f"{g.name}: analyze reports {len(analysis.violations)} violations but is_valid is {valid} on {show(text)}"
        )
    return analysis


def check_robust(fmt: Any, text: str, schema: Any = None, options: dict[str, Any] | None = None) -> None:
    """Any input: nothing undocumented is raised, results have their types, and the
    format's answers agree with each other (see the module docstring)."""
    g = Guard(fmt, schema, options)
    valid = g.call("is_valid", text)
    if not (isinstance(valid, bool)):
        raise AssertionError(f"{g.name}.is_valid returned {valid!r}, not a bool, on {show(text)}")
    possible = g.call("can_be_valid", text)
    if not (isinstance(possible, bool)):
        raise AssertionError(f"{g.name}.can_be_valid returned {possible!r}, not a bool, on {show(text)}")
    if valid:
        if not (possible):
            raise AssertionError(
                f"{g.name}: is_valid is true but can_be_valid is false on {show(text)} (a text is a prefix of itself)"
            )

    # extract_values agrees with values_of on that analysis (not made twice: a parse of
    # the whole text, the bulk of the work on a huge input)
    _check_values(g, text, _check_validate_agrees(g, text, valid))
    spans = g.call("locate", text)
    if not (isinstance(spans, list)):
        raise AssertionError(f"{g.name}.locate returned {type(spans).__name__}, not list")
    check_spans(g, spans, len(text), "locate", text)
    try:
        scoped = g.call("extract_scope", text, "/x", allowed=(ScopeNotFound,))
        if not (isinstance(scoped, list) and all(isinstance(v, str) for v in scoped)):
            raise AssertionError(f"{g.name}.extract_scope must return a list of str")
    except ScopeNotFound:
        pass

    # The checkers: one chunk, several chunks (splitting tokens at arbitrary places), and
    # one character at a time when short. At most a few dozen chunks, so that a format
    # using the base class's re-checking fallback still finishes on huge inputs.
    feeds = [[text], chunks(text, max(4096, len(text) // 24))]
    if len(text) <= CHAR_FEED_LIMIT:
        feeds.append(list(text))
    for pieces in feeds:
        strict_ok, strict_done = feed(g, True, text, pieces)
        if valid:
            if not (strict_ok and strict_done):
                raise AssertionError(
                    f"{g.name}: the strict checker rejects {show(text)}, which is_valid accepts "
                    f"(fed in {len(pieces)} chunks; feed ok={strict_ok}, finish ok={strict_done})"
                )
        else:
            if strict_done:
                raise AssertionError(
                    f"{g.name}: the strict checker's finish() accepts {show(text)}, which is_valid rejects"
                )

    healed = check_heal_idempotent(fmt, text, schema, options)
    if valid:
        if not (healed is not None and healed.text == text and not healed.repairs):
            raise AssertionError(
                f"{g.name}.heal must leave valid input unchanged with no repairs: {show(text)} -> "
                f"{'HealError' if healed is None else show(healed.text)}"
            )
    if healed is not None and (schema is None or g.call("is_valid", healed.text) is True):
        # The relaxed checker follows the grammar heal accepts: what heals must stream. With
        # a schema, what heals into a value the schema accepts (a relaxed checker may judge
        # the schema as leniently as healing repairs: a reply no repair brings to it cannot
        # pass check(), and a stream guard may stop it; issue 26).
        for pieces in feeds[:2]:
            relaxed_ok, relaxed_done = feed(g, False, text, pieces)
            if not (relaxed_ok and relaxed_done):
                raise AssertionError(
                    f"{g.name}: heal repairs {show(text)}, but the relaxed checker (strict=False) rejects it "
                    f"(feed ok={relaxed_ok}, finish ok={relaxed_done})"
                )


def check_stream_prefixes(
    fmt: Any, sample: str, strict: bool = True, schema: Any = None, options: dict[str, Any] | None = None
) -> None:
    """Fed one character at a time, the checker answers truthy after every character of a
    valid sample, and ``finish()`` is truthy."""
    g = Guard(fmt, schema, options)
    checker = g.stream(strict)
    if not (isinstance(checker, Checker)):
        raise AssertionError(f"{g.name}.stream() returned {type(checker).__name__}, not a Checker")
    for i, ch in enumerate(sample):
        status = g.step(checker, "feed", sample, ch)
        if not (check_status(g, status, i + 1, "feed")):
            raise AssertionError(
                f"{g.name} checker (strict={strict}) rejected the valid prefix {show(sample[: i + 1])} of {show(sample)} "
                f"at offset {i}: {status.reason}"
            )
    status = g.step(checker, "finish", sample)
    if not (check_status(g, status, len(sample), "finish")):
        raise AssertionError(
            f"{g.name} checker (strict={strict}).finish() rejected the valid sample {show(sample)}: {status.reason}"
        )


def check_can_be_valid_prefixes(
    fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None, limit: int = PREFIX_LIMIT
) -> None:
    """``can_be_valid``, asked from scratch, is true on prefixes of a valid sample."""
    g = Guard(fmt, schema, options)
    for cut in prefix_positions(len(sample), limit):
        prefix = sample[:cut]
        if not (g.call("can_be_valid", prefix) is True):
            raise AssertionError(
                f"{g.name}.can_be_valid rejects {show(prefix)}, a prefix of the valid sample {show(sample)}"
            )


def check_sample_is_valid(fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None) -> None:
    """A sample is valid, and every consistency rule of ``check_robust`` holds on it."""
    g = Guard(fmt, schema, options)
    if not (g.call("is_valid", sample) is True):
        raise AssertionError(f"{g.name}.is_valid rejects its own sample {show(sample)}")
    check_robust(fmt, sample, schema, options)


def check_heal_unchanged(fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None) -> None:
    """Healing a valid sample returns it unchanged, with no repairs."""
    g = Guard(fmt, schema, options)
    healed = _heal(g, sample)
    if not (healed is not None):
        raise AssertionError(f"{g.name}.heal raised HealError on its valid sample {show(sample)}")
    if not (healed.text == sample):
        raise AssertionError(f"{g.name}.heal changed the valid sample {show(sample)} into {show(healed.text)}")
    if healed.repairs:
        raise AssertionError(
            f"{g.name}.heal listed repairs {[r.kind for r in healed.repairs]} on the valid sample {show(sample)}"
        )


def check_valid_document(
    fmt: Any, text: str, schema: Any = None, options: dict[str, Any] | None = None, limit: int = PREFIX_LIMIT
) -> None:
    """Everything a valid document must pass: valid, robust, streams one character at a
    time (strict and relaxed), ``can_be_valid`` on its prefixes, heals to itself."""
    check_sample_is_valid(fmt, text, schema, options)
    check_stream_prefixes(fmt, text, True, schema, options)
    check_stream_prefixes(fmt, text, False, schema, options)
    check_can_be_valid_prefixes(fmt, text, schema, options, limit)
    check_heal_unchanged(fmt, text, schema, options)


def check_locate_in_prose(
    fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None, whole_reply: bool | None = None
) -> None:
    """``locate`` finds the sample inside prose, a fence or after a ``<think>`` block:
    some span holds exactly the sample (white space around it aside).

    Otherwise a span covering the whole reply is accepted when the format locates the
    whole reply by design: declared with ``whole_reply=True``, or, with ``None`` (auto),
    when the whole reply is itself valid in the format (as with ``text``: returning the
    whole reply is sound only when it is a payload). ``whole_reply=False`` accepts only
    the sample's span.
    """
    g = Guard(fmt, schema, options)
    for label, reply in wrap_in_prose(sample, g.name):
        spans = g.call("locate", reply)
        if not (isinstance(spans, list)):
            raise AssertionError(f"{g.name}.locate returned {type(spans).__name__}, not list")
        check_spans(g, spans, len(reply), "locate", reply)
        texts = [reply[s[0] : s[1]] for s in spans]
        if any(t.strip() == sample.strip() for t in texts):
            continue
        if (0, len(reply)) in [tuple(s) for s in spans] and whole_reply is not False:
            if whole_reply or g.call("is_valid", reply):
                continue
        raise AssertionError(
            f"{g.name}.locate did not find the sample in the {label} reply {show(reply, 120)}; "
            f"its spans hold {[show(t) for t in texts]}"
        )


def check_copy_independent(fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None) -> None:
    """A copy of a checker and the original do not share state: feeding or finishing one
    does not change the other's answers."""
    g = Guard(fmt, schema, options)
    for cut in sorted({0, len(sample) // 3, len(sample) // 2, len(sample)}):
        head, rest = sample[:cut], sample[cut:]
        for strict in (True, False):
            original = g.stream(strict)
            for ch in head:
                g.step(original, "feed", sample, ch)
            clone = g.step(original, "copy", sample)
            if not (isinstance(clone, Checker)):
                raise AssertionError(f"{g.name} checker.copy() returned {type(clone).__name__}, not a Checker")
            if not (clone is not original):
                raise AssertionError(f"{g.name} checker.copy() returned the checker itself")
            # The clone goes astray and finishes; the original must not notice.
            g.step(clone, "feed", sample, "\x00}]>\x00 garbage ```")
            g.step(clone, "finish", sample)
            for i, ch in enumerate(rest):
                status = g.step(original, "feed", sample, ch)
                if not (status):
                    raise AssertionError(
                        f"{g.name} checker (strict={strict}) rejects the valid sample at offset {cut + i} after a copy "
                        f"taken at offset {cut} was fed garbage: the copy shares state with the original"
                    )
            second = g.step(original, "copy", sample)
            if not (g.step(original, "finish", sample)):
                raise AssertionError(
                    f"{g.name} checker (strict={strict}).finish() fails after a copy taken at offset {cut} was fed garbage"
                )
            # A copy taken before the original finished still finishes on its own.
            if not (g.step(second, "finish", sample)):
                raise AssertionError(
                    f"{g.name} checker (strict={strict}): a copy taken at the end of the sample fails at finish() "
                    "once the original has finished"
                )
