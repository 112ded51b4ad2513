"""The strict parser's part in healing: what cannot be healed is refused, strict JSON is
parsed once and needs no repair, and a repaired text must parse strictly."""

from __future__ import annotations

import re

import orjson

from formatbook_core import Analysis, Reply, Span, Violation
from formatbook_core.limits import refuse_grown

from ..syntax import JsonSyntaxError, parse_strict, to_violation, unpadded
from .lexer import tokens
from .state import Healing, refused

_UNHEALABLE = ("json.too_deep", "json.too_large")
# what orjson says when one complete value is followed by more text
_AFTER_DOCUMENT = "unexpected content after document"


#: The longest payload healed unless ``max_size`` says otherwise (characters). Healing a
#: badly broken payload lists one repair per token: its peak memory reaches about 400
#: bytes per character (a run of stray commas, measured with tracemalloc; 100–200 for
#: the usual damage), so the default limit keeps it under 800 MB at worst. Strict JSON up
#: to ``max_size`` is checked without healing.
HEAL_MAX_SIZE = 1 << 21


def refuse(h: Healing) -> None:
    """Refuse what is not text, or is longer than ``max_size`` characters."""
    text = h.text
    if not isinstance(text, str):
        raise refused(Violation("json.not_text", "the reply is not text"))
    if len(text) > h.limits.max_size:
        raise refused(_too_large(len(text), h.limits.max_size, ""))


def refuse_long(h: Healing) -> None:
    """Refuse to repair text longer than :data:`HEAL_MAX_SIZE` when the caller did not
    give ``max_size`` (``h.heal_limit``), saying why."""
    limit = h.heal_limit
    if limit is not None and len(h.text) > limit:
        why = " (healing takes up to about 400 bytes of memory per character; pass max_size to heal longer text)"
        raise refused(_too_large(len(h.text), limit, why))


#: what an analysis says of a text that is not strict JSON (and may heal)
_BROKEN = ("json.syntax", "json.empty")


def not_strict(analysis: Analysis) -> bool:
    """Whether ``analysis`` (``JsonFormat.analyze``'s) found its text is not strict JSON."""
    return analysis.value is None and bool(analysis.violations) and analysis.violations[0].code in _BROKEN


def refuse_notes(h: Healing) -> None:
    """Refuse a payload with a think block inside it (``<think>…</think>`` between its
    brackets: the container that opens a reply is read across think blocks, as a stream
    reads it, formatbook_json.commitment): whether it belongs to a string or is a note
    cannot be told, and dropping either reading's text could give the wrong data."""
    if "<" not in h.text:  # every think tag opens with one (a search in C, before any Reply)
        return
    from ..format import JsonFormat  # noqa: PLC0415 - the format imports this module

    found = JsonFormat.prepare(h.text).note_inside(JsonFormat.name)
    if found is not None:
        raise refused(found)


_LINE_END = re.compile(r"[\n\r]")


def refuse_fence(h: Healing) -> None:
    """Refuse a payload with a fence line (```` ``` ````, ``~~~``) between its tokens: the
    container went on after the fence (:mod:`formatbook_json.locate` reads it across
    then), so the part before the fence is not the whole payload, and what the fence
    holds may be a note or part of the data. A fence line inside a string is text of
    the string (the string is healed whole)."""
    if "`" not in h.text and "~" not in h.text:  # no fence line (a search in C, before any Reply)
        return
    text = Reply.of(h.text)
    marks = [at for at in text.fence_marks if text.line_of(at) > 0]  # the first line opens the payload
    if not marks:
        return
    at = set(marks)
    for token in tokens(text):  # a token starting at a mark is outside strings and comments
        start = token[1]
        if start in at:
            found = _LINE_END.search(text, start)
            line_end = found.start() if found is not None else len(text)
            raise refused(
                Violation(
                    "json.fence_inside",
                    "a fence line inside the JSON payload, and the payload goes on after it: the part "
                    "before the fence is not the whole payload; write the JSON without fence lines inside it",
                    span=Span(start, line_end),
                )
            )


def _too_large(length: int, limit: int, why: str) -> Violation:
    return Violation(
        "json.too_large",
        f"the text has {length:,} characters, more than the {limit:,} healing takes{why}",
        span=Span(0, length),
        keyword="max_size",
        expected=limit,
    )


def parse_if_strict(h: Healing) -> None:
    """Parse strict JSON (then no syntax step runs); on text after one complete value,
    note where the value ends (``done_at``). Too deep or too large: refused."""
    text = h.text
    max_size, max_depth = h.limits
    body, lead = unpadded(text)
    try:
        # orjson first: parse_strict explains an error precisely, which heal does not need
        orjson.loads(body)
    except ValueError as first:
        # orjson stops at text after a complete value (surplus brackets, prose): the
        # value before it is strict JSON, so the syntax walk starts after it
        if getattr(first, "msg", None) == _AFTER_DOCUMENT:
            pos = getattr(first, "pos", None)
            if isinstance(pos, int) and 0 < pos < len(body):
                h.done_at = pos + lead
            return  # orjson read the whole value before it: no value it cannot represent
        # what orjson says about valid JSON it cannot represent (a number beyond a double,
        # nesting beyond its own limit, a raw lone surrogate): parse_strict's exact path
        # then decides (three tests inline: a generator over them cost 0.7 us a heal)
        said = str(first)
        if not ("number" in said or "depth" in said or "surrogates" in said):
            return
        # valid JSON orjson cannot represent may follow (parse_strict's exact path)
    try:
        h.parsed = parse_strict(text, max_depth=max_depth, max_size=max_size)
        h.parsed_text = text
    except JsonSyntaxError as err:
        if err.code in _UNHEALABLE:
            raise refused(to_violation(err, len(text))) from None
        return
    h.strict = True


def confirm(h: Healing) -> None:
    """Parse the repaired text strictly; a text the repairs left broken is refused, and
    so, before it is read, is one grown past ``max_size`` (the core's verdict)."""
    max_size, max_depth = h.limits
    refuse_grown(len(h.text), max_size)
    try:
        h.parsed = parse_strict(h.text, max_depth=max_depth, max_size=max_size)
        h.parsed_text = h.text
    except JsonSyntaxError as err:
        v = to_violation(err, len(h.text))
        raise refused(Violation(v.code, v.message)) from None
    h.strict = True
