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
from typing import Iterator

from . import strings

Token = tuple  # (kind, start, end, fix)

_TOKEN = re.compile(
    r"""[ \t\n\r]*(?:
    # 1: a canonical string, followed by something that may follow a string
    ("[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"
        (?=[ \t]*(?:[,:}\]\n\r/]|\Z)|[ \t]+["']))
    # 2: punctuation
    |([{}\[\]:,])
    # 3: a canonical number
    |(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![\w.+\-]))
    # 4: any other string start: the slow path
    |(["'\u201c\u201d\u2018\u2019])
    # 5: something number-like that needs a fix (or cannot be fixed)
    |([-+]?\.?[0-9][\w.+\-]*|[-+](?![\w$.]))
    # 6: a bare word
    |([-+]?(?:[^\W\d]|\$)[\w$]*)
    # 7: a comment
    |(//[^\n]*|/\*[\s\S]*?(?:\*/|\Z))
    # 8: anything else (trailing white space is no token)
    |([^ \t\n\r])
    )""",
    re.VERBOSE | re.DOTALL,
)
_KINDS = (None, "s", "p", "n", "q", "N", "w", "c", "x")
_LONE_SURROGATE_HINT = re.compile(r"\\u[dD][89a-fA-F]")


def tokens(text: str) -> Iterator[Token]:
    """Yield the tokens of ``text`` lazily (a caller that fails early stops the scan)."""
    check_surrogates = _LONE_SURROGATE_HINT.search(text) is not None
    scanner = _TOKEN.scanner(text)
    match = scanner.match
    kinds = _KINDS
    while True:
        m = match()
        if m is None:
            return
        k = m.lastindex
        start, end = m.span(k)
        kind = kinds[k]
        if kind == "p":
            yield (text[start], start, end, None)
        elif kind == "s":
            if check_surrogates and strings.has_lone_surrogate(text, start, end):
                fix = strings.scan(text, start)
                yield ("s", start, fix.end, fix)
                if fix.end != end:
                    match = _TOKEN.scanner(text, fix.end).match
            else:
                yield ("s", start, end, None)
        elif kind == "q":
            fix = strings.scan(text, start)
            yield ("s", start, fix.end, fix)
            match = _TOKEN.scanner(text, fix.end).match
        else:
            yield (kind, start, end, None)
