"""Repairs of strings: quote style, raw control characters, inner quotes, bad escapes,
lone surrogates and strings cut off by the end of the reply.

:func:`scan` reads one string starting at a quote character and returns its canonical
JSON text. Escaped surrogate pairs (``"\\ud83d\\ude80"``) are kept as written, so they
stay one character. A string that never closes, read across an inner quote with a JSON
value after it, is refused (``json.unclosed_string``): that quote may close it.
"""

from __future__ import annotations

import re

from formatbook_core import HealError, Span, Violation

# The quote that closes each opening quote.
_CLOSERS = {'"': '"', "'": "'", "\u201c": "\u201d\u201c", "\u201d": "\u201d", "\u2018": "\u2019", "\u2019": "\u2019"}
_CANDIDATE = {q: re.compile(rf"[^{c}\\]*(?:\\.[^{c}\\]*)*[{c}]", re.DOTALL) for q, c in _CLOSERS.items()}
# What may follow the closing quote of a string; anything else means the quote was an
# unescaped inner quote ("He said "hi" to me").
_FOLLOW = re.compile(r"[ \t]*(?:[,:}\]\n\r]|//|/\*|\Z)|[ \t]+[\"'\u201c\u2018]")
# In a Python tuple (healed as an array), its ")" may follow a string too, when what follows
# that ")" may follow a container: ("a", "b") ends there, ("a (see "b")", "c") does not.
_TUPLE_FOLLOW = re.compile(r"[ \t]*\)(?=[ \t]*(?:[,}\])\n\r]|\Z))")
_TUPLE_CLOSE = re.compile(r"[ \t]*\)").match
_PIECE = re.compile(
    r"""\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}   # a surrogate pair: kept
    |\\u[dD][89a-fA-F][0-9a-fA-F]{2}                                # a lone surrogate
    |\\u[0-9a-fA-F]{4}|\\["\\/bfnrt]                                # valid escapes
    |\\(.)                                                          # 1: an invalid escape
    |(")                                                            # 2: a bare double quote
    |([\x00-\x1f])                                                  # 3: a raw control character
    """,
    re.VERBOSE | re.DOTALL,
)
# After a quote: blanks and the start of a JSON value (a number, a container, a literal).
_VALUE_AFTER = re.compile(r"[ \t]*(?:[-0-9{\[]|(?:true|false|null)(?![\w$]))").match
_COLON_AFTER = re.compile(r"[ \t]*:").match
# Inside a string that never closes: a quote and a colon, the end of a key.
_KEY_END = re.compile("[\"'\u201c\u201d\u2018\u2019][ \t]*:").search
_CUT_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{0,3}|u[dD][89abAB][0-9a-fA-F]{2})?\Z")
_LONE = re.compile(r"(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_KEPT_ESCAPES = "\"\\'"  # what a backslash means even in a string whose backslashes are literal
# A backslash starting no escape JSON knows (\' excepted: the apostrophe meant), or \u
# without its four hex digits.
_INVALID_ESCAPE = re.compile(r"\\(?:[^\"\\/bfnrtu']|u(?![0-9a-fA-F]{4}))").search
_SHORT_ESCAPES = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}

MESSAGES = {
    "single_quotes": "replaced single quotes around a string with double quotes",
    "smart_quotes": "replaced typographic quotes around a string with double quotes",
    "control_character": "escaped a raw newline or control character inside a string",
    "inner_quote": "escaped a double quote inside a string",
    "invalid_escape": "kept the backslashes of a string where one started no valid escape as literal backslashes",
    "escaped_apostrophe": "replaced \\' (no JSON escape) with the apostrophe it meant",
    "lone_surrogate": "replaced an unpaired surrogate escape with U+FFFD",
    "truncated_string": "closed a string cut off by the end of the reply",
}


class StringFix:
    """The outcome of reading one string: where it ends, its canonical JSON text and the
    repair kinds it needed (empty when it was already canonical)."""

    __slots__ = ("end", "text", "kinds", "cut")

    def __init__(self, end: int, text: str, kinds: tuple[str, ...], cut: bool = False):
        self.end = end
        self.text = text
        self.kinds = kinds
        self.cut = cut


_SINGLE = ("single_quotes",)
_SMART = ("smart_quotes",)


def simple(text: str, start: int, end: int) -> StringFix:
    """A single- or smart-quoted string with nothing inside to escape (the lexer matched
    it whole): only its quotes change."""
    kinds = _SINGLE if text[start] == "'" else _SMART
    return StringFix(end, '"' + text[start + 1 : end - 1] + '"', kinds)


def has_lone_surrogate(text: str, start: int, end: int) -> bool:
    """Whether the canonical string ``text[start:end]`` holds an unpaired surrogate escape."""
    body = text[start:end]
    if "\\u" not in body:
        return False
    for m in _PIECE.finditer(body):
        g = m.group(0)
        if len(g) == 6 and g[2] in "dD" and g[3] in "89abcdefABCDEF":
            return True
    return False


def scan(text: str, start: int, in_tuple: bool = False) -> StringFix:
    """Read the string whose opening quote is at ``text[start]``; ``in_tuple``: the
    innermost open container is a Python tuple, whose ``)`` may follow the string."""
    quote = text[start]
    finder = _CANDIDATE[quote]
    follow = _follow_in_tuple if in_tuple else _FOLLOW.match
    pos = start + 1
    doubt: int | None = None  # an inner quote a JSON value follows: it may close the string
    while True:
        m = finder.match(text, pos)
        if m is None:  # no closing quote: the reply was cut inside this string
            if doubt is not None:
                raise _two_readings(start, doubt)
            _not_cut_here(text, start)
            return _canonical(text[start + 1 :], quote, len(text), inner=pos > start + 1, cut=True)
        close = m.end()
        if follow(text, close):
            if doubt is not None and _COLON_AFTER(text, close):
                raise _key_across(start, doubt)
            return _canonical(text[start + 1 : close - 1], quote, close, inner=pos > start + 1, cut=False)
        if doubt is None and (_VALUE_AFTER(text, close) or _TUPLE_CLOSE(text, close)):
            # a ")" after it, a tuple's or a typo for "]" (["a", "b").): the quote may close
            # the string too, and reading on to the end of the reply would keep '")' in it
            doubt = close - 1
        pos = close  # an inner quote: keep reading


def _follow_in_tuple(text: str, pos: int) -> bool:
    """What may follow a string's closing quote inside a Python tuple (see _TUPLE_FOLLOW)."""
    return _FOLLOW.match(text, pos) is not None or _TUPLE_FOLLOW.match(text, pos) is not None


def _not_cut_here(text: str, start: int) -> None:
    """Refuse to read the string at ``start`` as cut off by the end of the reply when the
    text says the reply was not cut there: a healer may treat text as cut off only where
    the reply ends, and here the document visibly goes on inside the string. Two signs:
    the text ends with a closing bracket (``{"key:value}``: a quote is missing, and the
    cut reading would drop the member, ``{}``), or a quote followed by a colon ends a key
    inside it (``{"name": "Ada", ’age": 36}``: a smart quote opened the key ``age``, and
    the cut reading would drop it). Either reading could give the wrong data."""
    tail = text.rstrip()
    if len(tail) > start + 1 and tail[-1] in "}]":
        message = (
            "a string that never closes runs to a closing bracket at the end of the reply: "
            "a quote is missing (the reply was not cut inside the string)"
        )
        raise HealError(
            message + f" at offset {start}",
            [Violation("json.unclosed_string", message, span=Span(start, len(tail)))],
        )
    key = _KEY_END(text, start + 1)
    if key is not None:
        message = (
            "a string that never closes holds the end of a key (a quote and a colon): "
            "its opening quote may be a typo for a key's, or the reply was cut inside it"
        )
        raise HealError(
            message + f" at offset {start}",
            [Violation("json.unclosed_string", message, span=Span(start, key.end()))],
        )


def _key_across(start: int, quote: int) -> HealError:
    """A key read across an inner quote a JSON value follows (``{"a" 1, "b": 2}`` read as
    the key ``a" 1, "b``): that quote most likely ends the key, a colon missing after it,
    but a key may hold quotes; either reading could give the wrong data, so healing refuses."""
    message = (
        "a key read across a quote a value follows: the quote may end the key (a colon missing "
        "after it) or be part of it"
    )
    return HealError(
        message + f" at offset {quote}", [Violation("json.unclosed_string", message, span=Span(start, quote + 1))]
    )


def _two_readings(start: int, quote: int) -> HealError:
    """The string at ``start`` never closes, but the quote at ``quote``, read as an inner
    quote, has a JSON value after it: it may close the string (``{"a" 1}``, a colon or
    comma missing after it), or the reply was cut inside the string. Either reading
    could give the wrong data (the first drops a key cut off, ``{}``), so healing refuses."""
    message = (
        "a string that never closes, read across a quote a value follows: the quote may close it "
        "(a colon or comma missing after it) or the reply was cut inside the string"
    )
    return HealError(
        message + f" at offset {quote}", [Violation("json.unclosed_string", message, span=Span(start, quote + 1))]
    )


def _has_invalid_escape(body: str) -> bool:
    """Whether ``body`` holds a backslash that escapes nothing (pairs of backslashes are
    skipped: ``\\\\d`` is a backslash and a ``d``)."""
    if "\\" not in body:
        return False
    return _INVALID_ESCAPE(body.replace("\\\\", "")) is not None


def _canonical(body: str, quote: str, end: int, *, inner: bool, cut: bool) -> StringFix:
    kinds: list[str] = []
    if quote == "'":
        kinds.append("single_quotes")
    elif quote != '"':
        kinds.append("smart_quotes")
    if cut:
        kinds.append("truncated_string")
        body = _CUT_ESCAPE.sub("", body)
    seen: set[str] = set()
    # A backslash that escapes nothing ("C:\Users") shows the string's backslashes are
    # literal (RFC 5545's rule for unknown escapes): its \n, \t, \uXXXX are text too,
    # so the path "C:\Users\ada\new" keeps its "\new". \" and \\ keep their meaning.
    literal = _has_invalid_escape(body)

    def piece(m: re.Match) -> str:
        g = m.group(0)
        if m.group(2) is not None:
            if quote == '"':
                seen.add("inner_quote")
            return '\\"'
        if m.group(3) is not None:
            seen.add("control_character")
            return _SHORT_ESCAPES.get(g) or f"\\u{ord(g):04x}"
        bad = m.group(1)
        if bad is not None:
            if bad == "'":
                # \' is how a single-quoted string holds an apostrophe, and what a
                # double-quoted one meant by it: an apostrophe either way
                if quote == '"':
                    seen.add("escaped_apostrophe")
                return "'"
            seen.add("invalid_escape")
            if bad == "\n":
                return "\\\\\\n"
            return "\\\\" + (piece_of(bad))
        if literal and g[1] not in _KEPT_ESCAPES:
            seen.add("invalid_escape")
            return "\\" + g if len(g) == 2 else "\\" + g[:6] + ("\\" + g[6:] if len(g) > 6 else "")
        if len(g) == 6 and g[2] in "dD" and g[3] in "89abcdefABCDEF":
            seen.add("lone_surrogate")
            return "\\ufffd"
        return g

    def piece_of(ch: str) -> str:
        if ch == '"':
            return '\\"'
        if ch < " ":
            return _SHORT_ESCAPES.get(ch) or f"\\u{ord(ch):04x}"
        return ch

    fixed = _PIECE.sub(piece, body)
    kinds.extend(
        k
        for k in ("control_character", "inner_quote", "escaped_apostrophe", "invalid_escape", "lone_surrogate")
        if k in seen
    )
    if inner and quote == '"' and "inner_quote" not in kinds:
        kinds.append("inner_quote")
    return StringFix(end, '"' + fixed + '"', tuple(kinds), cut)
