"""Prompt guidance: the expectations said as instructions a model acts on.

``guidance`` joins what the format says about itself, one sentence per count (pages and
lines said in characters, a JSON pointer scope as a field name) and each instruction's own
words. Nothing here checks a reply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .expectations import Count, Expectations, amount_of, as_expectations
from .pointers import is_index, parse_pointer
from .results import ScopeNotFound


def guidance(expectations: Expectations | str | None = None) -> str:
    """Prompt instructions that ask for what ``expectations`` describe."""
    exp = as_expectations(expectations)
    parts: list[str] = []
    fmt = exp.fmt
    if fmt is not None:
        text = fmt.guidance(exp.loaded_schema, **exp.options)
        if text:
            parts.append(text.strip())
    for count in exp.counts:
        parts.append(count_guidance(count, fmt))
    for instruction in exp.instructions:
        parts.append(instruction.guidance())
    return "\n".join(parts)


def count_guidance(count: Count, fmt: Any) -> str:
    """One count as an instruction a model acts on: ``Write at most 40 words in the
    section "Short answer".``, with pages and lines said in characters."""
    where = f" in {scope_words(count.scope, fmt)}" if count.scope is not None else ""
    if count.per is not None:
        where = f" in each value{where}"
    # counts run on the values a format carries, so say so when there is syntax around them
    structured = fmt is not None and fmt.structured
    about = " (count only the values, not the syntax)" if structured and not where else ""
    noun = count.noun
    if count.arg is not None and count.upper == 0 and not count.lower:
        return f"Do not use {noun} at all{where}{about}."
    if count.arg is not None:  # a literal or a unit with an argument: say it as counted
        noun = f"occurrences of {noun}" if noun.startswith('"') else noun
        amounts = [count.exactly] if count.exactly is not None else [count.min, count.max]
        limit = (
            f"exactly {count.exactly}"
            if count.exactly is not None
            else f"between {count.min} and {count.max}"
            if None not in amounts
            else f"at most {count.max}"
            if count.max is not None
            else f"at least {count.min}"
        )
        return f"Use {limit} {noun}{where}{about}."
    if count.exactly is not None:
        limit = f"exactly {amount_of(count.exactly, noun)}"
    elif count.min is not None and count.max is not None:
        limit = f"between {count.min} and {amount_of(count.max, noun)}"
    elif count.max is not None:
        limit = f"at most {amount_of(count.max, noun)}"
    else:
        limit = f"at least {amount_of(count.min, noun)}"
    return f"Write {limit}{_hint(count)}{where}{about}.{_unit_words(count)}"


def _hint(count: Count) -> str:
    """What a unit means, in a few words a model acts on (a unit's optional ``hint``)."""
    from .registry import default_registry  # noqa: PLC0415

    try:
        hint = default_registry().unit(count.unit).hint
    except Exception:  # a registry that cannot load: the count says enough
        return ""
    return f" ({hint})" if isinstance(hint, str) and hint else ""


def scope_words(scope: str, fmt: Any) -> str:
    """An ``IN "..."`` scope in words: a JSON pointer as a field name (``/items/0/title``
    is ``the field items[0].title``), another scope by its kind (``the section "Reasoning"``)."""
    kind = fmt.scope_kind
    tokens = _pointer_tokens(scope) if kind == "JSON pointer" else None
    if tokens is not None and tokens in ((), ("",)):
        return "the whole value" if not tokens else 'the field "" (the empty key)'
    if tokens is not None:
        return f'the field "{field_name([int(t) if is_index(t) else t for t in tokens])}"'
    if isinstance(kind, str) and kind:
        noun = kind[: -len(" name")] if kind.endswith(" name") else kind
        return f'the {noun} "{scope}"'
    return f'"{scope}"'


def _pointer_tokens(scope: str) -> tuple[str, ...] | None:
    try:
        return parse_pointer(scope)
    except ScopeNotFound:
        return None


def field_name(path: Sequence[str | int]) -> str:
    """A path into a parsed value as a model reads a field name: ``address.zip``,
    ``items[2].sku`` (the top level is ``(the whole value)``)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(the whole value)"


def _unit_words(count: Count) -> str:
    """Pages and lines in terms a model can aim at (it cannot see a page)."""
    if count.unit not in ("pages", "lines"):
        return ""
    from .counting import LINE_WIDTH, LINES_PER_PAGE  # noqa: PLC0415 - counting (and regex) only when asked

    if count.unit == "lines":
        return f" A line holds up to {LINE_WIDTH} characters; a longer one counts as several."
    n = count.upper if count.upper is not None else (count.min or 0)
    lines = n * LINES_PER_PAGE
    return (
        f" A page is {LINES_PER_PAGE} lines of up to {LINE_WIDTH} characters, so {amount_of(n, 'pages')} is"
        f" {lines:,} lines, about {lines * LINE_WIDTH:,} characters or {lines * LINE_WIDTH // 6:,} words."
    )
