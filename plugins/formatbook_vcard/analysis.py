"""Checking a whole text: the content-line grammar (:mod:`.contentlines`), the card rules
(:mod:`.cards`), then vobject reads it into components (the parsed value).

vobject is given only text whose every line the linear grammar accepted: its own line
regular expression backtracks exponentially on malformed parameters (a line such as
``A;B=,,,,…,!`` takes seconds for 25 commas), and its behaviours raise many kinds of
exception (base64 that does not decode, say). Any exception of it is a violation.

White space around the cards (``str.isspace``) is no part of the document: it is ignored,
as the locator strips it from a payload.
"""

from __future__ import annotations

from typing import Any

from formatbook_core import Analysis, Span, Violation
from formatbook_core.collector import paused_gc
from formatbook_core.verdicts import Verdicts

from .cards import CardRules
from .contentlines import (
    ContentLine,
    ContentLineError,
    Logical,
    parse,
    physical_lines,
    split_unescaped,
    unescape_text,
    unfold,
)

MAX_VIOLATIONS = 50


def core_span(text: str) -> Span:
    """``text`` without the white space around it."""
    start = len(text) - len(text.lstrip())  # str.strip strips what str.isspace holds
    return Span(start, max(start, len(text.rstrip())))


def source_offset(logical: Logical, column: int) -> int:
    """The offset in the source of ``column`` of the unfolded ``logical`` line."""
    left = column
    for i, (start, end) in enumerate(logical.pieces):
        skip = 0 if i == 0 else 1  # a continuation's leading white space is no text
        size = end - start - skip
        if left < size or i == len(logical.pieces) - 1:
            return min(start + skip + left, end)
        left -= size
    return logical.end


def violations(text: str, max_size: int) -> list[Violation]:
    """Every violation of the grammar and the card rules (at most ``MAX_VIOLATIONS``)."""
    return _scan(text, max_size)[0]


#: a card's lines holding a comma: (index among the card's properties of that name, line)
_Commas = list[list[tuple[int, ContentLine]]]


def _scan(text: str, max_size: int) -> tuple[list[Violation], _Commas]:
    """:func:`violations`, and each card's lines that hold a comma (what
    :func:`_restore_commas` needs: the text is read once)."""
    if len(text) > max_size:
        return [Violation("vcard.too_large", f"the text has {len(text):,} characters, more than {max_size:,}")], []
    start, end = core_span(text)
    body = text[start:end]
    lines = physical_lines(body)
    out: list[Violation] = []
    bad_breaks = [(s, e, b) for s, e, b in lines if b not in ("\r\n", "")]
    if bad_breaks:
        s0, e0, b0 = bad_breaks[0]
        out.append(
            Violation(
                "vcard.line_break",
                f"{len(bad_breaks)} line(s) end with {b0!r} instead of CRLF (RFC 6350 §3.2), the first at offset {start + e0}",
                span=Span(start + e0, start + e0 + len(b0)),
            )
        )
    rules = CardRules()
    commas: _Commas = []
    for logical in unfold(body, lines):
        span = Span(start + logical.start, start + logical.end)
        if not logical.text:
            out.append(rules._v("vcard.blank_line", "an empty line (no content line)", span))
            continue
        try:
            cl = parse(logical.text)
        except ContentLineError as err:
            at = start + source_offset(logical, err.column)
            what = "not a vCard" if not rules.begun else "not a content line"
            out.append(
                rules._v("vcard.syntax", f"{what}: {err} ({logical.text[:40]!r})", Span(at, min(at + 1, span.end)))
            )
        else:
            out.extend(rules.line(cl, span))
            if cl.name == "BEGIN":
                commas.append([])
            elif "," in logical.text and commas and cl.name != "END":
                # only a line with a comma can have lost a value (see _restore_commas)
                commas[-1].append((rules.counts[cl.name] - 1, cl))
        if len(out) >= MAX_VIOLATIONS:
            return out, commas
    out.extend(rules.finish(end))
    return out, commas


def read_components(text: str, commas: _Commas | None = None) -> tuple[Any, Violation | None]:
    """vobject's components of ``text`` (one, or a list of several), or why it fails.
    ``commas``: the lines :func:`_scan` found holding a comma (else found here)."""
    import vobject  # lazy: a heavy import only when a vCard is read

    try:
        components = list(vobject.readComponents(text, validate=False, transform=True))
        _restore_commas(_scan(text, len(text))[1] if commas is None else commas, components)
    except Exception as err:  # vobject raises many kinds; none may escape
        return None, Violation("vcard.unreadable", f"vobject cannot read the card: {type(err).__name__}: {err}")
    if not components:
        return None, Violation("vcard.unreadable", "vobject read no card")
    return (components[0] if len(components) == 1 else components), None


_URI_PROPERTIES = frozenset(
    "URL PHOTO LOGO SOUND KEY MEMBER RELATED SOURCE IMPP FBURL CALURI CALADRURI UID TEL GEO".split()
)
_LIST_PROPERTIES = frozenset({"NICKNAME"})


def _scheme(value: str) -> bool:
    head, sep, _ = value.partition(":")
    return bool(sep) and head[:1].isalpha() and all(c.isalnum() or c in "+-." for c in head)


def _restore_commas(commas: _Commas, components: list[Any]) -> None:
    """vobject's default text behaviour keeps only the first comma-separated value of a
    property it has no behaviour for (``URL:https://x.org/a,b`` becomes
    ``https://x.org/a``; a ``data:`` PHOTO loses its data). Such values are set back from
    the text: a URI as written, a NICKNAME as its list of values, other text unescaped."""
    from vobject.vcard import VCardTextBehavior  # lazy, as every vobject import

    for component, with_comma in zip(components, commas, strict=False):
        for index, cl in with_comma:
            name = cl.name
            children = component.contents.get(name.lower(), [])
            if index < len(children):
                child = children[index]
                behavior = getattr(child, "behavior", None)
                if not (isinstance(behavior, type) and issubclass(behavior, VCardTextBehavior)):
                    continue
                if len(split_unescaped(cl.value, ",")) < 2 or cl.param("ENCODING"):
                    continue
                value_type = cl.param("VALUE")
                if name in _URI_PROPERTIES or (value_type and value_type[0].lower() == "uri") or _scheme(cl.value):
                    child.value = cl.value
                elif name in _LIST_PROPERTIES:
                    child.value = [unescape_text(v) for v in split_unescaped(cl.value, ",")]
                else:
                    child.value = unescape_text(cl.value)


def analyze(text: str, max_size: int) -> Analysis:
    """The parsed value (a vobject component, or a list for several cards) and the
    violations (empty when valid)."""
    if not isinstance(text, str):
        return Analysis(None, (Violation("vcard.syntax", f"not text: {type(text).__name__}"),))
    with paused_gc():  # one object or more per line, none in a cycle (see paused_gc)
        found, commas = _scan(text, max_size)
        if found:
            analysis = Analysis(None, tuple(found))
        else:
            start, end = core_span(text)
            value, problem = read_components(text[start:end], commas)
            analysis = Analysis(None, (problem,)) if problem is not None else Analysis(value)
    _VERDICTS.put(text, analysis.violations, max_size)
    return analysis


#: the verdicts on the last texts analysed, by text and ``max_size`` (see formatbook_core.verdicts)
_VERDICTS: Verdicts[tuple[Violation, ...]] = Verdicts()


def verdict(text: str, max_size: int) -> tuple[Violation, ...]:
    """:func:`analyze`'s violations on ``text``, without its value. The verbs that need
    no value (``is_valid``, ``validate``, ``heal`` of a valid text, a checker's
    ``finish``) ask about the same text in a row: the last texts' verdicts are kept (only
    violations, which are immutable: every value ``analyze`` returns is read anew), for
    that string object."""
    known = _VERDICTS.get(text, max_size)
    return analyze(text, max_size).violations if known is None else known
