"""The relaxed JSON lexer: splits a payload into tokens without judging their order.

Tokens are plain tuples ``(kind, start, end, fix)`` for speed:

- kind ``"{" "}" "[" "]" ":" ","`` — punctuation;
- ``"s"`` a string, ``"n"`` a canonical number, ``"N"`` a number needing a fix,
  ``"w"`` a bare word (``true``, ``None``, ``NaN``, an unquoted key...), ``"c"`` a comment,
  ``"x"`` a character that starts nothing JSON knows.

``fix`` is ``None`` for a string already canonical, else a :class:`strings.StringFix`
(its canonical text, the repairs it needs, whether the reply was cut inside it).

The common case — a canonical string, number or punctuation — is matched by one compiled
regular expression without leaving C; only unusual strings go through the slow path in
:mod:`.strings`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import strings

Token = tuple  # (kind, start, end, fix)

_TOKEN = re.compile(
    r"""[ \t\n\r]*(?:
    # 1: a canonical string, followed by something that may follow a string
    ("[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"
        (?=[ \t]*(?:[,:}\]\n\r/]|\Z)|[ \t]+["']))
    # 2: a single- or smart-quoted string with nothing inside to escape
    |((?:'[^'"\\\x00-\x1f]*'|\u201c[^\u201c\u201d"\\\x00-\x1f]*\u201d)
        (?=[ \t]*(?:[,:}\]\n\r/]|\Z)|[ \t]+["']))
    # 3: punctuation
    |([{}\[\]:,])
    # 4: a canonical number
    |(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![\w.+\-]))
    # 5: any other string start: the slow path
    |(["'\u201c\u201d\u2018\u2019])
    # 6: something number-like that needs a fix (or cannot be fixed)
    |([-+]?\.?[0-9][\w.+\-]*|[-+](?![\w$.]))
    # 7: a bare word
    |([-+]?(?:[^\W\d]|\$)[\w$]*)
    # 8: a comment
    |(//[^\n]*|/\*[\s\S]*?(?:\*/|\Z))
    # 9: anything else (trailing white space is no token)
    |([^ \t\n\r])
    )""",
    re.VERBOSE | re.DOTALL,
)
_KINDS = (None, "s", "S", "p", "n", "q", "N", "w", "c", "x")
# An unpaired surrogate escape (a high one not followed by a low one, or a low one alone);
# only then must canonical-looking strings be looked at closely.
_LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


def has_lone_surrogates(text: str) -> bool:
    """Whether ``text`` may hold an unpaired surrogate escape (then the fast paths that
    take canonical strings on trust must not be used)."""
    # fast C scans settle most texts: no backslash at all (one character: the cheapest
    # search), or no "\\ud" / "\\uD"
    if "\\" not in text or (text.find("\\ud") < 0 and text.find("\\uD") < 0):
        return False
    return _LONE_SURROGATE.search(text) is not None


class Lexer:
    """Reads one token at any offset: ``token_at(pos)`` gives ``(kind, start, end, fix)``
    of the token at or after ``pos`` (white space skipped), or ``None`` at the end."""

    __slots__ = ("text", "careful", "_match")

    def __init__(self, text: str):
        self.text = text
        self.careful = has_lone_surrogates(text)
        self._match = _TOKEN.match

    def token_at(self, pos: int, in_tuple: bool = False):
        """The token at or after ``pos``; ``in_tuple``: the innermost open container is a
        Python tuple, whose ``)`` may close a string (the canonical patterns do not allow
        it after a string, so such a string takes the slow path)."""
        text = self.text
        m = self._match(text, pos)
        if m is None:
            return None
        k = m.lastindex
        assert k is not None  # every alternative of the token pattern is a group
        start, end = m.span(k)
        if k == 3:
            return (text[start], start, end, None)
        if k == 1:
            if self.careful and strings.has_lone_surrogate(text, start, end):
                fix = strings.scan(text, start)
                return ("s", start, fix.end, fix)
            return ("s", start, end, None)
        if k == 2:
            return ("s", start, end, strings.simple(text, start, end))
        if k == 5:
            fix = strings.scan(text, start, in_tuple)
            return ("s", start, fix.end, fix)
        return (_KINDS[k], start, end, None)


def tokens(text: str) -> Iterator[Token]:
    """Every token of ``text``, in order (lazily)."""
    lexer = Lexer(text)
    pos = 0
    while True:
        tok = lexer.token_at(pos)
        if tok is None:
            return
        yield tok
        pos = tok[2]
