"""An incremental JSON Schema checker: fed a value as *events* while it is written, it
says at every event whether some continuation can still satisfy the schema.

JSON Schema judges data values, whatever format wrote them, so this lives in the core
and knows no syntax: a format's stream checker reads its own text and drives it.

How to drive it::

    checker = PrefixChecker(schema)          # a schema dict (or bool), a JsonSchema, a pydantic model
    checker.start_object()                   # '{'
    checker.start_key(); checker.key("na"); checker.key("me"); checker.end_key()
    checker.start_string(); checker.string("Bo"); checker.end_string()
    checker.number("4"); checker.number("2"); checker.end_number()   # a number, piece by piece
    checker.literal("true")                  # true / false / null, whole
    checker.start_array(); ...; checker.end_array()
    checker.end_object()
    checker.alive, checker.reason, checker.keyword, checker.pointer

Every event method returns ``alive``. Once dead, the checker stays dead and ignores every
later event; ``reason`` says why (``"/age: type: a string where the schema asks for
integer"``), ``keyword`` and ``pointer`` name the keyword and the JSON pointer of the value
that broke it. Two more events: ``opaque()`` (the value being written will not be judged
any further: its text cannot be read reliably, e.g. a relaxed escape) and ``give_up()``
(nothing more will be judged: the driver lost the thread; the finish-time check decides).
A third, ``skip()``, stands for a whole value the driver cannot read (an item still counts).
``complete`` is true once the top-level value has closed. ``copy()`` costs the state,
O(depth x alternatives) plus the open string's kept text, never the length so far.

It is **sound**: it never refuses a prefix of a value the schema accepts. What a prefix
decides, it decides as soon as it can: ``type`` (unions included, at the value's first
character), ``enum``/``const`` (a string must begin a member; other kinds at their end),
``properties``, ``patternProperties``, ``additionalProperties`` (``false``: at the first
character of the key that no property begins and no ``patternProperties`` pattern can
still match, when a prefix decides every such pattern, else at the key's end; a schema:
judges the member's value), ``propertyNames`` (its ``pattern``, ``enum``/``const`` and
``maxLength`` as the key grows, the rest at the key's end), ``required``/``minProperties``
(at the closing brace), ``maxProperties``, ``prefixItems``/``items`` (draft-07's tuple
``items`` and ``additionalItems`` too), ``maxItems`` (at the first item too many),
``minItems`` (at the closing bracket), ``maxLength`` (as the string grows), ``minLength``
(at the string's end), ``pattern`` (as the string grows when every match must begin at
the string's start and :mod:`.prefix_patterns` reads its syntax, ``^[A-Z]{3}-\\d+$``,
else at the string's end, where a searched ``ok`` may still match text to come; the whole
string is always judged at its end by the linear-time engine of :mod:`.patterns`),
``minimum``/``maximum``/``exclusive*``/``multipleOf`` (integers) and ``integer`` at the
number's end (a prefix never decides a number: ``-0``, ``1e-400`` and ``1.5e1`` keep any
sign or fraction possible), ``allOf``/``anyOf``/``oneOf`` (alternatives tracked while any
is alive; ``oneOf``'s "only one" at the end), ``$ref`` inside the document (recursive
schemas included). Everything else is judged at ``finish()`` by the full validator.

A key written twice: the value read first is judged as it is written (a stream cannot
wait for the object to close before judging its members), while the parser keeps the
last one; such a reply may be stopped although the finish-time check, alone, would pass it.

``lenient=True`` follows the schema-aware repairs healing makes (:mod:`.repairs`), for
relaxed stream guards: strings holding a number or boolean where one is asked, numbers
where a string is asked, a lone value where an array is asked, enum values in another
case, keys that differ from a property only in case, ``_`` or ``-``.
"""

from __future__ import annotations

import math
from typing import Any

from . import prefix_values as pv
from .closing import UNKNOWN, Open, item_schema, member_schema, named_schemas, shortest
from .prefix_patterns import PrefixPattern, Run, prefix_pattern
from .schema_nodes import (
    ARRAY,
    BOOLEAN,
    MAX_FRAME_ALTERNATIVES,
    NULL,
    NUMBER,
    OBJECT,
    STRING,
    TRUE,
    Compiled,
    Node,
    coercer,
    norm_key,
)

__all__ = ["PrefixChecker", "compile_schema"]

_Alt = tuple[Node, ...]
_Runs = dict[str, tuple[PrefixPattern, Run]]
_NONE: frozenset[str] = frozenset()
_COMPILED: dict[int, tuple[Any, Compiled]] = {}
_MEMO_MAX = 65536  # entries of a compiled schema's memo (keys, kinds, members)
_LITERALS = {"true": True, "false": False, "null": None}


def compile_schema(schema: Any) -> Compiled:
    """The compiled form of ``schema`` (a dict or bool, a loaded ``JsonSchema`` or a
    pydantic model class), cached per schema object."""
    if hasattr(schema, "model_json_schema"):
        schema = schema.model_json_schema()
    elif hasattr(schema, "retriever") and hasattr(schema, "schema"):
        schema = schema.schema
    found = _COMPILED.get(id(schema))
    if found is not None and found[0] is schema:
        return found[1]
    compiled = Compiled(schema)
    if len(_COMPILED) > 256:
        _COMPILED.clear()
    _COMPILED[id(schema)] = (schema, compiled)
    return compiled


class _Frame:
    """One value being written: its kind, the alternatives still alive (each with the
    index of the parent's alternative it serves), and what its keywords need to count."""

    # Class-level defaults: a frame is made per value, and sets only what differs.
    fallback: frozenset[int] = frozenset()  # when not judged: the parent's alternatives it keeps
    count = 0  # members or items so far
    member: str | int | None = None  # the current key or index (for pointers)
    parts: list[str] | None = None  # the text kept (string, number, key)
    length = 0  # characters of the string so far
    watch = False  # strings: some alternative judges the string at all
    early = False  # strings: some alternative judges its prefix; objects: keys' prefixes
    seen: frozenset[str] = frozenset()  # required keys seen (normalised when lenient)
    wanted: frozenset[str] = frozenset()  # objects: the keys some alternative requires
    keyed: list[_Alt] | None = None  # objects: the member value's conjunction per alternative
    runs: _Runs | None = None  # strings, keys: the run of each pattern a prefix still decides
    key_runs: _Runs | None = None  # objects: the runs a key begins with
    limit = 0  # objects: the longest name a key's prefix is compared with
    measure: int | None = 0  # objects: the key's length as compared (None: always compared)
    bounded = True  # objects: some alternative has maxProperties (True until start_object knows)

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.alts: list[tuple[int, _Alt]] | None = []  # None: not judged (past the cap)

    def copy(self) -> _Frame:
        clone = _Frame.__new__(_Frame)
        clone.__dict__.update(self.__dict__)
        if self.alts is not None:
            clone.alts = list(self.alts)
        if self.parts is not None:
            clone.parts = list(self.parts)
        if self.runs is not None:
            clone.runs = dict(self.runs)
        return clone


class PrefixChecker:
    """Judges a value against a JSON Schema event by event (see the module doc)."""

    __slots__ = ("_c", "_lenient", "_stack", "_dead", "_done", "_off", "alive")

    def __init__(self, schema: Any, *, lenient: bool = False) -> None:
        self._c = schema if isinstance(schema, Compiled) else compile_schema(schema)
        self._lenient = lenient
        self._stack: list[_Frame] = []
        self._dead: tuple[str, str, str] | None = None  # (keyword, pointer, message)
        self._done = False
        self._off = False  # give_up(): nothing more is judged
        #: Whether some continuation of the events so far can satisfy the schema.
        self.alive = True

    # --- answers ------------------------------------------------------------------------
    @property
    def watching(self) -> bool:
        """Whether the string being written is judged at all (a driver may skip calling
        ``string()`` with its pieces when it is not)."""
        stack = self._stack
        return bool(stack) and stack[-1].kind == STRING and stack[-1].watch and self._dead is None

    @property
    def reason(self) -> str | None:
        """Why no continuation can (``None`` while alive)."""
        if self._dead is None:
            return None
        keyword, pointer, message = self._dead
        return f"{pointer or '/'}: {keyword}: {message}"

    @property
    def keyword(self) -> str | None:
        """The keyword no continuation can satisfy."""
        return self._dead[0] if self._dead else None

    @property
    def pointer(self) -> str | None:
        """The JSON pointer of the value that broke the schema."""
        return self._dead[1] if self._dead else None

    @property
    def complete(self) -> bool:
        """The top-level value has closed."""
        return self._done

    def copy(self) -> PrefixChecker:
        """An independent clone: O(depth x alternatives) and the open string's kept text."""
        clone = PrefixChecker.__new__(PrefixChecker)
        clone._c = self._c
        clone._lenient = self._lenient
        clone._stack = [f.copy() for f in self._stack]
        clone._dead = self._dead
        clone._done = self._done
        clone._off = self._off
        clone.alive = self.alive
        return clone

    # --- what is still needed (generation closes a reply with it) ---------------------------
    def needs(self) -> list[Open] | None:
        """For each open container, innermost first, what its first live alternative
        still lacks before it may close (:mod:`.closing`); ``None`` when dead, not
        judging, or when a lacking value cannot be found."""
        if self._dead is not None or self._off:
            return None
        out: list[Open] = []
        for f in reversed(self._stack):
            if f.kind != OBJECT and f.kind != ARRAY:
                continue
            if not f.alts:
                out.append(Open(f.kind, [], f.count))  # not judged: nothing known
                continue
            alt = f.alts[0][1]
            missing: list[Any] = []
            if f.kind == OBJECT:
                for key in dict.fromkeys(r for n in alt for r in n.required):
                    if (norm_key(key) if self._lenient else key) not in f.seen:
                        missing.append((key, shortest(self._c, member_schema(alt, key))))
            else:
                wanted = max((n.min_items for n in alt if n.min_items is not None), default=0)
                missing = [shortest(self._c, item_schema(alt, i)) for i in range(f.count, wanted)]
            if any((m[1] if f.kind == OBJECT else m) is UNKNOWN for m in missing):
                return None
            out.append(Open(f.kind, missing, f.count))
        return out

    def expected(self, key: str | None = None) -> Any:
        """The shortest value for the value about to begin: the document (nothing open),
        the next item of the innermost array, the member of the innermost object whose
        key just ended (or of ``key``); :data:`.closing.UNKNOWN` when not known."""
        if self._dead is not None or self._off:
            return UNKNOWN
        if not self._stack:
            return UNKNOWN if self._done else shortest(self._c, (self._c.root,))
        f = self._stack[-1]
        if not f.alts:
            return UNKNOWN
        alt = f.alts[0][1]
        if f.kind == ARRAY:
            return shortest(self._c, item_schema(alt, f.count))
        if f.kind != OBJECT:
            return UNKNOWN
        if key is None and f.keyed:
            return shortest(self._c, f.keyed[0])
        return shortest(self._c, member_schema(alt, key if key is not None else str(f.member)))

    def properties(self) -> tuple[str, ...]:
        """The properties the innermost object's first live alternative names (required
        ones first), and whether other keys are allowed: ``()`` when not known."""
        f = self._stack[-1] if self._stack and self._dead is None and not self._off else None
        if f is None or f.kind != OBJECT or not f.alts:
            return ()
        alt = f.alts[0][1]
        return tuple(dict.fromkeys([*(r for n in alt for r in n.required), *(p for n in alt for p in n.props)]))

    def fits(self, text: str) -> bool:
        """Whether the scalar being written (the innermost string or number), ending as
        ``text`` (a string's decoded text, a number as written), satisfies the first live
        alternative's keywords; True when none judges it."""
        f = self._stack[-1] if self._stack and self._dead is None and not self._off else None
        if f is None or not f.alts:
            return True
        alt = f.alts[0][1]
        if f.kind == STRING:
            return all(pv.string_final(n, text, len(text), self._lenient) is None for n in alt)
        if f.kind == NUMBER:
            try:  # a hint: a long integer read exactly, where the parser's reading is not certain
                value: int | float = int(text) if text.lstrip("-").isdigit() else float(text)
            except ValueError:
                return False
            return all(pv.number_final(n, value) is None for n in alt)
        return True

    def string_ends(self, text: str) -> str | None:
        """The shortest text that ends the string being written (``text`` so far) as the
        first live alternative accepts: a member of its enum that ``text`` begins, or
        ``text`` padded to ``minLength``; ``None`` when none is found."""
        if self.fits(text):
            return ""
        f = self._stack[-1] if self._stack else None
        if f is None or f.kind != STRING or not f.alts:
            return None
        alt = f.alts[0][1]
        members = [m for n in alt if n.enum is not None for m in n.enum if isinstance(m, str) and m.startswith(text)]
        wanted = max((n.min_len for n in alt if n.min_len is not None), default=0)
        for rest in (*(m[len(text) :] for m in members), "a" * max(wanted - len(text), 0)):
            if self.fits(text + rest):
                return rest
        return None

    def key_text(self) -> str | None:
        """The (decoded) text of the key being written in the innermost object, ``None``
        when no key is open."""
        f = self._stack[-1] if self._stack and self._dead is None and not self._off else None
        if f is None or f.kind != OBJECT or f.parts is None:
            return None
        return "".join(f.parts)

    def closed_keys(self) -> bool:
        """Whether the innermost object's first live alternative allows no key but its
        properties (``additionalProperties: false`` without patterns)."""
        f = self._stack[-1] if self._stack and self._dead is None and not self._off else None
        if f is None or f.kind != OBJECT or not f.alts:
            return False
        return any(n.additional is False and not n.patterns for n in f.alts[0][1])

    # --- events: containers -------------------------------------------------------------
    def start_object(self) -> bool:
        """``{``."""
        f = self._open(OBJECT)
        if f is not None and f.alts:
            memo = self._c.memo
            alts = f.alts
            k = ("object", alts[0][1]) if len(alts) == 1 else ("object", *(alt for _, alt in alts))
            keys = memo.get(k)
            if keys is None:
                nodes = [n for _, alt in f.alts for n in alt]
                keys = (*self._key_judges(nodes), any(n.max_props is not None for n in nodes))
                if len(memo) < _MEMO_MAX:
                    memo[k] = keys
            f.early, f.limit, f.key_runs, f.bounded = keys
            lenient = self._lenient
            f.wanted = frozenset(norm_key(r) if lenient else r for _, alt in f.alts for n in alt for r in n.required)
        return self._dead is None

    def start_key(self) -> bool:
        """A key of the innermost object begins."""
        stack = self._stack
        if self._dead is None and not self._off and stack:
            f = stack[-1]
            f.parts = []
            if f.early:
                f.length = f.measure = 0
                if f.key_runs:
                    f.runs = dict(f.key_runs)
        return self._dead is None

    def key(self, piece: str, last: bool = False) -> bool:
        """More of the key's (decoded) text; ``last``: ``end_key()`` follows at once (it
        judges the whole key, so the prefix is not judged on its own)."""
        stack = self._stack
        if self._dead is not None or self._off or not stack:
            return self._dead is None
        f = stack[-1]
        if f.parts is None:
            return True
        f.parts.append(piece)
        if f.early and f.alts and not last:
            self._key_prefix(f, piece)
        return self._dead is None

    def _key_prefix(self, f: _Frame, piece: str) -> None:
        """Judge the key written so far (``piece`` its last part): ``additionalProperties:
        false`` (a property's name it begins, a ``patternProperties`` pattern that may still
        match) and ``propertyNames``. The text is joined only while a name may begin with
        it, so a long key costs its length, not its square."""
        lenient = self._lenient
        before = f.measure
        f.length += len(piece)
        if before is not None:
            if lenient and not piece.isascii():
                f.measure = None  # case folding across scripts: always compared
            else:
                f.measure = before + len(piece) - (piece.count("_") + piece.count("-") if lenient else 0)
        text: str | None = None
        if before is None or f.measure is None or before <= f.limit:
            text = "".join(f.parts or ())
            f.parts = [text]
            f.member = text
        dead = self._feed(f.runs, piece) if f.runs else _NONE
        memo, length = self._c.memo, f.length
        alts = f.alts
        if (
            text is not None
            and alts
            and len(alts) == 1
            and memo.get(("key", alts[0][1], text, lenient, dead), memo) is None
        ):
            return  # the one alternative is known to take this prefix: nothing to prune

        def judge(alt: _Alt) -> tuple[str, str] | None:
            k = ("key", alt, text, lenient, dead)
            found: Any = memo.get(k, memo) if text is not None else memo
            if found is memo:
                found = _first(pv.key_prefix(n, text, lenient, dead) for n in alt) or _first(
                    self._name_prefix(n.names, text, length, dead) for n in alt if n.names is not None
                )
                if text is not None and len(memo) < _MEMO_MAX:
                    memo[k] = found
            return found

        if text is None and f.alts and all(judge(alt) is not None for _, alt in f.alts):
            text = "".join(f.parts or ())  # the key dies: its reason and pointer name it
            f.parts = [text]
            f.member = text
        self._prune(f, judge, member=text)

    def _key_judges(self, nodes: list[Node]) -> tuple[bool, int, _Runs | None]:
        """Whether a key's prefix can fail ``nodes`` (an object's alternatives), the
        longest name it is compared with, and the runs of the patterns it meets."""
        early, limit = False, 0
        patterns: dict[str, None] = {}
        for n in nodes:
            if n.additional is False and all(prefix_pattern(p) is not None for p, _ in n.patterns):
                early = True
                patterns.update(dict.fromkeys(p for p, _ in n.patterns))
                limit = max(limit, 0, *map(len, n.props), *map(len, n.norm_props))
            options = self._c.alternatives((n.names,)) if n.names is not None else None
            for alt in options or ():
                for m in alt:
                    decided = pv.decided_pattern(m)
                    if decided is not None:
                        patterns[decided] = None
                    if m.enum is not None:
                        limit = max(limit, 0, *map(len, m.enum_strings))
                    if decided or m.enum is not None or m.max_len is not None or not pv.admits(m, STRING):
                        early = True
        return early, limit, _starts(patterns)

    @staticmethod
    def _feed(runs: _Runs, piece: str) -> frozenset[str]:
        """Feed ``piece`` to each run; the patterns no continuation can match any more. A
        run decided alive (a match found, or past its work budget) is dropped."""
        dead: frozenset[str] = _NONE
        decided = None
        for pattern, (compiled, run) in runs.items():
            run = compiled.feed(run, piece)
            states = run[0]
            if states is None:
                decided = [pattern] if decided is None else [*decided, pattern]
                continue
            runs[pattern] = (compiled, run)
            if not states:
                dead = dead | {pattern}
        if decided is not None:
            for pattern in decided:
                del runs[pattern]
        return dead

    def end_key(self) -> bool:
        """The key is complete: the member's value comes next."""
        f = self._top()
        if f is None:
            return self._dead is None
        key = "".join(f.parts or ())
        f.parts = None
        f.member = key
        f.count += 1
        if f.alts is None:
            return True
        keyed: list[_Alt] = []
        memo, lenient, count = self._c.memo, self._lenient, f.count
        alts = f.alts
        known = memo.get(("member", alts[0][1], key, lenient)) if len(alts) == 1 and not f.bounded else None
        if known is not None and not (known and isinstance(known[0], str)):
            f.keyed = [known]  # the one alternative takes the key (known, no maxProperties): nothing to prune
        else:
            self._prune(f, lambda alt: self._keyed(alt, key, count, keyed), member=key)
            f.keyed = keyed
        if f.wanted:
            wanted = norm_key(key) if lenient else key
            if wanted in f.wanted:
                f.seen = f.seen | {wanted}
        return self._dead is None

    def _keyed(self, alt: _Alt, key: str, count: int, keyed: list[_Alt]) -> tuple[str, str] | None:
        """Why ``alt`` refuses the member ``key`` (the ``count``-th), else ``None`` with
        the conjunction its value must satisfy added to ``keyed``."""
        memo, lenient = self._c.memo, self._lenient
        for n in alt:
            if n.max_props is not None and count > n.max_props:
                return "maxProperties", f"more than {n.max_props} properties"
        k = ("member", alt, key, lenient)
        conj = memo.get(k)
        if conj is None:
            conj = self._member(alt, key)
            if len(memo) < _MEMO_MAX:
                memo[k] = conj
        if conj and isinstance(conj[0], str):
            return conj
        keyed.append(conj)
        return None

    def end_object(self) -> bool:
        """``}``."""
        f = self._top()
        if f is not None and f.alts:
            self._prune(f, lambda alt: _first(self._closing_object(n, f) for n in alt), own=True)
        return self._close()

    def start_array(self) -> bool:
        """``[``."""
        self._open(ARRAY)
        return self._dead is None

    def end_array(self) -> bool:
        """``]``."""
        f = self._top()
        if f is not None and f.alts and any(n.min_items is not None for _, alt in f.alts for n in alt):
            count = f.count
            self._prune(
                f,
                lambda alt: _first(
                    ("minItems", f"fewer than {n.min_items} items")
                    if n.min_items is not None and count < n.min_items
                    else None
                    for n in alt
                ),
                own=True,
            )
        return self._close()

    # --- events: scalars ----------------------------------------------------------------
    def start_string(self) -> bool:
        """A string value begins."""
        f = self._open(STRING)
        if f is not None and f.alts:
            memo = self._c.memo
            alts = f.alts
            k = ("string", alts[0][1]) if len(alts) == 1 else ("string", *(alt for _, alt in alts))
            flags = memo.get(k)
            if flags is None:
                nodes = [n for _, alt in f.alts for n in alt]
                flags = (
                    any(pv.judges_string(n) for n in nodes),
                    any(pv.judges_prefix(n) for n in nodes),
                    any(pv.needs_text(n) for n in nodes),
                    _starts(p for p in map(pv.decided_pattern, nodes) if p is not None),
                )
                if len(memo) < _MEMO_MAX:
                    memo[k] = flags
            f.watch, f.early, text, patterns = flags
            f.parts = [] if text else None
            if patterns:
                f.runs = dict(patterns)
        return self._dead is None

    def string(self, piece: str) -> bool:
        """More of the string's decoded text."""
        stack = self._stack
        if not stack:
            return self._dead is None
        f = stack[-1]
        if not f.watch or f.kind != STRING:
            return self._dead is None
        f.length += len(piece)
        parts = f.parts
        if parts is not None:
            parts.append(piece)
        if f.early and f.alts:
            text = None
            if parts is not None:
                text = "".join(parts)
                f.parts = [text]
            self._judge(f, pv.string_prefix, text)
        if f.runs is not None and f.alts and self._dead is None:
            dead = self._feed(f.runs, piece)
            if dead:
                self._prune(f, lambda alt: _first(self._unmatched(f, n, dead) for n in alt), own=True)
                for pattern in dead:  # its alternatives are gone
                    del f.runs[pattern]
        return self._dead is None

    @staticmethod
    def _unmatched(f: _Frame, n: Node, dead: frozenset[str]) -> tuple[str, str] | None:
        if n.coerce or n.pattern not in dead:
            return None
        text = "".join(f.parts or ())
        shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "..."
        return "pattern", f"no string beginning {shown} matches {n.pattern!r}"

    def _judge(self, f: _Frame, judge: Any, text: str | None) -> None:
        """Keep ``f``'s alternatives whose every node ``judge`` (a string judgement of
        :mod:`.prefix_values`) finds no reason against."""
        alts = f.alts
        assert alts is not None
        length, lenient = f.length, self._lenient
        kept: list[tuple[int, _Alt]] = []
        first = None
        for entry in alts:
            for n in entry[1]:
                reason = judge(n, text, length, lenient)
                if reason is not None:
                    first = first or reason
                    break
            else:
                kept.append(entry)
        if len(kept) != len(alts):
            f.alts = kept
            if not kept and first is not None:
                self._kill(first, own=True)

    def end_string(self) -> bool:
        """The string value is complete."""
        f = self._top()
        if f is not None and f.watch and f.alts:
            self._judge(f, pv.string_final, None if f.parts is None else "".join(f.parts))
        return self._close()

    def number(self, piece: str) -> bool:
        """More of a number's text (the first piece begins it)."""
        stack = self._stack
        f = stack[-1] if stack else None
        if f is None or f.kind != NUMBER:
            f = self._open(NUMBER)
            if f is None:
                return self._dead is None
            f.parts = []
        if f.parts is not None:
            f.parts.append(piece)
        return self._dead is None

    def end_number(self) -> bool:
        """The number is complete."""
        f = self._top()
        if f is not None and f.kind == NUMBER and f.alts:
            value = pv.number_value("".join(f.parts or ()))
            if value is not None:
                self._prune(f, lambda alt: _first(pv.number_final(n, value) for n in alt), own=True)
        return self._close()

    def literal(self, word: str) -> bool:
        """``true``, ``false`` or ``null``, whole."""
        value = _LITERALS.get(word)
        f = self._open(NULL if value is None else BOOLEAN)
        if f is not None and f.alts and any(n.enum is not None for _, alt in f.alts for n in alt):
            self._prune(f, lambda alt: _first(pv.literal_final(n, value) for n in alt), own=True)
        return self._close()

    def value(self, value: Any) -> bool:
        """A whole value a format has settled (a Python value as JSON reads it: dict,
        list, str, int, float, bool, None), fed as its events."""
        if isinstance(value, dict):
            self.start_object()
            for key, item in value.items():
                self.start_key()
                self.key(str(key))
                self.end_key()
                self.value(item)
            return self.end_object()
        if isinstance(value, (list, tuple)):
            self.start_array()
            for item in value:
                self.value(item)
            return self.end_array()
        if isinstance(value, str):
            self.start_string()
            self.string(value)
            return self.end_string()
        if value is None or isinstance(value, bool):
            return self.literal("null" if value is None else "true" if value else "false")
        if isinstance(value, (int, float)) and math.isfinite(value):
            self.number(repr(value))
            return self.end_number()
        self.give_up()  # a value JSON has no spelling for (inf, a date): the end judges it
        return self.alive

    def opaque(self) -> bool:
        """The value being written is not judged any further (its alternatives stand)."""
        f = self._top()
        if f is not None and f.alts is not None:
            f.fallback = frozenset(i for i, _ in f.alts)
            f.alts = None
        return self._dead is None

    def skip(self) -> bool:
        """A whole value not read, taken as unknown: judged at ``finish()``, its alternatives kept."""
        if self._dead is not None or self._off:
            return self._dead is None
        stack = self._stack
        if not stack:
            self._off = True  # the whole value unknown: nothing here is judged
            return True
        parent = stack[-1]
        if parent.kind == ARRAY:
            self._items(parent)  # an item all the same: maxItems and closed tuples judge it
        elif parent.kind == OBJECT:
            parent.keyed = None
        return self._dead is None

    def give_up(self) -> None:
        """Nothing more is judged: the finish-time check decides."""
        self._off = True

    # --- the machinery --------------------------------------------------------------------
    def _top(self) -> _Frame | None:
        if self._dead is not None or self._off or not self._stack:
            return None
        return self._stack[-1]

    def _open(self, kind: str) -> _Frame | None:
        if self._dead is not None or self._off:
            return None
        stack = self._stack
        if not stack:
            if self._done:
                self._off = True  # a second value: not the document judged
                return None
            pending: list[tuple[int, _Alt]] | None = [(0, (self._c.root,))]
        else:
            parent = stack[-1]
            if parent.kind == ARRAY:
                pending = self._items(parent)
            elif parent.alts is None:
                pending = None
            else:
                pending = list(enumerate(parent.keyed or [()] * len(parent.alts)))
        frame = _Frame(kind)
        stack.append(frame)
        if self._dead is not None:
            return None
        if pending is None:
            frame.alts = None
            frame.fallback = frozenset(range(len(stack[-2].alts or ()))) if len(stack) > 1 else frozenset({0})
            return frame
        self._admit(frame, pending)
        return frame if self._dead is None else None

    def _admit(self, frame: _Frame, pending: list[tuple[int, _Alt]]) -> None:
        alts: list[tuple[int, _Alt]] = []
        first: tuple[str, str] | None = None
        memo, kind, lenient = self._c.memo, frame.kind, self._lenient
        for index, conj in pending:
            k = (conj, kind, lenient)
            entry = memo.get(k)
            if entry is None:
                entry = self._admitted(conj, kind)
                if len(memo) < _MEMO_MAX:
                    memo[k] = entry
            kept, reason = entry
            if kept is None or len(alts) + len(kept) > MAX_FRAME_ALTERNATIVES:
                frame.alts = None
                frame.fallback = frozenset(i for i, _ in pending)
                return
            first = first or reason
            for alt in kept:
                alts.append((index, alt))
        if not alts:
            self._kill(first or ("false", "no alternative allows a value here"), own=True)
            return
        frame.alts = alts

    def _admitted(self, conj: _Alt, kind: str) -> tuple[tuple[_Alt, ...] | None, tuple[str, str] | None]:
        """The alternatives of ``conj`` that a value of ``kind`` may satisfy (``None``: too
        many to track), and the first reason against one that may not."""
        options = self._c.alternatives(conj)
        if options is None:
            return None, None
        kept: list[_Alt] = []
        first = None
        for alt in options:
            result = self._kind(alt, kind)
            if result and isinstance(result[0], str):
                first = first or result
            else:
                kept.append(result)
        return tuple(kept), first

    def _kind(self, alt: _Alt, kind: str) -> Any:
        """``alt`` for a value of ``kind``: the nodes that still judge it, or a reason."""
        out: list[Node] = []
        for n in alt:
            if pv.admits(n, kind):
                out.append(n)
                continue
            relaxed = self._relaxed(n, kind) if self._lenient and not n.false else False
            if relaxed is False:
                return pv.kind_reason(n, kind)
            if isinstance(relaxed, Node):
                out.append(relaxed)
        return tuple(out)

    @staticmethod
    def _relaxed(n: Node, kind: str) -> Node | bool | None:
        """What a lenient checker makes of ``n`` that refuses ``kind``: a stand-in node,
        ``None`` (drop it: healing may repair the value) or ``False`` (refused)."""
        types = n.types or frozenset()
        if n.enum is not None and (n.types is None or kind in types):
            return False  # the enum refuses the kind itself
        if kind == STRING and (NUMBER in types or BOOLEAN in types):
            wanted = {("integer" if n.integer else "number")} if NUMBER in types else set()
            return coercer(frozenset(wanted | ({BOOLEAN} & types)))
        if kind == NUMBER and STRING in types:
            return None
        if ARRAY in types and kind != NULL:
            return None  # a lone value healing may wrap
        return False

    def _items(self, parent: _Frame) -> list[tuple[int, _Alt]] | None:
        index = parent.count
        parent.count += 1
        parent.member = index
        if parent.alts is None:
            return None
        out: list[tuple[int, _Alt]] = []

        def item(alt: _Alt) -> tuple[str, str] | None:
            conj: list[Node] = []
            for n in alt:
                if n.max_items is not None and index >= n.max_items:
                    return "maxItems", f"more than {n.max_items} items"
                if index < len(n.prefix):
                    conj.append(n.prefix[index])
                elif n.items is False:
                    return n.items_keyword, f"no item allowed at index {index}"
                elif isinstance(n.items, Node):
                    conj.append(n.items)
            out.append((len(out), tuple(conj)))
            return None

        self._prune(parent, item, member=index)
        return out

    def _member(self, alt: _Alt, key: str) -> Any:
        """The conjunction the value of ``key`` must satisfy under ``alt``, or a reason."""
        conj: list[Node] = []
        for n in alt:
            named = named_schemas(n, key)
            conj.extend(named)
            if not named:
                if n.additional is False:
                    if not (self._lenient and norm_key(key) in n.norm_props):
                        return "additionalProperties", f"{key!r} is not a property the schema allows"
                elif isinstance(n.additional, Node):
                    conj.append(n.additional)
            if n.names is not None:
                reason = self._name(n.names, key)
                if reason is not None:
                    return reason
        return tuple(c for c in conj if c is not TRUE)

    def _name(self, names: Node, key: str) -> tuple[str, str] | None:
        options = self._c.alternatives((names,))
        if options is None:
            return None
        for alt in options:
            if all(pv.admits(n, STRING) and pv.string_final(n, key, len(key), False) is None for n in alt):
                return None
        return "propertyNames", f"{key!r} is not a property name the schema allows"

    def _name_prefix(self, names: Node, text: str | None, length: int, dead: frozenset[str]) -> tuple[str, str] | None:
        """Can a key beginning with ``text`` (``length`` characters; ``None``: longer than
        every name compared) still satisfy ``propertyNames``?"""
        options = self._c.alternatives((names,))
        if options is None:
            return None
        for alt in options:
            if all(
                pv.admits(n, STRING) and n.pattern not in dead and pv.string_prefix(n, text, length, False) is None
                for n in alt
            ):
                return None
        shown = repr(text) if text is not None else "a key this long"
        return "propertyNames", f"no property name the schema allows begins with {shown}"

    def _closing_object(self, n: Node, f: _Frame) -> tuple[str, str] | None:
        for r in n.required:
            if (norm_key(r) if self._lenient else r) not in f.seen:
                return "required", f"{r!r} is a required property"
        if n.min_props is not None and f.count < n.min_props:
            return "minProperties", f"fewer than {n.min_props} properties"
        return None

    def _prune(self, f: _Frame, judge: Any, *, member: str | int | None = None, own: bool = False) -> None:
        """Keep ``f``'s alternatives that ``judge`` finds no reason against; when none is
        left, the checker dies with the first reason."""
        alts = f.alts
        if not alts:
            return
        kept: list[tuple[int, _Alt]] = []
        first = None
        for entry in alts:
            reason = judge(entry[1])
            if reason is None:
                kept.append(entry)
            elif first is None:
                first = reason
        if len(kept) != len(alts):
            f.alts = kept
        if not kept and first is not None:
            self._kill(first, member=member, own=own)

    def _close(self) -> bool:
        if self._dead is not None or self._off or not self._stack:
            return self._dead is None
        f = self._stack.pop()
        if not self._stack:
            self._done = True
            return True
        parent = self._stack[-1]
        parent.keyed = None
        alts = parent.alts
        if alts is not None and (len(alts) > 1 or f.alts is None):
            survivors = f.fallback if f.alts is None else frozenset(i for i, _ in f.alts)
            parent.alts = [a for i, a in enumerate(alts) if i in survivors]
            if not parent.alts:
                self._kill(("false", "no alternative allows this value"), own=True)
        return self._dead is None

    def _kill(self, reason: tuple[str, str], *, member: str | int | None = None, own: bool = False) -> None:
        path: list[str] = []
        frames = self._stack[:-1] if own else self._stack
        for f in frames:
            if f.kind in (OBJECT, ARRAY) and f.member is not None:
                path.append(str(f.member).replace("~", "~0").replace("/", "~1"))
        pointer = "".join("/" + p for p in path)
        self._dead = (reason[0], pointer, reason[1])
        self.alive = False


def _starts(patterns: Any) -> _Runs | None:
    """The runs of ``patterns`` (each decided on prefixes) before any character."""
    runs: _Runs = {}
    for pattern in patterns:
        compiled = prefix_pattern(pattern)
        if compiled is not None:
            runs[pattern] = (compiled, compiled.start)
    return runs or None


def _first(reasons: Any) -> Any:
    for reason in reasons:
        if reason is not None:
            return reason
    return None
