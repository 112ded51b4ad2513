"""Healing a start tag: attribute values without quotes, values holding ``<`` or a raw
``&``, attributes written without white space between them.

``<item id=3 name=x>`` becomes ``<item id="3" name="x">``. An attribute without a value
(``<input disabled>``) or written twice cannot be repaired without guessing: ``HealError``.
A tag needing no repair is kept exactly as written.
"""

from __future__ import annotations

from ..scan import NAME_RUN, NAME_START
from .state import Healing, fail
from .text import fix_text

_WS = " \t\r\n"


def fix_start_tag(h: Healing, tag: str, offset: int) -> str:
    """The start (or empty-element) tag ``tag``, found at ``offset``, repaired."""
    before = len(h.repairs)
    n = len(tag)
    name = NAME_RUN.match(tag, 1).group()
    out = [tag[: 1 + len(name)]]
    pos = 1 + len(name)
    seen: set[str] = set()
    close = ">"
    body_end = n - 1
    if tag.endswith("/>"):
        close = "/>"
        body_end = n - 2
    spaced = True
    while pos < body_end:
        ws = pos
        while pos < body_end and tag[pos] in _WS:
            pos += 1
        if pos > ws:
            out.append(tag[ws:pos])
            spaced = True
        if pos >= body_end:
            break
        if not NAME_START.match(tag[pos]):
            raise fail(f"unexpected {tag[pos]!r} in the tag <{name}>", start=offset + pos, end=offset + pos + 1)
        attr = NAME_RUN.match(tag, pos).group()
        if not spaced:
            h.repair("attribute_space", f"put a space before the attribute {attr!r}", offset + pos, offset + pos)
            out.append(" ")
        if attr in seen:
            raise fail(
                f"the attribute {attr!r} is written twice in <{name}>", start=offset + pos, end=offset + pos + len(attr)
            )
        seen.add(attr)
        out.append(attr)
        pos += len(attr)
        eq = pos
        while eq < body_end and tag[eq] in _WS:
            eq += 1
        if eq >= body_end or tag[eq] != "=":
            raise fail(
                f"the attribute {attr!r} of <{name}> has no value (which one was meant cannot be told)",
                start=offset + pos - len(attr),
                end=offset + pos,
            )
        q = eq + 1
        while q < body_end and tag[q] in _WS:
            q += 1
        out.append(tag[pos:q])
        if q < body_end and tag[q] in "\"'":
            quote = tag[q]
            end = tag.find(quote, q + 1)
            if end < 0 or end >= body_end:
                raise fail(f"the value of {attr!r} in <{name}> is not closed", start=offset + q, end=offset + q + 1)
            value = tag[q + 1 : end]
            out.append(quote + fix_text(h, value, offset + q + 1, attribute=quote) + quote)
            pos = end + 1
        else:
            end = q
            while end < body_end and tag[end] not in _WS:
                end += 1
            value = tag[q:end]
            if not value:
                raise fail(f"the attribute {attr!r} of <{name}> has no value", start=offset + q, end=offset + q)
            quote = "'" if '"' in value and "'" not in value else '"'
            fixed = fix_text(h, value, offset + q, attribute=quote)
            if quote == '"':
                fixed = fixed.replace('"', "&quot;")
            h.repair("unquoted_attribute", f"put quotes around the value of {attr!r}", offset + q, offset + end)
            out.append(quote + fixed + quote)
            pos = end
        spaced = False
    out.append(close)
    if len(h.repairs) == before:
        return tag
    return "".join(out)
