"""The human text an iCalendar payload carries (DESIGN.md, extract_values): the values
of the text properties in document order, unescaped — ``SUMMARY``, ``DESCRIPTION``,
``LOCATION``, ``COMMENT``, ``CONTACT``, each item of ``CATEGORIES`` and ``RESOURCES`` —
and the names (``CN``) of attendees and organisers. Dates, codes (``STATUS``, ``UID``),
property names and ``X-`` properties are structure, not text. Scopes are property names
(``IN "DESCRIPTION"``; ``IN "ATTENDEE"`` gives the attendees' names).
"""

from __future__ import annotations

from formatbook_core import ScopeNotFound
from formatbook_core.contentlines import unescape_text

from .contentlines import ContentLine, LineError, split, unfold
from .rules import TEXT_LISTS, split_text_list
from .tree import is_token

#: Properties whose values are counted.
TEXT_PROPERTIES = ("SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT", "CATEGORIES", "RESOURCES")
#: Properties whose ``CN`` parameter (a person's name) is counted.
NAMED = ("ATTENDEE", "ORGANIZER")
_COUNTED = frozenset(TEXT_PROPERTIES) | frozenset(NAMED)


def line_values(line: ContentLine) -> list[str]:
    """The counted values of one content line (none for other properties)."""
    name = line.name
    if name in NAMED:
        cn = line.param("CN")
        return [cn] if cn and cn.strip() else []
    if name not in _COUNTED:
        return []
    items = split_text_list(line.value) if name in TEXT_LISTS else [line.value]
    out = []
    for item in items:
        text = unescape_text(item)
        if text.strip():
            out.append(text)
    return out


def _lines(text: str) -> list[ContentLine]:
    out = []
    for ll in unfold(text):
        parsed = split(ll.text)
        if not isinstance(parsed, LineError):
            out.append(parsed)
    return out


def extract_values(text: str) -> list[str]:
    """The counted values of ``text``, in document order."""
    out: list[str] = []
    for line in _lines(text):
        if line.name in _COUNTED:
            out.extend(line_values(line))
    return out


def extract_scope(text: str, scope: str) -> list[str]:
    """The values of the property named ``scope`` (any case); raises ``ScopeNotFound``
    when the text has no such property."""
    wanted = scope.strip().upper()
    found = False
    out: list[str] = []
    for line in _lines(text):
        if line.name == wanted:
            found = True
            if line.name in _COUNTED:
                out.extend(line_values(line))
            else:
                out.append(line.value) if line.value.strip() else None
    if not found:
        raise ScopeNotFound(f"the calendar has no {wanted} property")
    return out


def scope_problem(scope: str) -> str | None:
    """Why ``scope`` can never name a property, or ``None``."""
    name = scope.strip()
    if not is_token(name):
        return f'an iCalendar scope is a property name such as "DESCRIPTION", not {scope!r}'
    return None
