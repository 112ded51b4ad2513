"""The grammar IR: rules made of literals, character classes, references, sequences,
alternations and repetitions, which :mod:`.render` writes as GBNF or Lark.

A format builds a :class:`Grammar` from its expectations (``FormatDefinition.grammar``);
the core knows no format by name. Expressions are frozen values; a :class:`Builder`
names rules (a rule may refer to itself, for recursive schemas) and gives each name once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = [
    "EMPTY",
    "Alt",
    "Builder",
    "Chars",
    "Expr",
    "Grammar",
    "Lit",
    "Ref",
    "Rep",
    "Seq",
    "alt",
    "chars",
    "lit",
    "opt",
    "plus",
    "seq",
    "star",
]


@dataclass(frozen=True)
class Lit:
    """The exact text ``text`` (never empty: the empty sequence is :data:`EMPTY`)."""

    text: str


@dataclass(frozen=True)
class Chars:
    """One character in ``ranges`` (inclusive pairs), or not in them when ``negated``."""

    ranges: tuple[tuple[str, str], ...]
    negated: bool = False


@dataclass(frozen=True)
class Ref:
    """The rule named ``name``."""

    name: str


@dataclass(frozen=True)
class Seq:
    """``items`` one after the other; ``Seq(())`` is the empty text."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Alt:
    """One of ``items``."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Rep:
    """``item`` from ``min`` to ``max`` times (``max`` ``None``: no bound)."""

    item: Expr
    min: int = 0
    max: int | None = None


Expr = Lit | Chars | Ref | Seq | Alt | Rep

#: The empty text.
EMPTY = Seq(())


def lit(text: str) -> Expr:
    """The exact ``text`` (:data:`EMPTY` for ``""``)."""
    return Lit(text) if text else EMPTY


def chars(*specs: str, negated: bool = False) -> Chars:
    """A character class, each spec written as a regex class body without brackets:
    ``chars("a-z0-9_")`` (a ``-`` between two characters makes a range; a first or last
    ``-`` is itself). Specs are read one by one, so that ``chars(delimiter, " \t")`` never
    makes a range across them."""
    ranges: list[tuple[str, str]] = []
    for spec in specs:
        i = 0
        while i < len(spec):
            if i + 2 < len(spec) and spec[i + 1] == "-":
                ranges.append((spec[i], spec[i + 2]))
                i += 3
            else:
                ranges.append((spec[i], spec[i]))
                i += 1
    return Chars(tuple(dict.fromkeys(ranges)), negated)


def seq(*items: Expr) -> Expr:
    """``items`` in order; nested sequences are flattened and empty ones dropped."""
    flat: list[Expr] = []
    for item in items:
        if isinstance(item, Seq):
            flat.extend(item.items)
        else:
            flat.append(item)
    return flat[0] if len(flat) == 1 else Seq(tuple(flat))


def alt(*items: Expr) -> Expr:
    """One of ``items``; nested alternations are flattened and repeats dropped."""
    flat: list[Expr] = []
    for item in items:
        for one in item.items if isinstance(item, Alt) else (item,):
            if one not in flat:
                flat.append(one)
    if not flat:
        raise ValueError("an alternation needs at least one item")
    return flat[0] if len(flat) == 1 else Alt(tuple(flat))


def opt(item: Expr) -> Expr:
    """``item`` or nothing."""
    return Rep(item, 0, 1)


def star(item: Expr) -> Expr:
    """``item`` any number of times."""
    return Rep(item, 0, None)


def plus(item: Expr) -> Expr:
    """``item`` once or more."""
    return Rep(item, 1, None)


def nullable(expr: Expr, rules: dict[str, Expr], seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``expr`` matches the empty text (a reference to a rule being examined
    counts as not: a rule that is only empty through itself is not empty)."""
    if isinstance(expr, Lit | Chars):
        return False
    if isinstance(expr, Ref):
        return expr.name not in seen and nullable(rules[expr.name], rules, seen | {expr.name})
    if isinstance(expr, Seq):
        return all(nullable(item, rules, seen) for item in expr.items)
    if isinstance(expr, Alt):
        return any(nullable(item, rules, seen) for item in expr.items)
    return expr.min == 0 or nullable(expr.item, rules, seen)


def references(expr: Expr) -> Iterable[str]:
    """The names of the rules ``expr`` refers to, each time it does."""
    if isinstance(expr, Ref):
        yield expr.name
    elif isinstance(expr, Seq | Alt):
        for item in expr.items:
            yield from references(item)
    elif isinstance(expr, Rep):
        yield from references(expr.item)


@dataclass
class Grammar:
    """Named rules and the one the text as a whole matches (``start``).

    ``tokens`` are the rules a lexer reads as one token (Lark's terminals: a JSON string,
    a CSV cell, a line of text): each refers only to other tokens, never to itself, and
    never matches the empty text. Lexers read a token greedily (the longest match), so
    what may follow a token must never continue it: a CSV cell stops before the
    delimiter, a line before its line break. ``left`` names what the expectations ask that the
    grammar does not enforce (``"pattern"``, ``"minimum"``...): the checker judges it.
    """

    rules: dict[str, Expr]
    start: str
    tokens: frozenset[str] = frozenset()
    left: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        missing = sorted({name for expr in self.rules.values() for name in references(expr)} - set(self.rules))
        if self.start not in self.rules:
            missing.insert(0, self.start)
        if missing:
            raise ValueError(f"the grammar refers to rules it does not define: {', '.join(missing)}")
        if self.start in self.tokens:
            raise ValueError("the start rule cannot be a token")
        for name in self.tokens:
            body = self.rules[name]
            wrong = [ref for ref in references(body) if ref not in self.tokens]
            if wrong or nullable(body, self.rules):
                why = f"refers to the rule {wrong[0]}" if wrong else "matches the empty text"
                raise ValueError(f"the token {name} {why}")
        _check_acyclic(self.rules, self.tokens)

    def to_gbnf(self) -> str:
        """The grammar in llama.cpp's GBNF (the start rule is ``root``)."""
        from .render import to_gbnf  # noqa: PLC0415 - render imports this module

        return to_gbnf(self)

    def to_lark(self) -> str:
        """The grammar in Lark's notation, as Lark, Outlines, vLLM and llguidance read it
        (the start rule is ``start``)."""
        from .render import to_lark  # noqa: PLC0415 - render imports this module

        return to_lark(self)


def _check_acyclic(rules: dict[str, Expr], tokens: frozenset[str]) -> None:
    """Raise ``ValueError`` when a token refers to itself through other tokens."""
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            raise ValueError(f"the token {name} refers to itself")
        if name in done:
            return
        for ref in references(rules[name]):
            visit(ref, (*path, name))
        done.add(name)

    for name in tokens:
        visit(name, ())


_NAME = re.compile(r"[^a-z0-9]+")


@dataclass
class Builder:
    """Collects a grammar's rules: :meth:`name` gives a fresh rule name derived from a
    hint (``"contact firstName"`` → ``contact-firstname``), :meth:`define` its body."""

    rules: dict[str, Expr] = field(default_factory=dict)
    tokens: set[str] = field(default_factory=set)
    left: list[str] = field(default_factory=list)
    _taken: set[str] = field(default_factory=set)

    def name(self, hint: str) -> str:
        """A rule name not given before, made of ``[a-z0-9-]`` and starting with a letter."""
        base = _NAME.sub("-", hint.lower()).strip("-")[:40].strip("-") or "rule"
        if not base[0].isalpha():
            base = "r-" + base
        name, n = base, 1
        while name in self._taken or name in ("root", "start"):
            n += 1
            name = f"{base}-{n}"
        self._taken.add(name)
        return name

    def define(self, name: str, expr: Expr) -> Ref:
        """Set the body of rule ``name`` (named by :meth:`name` first); a reference to it."""
        self._taken.add(name)
        self.rules[name] = expr
        return Ref(name)

    def rule(self, hint: str, expr: Expr, *, token: bool = False) -> Ref:
        """A new rule named after ``hint`` with body ``expr`` (a token, read by a lexer
        as one piece, with ``token=True``); a reference to it."""
        ref = self.define(self.name(hint), expr)
        if token:
            self.tokens.add(ref.name)
        return ref

    def leave(self, what: str) -> None:
        """Note that the grammar leaves ``what`` (a keyword, a rule) to the checker."""
        if what not in self.left:
            self.left.append(what)

    def grammar(self, start: Expr) -> Grammar:
        """The grammar whose text as a whole matches ``start``."""
        name = start.name if isinstance(start, Ref) and start.name not in self.tokens else None
        if name is None:
            name = self.define(self.name("document"), start).name
        reached, todo = {name}, [name]
        while todo:  # only the rules the start rule reaches
            for ref in references(self.rules[todo.pop()]):
                if ref not in reached:
                    reached.add(ref)
                    todo.append(ref)
        rules = {n: body for n, body in self.rules.items() if n in reached}
        return Grammar(rules, name, frozenset(self.tokens & reached), tuple(self.left))
