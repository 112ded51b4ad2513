"""Healing text and attribute values: ``&`` and ``<`` written raw, HTML entities,
``]]>`` in text, characters XML does not allow.

``AT&T`` becomes ``AT&amp;T``; ``a < b`` becomes ``a &lt; b``; ``&nbsp;``, ``&eacute;``,
``&mdash;`` (HTML5's named references, which XML does not define) become their
characters; the five XML entities and character references stay as written.
"""

from __future__ import annotations

import html.entities
import re

from ..scan import BAD_CHAR, BAD_CHARS, is_xml_char
from .state import Healing

_REF = re.compile(r"&(?:#[0-9]{1,8};|#x[0-9a-fA-F]{1,8};|([A-Za-z][A-Za-z0-9]{0,40});)?")
_PREDEFINED = {"lt", "gt", "amp", "apos", "quot"}
_ESCAPE = {"<": "&lt;", "&": "&amp;", ">": "&gt;", '"': "&quot;"}
_SPECIAL = re.compile(f"[&\\]{BAD_CHARS}]")
_ATTR_SPECIAL = re.compile(f"[&<{BAD_CHARS}]")


def _char_ref_ok(ref: str) -> bool:
    body = ref[2:-1]
    value = int(body[1:], 16) if body.startswith("x") else int(body)
    return is_xml_char(value)


def fix_text(h: Healing, text: str, offset: int, *, attribute: str = "") -> str:
    """``text`` (found at ``offset`` of the payload) with its references and characters
    repaired; ``attribute`` is the quote of the value being fixed (``""`` for text)."""
    if (_ATTR_SPECIAL if attribute else _SPECIAL).search(text) is None:
        return text
    out: list[str] = []
    write_text(h, text, offset, out, attribute=attribute)
    return "".join(out)


def write_text(h: Healing, text: str, offset: int, out: list[str], *, attribute: str = "") -> None:
    """:func:`fix_text` appended to ``out`` piece by piece (a :class:`~formatbook_core.healing.Written`
    refuses the heal at the piece that takes it past ``max_size``, not after the text)."""
    find = _ATTR_SPECIAL.search if attribute else _SPECIAL.search
    pos = 0
    n = len(text)
    while pos < n:
        m = find(text, pos)
        if m is None:
            out.append(text[pos:])
            break
        i = m.start()
        out.append(text[pos:i])
        c = text[i]
        at = offset + i
        if c == "&":
            ref = _REF.match(text, i)
            assert ref is not None  # '&' alone matches
            whole = ref.group()
            name = ref.group(1)
            if len(whole) > 1 and name is None:
                if _char_ref_ok(whole):
                    out.append(whole)
                else:
                    h.repair("escaped_ampersand", f"escaped '&' of the invalid character reference {whole}", at, at + 1)
                    out.append("&amp;" + whole[1:])
                pos = i + len(whole)
                continue
            if name is not None and name in _PREDEFINED:
                out.append(whole)
                pos = i + len(whole)
                continue
            if name is not None and (name + ";") in html.entities.html5:
                char = html.entities.html5[name + ";"]
                h.repair(
                    "html_entity", f"replaced the HTML entity {whole} by the character it names", at, at + len(whole)
                )
                out.append("".join(_ESCAPE.get(ch, ch) for ch in char))
                pos = i + len(whole)
                continue
            h.repair("escaped_ampersand", "escaped a raw '&' as &amp;", at, at + 1)
            out.append("&amp;")
            pos = i + 1
        elif c == "<":
            h.repair("escaped_lt", "escaped a raw '<' in an attribute value as &lt;", at, at + 1)
            out.append("&lt;")
            pos = i + 1
        elif c == "]":
            if text.startswith("]]>", i):
                h.repair("escaped_cdata_end", "escaped ']]>' in text as ']]&gt;'", at, at + 3)
                out.append("]]&gt;")
                pos = i + 3
            else:
                out.append("]")
                pos = i + 1
        else:
            h.repair("invalid_char", f"removed U+{ord(c):04X}, a character XML does not allow", at, at + 1)
            pos = i + 1


def has_bad_char(text: str) -> bool:
    return BAD_CHAR.search(text) is not None
