"""Fast paths for stretches of a payload with the commonest per-token damage.

A broken LLM reply is often broken the same way at every token: every key bare, every
string single-quoted, ``True``/``None`` for every literal, a comma missing at every line
end, a trailing comma before every closing bracket. Walking such a reply token by token
in Python costs a few microseconds a token; here one regular expression takes a whole
stretch of members (or elements), and a second one visits only the damaged tokens in it.

A stretch (``MEMBERS`` / ``ELEMENTS``) is one or more members (elements) of the open
container, nested up to two levels deep, separated by commas or by line breaks, ending
after a value. Besides what :mod:`.runs` accepts it holds: bare keys, single- and
smart-quoted strings with nothing inside to escape, ``True``/``False``/``None``/``NaN``/
``Infinity``, missing commas at line breaks and trailing commas before a nested closing
bracket. :func:`damage` lists, in text order, exactly the edits and repairs the token
walk in :mod:`.structure` would make there (tests compare the two), or ``None`` when the
stretch holds something it does not know, and the caller then walks it token by token.
"""

from __future__ import annotations

import re

from formatbook_core.results import make_repair as make
from formatbook_core.runs import run

from . import literals, strings
from .runs import _STR, _WS

_SQ = "(?:'[^'\"\\\\\\x00-\\x1f]*+'|\u201c[^\u201c\u201d\"\\\\\\x00-\\x1f]*+\u201d)"
_BARE = r"(?:[^\W\d]|\$)[\w$]*+"
_NUM = r"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?(?![\w.+\-])"
_WORD = r"(?:true|false|null|True|False|None|NaN|Infinity)(?![\w$])"
_SCALAR = rf"(?>{_STR}|{_SQ}|{_NUM}|{_WORD})"
_KEY = rf"(?>{_STR}|{_SQ}|{_BARE})"
_SEP = rf"(?:{_WS},{_WS}|[ \t\r]*+\n{_WS})"  # a comma, or a line break where one is missing


def _nest(inner: str) -> str:
    member = rf"{_KEY}{_WS}:{_WS}{inner}"
    return (
        rf"(?>{_SCALAR}"
        rf"|\[{_WS}(?:{inner}(?:{_SEP}{inner})*+(?:{_WS},)?)?{_WS}\]"
        rf"|\{{{_WS}(?:{member}(?:{_SEP}{member})*+(?:{_WS},)?)?{_WS}\}})"
    )


_VALUE = _nest(_nest(_SCALAR))
_MEMBER = rf"{_KEY}{_WS}:{_WS}{_VALUE}"

# The stretch ends where the lexer would end its last token (a string is closed only by
# a quote followed by one of these; see lexer.py), or it is not taken at all.
_END = r"(?=[ \t]*+(?:[,:}\]\n\r/]|\Z)|[ \t]++[\"'])"

#: One or more members of an object, ending after the last one's value.
MEMBERS = re.compile(rf"{_WS}{_MEMBER}(?:{_SEP}{_MEMBER})*+{_END}")
#: One or more elements of an array, ending after the last one.
ELEMENTS = re.compile(rf"{_WS}{_VALUE}(?:{_SEP}{_VALUE})*+{_END}")

# --- visiting the damaged tokens of a stretch --------------------------------------------
# White space after a value that is no missing comma: before punctuation, or on one line.
_QUIET_WS = r"(?:[ \t\r\n]*+(?=[,:}\]])|[ \t\r]*+(?!\n))"
_CLEAN = (
    r"(?:[\[{:][ \t\r\n]*+"
    r"|,(?![ \t\r\n]*+[}\]])[ \t\r\n]*+"
    rf"|(?:[}}\]]|{_STR}|{_NUM}|(?:true|false|null)(?![\w$]|[ \t\r\n]*+:)){_QUIET_WS})"
)
_DAMAGE = re.compile(
    rf"(?:{_CLEAN})*+(?:"
    rf"({_BARE})(?=[ \t\r\n]*+:)"  # 1: a bare key (true: included)
    r"|(True|False|None|NaN|Infinity)(?![\w$])"  # 2: a literal JSON spells otherwise
    rf"|({_SQ})"  # 3: a single- or smart-quoted string
    r"|(,)"  # 4: a trailing comma (a clean comma was taken above)
    rf"|([}}\]]|{_STR}|{_NUM}|true|false|null)"  # 5: a clean value a line break follows
    r"|(\Z)"  # 6: the end of the stretch (matched with it as endpos), all clean up to it
    r")[ \t\r\n]*+"
)
_LEADING_WS = run(r"[ \t\r\n]*+")


def damage(text: str, start: int, end: int, messages: dict[str, str]) -> tuple[list, list] | None:
    """``(edits, repairs)`` for the stretch ``text[start:end]`` matched by ``MEMBERS`` or
    ``ELEMENTS``, in text order; ``None`` when it holds a token this module does not know."""
    edits: list[tuple[int, int, str]] = []
    repairs: list = []
    add_edit = edits.append
    add_repair = repairs.append
    match = _DAMAGE.match
    find = text.find
    comma_msg = messages["missing_comma"]
    pos = _LEADING_WS.match(text, start, end).end()
    while True:
        # the clean tokens, then a damaged one, or the end: no match is a token this
        # module does not know (the clean run is possessive: a second scan of it to the
        # end would stop where this one did)
        m = match(text, pos, end)
        if m is None:
            return None
        k = m.lastindex
        assert k is not None  # every alternative after the clean run is a group
        if k == 6:
            return edits, repairs
        s, e = m.span(k)
        pos = m.end()
        if k == 1:
            add_edit((s, e, '"' + text[s:e] + '"'))
            add_repair(make("unquoted_key", messages["unquoted_key"], s, e))
            continue  # a colon follows a key
        if k == 2:
            json_text, kind = literals.LITERALS[text[s:e]]
            assert kind is not None  # group 2 holds only the literals JSON spells otherwise
            add_edit((s, e, json_text))
            add_repair(make(kind, messages[kind], s, e))
        elif k == 3:
            fix = strings.simple(text, s, e)
            add_edit((s, e, fix.text))
            for kind in fix.kinds:
                add_repair(make(kind, messages[kind], s, e))
        elif k == 4:
            add_edit((s, e, ""))
            add_repair(make("trailing_comma", messages["trailing_comma"], s, e))
            continue  # a closing bracket follows
        # after a value: a line break, then no punctuation, is a missing comma
        if pos > e and pos < end and find("\n", e, pos) >= 0 and text[pos] not in ",:}]":
            add_edit((e, e, ","))
            add_repair(make("missing_comma", comma_msg, e, pos))
