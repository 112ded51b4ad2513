"""The data a vCard carries (ARCHITECTURE.md, extract_values): its human text — names
(FN, N, NICKNAME), organisation and title (ORG, TITLE, ROLE), notes, addresses (ADR but
its postal code, LABEL) and CATEGORIES — each value or field on its own, escapes decoded.
E-mail addresses, telephone numbers, dates, URLs and codes are left out.

Scopes are property names (``IN "NOTE"``): the values of every property of that name, in
every card. Everything here reads the text with the content-line layer (no vobject).
"""

from __future__ import annotations

from formatbook_core import ScopeNotFound

from .contentlines import ContentLine, read_line, split_unescaped, unescape_text, unfold

#: Properties whose values are counted, and how they are split into values.
_WHOLE = frozenset({"FN", "TITLE", "ROLE", "NOTE", "LABEL"})
_FIELDS = frozenset({"N", "ORG", "ADR", "GENDER"})
_LISTS = frozenset({"NICKNAME", "CATEGORIES"})
TEXT_PROPERTIES = _WHOLE | frozenset({"N", "ORG", "ADR"}) | _LISTS
_ADR_CODE = 5  # ADR fields: box, extended, street, locality, region, postal code, country


def _lines(text: str) -> list[ContentLine]:
    out = []
    for logical in unfold(text):
        parts = read_line(logical.text, groups=True)  # None: no content line, skipped
        if parts is not None:
            group, name, params, value = parts
            out.append(ContentLine(name, value, params, group))
    return out


def values_of(cl: ContentLine) -> list[str]:
    """The values one property carries, decoded, blank ones left out."""
    if cl.name in _FIELDS:
        parts: list[str] = []
        for i, field in enumerate(split_unescaped(cl.value, ";")):
            if cl.name == "ADR" and i == _ADR_CODE:
                continue
            parts += split_unescaped(field, ",") if cl.name != "ORG" else [field]
        raw = parts
    elif cl.name in _LISTS:
        raw = split_unescaped(cl.value, ",")
    else:
        raw = [cl.value]
    return [v for v in (unescape_text(r) for r in raw) if v.strip()]


def extract_values(text: str) -> list[str]:
    """The human text of every card, in document order (see the module doc)."""
    out: list[str] = []
    for cl in _lines(text):
        if cl.name in TEXT_PROPERTIES:
            out += values_of(cl)
    return out


def scope_name(scope: str) -> str | None:
    """The property name a scope names (``"note"`` → ``"NOTE"``), or ``None``."""
    name = scope.strip().upper()
    if name and all(c.isascii() and (c.isalnum() or c == "-") for c in name):
        return name
    return None


def extract_scope(text: str, scope: str) -> list[str]:
    """The values of every property named ``scope``; ``ScopeNotFound`` when there is none."""
    name = scope_name(scope)
    if name is None:
        raise ScopeNotFound(f"{scope!r} is not a vCard property name")
    found = [cl for cl in _lines(text) if cl.name == name]
    if not found:
        raise ScopeNotFound(f"the vCard has no {name} property")
    out: list[str] = []
    for cl in found:
        out += values_of(cl)
    return out
