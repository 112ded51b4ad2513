"""JSON text read as value events for the core's incremental schema checker
(:class:`formatbook_core.data_schema.prefix.PrefixChecker`).

:class:`JsonEvents` follows the tokens of the text it is fed and calls the checker's event
methods; the syntax itself is judged by :class:`.stream.JsonChecker`, which runs beside
it, so on a text that breaks the grammar the reader simply stops judging (``give_up``).

Strict (``relaxed=False``): RFC 8259 tokens; escapes are decoded (surrogate pairs
included) so that the checker sees each string's value.

Relaxed (``relaxed=True``, the grammar healing accepts): the reader starts at the first
``{`` or ``[`` (where :mod:`.commitment` puts the payload) and judges only what healing
is bound to read the same way. Anything healing may read otherwise stops the judging,
never the reply: single or smart quotes, unquoted keys, bare words, loose numbers,
comments, missing or trailing commas, mismatched brackets, a backtick or tilde (a fence
line may end the payload). A quote closes a string only once what follows says so, as
healing decides (``,`` ``:`` ``}`` ``]`` or a line break after it); a backslash in a
string leaves that string unjudged (a later escape that escapes nothing makes every
backslash of the string literal); a literal is read once the word is known to end.
"""

from __future__ import annotations

import re
from typing import Any

from formatbook_core.data_schema.prefix import PrefixChecker

__all__ = ["JsonEvents"]

# states
_PROSE, _VALUE, _ARR_FIRST, _OBJ_FIRST, _KEY, _COLON, _AFTER, _DONE = range(8)
_STR, _ESC, _HEX, _QEND, _NUM, _LIT, _LITEND, _OFF = range(8, 16)

_WS = " \t\n\r"
_SKIP_WS = re.compile(r"[ \t\n\r]*").match
_STRICT_STOP = re.compile(r'["\\]').search
_RELAXED_STOP = re.compile(r'["\\`~]').search
_NUM_RUN = re.compile(r"[0-9eE.+\-]*").match
_STRICT_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?").fullmatch
_WORD_CHAR = re.compile(r"[\w$]").match
_BRACKET = re.compile(r"[\[{]").search
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LITERALS = {"t": "true", "f": "false", "n": "null"}
_CLOSER = {"{": "}", "[": "]"}


def _end(m: re.Match[str] | None, i: int) -> int:
    return m.end() if m is not None else i


# --- memoized moves (strict) ------------------------------------------------------------
# A token stream repeats its chunks (`": "`, `",\n  "`, `e": 1`); the events such a chunk
# makes depend only on the state, the chunk and the top of the stack, so ``_MOVES`` keeps
# them (bounded) and a repeated chunk replays its events instead of being read again.
# Relaxed moves are kept apart (``_RELAXED_MOVES``): the same chunk reads otherwise there.
_MOVES: dict[tuple[int, bool, str, str, bool], Any] = {}
_RELAXED_MOVES: dict[tuple[int, bool, str, str, bool], Any] = {}
_MOVES_MAX = 8192
_MOVES_CHUNK = 32
# the states whose move depends on nothing but the chunk, the key flag and the stack's top
_MEMO_STATES = frozenset((_VALUE, _ARR_FIRST, _OBJ_FIRST, _KEY, _COLON, _AFTER, _STR, _NUM))
# relaxed: a number's move depends on its text so far (``_num``), a quote's only on the key
# flag and what follows it
_RELAXED_MEMO_STATES = frozenset((_VALUE, _ARR_FIRST, _OBJ_FIRST, _KEY, _COLON, _AFTER, _STR, _QEND))
# relaxed: the states a move may not end in (they keep text in ``_num`` a move does not carry)
_RELAXED_UNCARRIED = frozenset((_NUM, _LIT, _LITEND))


class _Recorder:
    """Stands in for the checker while a move is worked out: records the events."""

    alive = True
    watching = True
    reason = None

    def __init__(self) -> None:
        self.events: list[tuple[Any, tuple[str, ...]]] = []


def _recording(name: str) -> Any:
    fn = getattr(PrefixChecker, name)

    def record(self: _Recorder, *args: str) -> bool:
        self.events.append((fn, args))
        return True

    return record


for _name in (
    "start_object",
    "end_object",
    "start_array",
    "end_array",
    "start_key",
    "key",
    "end_key",
    "start_string",
    "string",
    "end_string",
    "number",
    "end_number",
    "literal",
    "opaque",
    "give_up",
):
    setattr(_Recorder, _name, _recording(_name))
_OPENERS = (PrefixChecker.start_object, PrefixChecker.start_array)
_CLOSERS = (PrefixChecker.end_object, PrefixChecker.end_array)


class JsonEvents:
    """Reads JSON text chunk by chunk and drives ``checker``; ``failure`` is ``(position,
    reason)`` once the checker is dead (``position``: the offset of the character, in the
    text fed, that left no continuation). Each feed costs O(len(chunk)); ``copy()`` costs
    the open containers and the checker's state."""

    __slots__ = (
        "checker",
        "_relaxed",
        "_st",
        "_stack",
        "_key",
        "_hex",
        "_high",
        "_lit",
        "_num",
        "_pos",
        "_peek",
        "_sink",
        "_moves",
        "_memo",
        "_stop",
        "failure",
    )

    def __init__(self, checker: PrefixChecker, *, relaxed: bool = False) -> None:
        self.checker = checker
        self._relaxed = relaxed
        self._st = _PROSE if relaxed else _VALUE
        self._stack: list[str] = []
        self._key = False  # the open string is a key
        self._hex = ""  # the digits of a \u escape
        self._high = ""  # a high surrogate waiting for its low half
        self._lit = ""  # the rest of the literal being read (or, relaxed, the word)
        self._num: list[str] = []  # relaxed: the number's text, checked at its end
        self._pos = 0
        self._sink = 0  # inside a string: 0 its pieces are not judged, 1 a key, 2 a judged value
        self._peek = False  # the last step judged the character it stopped at (not one it took)
        self._moves = _RELAXED_MOVES if relaxed else _MOVES  # the memoized moves of this grammar
        self._memo = _RELAXED_MEMO_STATES if relaxed else _MEMO_STATES  # the states they start in
        self._stop = _RELAXED_STOP if relaxed else _STRICT_STOP  # what ends a string's plain run
        self.failure: tuple[int, str] | None = None

    def copy(self) -> JsonEvents:
        """An independent clone."""
        clone = JsonEvents.__new__(JsonEvents)
        for name in JsonEvents.__slots__:
            setattr(clone, name, getattr(self, name))
        clone.checker = self.checker.copy()
        clone._stack = list(self._stack)
        clone._num = list(self._num)
        return clone

    def feed(self, chunk: str) -> bool:  # noqa: C901 - the hot path: punctuation inline
        """Read ``chunk``; False once no continuation can satisfy the schema."""
        st = self._st
        if st == _STR:
            if self._stop(chunk) is None:  # inside the string
                self._pos += len(chunk)
                sink = self._sink
                if sink and not (self.checker.key(chunk) if sink == 1 else self.checker.string(chunk)):
                    self._died(self._pos - 1)
                    return False
                return True
        elif st == _DONE or st == _OFF or (st < _STR and not chunk.strip(_WS)):
            self._pos += len(chunk)  # nothing to read, or white space between tokens
            return self.failure is None
        if (
            st in self._memo
            and len(chunk) <= _MOVES_CHUNK
            and not self._high
            and (self._sink or st != _STR or not self._relaxed)  # relaxed: an opaque string stays unfed
        ):
            stack = self._stack
            top = stack[-1] if stack else ""
            k = (st, self._key, chunk, top, len(stack) > 1)
            moves = self._moves
            move = moves.get(k)
            if move is None:
                move = self._simulate(chunk, top, len(stack) > 1)
                if len(moves) < _MOVES_MAX:
                    moves[k] = move
            if move is not False:
                return self._replay(move, len(chunk))
        checker = self.checker
        i, n = 0, len(chunk)
        while i < n:
            st = self._st
            if st == _AFTER or st == _COLON:  # punctuation, the commonest step between tokens
                c = chunk[i]
                if c in _WS:
                    i += 1
                    continue
                if c == "," and st == _AFTER:
                    self._st = _VALUE if self._stack[-1] == "[" else _KEY
                    i += 1
                    continue
                if c == ":" and st == _COLON:
                    self._st = _VALUE
                    i += 1
                    continue
            elif st == _KEY or st == _OBJ_FIRST:
                c = chunk[i]
                if c in _WS:
                    i += 1
                    continue
                if c == '"':
                    checker.start_key()
                    self._st, self._key, self._sink = _STR, True, 1
                    i += 1
                    continue
            elif st >= _OFF:
                break
            self._peek = False
            i = self._step(chunk, i)
            if not checker.alive:
                self._died(self._pos + (i if self._peek else i - 1))
                break
        self._pos += n
        return self.failure is None

    def _simulate(self, chunk: str, top: str, deeper: bool) -> Any:
        """The move ``chunk`` makes from the current state with ``top`` on the stack
        (``deeper``: more entries below it): the state after it, the stack entries popped
        and pushed, and the events with the offset each fails at. False when the move
        depends on more than that (an escape, a pop below the top, a syntax error)."""
        sim = JsonEvents.__new__(JsonEvents)
        for name in JsonEvents.__slots__:
            setattr(sim, name, getattr(self, name))
        base = (["?"] if deeper else []) + ([top] if top else [])
        sim._stack = list(base)
        recorder = _Recorder()
        sim.checker = recorder  # type: ignore[assignment]
        sim._sink = 1 if self._key else 2
        i, n = 0, len(chunk)
        events: list[tuple[Any, tuple[Any, ...], int]] = []
        popped = -1  # where the last closer was read
        while i < n and sim._st < _OFF:
            sim._peek = False
            i = sim._step(chunk, i)
            at = i if sim._peek else i - 1
            for fn, args in recorder.events:
                events.append((fn, args, at))
                if fn in _CLOSERS:
                    popped = i
            recorder.events = []
        if sim._st in (_OFF, _ESC, _HEX) or sim._high:
            return False
        if self._relaxed and (sim._st in _RELAXED_UNCARRIED or any(e[0] is PrefixChecker.opaque for e in events)):
            return False  # the move leaves text in _num, or an opaque string unjudged
        for k in range(len(events) - 1 if not self._relaxed else 0):
            # strict: a key ended in the same chunk: end_key judges it whole
            fn, args, at = events[k]
            if fn is PrefixChecker.key and events[k + 1][0] is PrefixChecker.end_key:
                events[k] = (fn, (*args, True), at)
        if popped >= 0 and chunk[popped:].strip(_WS):
            return False  # what follows a closer depends on the container below it
        depth = low = len(base)
        for fn, _args, _at in events:
            if fn in _OPENERS:
                depth += 1
            elif fn in _CLOSERS:
                depth -= 1
                low = min(low, depth)
        if deeper and low < 1:
            return False
        pops = len(base) - low
        return sim._st, sim._key, sim._lit, pops, tuple(sim._stack[low:]), tuple(events)

    def _replay(self, move: Any, n: int) -> bool:
        st, key, lit, pops, pushes, events = move
        checker = self.checker
        for fn, args, at in events:
            if not fn(checker, *args):
                self._died(self._pos + at)
                self._pos += n
                return False
        stack = self._stack
        if pops:
            del stack[-pops:]
        if pushes:
            stack.extend(pushes)
        self._st, self._key, self._lit = st, key, lit
        if st == _STR:
            self._sink = 1 if key else 2 if checker.watching else 0
        self._pos += n
        return True

    def finish(self) -> bool:
        """The text has ended: a top-level number ends with it."""
        if self._st == _NUM and not self._stack and not self._relaxed:
            if not self.checker.end_number():
                self._died(self._pos)
        return self.failure is None

    def _died(self, position: int) -> None:
        self._st = _OFF
        self.failure = (max(position, 0), self.checker.reason or "the value cannot satisfy the schema")

    def _off(self) -> None:
        self._st = _OFF
        self.checker.give_up()

    def _after(self) -> int:
        return _AFTER if self._stack else _DONE

    # --- one step: from chunk[i], returns where the next step starts ------------------------
    def _step(self, chunk: str, i: int) -> int:  # noqa: C901 - one dispatch per state
        st = self._st
        if st == _STR:
            return self._string(chunk, i)
        if st < _STR and st != _PROSE:
            i = _end(_SKIP_WS(chunk, i), i)
            if i >= len(chunk):
                return i
        if st == _PROSE:
            m = _BRACKET(chunk, i)
            if m is None:
                return len(chunk)
            self._st = _VALUE
            return m.start()
        if st == _VALUE or st == _ARR_FIRST:
            return self._value(chunk, i)
        c = chunk[i]
        if st == _OBJ_FIRST or st == _KEY:
            if c == '"':
                self.checker.start_key()
                self._st, self._key, self._sink = _STR, True, 1
            elif c == "}" and st == _OBJ_FIRST:
                self._close("}")
            else:
                self._off()
            return i + 1
        if st == _COLON:
            if c == ":":
                self._st = _VALUE
            else:
                self._off()
            return i + 1
        if st == _AFTER:
            if c == ",":
                self._st = _VALUE if self._stack[-1] == "[" else _KEY
            elif c in "}]":
                self._close(c)
            else:
                self._off()
            return i + 1
        if st == _DONE:
            return len(chunk)
        if st == _ESC or st == _HEX:
            return self._escape(chunk, i)
        if st == _QEND:
            return self._quote_end(chunk, i)
        if st == _NUM:
            return self._number(chunk, i)
        return self._literal(chunk, i)

    def _value(self, chunk: str, i: int) -> int:
        c = chunk[i]
        checker = self.checker
        if c == "{":
            checker.start_object()
            self._stack.append(c)
            self._st = _OBJ_FIRST
        elif c == "[":
            checker.start_array()
            self._stack.append(c)
            self._st = _ARR_FIRST
        elif c == '"':
            checker.start_string()
            self._st, self._key, self._sink = _STR, False, 2 if checker.watching else 0
        elif c == "-" or "0" <= c <= "9":
            self._st = _NUM
            self._num = []
            return i
        elif c in _LITERALS:
            word = _LITERALS[c]
            if self._relaxed:
                self._lit = word[1:]
                self._num = [word]
            else:
                checker.literal(word)
                self._lit = word[1:]
            self._st = _LIT
        elif c == "]" and self._st == _ARR_FIRST:
            self._close("]")
        else:
            self._off()
        return i + 1

    def _close(self, c: str) -> None:
        stack = self._stack
        if not stack or _CLOSER.get(stack[-1]) != c:
            self._off()
            return
        stack.pop()
        if c == "}":
            self.checker.end_object()
        else:
            self.checker.end_array()
        self._st = self._after()

    def _string(self, chunk: str, i: int) -> int:
        m = self._stop(chunk, i)
        j = m.start() if m is not None else len(chunk)
        if j > i:
            self._piece(chunk[i:j])
        if m is None:
            return j
        c = chunk[j]
        if c == '"':
            if self._relaxed:
                self._st = _QEND
            else:
                self._end_string()
        elif c == "\\":
            if self._relaxed:
                if self._key:
                    self._off()
                else:
                    self.checker.opaque()
                    self._sink = 0
                    self._st = _ESC
            else:
                self._st = _ESC
        else:
            self._off()  # a backtick or tilde: a fence line may end the payload here
        return j + 1

    def _piece(self, text: str) -> None:
        if self._high:
            self._high = ""  # a lone high surrogate: the syntax refuses it
        sink = self._sink
        if sink == 1:
            self.checker.key(text)
        elif sink:
            self.checker.string(text)

    def _end_string(self) -> None:
        if self._key:
            self.checker.end_key()
            self._st = _COLON
        else:
            self.checker.end_string()
            self._st = self._after()

    def _escape(self, chunk: str, i: int) -> int:
        c = chunk[i]
        if self._relaxed:  # the string is opaque: the escaped character is skipped
            self._st = _STR
            return i + 1
        if self._st == _ESC:
            if c == "u":
                self._st, self._hex = _HEX, ""
            elif c in _ESCAPES:
                self._piece(_ESCAPES[c])
                self._st = _STR
            else:
                self._off()
            return i + 1
        self._hex += c
        if len(self._hex) < 4:
            return i + 1
        self._st = _STR
        try:
            code = int(self._hex, 16)
        except ValueError:
            self._off()
            return i + 1
        if 0xD800 <= code < 0xDC00:
            self._high = chr(code)
        elif 0xDC00 <= code < 0xE000 and self._high:
            high = ord(self._high)
            self._high = ""
            self._piece(chr(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)))
        else:
            self._piece(chr(code))
        return i + 1

    def _quote_end(self, chunk: str, i: int) -> int:
        """Relaxed: does the quote read before ``chunk[i]`` close its string?"""
        while i < len(chunk) and chunk[i] in " \t":
            i += 1
        if i >= len(chunk):
            return i
        if chunk[i] in ",:}]\n\r":
            self._end_string()
            self._peek = True
            return i
        self._off()  # an inner quote, a comment or a missing comma: healing decides
        return i

    def _number(self, chunk: str, i: int) -> int:
        j = _end(_NUM_RUN(chunk, i), i)
        if j > i:
            piece = chunk[i:j]
            self.checker.number(piece)
            if self._relaxed:
                self._num.append(piece)
        if j == len(chunk):
            return j
        if self._relaxed:
            c = chunk[j]
            if not _STRICT_NUMBER("".join(self._num)) or c not in ",}]" + _WS:
                self._off()  # a loose number (01, 1., +1, 1e) or a word: healing reads it
                return j
        self.checker.end_number()
        self._st = self._after()
        self._peek = True
        return j

    def _literal(self, chunk: str, i: int) -> int:
        if self._st == _LITEND:  # relaxed: the word must end here
            if _WORD_CHAR(chunk, i):
                self._off()
                return i
            self.checker.literal(self._num[0])
            self._st = self._after()
            self._peek = True
            return i
        rest = self._lit
        take = chunk[i : i + len(rest)]
        if not rest.startswith(take):
            self._off()
            return i
        self._lit = rest[len(take) :]
        if not self._lit:
            self._st = _LITEND if self._relaxed else self._after()
        return i + len(take)
