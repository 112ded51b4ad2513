"""Fast paths for the stretches of a payload that are already strict JSON.

Most of a broken reply is fine. Where the structural pass expects members of an object
(or elements of an array), one regular expression takes every following ``"key": scalar,``
(or ``scalar,``) in a single call, so Python only sees the tokens around a problem. A run
holds only canonical strings, numbers and ``true``/``false``/``null`` — exactly what the
lexer would have accepted unchanged — so taking it whole changes no outcome.
"""

from __future__ import annotations

import re

_WS = r"[ \t\n\r]*+"
_STR = r'"[^"\\\x00-\x1f]*+(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+"'
_SCALAR = rf"(?>{_STR}|-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?(?![0-9.eE])|true|false|null)"


def _nest(inner: str) -> str:
    """A value: a scalar, or an array/object whose values match ``inner`` (atomic, so a
    failed match never backtracks into it)."""
    member = rf"{_STR}{_WS}:{_WS}{inner}"
    return (
        rf"(?>{_SCALAR}"
        rf"|\[{_WS}(?:{inner}(?:{_WS},{_WS}{inner})*+)?{_WS}\]"
        rf"|\{{{_WS}(?:{member}(?:{_WS},{_WS}{member})*+)?{_WS}\}})"
    )


# values nested up to two levels deep are taken in one match
_VALUE = _nest(_nest(_SCALAR))
_MEMBER = rf"{_WS}{_STR}{_WS}:{_WS}{_VALUE}"

#: group 1: members each followed by a comma; group 2: a last member before ``}``.
MEMBERS = re.compile(rf"((?:{_MEMBER}{_WS},)*+)({_MEMBER}(?={_WS}\}}))?")
#: group 1: elements each followed by a comma; group 2: a last element before ``]``.
ELEMENTS = re.compile(rf"((?:{_WS}{_VALUE}{_WS},)*+)({_WS}{_VALUE}(?={_WS}\]))?")
