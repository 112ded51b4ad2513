"""A schema ``pattern`` decided on a prefix: can some continuation of the text so far match?

JSON Schema's ``pattern`` searches (``"b"`` matches ``"abc"``), so most patterns can match
whatever was written so far: text appended later may hold the match. Only a pattern whose
every match must begin at the string's start (``^[A-Z]{3}-\\d+$``) is decided by a
prefix: its anchored run dies at the first character no match can follow. This module
compiles such a pattern into a Thompson NFA and simulates it on a set of states, fed a
piece at a time (never re-scanning), linear in the text: each character costs at most the
NFA's size, and the sets met are cached as a lazy DFA so a repeated step costs one lookup.

It compiles only the syntax it can read exactly as both ECMA 262 and the engine of
:mod:`.patterns` read it: literals and escapes (``\\n``, ``\\xHH``, ``\\uHHHH``,
``\\u{H..}``, ``\\cX``, escaped punctuation), classes (ranges, negation, ``\\d \\w \\s``
and their negations), ``.``, ``* + ? {m} {m,} {m,n}`` (lazy too; counted repeats expanded
up to :data:`MAX_NODES`), alternation, groups (capturing, ``(?:``, named), ``^`` and
``$``. For anything else (look-around, back-references, ``\\b``, ``\\p{..}``, flags,
set operations in classes, ``[]``) :func:`prefix_pattern` answers ``None`` and the
pattern is judged on the whole string by :mod:`.patterns`, as it is anyway at the end.

Where the engines disagree on a class (``\\d`` on non-ASCII digits, ``.`` on ``\\r``) the
NFA takes the union, so a prefix it refuses is refused by both: the answer is **sound**,
never "dead" for a prefix of a string the final check accepts. Past :data:`MAX_WORK`
state visits on one string the run stops deciding (the end judges), so a hostile
pattern and text cost no more than linear.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

__all__ = ["MAX_NODES", "MAX_WORK", "PrefixPattern", "Run", "compile_nfa", "compiled_pattern", "prefix_pattern"]

#: NFA states visited (on cache misses) per string before the run stops deciding early.
MAX_WORK = 1_000_000
#: States of one NFA, counted repeats expanded; a bigger pattern is not compiled.
MAX_NODES = 5_000
_MAX_COUNT = 1_000  # the largest bound of a counted repeat read
_CACHE = 65_536  # cached DFA transitions per pattern
_HELD = 262_144  # NFA states held by the cached sets of one pattern (bounds its memory)

Pred = Callable[[str], bool]
# A run's state: (the live NFA states, None once decided alive, or () when dead; work so far)
Run = tuple["_States | None", int]

# --- character classes: what each engine's class may hold (over) and surely holds (under) ---
_ASCII_DIGITS = frozenset("0123456789")
_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_ASCII_SPACE = frozenset(" \t\n\r\f\v")
_ECMA_SPACE = frozenset(" \t\n\r\f\v\u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | frozenset(
    chr(c) for c in range(0x2000, 0x200B)
)
_LINE_ENDS = frozenset("\n\r\u2028\u2029")


def _wide_word(c: str) -> bool:
    return c in _ASCII_WORD or c.isalnum() or c in "\u200c\u200d" or unicodedata.category(c) in ("Mn", "Mc", "Me", "Pc")


def _wide_space(c: str) -> bool:
    return c in _ECMA_SPACE or c.isspace()


# name -> (over, under): over holds every character either engine may put in the class,
# under only those both do (a negated class complements ``under`` to stay a superset).
_BUILTINS: dict[str, tuple[Pred, Pred]] = {
    "d": (str.isdecimal, _ASCII_DIGITS.__contains__),
    "D": (lambda c: c not in _ASCII_DIGITS, lambda c: not c.isdecimal()),
    "w": (_wide_word, _ASCII_WORD.__contains__),
    "W": (lambda c: c not in _ASCII_WORD, lambda c: not _wide_word(c)),
    "s": (_wide_space, _ASCII_SPACE.__contains__),
    "S": (lambda c: c not in _ASCII_SPACE, lambda c: not _wide_space(c)),
}
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v"}
_ANY: Pred = lambda c: c != "\n"  # noqa: E731 - ECMA's dot refuses \r too: the union keeps it


class _Unsupported(Exception):
    """The pattern uses syntax this module does not read exactly."""


# --- the parser: an AST of tuples --------------------------------------------------------
# ("chars", pred) | ("cat", [..]) | ("alt", [..]) | ("rep", node, min, max|None) | ("bol",) | ("eol",)


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0

    def peek(self) -> str | None:
        return self.p[self.i] if self.i < len(self.p) else None

    def take(self) -> str:
        if self.i >= len(self.p):
            raise _Unsupported("unexpected end")
        c = self.p[self.i]
        self.i += 1
        return c

    def parse(self) -> tuple:
        node = self.alternation()
        if self.i != len(self.p):
            raise _Unsupported("unbalanced )")
        return node

    def alternation(self) -> tuple:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def sequence(self) -> tuple:
        items: list[tuple] = []
        while self.peek() not in (None, "|", ")"):
            atom = self.atom()
            items.append(self.quantified(atom))
        return items[0] if len(items) == 1 else ("cat", items)

    def quantified(self, atom: tuple) -> tuple:
        c = self.peek()
        if c is None or c not in "*+?{":
            return atom
        if atom[0] in ("bol", "eol"):
            raise _Unsupported("a quantified assertion")
        if c == "{":
            low, high = self.counted()
        else:
            self.i += 1
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
        if self.peek() == "?":
            self.i += 1  # lazy: the same strings match
        after = self.peek()
        if after is not None and after in "*+?{":
            raise _Unsupported("a stacked quantifier")
        return ("rep", atom, low, high)

    def counted(self) -> tuple[int, int | None]:
        end = self.p.find("}", self.i)
        body = self.p[self.i + 1 : end] if end > 0 else ""
        low_text, comma, high_text = body.partition(",")
        if not low_text.isdigit() or not (high_text.isdigit() or high_text == "") or (not comma and high_text):
            raise _Unsupported("a brace that is no counted repeat")
        self.i = end + 1
        low = int(low_text)
        high = low if not comma else int(high_text) if high_text else None
        if low > _MAX_COUNT or (high is not None and (high > _MAX_COUNT or high < low)):
            raise _Unsupported("a counted repeat too large")
        return low, high

    def atom(self) -> tuple:
        c = self.take()
        if c == "(":
            if self.peek() == "?":
                rest = self.p[self.i : self.i + 3]
                if rest.startswith("?:"):
                    self.i += 2
                elif rest.startswith(("?<", "?P<")) and rest[2:3] not in ("=", "!") and rest != "?<=" and rest != "?<!":
                    end = self.p.find(">", self.i)
                    name = self.p[self.i + (3 if rest.startswith("?P") else 2) : end]
                    if end < 0 or not name.isidentifier():
                        raise _Unsupported("a group name")
                    self.i = end + 1
                else:
                    raise _Unsupported("look-around or flags")
            node = self.alternation()
            if self.take() != ")":
                raise _Unsupported("unbalanced (")
            return node
        if c == "[":
            return ("chars", self.klass())
        if c == ".":
            return ("chars", _ANY)
        if c == "^":
            return ("bol",)
        if c == "$":
            return ("eol",)
        if c == "\\":
            kind, value = self.escape(in_class=False)
            if kind == "builtin":
                return ("chars", _BUILTINS[value][0])
            return ("chars", _literal(value))
        if c in "*+?{})]":
            raise _Unsupported(f"a bare {c}")
        return ("chars", _literal(c))

    def escape(self, in_class: bool) -> tuple[str, str]:
        """After a backslash: ("builtin", letter) or ("char", the character)."""
        c = self.take()
        if c in _BUILTINS:
            return "builtin", c
        if c in _SIMPLE_ESCAPES:
            return "char", _SIMPLE_ESCAPES[c]
        if c == "0" and not (self.peek() or "").isdigit():
            return "char", "\0"
        if c == "x":
            return "char", self.hex(2)
        if c == "u":
            if self.peek() == "{":
                end = self.p.find("}", self.i)
                digits = self.p[self.i + 1 : end] if end > 0 else ""
                if not digits or len(digits) > 6 or any(d not in "0123456789abcdefABCDEF" for d in digits):
                    raise _Unsupported("\\u{...}")
                self.i = end + 1
                code = int(digits, 16)
                if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                    raise _Unsupported("\\u{...} out of range")
                return "char", chr(code)
            char = self.hex(4)
            if 0xD800 <= ord(char) <= 0xDFFF:
                raise _Unsupported("a surrogate")
            return "char", char
        if c == "c":
            letter = self.take()
            if not ("a" <= letter <= "z" or "A" <= letter <= "Z"):
                raise _Unsupported("\\c without a letter")
            return "char", chr(ord(letter) % 32)
        if c.isascii() and not c.isalnum() and c not in " \t\n":
            return "char", c  # escaped punctuation: itself
        raise _Unsupported(f"the escape \\{c}")

    def hex(self, n: int) -> str:
        digits = self.p[self.i : self.i + n]
        if len(digits) != n or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise _Unsupported("a hex escape")
        self.i += n
        return chr(int(digits, 16))

    def klass(self) -> Pred:
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        if self.peek() in ("]", None):
            raise _Unsupported("an empty class ([] and [^] differ between engines)")
        chars: set[str] = set()
        ranges: list[tuple[str, str]] = []
        builtins: list[str] = []
        while True:
            c = self.take()
            if c == "]":
                break
            if c == "[" or (c in "&-~" and self.peek() == c):
                raise _Unsupported("a nested class or set operation")
            kind, value = ("char", c) if c != "\\" else self.escape(in_class=True)
            if kind == "builtin":
                if self.peek() == "-" and self.p[self.i + 1 : self.i + 2] not in ("]", ""):
                    raise _Unsupported("a range from a class")
                builtins.append(value)
                continue
            if self.peek() == "-" and self.p[self.i + 1 : self.i + 2] not in ("]", ""):
                self.i += 1
                d = self.take()
                if d == "[":
                    raise _Unsupported("a nested class")
                kind2, high = ("char", d) if d != "\\" else self.escape(in_class=True)
                if kind2 == "builtin" or high < value:
                    raise _Unsupported("a range to a class, or backwards")
                ranges.append((value, high))
            else:
                chars.add(value)
        frozen = frozenset(chars)
        spans = tuple(ranges)
        which = 1 if negated else 0  # a negated class complements what surely is in it
        tests = tuple(_BUILTINS[b][which] for b in builtins)

        def inside(c: str) -> bool:
            return c in frozen or any(lo <= c <= hi for lo, hi in spans) or any(t(c) for t in tests)

        if negated:
            return lambda c: not inside(c)
        return inside


def _literal(char: str) -> Pred:
    return char.__eq__


# --- the NFA ---------------------------------------------------------------------------
_CHAR, _SPLIT, _BOL, _EOL, _MATCH = range(5)


class _Builder:
    def __init__(self) -> None:
        self.kind: list[int] = []
        self.pred: list[Pred | None] = []
        self.out: list[tuple[int, ...]] = []

    def new(self, kind: int, pred: Pred | None = None, out: tuple[int, ...] = ()) -> int:
        if len(self.kind) >= MAX_NODES:
            raise _Unsupported("too many states")
        self.kind.append(kind)
        self.pred.append(pred)
        self.out.append(out)
        return len(self.kind) - 1

    def build(self, node: tuple, nxt: int) -> int:
        """The state that matches ``node`` then continues at ``nxt``."""
        tag = node[0]
        if tag == "chars":
            return self.new(_CHAR, node[1], (nxt,))
        if tag == "bol":
            return self.new(_BOL, None, (nxt,))
        if tag == "eol":
            return self.new(_EOL, None, (nxt,))
        if tag == "cat":
            for item in reversed(node[1]):
                nxt = self.build(item, nxt)
            return nxt
        if tag == "alt":
            starts = tuple(self.build(branch, nxt) for branch in node[1])
            return self.new(_SPLIT, None, starts)
        _, body, low, high = node
        if high is None:  # body{low,}: low copies, then a loop
            loop = self.new(_SPLIT)
            self.out[loop] = (self.build(body, loop), nxt)
            nxt = loop
        else:
            for _ in range(high - low):  # optional copies, innermost first
                split = self.new(_SPLIT)
                self.out[split] = (self.build(body, nxt), nxt)
                nxt = split
        for _ in range(low):
            nxt = self.build(body, nxt)
        return nxt


def compile_nfa(pattern: str) -> tuple[list[int], list[Pred | None], list[tuple[int, ...]], int] | None:
    """The Thompson NFA of ``pattern`` (kinds, predicates, successors, start state) or
    ``None`` when the pattern uses syntax not read here."""
    if not isinstance(pattern, str):
        return None
    try:
        tree = _Parser(pattern).parse()
        b = _Builder()
        start = b.build(tree, b.new(_MATCH))
    except (_Unsupported, RecursionError):
        return None
    return b.kind, b.pred, b.out, start


class _States(frozenset[int]):
    """A set of NFA states with the steps from it seen so far (a lazy DFA's row)."""

    __slots__ = ("row",)

    def __init__(self, states: object = ()) -> None:
        self.row: dict[str, _States] = {}


_MATCHED = _States()  # a step reached a match: alive for good (told apart by identity)


class PrefixPattern:
    """A compiled pattern that a prefix may decide (see the module doc)."""

    __slots__ = ("_kind", "_pred", "_out", "_live", "_cached", "_sets", "_held", "_begin", "start", "pattern")

    def __init__(self, pattern: str, nfa: tuple[list[int], list[Pred | None], list[tuple[int, ...]], int]) -> None:
        self.pattern = pattern
        self._kind, self._pred, self._out, begin = nfa
        self._begin = begin
        self._live = self._coreachable()
        self._cached = 0  # steps cached in the rows
        self._sets: dict[frozenset[int], _States] = {}  # each set cached once
        self._held = 0
        first, matched, _ = self._closure((begin,), True)
        #: The run before any character.
        self.start: Run = (None if matched else _States(first), 0)

    def floating(self) -> bool:
        """Whether a match may begin past the string's start, or the empty string
        matches at its start: then no prefix is dead."""
        if self.start[0] is None:
            return True
        states, matched, _ = self._closure((self._begin,), False)
        return matched or any(self._live[q] for q in states)

    def _coreachable(self) -> list[bool]:
        """Per state: a match is reachable from it past the string's start (``^`` shut;
        ``$`` open only to a match reached without a character)."""
        kind, out = self._kind, self._out
        n = len(kind)
        back: list[list[int]] = [[] for _ in range(n)]
        for q in range(n):
            for o in out[q]:
                back[o].append(q)

        def reach(seeds: list[int], through: tuple[int, ...]) -> list[bool]:
            found = [False] * n
            for q in seeds:
                found[q] = True
            stack = list(seeds)
            while stack:  # backwards from the seeds, linear in the NFA
                for p in back[stack.pop()]:
                    if not found[p] and kind[p] in through:
                        found[p] = True
                        stack.append(p)
            return found

        matches = [q for q in range(n) if kind[q] == _MATCH]
        eps = reach(matches, (_SPLIT, _EOL))  # a match without a character, at the end
        live = reach(matches + [q for q in range(n) if kind[q] == _EOL and eps[q]], (_CHAR, _SPLIT))
        return live

    def _closure(
        self, seeds: tuple[int, ...] | list[int], at_start: bool, at_end: bool = False, prune: bool = True
    ) -> tuple[frozenset[int], bool, int]:
        """The states reached from ``seeds`` without a character (``^`` open
        ``at_start``, ``$`` open ``at_end``), kept when a match may still follow unless
        not ``prune``; whether a match was reached; the states visited."""
        kind, out, live = self._kind, self._out, self._live
        seen: set[int] = set()
        kept: list[int] = []
        stack = list(seeds)
        matched = False
        while stack:
            q = stack.pop()
            if q in seen:
                continue
            seen.add(q)
            k = kind[q]
            if k == _SPLIT or (k == _EOL and at_end) or (k == _BOL and at_start):
                stack.extend(out[q])
            elif k == _CHAR or k == _EOL:
                if live[q] or at_start or not prune:
                    kept.append(q)
            elif k == _MATCH:
                matched = True
        return frozenset(kept), matched, len(seen)

    def feed(self, run: Run, piece: str) -> Run:
        """The run after ``piece`` more characters."""
        states, work = run
        if not states:
            return run  # decided alive (None) or dead (empty)
        for c in piece:
            got = states.row.get(c)
            if got is None:
                got, work = self._step(states, c, work)
                if work > MAX_WORK:
                    return None, work  # too costly: the end judges
            if got is _MATCHED:
                return None, work
            states = got
            if not states:
                break
        return states, work

    def _step(self, states: _States, c: str, work: int) -> tuple[_States, int]:
        """The set after ``c`` from ``states`` (not cached yet), cached while the bounds
        allow, and the work so far."""
        kind, pred, out = self._kind, self._pred, self._out
        seeds = [out[q][0] for q in states if kind[q] == _CHAR and pred[q](c)]  # type: ignore[misc]
        found, matched, visited = self._closure(seeds, False)
        work += visited + len(states)
        if matched:
            got = _MATCHED
        else:
            known = self._sets.get(found)
            if known is None:
                known = _States(found)
                if self._held < _HELD:
                    self._sets[found] = known
                    self._held += len(found) + 1
            got = known
        if self._cached < _CACHE and self._held < _HELD:
            states.row[c] = got
            self._cached += 1
        return got, work

    @staticmethod
    def dead(run: Run) -> bool:
        """No continuation of the text fed can match."""
        return run[0] is not None and not run[0]

    def search(self, text: str) -> bool:
        """Whether the pattern matches somewhere in the whole ``text`` (for tests: the
        NFA's own verdict, as the engine of :mod:`.patterns` would give it)."""
        kind, out, pred = self._kind, self._out, self._pred
        begin = self._begin
        states: set[int] = set()
        for pos in range(len(text) + 1):
            seeds = [*states, begin]
            reach, matched, _ = self._closure(seeds, pos == 0, pos == len(text), prune=False)
            if matched:
                return True
            if pos == len(text):
                return False
            c = text[pos]
            states = {out[q][0] for q in reach if kind[q] == _CHAR and pred[q](c)}  # type: ignore[misc]
        return False


@lru_cache(maxsize=1024)
def compiled_pattern(pattern: str) -> PrefixPattern | None:
    """``pattern`` compiled, whether or not a prefix decides it; ``None`` when its syntax
    is not read here."""
    nfa = compile_nfa(pattern)
    if nfa is None:
        return None
    return PrefixPattern(pattern, nfa)


@lru_cache(maxsize=1024)
def prefix_pattern(pattern: str) -> PrefixPattern | None:
    """``pattern`` compiled when a prefix may decide it: its syntax is read here and every
    match must begin at the string's start; ``None`` otherwise (judged at the end)."""
    compiled = compiled_pattern(pattern)
    if compiled is None or compiled.floating():
        return None
    return compiled
