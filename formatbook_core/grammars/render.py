"""The grammar IR written as GBNF (llama.cpp, xgrammar) and as Lark (Lark, Outlines,
vLLM's guided decoding, llguidance).

GBNF: rules ``name ::= expr`` with names of ``[a-z0-9-]``, the start rule ``root``.
Lark: the grammar's tokens (``Grammar.tokens``) are written as terminals
(``UPPER_CASE``), so that Lark's and llguidance's lexers read a JSON string or a CSV cell
as one token; every other rule is a rule (``lower_case``), the start rule ``start``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from .ir import Alt, Chars, Expr, Grammar, Lit, Ref, Rep, Seq

__all__ = ["to_gbnf", "to_lark"]


def _code_point(c: str, *, plain: str, wide: bool = False) -> str:
    """``c`` as itself when it is in ``plain`` or alphanumeric ASCII, else an escape
    (``\\xHH``, ``\\uHHHH``, ``\\UHHHHHHHH``). ``wide``: not ``\\x``, for an escape a hex
    digit follows: xgrammar reads ``\\x`` greedily (``\\x5B0`` is one character there, two
    in llama.cpp), and llguidance's GBNF reader shortens ``\\u00XX``, so ``\\x`` stays
    wherever it can."""
    if (c.isascii() and c.isalnum()) or c in plain:
        return c
    o = ord(c)
    if o < 0x100 and not wide:
        return f"\\x{o:02X}"
    if o < 0x10000:
        return f"\\u{o:04X}"
    return f"\\U{o:08X}"


_LITERAL_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _literal(text: str, *, gbnf: bool = False) -> str:
    """``text`` as a double-quoted literal (the same escapes in GBNF and Lark; ``gbnf``:
    ``\\u`` where a hex digit follows an escape, see :func:`_code_point`)."""
    out = []
    for i, c in enumerate(text):
        if c in _LITERAL_ESCAPES:
            out.append(_LITERAL_ESCAPES[c])
        elif ord(c) < 0x20 or ord(c) == 0x7F or c in "\u2028\u2029":
            wide = gbnf and text[i + 1 : i + 2] in _HEX
            out.append(_code_point(c, plain="", wide=wide))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


_HEX = frozenset("0123456789abcdefABCDEF")


def _class_body(expr: Chars, spell: Callable[[str], str], *, gbnf: bool = False) -> str:
    """The class's characters and ranges. ``gbnf``: a ``-`` first, as itself (llama.cpp
    reads no ``\\-``, and xgrammar reads ``\\x2D`` as a range's dash), then the items
    written as plain characters, then the escaped ones, so that no escape is followed by a
    hex digit (see :func:`_code_point`)."""
    plain: list[str] = []
    escaped: list[str] = []
    dash = False
    for low, high in expr.ranges:
        if gbnf and low == high == "-":
            dash = True
            continue
        text = spell(low) if low == high else f"{spell(low)}-{spell(high)}"
        (escaped if gbnf and text.startswith("\\") else plain).append(text)
    return ("^" if expr.negated else "") + ("-" if dash else "") + "".join(plain) + "".join(escaped)


def _gbnf_class_char(c: str) -> str:
    """A character in a GBNF class: alphanumeric ASCII and the space as themselves, the
    rest escaped."""
    return _code_point(c, plain=" ")


def _regex_class_char(c: str) -> str:
    """A character in a regex class for Lark: ``\\ ] [ ^ -`` escaped with a backslash
    (Lark turns ``\\xHH`` into the character before its regex engine sees it, where a
    ``-`` would make a range), ``/`` (which would end Lark's regex) as ``\\x2F``, other
    printable ASCII as itself (llguidance's engine refuses escapes such as ``\\#``)."""
    if c in "\\]^-[":
        return "\\" + c
    if c == "/":
        return "\\x2F"
    if c.isascii() and c.isprintable():
        return c
    return _code_point(c, plain=" ")


class _Writer(ABC):
    """Writes expressions for one notation; subclasses say how names, classes and counted
    repeats look."""

    def __init__(self, grammar: Grammar):
        self.grammar = grammar

    @abstractmethod
    def name(self, rule: str) -> str: ...

    @abstractmethod
    def chars(self, expr: Chars) -> str: ...

    @abstractmethod
    def counted(self, atom: str, low: int, high: int | None) -> str:
        """``atom`` repeated ``low`` to ``high`` (``None``: no bound) times, a count the
        operators ``?``, ``*`` and ``+`` do not write."""

    @abstractmethod
    def empty(self) -> str: ...

    def repeat(self, atom: str, low: int, high: int | None) -> str:
        """``atom`` repeated ``low`` to ``high`` times: ``?``, ``*``, ``+`` (both notations), or counted."""
        operator = {(0, 1): "?", (0, None): "*", (1, None): "+"}.get((low, high))
        return atom + operator if operator is not None else self.counted(atom, low, high)

    #: GBNF's escapes (see :func:`_code_point`)
    gbnf = False

    def expr(self, expr: Expr, *, nested: bool = False) -> str:
        """``expr`` in the notation; ``nested``: inside a sequence (an alternation is grouped)."""
        if isinstance(expr, Lit):
            return _literal(expr.text, gbnf=self.gbnf)
        if isinstance(expr, Chars):
            return self.chars(expr)
        if isinstance(expr, Ref):
            return self.name(expr.name)
        if isinstance(expr, Rep):
            return self.repeat(self.atom(expr.item), expr.min, expr.max)
        if isinstance(expr, Seq):
            if not expr.items:
                return self.empty()
            return " ".join(self.expr(item, nested=True) for item in expr.items)
        return self.alternation(expr, nested=nested)

    def alternation(self, expr: Alt, *, nested: bool) -> str:
        items = [item for item in expr.items if item != Seq(())]
        if len(items) < len(expr.items):  # an empty alternative: the rest is optional
            rest = items[0] if len(items) == 1 else Alt(tuple(items))
            return self.repeat(self.atom(rest), 0, 1)
        text = " | ".join(self.expr(item) for item in items)
        return f"({text})" if nested else text

    def atom(self, expr: Expr) -> str:
        """``expr`` as one operand of a repetition operator."""
        if isinstance(expr, Lit | Chars | Ref):
            return self.expr(expr)
        return f"({self.expr(expr)})"


class _Gbnf(_Writer):
    gbnf = True

    def name(self, rule: str) -> str:
        return "root" if rule == self.grammar.start else rule

    def chars(self, expr: Chars) -> str:
        return f"[{_class_body(expr, _gbnf_class_char, gbnf=True)}]"

    def counted(self, atom: str, low: int, high: int | None) -> str:
        if high is None:
            return f"{atom}{{{low},}}"
        return f"{atom}{{{low}}}" if low == high else f"{atom}{{{low},{high}}}"

    def empty(self) -> str:
        return '""'


def to_gbnf(grammar: Grammar) -> str:
    """``grammar`` in llama.cpp's GBNF."""
    writer = _Gbnf(grammar)
    names = [grammar.start, *(name for name in grammar.rules if name != grammar.start)]
    return "".join(f"{writer.name(name)} ::= {writer.expr(grammar.rules[name])}\n" for name in names)


class _Lark(_Writer):
    def __init__(self, grammar: Grammar):
        super().__init__(grammar)
        self.terminals = grammar.tokens

    def name(self, rule: str) -> str:
        if rule == self.grammar.start:
            return "start"
        spelled = rule.replace("-", "_")
        return spelled.upper() if rule in self.terminals else spelled

    def chars(self, expr: Chars) -> str:
        return f"/[{_class_body(expr, _regex_class_char)}]/"

    def counted(self, atom: str, low: int, high: int | None) -> str:
        if high is None:
            return f"{atom} ~ {low} {atom}*"
        return f"{atom} ~ {low}" if low == high else f"{atom} ~ {low}..{high}"

    def empty(self) -> str:
        raise ValueError("Lark has no empty expression outside an alternation")


def to_lark(grammar: Grammar) -> str:
    """``grammar`` in Lark's notation (terminals and rules, the start rule ``start``)."""
    writer = _Lark(grammar)
    names = [grammar.start, *(name for name in grammar.rules if name != grammar.start)]
    lines = []
    for name in names:
        body = grammar.rules[name]
        text = writer.expr(body)
        lines.append(f"{writer.name(name)}: {text}\n")
    return "".join(lines)
