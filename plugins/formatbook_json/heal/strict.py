"""The strict parser's part in healing: what cannot be healed is refused, strict JSON is
parsed once and needs no repair, and a repaired text must parse strictly."""

from __future__ import annotations

import orjson

from formatbook_core import Span, Violation

from ..syntax import JsonSyntaxError, parse_strict, to_violation
from .state import Healing, refused

_UNHEALABLE = ("json.too_deep", "json.too_large")
# what orjson says when one complete value is followed by more text
_AFTER_DOCUMENT = "unexpected content after document"


def refuse(h: Healing) -> None:
    """Refuse what is not text, or is longer than ``max_size`` characters."""
    text = h.text
    if not isinstance(text, str):
        raise refused(Violation("json.not_text", "the reply is not text"))
    if len(text) > h.limits.max_size:
        raise refused(
            Violation(
                "json.too_large", f"the text is longer than {h.limits.max_size} characters", span=Span(0, len(text))
            )
        )


def parse_if_strict(h: Healing) -> None:
    """Parse strict JSON (then no syntax step runs); on text after one complete value,
    note where the value ends (``done_at``). Too deep or too large: refused."""
    text = h.text
    max_size, max_depth = h.limits
    try:
        # orjson first: parse_strict explains an error precisely, which heal does not need
        orjson.loads(text)
        h.parsed = parse_strict(text, max_depth=max_depth, max_size=max_size)
    except (JsonSyntaxError, ValueError) as first:
        if isinstance(first, JsonSyntaxError) and first.code in _UNHEALABLE:
            raise refused(to_violation(first, len(text))) from None
        # orjson stops at text after a complete value (surplus brackets, prose): the
        # value before it is strict JSON, so the syntax walk starts after it
        if getattr(first, "msg", None) == _AFTER_DOCUMENT:
            pos = getattr(first, "pos", None)
            if isinstance(pos, int) and 0 < pos < len(text):
                h.done_at = pos
        return
    h.strict = True


def confirm(h: Healing) -> None:
    """Parse the repaired text strictly; a text the repairs left broken is refused."""
    max_size, max_depth = h.limits
    try:
        h.parsed = parse_strict(h.text, max_depth=max_depth, max_size=max_size)
    except JsonSyntaxError as err:
        v = to_violation(err, len(h.text))
        raise refused(Violation(v.code, v.message)) from None
    h.strict = True
