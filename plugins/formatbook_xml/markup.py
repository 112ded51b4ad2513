"""A tolerant tokenizer over XML-like text: what ``locate`` and ``heal`` walk.

Unlike the strict scanner it never fails: every ``<`` either starts a piece of markup
(a tag, a comment, CDATA, a processing instruction, a DOCTYPE) or is a stray ``<`` in the
text; markup the text ends inside is marked ``cut``. Each token is found with
``str.find`` from where the last one ended, so a walk is linear in the text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from .scan import NAME_RUN, NAME_START

__all__ = ["Token", "tokens", "TEXT", "START", "END", "EMPTY", "COMMENT", "CDATA", "PI", "DOCTYPE", "STRAY"]

TEXT = "text"
START = "start"  # <name ...>
EMPTY = "empty"  # <name .../>
END = "end"  # </name>
COMMENT = "comment"
CDATA = "cdata"
PI = "pi"  # <?target ...?> (the XML declaration too)
DOCTYPE = "doctype"
STRAY = "stray"  # a '<' that starts no markup


class Token(NamedTuple):
    kind: str
    start: int
    end: int
    name: str = ""  # the tag's or PI's name
    cut: bool = False  # the text ends inside this markup


def _tag_end(text: str, pos: int) -> int:
    """Where the tag starting before ``pos`` ends (after its '>'), quoted values skipped;
    -1 when the text ends first. A quote opens a value only right after '=' (white space
    allowed), so an apostrophe in broken markup does not swallow the rest."""
    n = len(text)
    while pos < n:
        gt = text.find(">", pos)
        eq = text.find("=", pos, gt if gt >= 0 else n)
        if eq < 0:
            return gt + 1 if gt >= 0 else -1
        q = eq + 1
        while q < n and text[q] in " \t\r\n":
            q += 1
        if q < n and text[q] in "\"'":
            close = text.find(text[q], q + 1)
            if close < 0:
                return -1
            pos = close + 1
        else:
            pos = q
    return -1


def tokens(text: str, pos: int = 0) -> Iterator[Token]:
    """The tokens of ``text`` from ``pos``, in order (see the module doc)."""
    n = len(text)
    while pos < n:
        lt = text.find("<", pos)
        if lt < 0:
            yield Token(TEXT, pos, n)
            return
        if lt > pos:
            yield Token(TEXT, pos, lt)
        nxt = text[lt + 1 : lt + 2]
        if text.startswith("<!--", lt):
            end = text.find("-->", lt + 4)
            tok = Token(COMMENT, lt, n, cut=True) if end < 0 else Token(COMMENT, lt, end + 3)
        elif text.startswith("<![CDATA[", lt):
            end = text.find("]]>", lt + 9)
            tok = Token(CDATA, lt, n, cut=True) if end < 0 else Token(CDATA, lt, end + 3)
        elif text.startswith("<!DOCTYPE", lt):
            bracket = text.find("[", lt)
            gt = text.find(">", lt)
            if 0 <= bracket < gt:
                close = text.find("]", bracket)
                gt = text.find(">", close) if close >= 0 else -1
            tok = Token(DOCTYPE, lt, n, cut=True) if gt < 0 else Token(DOCTYPE, lt, gt + 1)
        elif nxt == "?":
            end = text.find("?>", lt + 2)
            name = NAME_RUN.match(text, lt + 2).group()
            tok = Token(PI, lt, n, name, cut=True) if end < 0 else Token(PI, lt, end + 2, name)
        elif nxt == "/":
            name = NAME_RUN.match(text, lt + 2).group()
            if not name:
                tok = Token(STRAY, lt, lt + 1)
            else:
                gt = text.find(">", lt + 2 + len(name))
                inner = text.find("<", lt + 2, gt) if gt >= 0 else -1
                if gt < 0:
                    tok = Token(END, lt, n, name, cut=True)
                elif inner >= 0:
                    tok = Token(STRAY, lt, lt + 1)  # '</a <b>': never finished
                else:
                    tok = Token(END, lt, gt + 1, name)
        elif nxt and NAME_START.match(nxt):
            name = NAME_RUN.match(text, lt + 1).group()
            end = _tag_end(text, lt + 1 + len(name))
            if end < 0:
                tok = Token(START, lt, n, name, cut=True)
            else:
                inner_lt = text.find("<", lt + 1, end)
                if inner_lt >= 0 and text.find("=", lt, inner_lt) < 0:
                    tok = Token(STRAY, lt, lt + 1)  # '<b and <c>': the first '<' opens nothing
                else:
                    kind = EMPTY if text[end - 2] == "/" else START
                    tok = Token(kind, lt, end, name)
        else:
            tok = Token(STRAY, lt, lt + 1)
        yield tok
        pos = tok.end
