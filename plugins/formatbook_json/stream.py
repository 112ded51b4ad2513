"""An incremental JSON checker: a hand-written pushdown automaton fed chunk by chunk.

``JsonChecker(strict=True)`` follows RFC 8259 exactly, with one documented choice: an
escaped **lone surrogate** (``"\\ud800"`` alone, ``"\\udc00"``, a high surrogate followed by
anything but a low one) is rejected. RFC 8259's grammar admits it syntactically, but the
string it denotes is not Unicode text (it cannot be encoded as UTF-8), JSONTestSuite files
it under ``i_`` (either answer allowed), and orjson — which ``syntax.parse_strict`` uses —
rejects it too, so ``is_valid_json`` and this checker agree. The error is caught at the
first hex digit that makes the escape impossible (``\\uDC`` is already a lone low
surrogate). Numbers of any size are accepted, as the grammar says, but for one with a
positive exponent of 10**17 or more (:func:`beyond_range`): no exact value exists for it
in Python, and rounding it to infinity would change the data.

``JsonChecker(strict=False)`` follows the relaxed grammar healing accepts; see its
docstring. ``can_be_valid(partial)`` is the strict checker fed the whole ``partial``.

Speed: ``feed`` costs O(len(chunk)). Nothing fed before is kept except what is still open
(the stack of containers and the decoded parts of the string or number being written), and
string contents, digit runs and comments are skipped with C-level searches rather than a
Python step per character. A chunk that lies wholly inside a string, or is only
whitespace between tokens, takes a short path that does no per-character work in Python.
A token stream repeats its chunks, so two bounded tables shared by every checker make a
repeated chunk cheap: the status of a plain chunk inside a string (``_OPEN``), and, in
strict mode, the move a chunk makes between tokens, keyed by state, chunk and the top of
the stack (``_MOVES``, a lazily built automaton over chunks). Tests check that every
status is the same as the general automaton's, chunk for chunk.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from itertools import accumulate
from typing import Any, cast

from formatbook_core.limits import MAX_DEPTH, MAX_SIZE
from formatbook_core.reply import FENCE_LINE, LINE_BREAK
from formatbook_core.results import Quiet, StreamStatus, ok_status
from formatbook_core.runs import run
from formatbook_core.spans import SPACE_SET as _SPACES  # white space around the document
from formatbook_core.spans import SPACES

from .commitment import CERTAIN, UNCERTAIN, Commitment
from .numbers import beyond_range
from .numbers import normalize as _json_number

__all__ = ["JsonChecker", "beyond_range", "can_be_valid"]

# --- states -------------------------------------------------------------------------
# Between tokens (whitespace may appear): 0..6. Ordered so that ``st < _STR`` means it.
_VALUE = 0  # a value is expected (top level, after ':' or after ',' in an array)
_ARR_FIRST = 1  # just after '[': a value or ']'
_OBJ_FIRST = 2  # just after '{': a key or '}'
_KEY = 3  # after ',' in an object: a key
_COLON = 4  # after a key: ':'
_AFTER = 5  # after a value inside a container: ',' or the closing bracket
_DONE = 6  # the top-level value is complete
# Inside a token.
_STR = 7  # inside a string
_ESC = 8  # after a backslash
_HEX = 9  # inside \uXXXX
_LOW_BS = 10  # after a high surrogate escape: a backslash must follow
_LOW_U = 11  # ... then a 'u'
_NUM = 12  # inside a number (sub-state in _nsub)
_LIT = 13  # inside true / false / null
# Relaxed grammar only.
_PROSE = 14  # before the payload: skipping prose until '{' or '['
_BARE = 16  # a bare word (unquoted key, True, None, NaN...)
_RNUM = 17  # a loosely written number (+1, .5, 01, 1.)
_SLASH = 18  # saw '/', a comment may start
_LCOMMENT = 19  # inside // ... end of line
_BCOMMENT = 20  # inside /* ... */
_BSTAR = 21  # inside /* ... */ just after a '*'
_QEND = 22  # a quote that may close the open string: what follows will tell (see _closes)
# How the open string's escapes read (relaxed): none yet; a \n (or \t, \uXXXX...) read
# as JSON reads it, which a later backslash that escapes nothing would make literal (no
# open text is reported after it); an escape that escapes nothing seen first, so every
# backslash is literal; both, the wrong way round: the value is not reported (a lower bound).
_ESC_NONE, _ESC_DECODED, _ESC_LITERAL, _ESC_UNKNOWN = range(4)
_ESC_AFTER_INVALID = (_ESC_LITERAL, _ESC_UNKNOWN, _ESC_LITERAL, _ESC_UNKNOWN)  # by the state before
_FAILED = 99

# Number sub-states; the "ending" ones may stop where they are.
_N_MINUS, _N_ZERO, _N_INT, _N_DOT, _N_FRAC, _N_E, _N_ESIGN, _N_EXP = range(8)
_N_ENDABLE = (_N_ZERO, _N_INT, _N_FRAC, _N_EXP)

_WS = " \t\n\r"
_DIGITS = "0123456789"
_HEXDIGITS = frozenset("0123456789abcdefABCDEF")
_KEPT_ESCAPES = "\"\\'"  # what a backslash means even where the string's backslashes are literal
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LITERALS = {"t": ("rue", "true"), "f": ("alse", "false"), "n": ("ull", "null")}
_CLOSER = {"{": "}", "[": "]"}
# the shortest text that ends a state between tokens, before the open containers close
_BETWEEN_CLOSING = {_VALUE: "0", _KEY: '"":0', _COLON: ":0"}
_CLOSING = "}], \t\n\r"  # what a chunk of closers may hold
_BLANKS = " \t"
# Relaxed: opening quote -> closing quote.
_RELAXED_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}
# Quotes that open a string for the healer anywhere a value or key may start, but for
# the locator only right after a bracket, comma or colon (formatbook_json.locate): after
# a missing colon or comma (`{a'}aa`) the locator reads the quote as text and ends the
# candidate at the bracket after it, while the healer reads a string there. The stream
# cannot follow both readings, so nothing from such a quote on is fed (as after a fence
# line): its counts stay a lower bound of check()'s.
_LOOSE_QUOTES = frozenset("'\u2018")

# Run of string content up to the next quote, backslash or (strict) raw control char.
_STRICT_STR_RUN = run(r'[^"\\\x00-\x1f]*').match
_RELAXED_STR_RUN = {q: run("[^" + re.escape(q) + r"\\]*").match for q in _RELAXED_QUOTES.values()}
_DIGIT_RUN = run(r"[0-9]*").match
_WS_RUN = run("[" + _WS + "]*").match
# A scalar plainly written (a string with no escape, raw control character or line break, a
# number with no exponent, a literal) and ended: what follows it after blanks ends it in
# both grammars (a relaxed string's quote closes it, see _closes); and such a member: a
# key so written, a colon between blanks, such a scalar. Groups: a string's text, a
# number, a literal.
_PLAIN_SCALAR = r'(?:"([^"\\\x00-\x1f]*)"|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?)|(true|false|null))(?=[ \t]*[,}\]\n\r])'
_SCALAR = re.compile(_PLAIN_SCALAR).match
_MEMBER = re.compile(r'"[^"\\\x00-\x1f]*"[ \t]*:[ \t]*' + _PLAIN_SCALAR).match
# A bare word or loose number runs on over every word character, Unicode ones too, as the
# healer's lexer (heal.lexer groups 6 and 7) reads it: '1\u1698' is one unreadable token
# there, never the number 1.
_BARE_RUN = run(r"[\w$]*").match
_RNUM_RUN = run(r"[\w.+\-]*").match
_BRACKET = re.compile(r"[\[{]").search

# --- building StreamStatus cheaply ----------------------------------------------------
# ``feed`` on a 4-character chunk must cost well under a microsecond: statuses are made
# by the core's cheap constructor, bound here once, and the commonest ones are shared.
_status = ok_status
_OK = ok_status()  # the core's shared status: StreamGuard answers it without reading it
_COMPLETE = StreamStatus(True, complete=True)


# _blank_free: a piece of an open string that is only white space is never reported as
# ``open``. A string that stays blank is no value (``values.extract_values`` drops it,
# and the checker does not report it when it closes), so counting its blanks while it is
# open would count what check() never counts; leaving a blank piece out of the open text
# only lowers the lower bound a StreamGuard keeps (the closed string is reported whole).
# ``open`` statuses of chunks wholly inside a string value, interned: a token stream
# repeats its chunks (words, indentation), and a StreamStatus is immutable, so one
# instance per distinct short chunk serves every checker. Bounded in count and length.
_OPEN: dict[str, StreamStatus] = {}
_OPEN_MAX = 4096


_NOT_PLAIN = re.compile("[\"'\\\\\u201d\u2019]").search  # what may end or escape a string


def _open_status(text: str) -> StreamStatus:
    """``StreamStatus(open=text)``, interned when ``text`` is short and plain (printable,
    no quote of any grammar, no backslash): ``feed`` takes a chunk found in ``_OPEN`` to
    lie wholly inside the open string without looking at it again. White space alone is
    not reported (see ``_blank_free``): its status is the plain ok one."""
    status = _OK if text.isspace() else _status(open=text)
    if len(text) <= 16 and len(_OPEN) < _OPEN_MAX and text.isprintable() and _NOT_PLAIN(text) is None:
        _OPEN[text] = status
        if text and "`" not in text and "~" not in text and not text[-1].isspace() and len(_QUIET) < _OPEN_MAX:
            _QUIET[text] = status
    return status


#: The texts of ``_OPEN`` that the relaxed checker's watch for fence lines and a committed
#: checker's hold-back let through as they are too: no backtick or tilde, and no white
#: space at the end (none to hold, no indentation a fence line may follow). A chunk found
#: here inside a string costs the relaxed checker one lookup.
_QUIET: dict[str, StreamStatus] = {}


# A whole strict number (used only when something follows it in the same chunk), and
# the longest prefix of one (a number the chunk's end may cut).
# (an exponent of 17 digits or more is left to the general automaton: see beyond_range)
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]{1,16}(?![0-9]))?").match
_NUM_PREFIX = run(r"-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:(?<=[0-9])[eE][-+]?[0-9]{0,16}(?![0-9]))?)?").match
# A positive exponent of 10**17 or more on a mantissa that is not zero.
_NUM_GOES_ON = "0123456789.eE+-"  # characters that may continue (or break) a number
# A number text standing for each sub-state: what may follow depends only on the state.
_NSUB_TEXT = ("-", "0", "1", "1.", "1.5", "1e", "1e+", "1e5")  # _N_MINUS ... _N_EXP


# --- memoized moves between tokens (strict) -------------------------------------------
# A token stream repeats its between-token chunks (`": "`, `",\n  "`, `{\n    "`), and
# what such a chunk does to the checker depends only on the state, the chunk and the top
# of the stack. ``_transition`` works a move out once; ``_MOVES`` keeps it (bounded), so a
# repeated chunk costs one dict look-up instead of a Python step per character.
_MOVES: dict[tuple[int, int, str, str, bool], Any] = {}  # (state, i, chunk, top, deeper)
_MOVES_MAX = 4096
_TOKENS_MAX_CHUNK = 32  # longer chunks go straight to _run (one pass, not two)


def _transition(st: int, chunk: str, i: int, top: str, depth: int) -> Any:  # noqa: C901 - one pass per new chunk
    """The strict move made by ``chunk[i:]`` from the between-tokens state ``st`` with
    ``top`` on top of a stack of ``depth`` entries (2 = two or more).

    It takes whitespace, punctuation, brackets, strings without escapes, numbers and
    literals, and at most one string, number or literal left open at the chunk's end.
    Returns ``(state, status, pops, pushed, peak, collect, body, values)``: the new state,
    the status to return, ``pops`` (0 or 1) entries of the old stack closed, the openers
    ``pushed``, the most openers stacked at once, what the open token needs (a string:
    whether it is a value, and its text so far; a number: its sub-state and text so far;
    a literal: the rest still due and the whole word), and the values closed. Returns
    False when the chunk holds anything else (an error, an escape, a control character,
    a look below the top of the stack): the general automaton takes it then."""
    pre = 1 if depth else 0  # entries of the old stack still known and open
    below = depth > 1  # entries under the top exist but are unknown
    pushed: list[str] = []
    vals: list[str] = []
    peak = 0
    n = len(chunk)
    body = ""
    collect: bool | int | str = False  # what the open token needs: see the docstring
    while i < n:
        c = chunk[i]
        if c in _WS:
            i += 1
            continue
        if c == '"':
            if st > _KEY:
                return False
            k = chunk.find('"', i + 1)
            body = chunk[i + 1 :] if k < 0 else chunk[i + 1 : k]
            if "\\" in body or not body.isprintable():
                return False
            if k < 0:  # the string stays open
                collect = st <= _ARR_FIRST
                st = _STR
                break
            if st >= _OBJ_FIRST:
                st = _COLON
            else:
                if body and not body.isspace():
                    vals.append(body)
                st = _AFTER if pre or pushed or below else _DONE
            body = ""
            i = k + 1
            continue
        if c == "," or c == "}" or c == "]":
            if pushed:
                cur = pushed[-1]
            elif pre:
                cur = top
            else:
                return False  # empty, or unknown below the top
            if c == ",":
                if st != _AFTER:
                    return False
                st = _VALUE if cur == "[" else _KEY
            else:
                if not (st == _AFTER or (st == _OBJ_FIRST and c == "}") or (st == _ARR_FIRST and c == "]")):
                    return False
                if _CLOSER[cur] != c:
                    return False
                if pushed:
                    pushed.pop()
                else:
                    pre = 0
                st = _AFTER if pre or pushed or below else _DONE
        elif c == ":":
            if st != _COLON:
                return False
            st = _VALUE
        elif c == "{" or c == "[":
            if st > _ARR_FIRST:
                return False
            pushed.append(c)
            peak = max(peak, len(pushed))
            st = _OBJ_FIRST if c == "{" else _ARR_FIRST
        elif st <= _ARR_FIRST and (c in _DIGITS or c == "-"):
            if _NUM_PREFIX(chunk, i).end() == n:  # the number may go on in the next chunk
                body = chunk[i:]
                collect = _num_substate(body)
                st = _NUM
                break
            m = _NUMBER(chunk, i)
            if m is None:
                return False
            vals.append(m.group())
            i = m.end()
            st = _AFTER if pre or pushed or below else _DONE
            continue
        elif st <= _ARR_FIRST and (c == "t" or c == "f" or c == "n"):
            word = _LITERALS[c][1]
            if not chunk.startswith(word, i):
                if not word.startswith(chunk[i:]):
                    return False
                body = word  # cut by the chunk's end: the rest comes next
                collect = word[n - i :]
                st = _LIT
                break
            if c != "n":
                vals.append(word)
            i += len(word)
            st = _AFTER if pre or pushed or below else _DONE
            continue
        else:
            return False
        i += 1
    complete = st == _DONE or (st == _NUM and not (pre or pushed or below) and collect in _N_ENDABLE)
    values = tuple(vals)
    opened = body if st == _STR and collect and not body.isspace() else ""  # see _blank_free
    if st == _STR and not collect:
        body = ""
    if values or opened or complete:
        status = _status(values, opened, complete) if values or opened else _COMPLETE
    else:
        status = _OK
    return st, status, (1 if depth and not pre else 0), "".join(pushed), peak, collect, body, values


# The relaxed checker's table: the strict move where the relaxed automaton makes the same
# one (a valid JSON reply's chunks, most of them), False where it reads the chunk otherwise.
_RELAXED_MOVES: dict[tuple[int, int, str, str, bool], Any] = {}


def _relaxed_move(move: Any, st: int, text: str, top: str, depth: int) -> Any:
    """``move`` (``_transition``'s, from ``st`` over ``text``) when the relaxed automaton
    makes exactly that move, else False. The relaxed grammar reads a number or a literal
    cut by the chunk's end as a loose number or a bare word, and waits to see what follows
    a closing quote before it knows that the quote closes: so the general automaton itself
    is run over ``text`` from each stack the move stands for, and every outcome compared
    (once per move: the answer is kept in ``_RELAXED_MOVES``)."""
    if move is False or move[0] == _NUM or move[0] == _LIT:
        return False
    nst, status, pops, pushed, _peak, collect, body, _values = move
    for below in ("[", "{") if depth > 1 else ("",):
        stack = [below, top] if below else ([top] if depth else [])
        probe = JsonChecker(False)
        probe._st = st
        probe._started = True
        probe._prose = None
        probe._stack = list(stack)
        got = JsonChecker._run(probe, text)
        if (
            not got.ok
            or probe._cut
            or probe._held
            or probe._esc != _ESC_NONE
            or probe._st != nst
            or probe._stack != stack[: len(stack) - pops] + list(pushed)
            or (got.values, got.open, got.complete) != (status.values, status.open, status.complete)
        ):
            return False
        if nst == _STR and ("".join(probe._parts) != body or probe._collect != collect or probe._quote != '"'):
            return False
    return move


def _first_bracket(pieces: list[tuple[int, str]]) -> int | None:
    """Where the first ``{`` or ``[`` of ``pieces`` (offset, text) stands, or ``None``."""
    for at, piece in pieces:
        m = _BRACKET(piece)
        if m is not None:
            return at + m.start()
    return None


def _format() -> Any:
    """The JSON format, whose reading of notes the relaxed checker shares (looked up when
    first asked: the format's module imports this one)."""
    from .format import JsonFormat  # noqa: PLC0415 - the format imports this module

    return JsonFormat


def _without_thoughts_and_fences(prose: str) -> str:
    """``prose`` without its think blocks and fence lines, stripped: what is left of a
    reply that never opened a container (it may be a bare scalar, fenced or not)."""
    kept = _format().prepare(prose).set_notes_aside()[0]
    lines = [line for line in LINE_BREAK.split(kept) if not FENCE_LINE.match(line)]
    return "\n".join(lines).strip()


def _bare_scalar(text: str) -> StreamStatus | None:
    """The status of a reply that is one bare JSON scalar (``42``, ``"yes"``, ``true``),
    read by the strict checker; ``None`` when ``text`` is not one."""
    if not text:
        return None
    checker = JsonChecker(True)
    fed = checker.feed(text)
    if not fed:
        return None
    end = checker.finish()
    if not end:
        return None
    return _status(fed.values + end.values, complete=True)


def _num_substate(text: str) -> int:
    """The number sub-state after ``text``, a prefix of a strict number."""
    last = text[-1]
    if text == "-":
        return _N_MINUS
    if last == "+" or last == "-":
        return _N_ESIGN
    if last == "e" or last == "E":
        return _N_E
    if last == ".":
        return _N_DOT
    if "e" in text or "E" in text:
        return _N_EXP
    if "." in text:
        return _N_FRAC
    if text == "0" or text == "-0":
        return _N_ZERO
    return _N_INT


def _word_value(st: int, word: str) -> str | None:
    """The value a loose number (``_RNUM``) or a bare word (``_BARE``) that is no key
    stands for, as healing writes it (``02134`` -> ``2134``, ``True`` -> ``true``); None
    when it stands for none (``None``, ``NaN``, ``undefined``...)."""
    if st == _RNUM:
        return _json_number(word)
    low = word.lower()
    return low if low == "true" or low == "false" else None


_CLOSING_NEXT = frozenset(",:}]\n\r")  # what after a quote says at once that it ends its string


def _closes(after: str, blanks: bool) -> bool | None:
    """Whether a quote closes its string, in the relaxed grammar, as healing decides it
    (``heal.strings``): when ``after`` (what follows the quote and the ``blanks``, if any)
    starts with ``,`` ``:`` ``}`` ``]``, a line break or a comment, or — after blanks —
    another string's quote. Else the quote is an unescaped inner quote (``"He said "hi"
    to me"``). ``None``: ``after`` cannot tell yet (more text, or the end, will)."""
    if not after:
        return None
    c = after[0]
    if c in ",:}]\n\r":
        return True
    if c == "/":
        return None if len(after) == 1 else after[1] in "/*"
    return blanks and c in "\"'\u201c\u2018"


class JsonChecker:
    """Incremental JSON checker implementing formatbook_core's ``Checker`` protocol.

    ``feed(chunk)`` returns a ``StreamStatus``: truthy while some continuation of the text
    fed so far can still be valid; once not, falsy with ``position`` (absolute character
    offset of the first impossible character) and ``reason``, and every later call returns
    the same failure. ``values`` lists the scalar leaves *closed by this chunk*, as text:
    strings decoded (escapes and surrogate pairs included), numbers and ``true``/``false``
    as written; keys, ``null`` and whitespace-only strings are left out. ``open`` is the
    decoded text this chunk appended to a string *value* that is still open at the chunk's
    end (a string opened and closed inside one chunk appears only in ``values``).
    ``complete`` is true when the text so far is a complete document (a top-level number
    such as ``12`` is complete yet may still continue).

    ``strict=True`` is RFC 8259 (lone surrogate escapes rejected, see the module doc).

    ``strict=False`` is the relaxed grammar that healing accepts, and it fails only when
    healing certainly cannot help (nesting deeper than ``max_depth``, or — at ``finish`` —
    no JSON value at all). It accepts: prose before the payload (everything before the
    first ``{`` or ``[``, so a ```` ```json ```` fence line too) and think blocks there
    (``<think>``, ``<thinking>``, ``<reasoning>``, any case, as :mod:`formatbook_core.locating`); anything after the top-level value (prose, a closing fence, surplus closing
    brackets); trailing and missing commas; a missing colon; mismatched closing brackets;
    single-, double- and smart-quoted (“ ” ‘ ’) strings with raw control characters and
    unknown escapes (reported as healing writes them: the backslash kept, ``\\q`` and
    ``\\u12G`` as written, ``\\'`` an apostrophe); unquoted keys; bare words (``True``/``False``/``None``, ``NaN``,
    ``Infinity``, ``undefined``); loosely written numbers (``+1``, ``.5``, ``01``);
    ``//`` and ``/* */`` comments; stray characters between tokens. In relaxed mode
    ``True``/``False`` are reported as ``true``/``false`` (what healing writes); other bare
    words are not reported. A reply that ends inside a container is accepted by
    ``finish`` (healing closes it), with ``complete`` false.
    """

    __slots__ = (
        "_strict",
        "_max_depth",
        "_st",
        "_stack",
        "_pos",
        "_collect",
        "_parts",
        "_quote",
        "_hex",
        "_high",
        "_nsub",
        "_numparts",
        "_lit",
        "_litword",
        "_failed",
        "_ret",
        "_before",
        "_started",
        "_prose",
        "_bare_key",
        "_held",
        "_hold",
        "_last",
        "_cut",
        "_esc",
    )

    def __new__(cls, strict: bool = True, *, max_depth: int = MAX_DEPTH) -> JsonChecker:
        # the relaxed checker watches for fence lines (see _RelaxedChecker) by its own feed,
        # so that the strict hot path pays nothing for it
        return object.__new__(_RelaxedChecker if cls is JsonChecker and not strict else cls)

    def __init__(self, strict: bool = True, *, max_depth: int = MAX_DEPTH) -> None:
        self._strict = bool(strict)
        self._max_depth = max_depth
        self._st = _VALUE if strict else _PROSE
        self._stack: list[str] = []
        self._pos = 0  # absolute offset of the next character to be fed
        self._collect = False  # the open string is a value (not a key)
        self._parts: list[str] = []  # decoded pieces of the open string value
        self._quote = '"'  # the character that closes the open string
        self._hex = ""  # hex digits of the \u escape being read
        self._high = -1  # pending high surrogate, waiting for its low half
        self._nsub = 0  # number sub-state
        self._numparts: list[str] = []  # pieces of the number / bare word being read
        self._lit = ""  # the rest of the literal being matched
        self._litword = ""  # the whole literal
        self._failed: StreamStatus | None = None
        self._ret = _VALUE  # state to return to after a comment (relaxed)
        # relaxed, before the payload: the format's stream splitter, read across notes
        self._before = None if strict else _format().splitter()
        self._started = bool(strict)  # relaxed: a container has been opened
        self._prose: list[str] | None = None if strict else []  # relaxed text before the payload
        self._bare_key = False  # relaxed: the bare word being read is a key
        self._held: list[str] = []  # relaxed, state _QEND: the quote and what followed it so far
        self._hold = ""  # relaxed: the start of a line that may yet be a fence line, not fed yet
        self._last = "\n"  # relaxed: the last piece fed (does a line start after it?)
        self._cut = False  # relaxed: a fence line ended the payload (nothing after it is fed)
        # relaxed: how the open string's escapes read (see _ESC_*): a backslash that escapes
        # nothing makes the string's backslashes literal (heal.strings), so \n read before
        # one is known only when the string ends
        self._esc = _ESC_NONE

    # --- the Checker protocol -----------------------------------------------------------
    def feed(self, chunk: str) -> StreamStatus:  # noqa: C901 - the hot path: short paths inline
        """Consume the next piece of the document; O(len(chunk))."""
        # Short paths for the shapes most chunks of a token stream have (string content,
        # a string closing before ',' or ':', whitespace, a string opening, punctuation);
        # in strict mode _tokens then takes most other chunks between tokens, and the
        # general automaton in _run the rest. Each short path either leaves the checker
        # exactly as _run would, or touches nothing and hands the chunk on.
        st = self._st
        if st == _STR and self._esc:
            return self._run(chunk)
        if st == _STR:
            status = _OPEN.get(chunk)
            if status is not None:
                # A chunk seen before that holds no quote, backslash or control character
                # in any grammar: wholly inside the string. The hottest path.
                self._pos += len(chunk)
                if self._collect:
                    self._parts.append(chunk)
                    return status
                return _OK
            quote = self._quote
            if quote not in chunk:
                # Wholly inside the string, first seen (or too long to intern).
                if "\\" in chunk or (self._strict and not chunk.isprintable()):
                    return self._run(chunk)
                self._pos += len(chunk)
                if self._collect:
                    self._parts.append(chunk)
                    return _open_status(chunk)
                _open_status(chunk)  # interned for the next time
                return _OK
            stack = self._stack
            if not stack or "\\" in chunk:
                return self._run(chunk)
            q = chunk.find(quote)
            head = chunk[:q] if q else ""
            if self._strict and not head.isprintable():
                return self._run(chunk)
            after = chunk[q + 1 :]
            tail = after.strip(_WS) if after else ""
            if not tail and not self._strict and "\n" not in after and "\r" not in after:
                # whether the quote closes the string is not known yet: held (_QEND), as
                # _run holds it
                self._held = [chunk[q:]]
                self._st = _QEND
                self._pos += len(chunk)
                if self._collect and head:
                    self._parts.append(head)
                    if not head.isspace():
                        return _status(open=head)
                return _OK
            if self._collect:
                if not tail:
                    nst = _AFTER
                elif tail == ",":
                    nst = _VALUE if stack[-1] == "[" else _KEY
                else:
                    parts = self._parts
                    if parts:
                        head = "".join(parts) + head
                    status = self._tokens(chunk, q + 1, _AFTER, [head] if head and not head.isspace() else [], True)
                    return status if status is not None else self._run(chunk)
                parts = self._parts
                if parts:
                    parts.append(head)
                    head = "".join(parts)
                    self._parts = []
                self._st = nst
                self._pos += len(chunk)
                if head and not head.isspace():
                    return _status((head,))
                return _OK
            if not tail:
                self._st = _COLON
            elif tail == ":":
                self._st = _VALUE
            else:
                status = self._tokens(chunk, q + 1, _COLON, [], False)
                return status if status is not None else self._run(chunk)
            self._pos += len(chunk)
            return _OK
        if st < _DONE:
            text = chunk.lstrip(_WS)
            if not text:
                self._pos += len(chunk)
                return _OK
            c = text[0]
            if c == '"':
                if st <= _KEY:
                    body = text[1:]
                    if '"' not in body and "\\" not in body and (body.isprintable() or not self._strict):
                        self._st = _STR
                        self._quote = '"'
                        self._pos += len(chunk)
                        if st >= _OBJ_FIRST:
                            self._collect = False
                            return _OK
                        self._collect = True
                        if body:
                            self._parts = [body]
                            status = _OPEN.get(body)
                            return status if status is not None else _open_status(body)
                        self._parts = []
                        return _OK
            elif (c == "," and st == _AFTER) or (c == ":" and st == _COLON):
                if not text[1:].strip(_WS):
                    self._st = _VALUE if c == ":" or self._stack[-1] == "[" else _KEY
                    self._pos += len(chunk)
                    return _OK
            elif (c == "}" or c == "]") and not text.strip(_CLOSING):
                # Only closers, commas and whitespace (`  },` `]\n  `): simulate on the
                # stack without touching it; anything unusual goes to _run.
                stack = self._stack
                depth = len(stack)
                for ch in text:
                    if ch == "}" or ch == "]":
                        if not (st == _AFTER or (st == _OBJ_FIRST and ch == "}") or (st == _ARR_FIRST and ch == "]")):
                            return self._run(chunk)
                        if not depth or _CLOSER[stack[depth - 1]] != ch:
                            return self._run(chunk)
                        depth -= 1
                        st = _AFTER if depth else _DONE
                    elif ch == ",":
                        if st != _AFTER:
                            return self._run(chunk)
                        st = _VALUE if stack[depth - 1] == "[" else _KEY
                del stack[depth:]
                self._st = st
                self._pos += len(chunk)
                return _COMPLETE if st == _DONE else _OK
            status = self._tokens(chunk, len(chunk) - len(text), st, [], False)
            if status is not None:
                return status
            return self._run(chunk)
        if st == _NUM and chunk:
            # A number (strict only) that goes on into this chunk, or ends in it.
            nsub = self._nsub
            if nsub in _N_ENDABLE and chunk[0] not in _NUM_GOES_ON:
                k = 0
            else:
                # how far the number goes: read after a stand-in for what came before
                seen = _NSUB_TEXT[nsub] + chunk
                k = _NUM_PREFIX(seen).end() - len(_NSUB_TEXT[nsub])
                if k == len(chunk):  # still open
                    self._numparts.append(chunk)
                    self._nsub = nsub = _num_substate(seen)
                    self._pos += len(chunk)
                    return _COMPLETE if not self._stack and nsub in _N_ENDABLE else _OK
                whole = _NUMBER(seen)
                if k == 0 or whole is None or whole.end() != len(seen) - len(chunk) + k:
                    return self._run(chunk)  # a number cut short: _run says where
            number = "".join(self._numparts) + chunk[:k]
            if nsub >= _N_E and beyond_range(number):
                # (the stand-in text keeps no count of the exponent's digits fed before)
                return self._run(chunk)  # refused: _run says where
            status = self._tokens(chunk, k, _AFTER if self._stack else _DONE, [number], False)
            if status is not None:  # (a number the chunk opens has its own parts now)
                return status
            return self._run(chunk)
        if st == _LIT:
            # The rest of true / false / null (strict only), then whatever follows.
            rem = self._lit
            if chunk.startswith(rem):
                word = self._litword
                status = self._tokens(
                    chunk, len(rem), _AFTER if self._stack else _DONE, [word] if word != "null" else [], False
                )
                if status is not None:
                    return status
            return self._run(chunk)
        if st == _QEND:
            return self._quote_end(chunk)
        if st == _RNUM or st == _BARE:
            return self._word_goes_on(chunk, st)
        if st == _DONE and (not self._strict or not chunk.strip(SPACES)):
            # After the document: whitespace (strict) or anything (relaxed: set aside).
            self._pos += len(chunk)
            return _COMPLETE
        return self._run(chunk)

    def _quote_end(self, chunk: str) -> StreamStatus:
        """Relaxed, after a quote that may close its string (``_QEND``): when ``chunk``
        tells that it closes, the memoized move from there; else the general automaton."""
        held = self._held
        if held[-1][-1] != "/":
            blank_run = len(chunk) - len(chunk.lstrip(_BLANKS))
            if _closes(chunk[blank_run : blank_run + 2], blank_run > 0 or len(held[0]) > 1 or len(held) > 1):
                vals = []
                collect = self._collect
                if collect:
                    text = "".join(self._parts)
                    if text and not text.isspace() and self._esc != _ESC_UNKNOWN:
                        vals.append(text)
                    nst = _AFTER if self._stack else _DONE
                else:
                    nst = _COLON
                status = self._tokens(chunk, 0, nst, vals, collect)
                if status is not None:
                    self._held = []
                    self._esc = _ESC_NONE
                    return status
        return self._run(chunk)

    def _word_goes_on(self, chunk: str, st: int) -> StreamStatus:
        """Relaxed, inside a bare word or a loose number: still open after ``chunk``, or
        ended in it and the memoized move from there; else the general automaton."""
        j = (_BARE_RUN if st == _BARE else _RNUM_RUN)(chunk).end()
        if j == len(chunk):
            if chunk:
                self._numparts.append(chunk)
                self._pos += j
            return _OK
        vals = []
        if self._bare_key:
            nst = _COLON
        else:
            value = _word_value(st, "".join(self._numparts) + chunk[:j])
            if value is not None:
                vals.append(value)
            nst = _AFTER if self._stack else _DONE
        status = self._tokens(chunk, j, nst, vals, False)
        if status is not None:
            self._numparts = []
            return status
        return self._run(chunk)

    def _tokens(self, chunk: str, i: int, st: int, vals: list[str], closed: bool) -> StreamStatus | None:
        """From ``chunk[i]`` in the between-tokens state ``st``: see ``_transition`` for what
        it takes (relaxed: only the moves the relaxed automaton makes alike, see
        ``_relaxed_move``). Commits and returns the status; returns None, having changed
        nothing, on anything else, so that _run takes the chunk. ``vals`` are values the
        chunk closed before ``i``; ``closed``: the chunk closed the open string value (its
        parts are released)."""
        stack = self._stack
        moves = _MOVES if self._strict else _RELAXED_MOVES
        key = (st, i, chunk, stack[-1] if stack else "", len(stack) > 1)
        move = moves.get(key)
        if move is None:
            if len(chunk) > _TOKENS_MAX_CHUNK:
                return None  # rarely repeated: _run, one pass rather than two
            depth = min(len(stack), 2)
            move = _transition(st, chunk, i, key[3], depth)
            if not self._strict:
                move = _relaxed_move(move, st, chunk[i:], key[3], depth)
            if len(moves) < _MOVES_MAX:
                moves[key] = move
        if move is False:
            return None
        nst, status, pops, pushed, peak, collect, body, tvals = move
        if peak and len(stack) + peak >= self._max_depth:
            return None  # may be too deep: _run says exactly where
        if pops:
            del stack[-1]
        if pushed:
            stack.extend(pushed)
        self._st = nst
        self._pos += len(chunk)
        if nst == _STR:
            self._quote = '"'
            self._collect = collect
            self._parts = [body] if body else []
        else:
            if closed:
                self._parts = []
            if nst == _NUM:
                self._nsub = collect
                self._numparts = [body]
            elif nst == _LIT:
                self._lit = collect
                self._litword = body
        if vals:
            return _status(tuple(vals) + tvals, status.open, status.complete)
        return status

    def copy(self) -> JsonChecker:
        """An independent clone of the current state (O(depth + open token))."""
        clone = object.__new__(type(self))
        for name in JsonChecker.__slots__:
            setattr(clone, name, getattr(self, name))
        clone._stack = list(self._stack)
        clone._parts = list(self._parts)
        clone._numparts = list(self._numparts)
        clone._held = list(self._held)
        if self._prose is not None:
            clone._prose = list(self._prose)
        if self._before is not None:
            clone._before = self._before.copy()
        return clone

    def finish(self) -> StreamStatus:
        """The document has ended: truthy when the text fed is a complete document
        (strict), or one healing can complete (relaxed)."""
        if self._failed is not None:
            return self._failed
        st = self._st
        if st == _DONE:
            return _COMPLETE
        if st == _NUM and not self._stack and self._nsub in _N_ENDABLE:
            number = "".join(self._numparts)
            if self._nsub == _N_EXP and beyond_range(number):
                return self._fail(self._pos, "a number too large to represent (its exponent is 10**17 or more)")
            return _status(values=(number,), complete=True)
        if self._strict:
            return StreamStatus(False, self._end_reason(), self._pos)
        return self._relaxed_finish()

    def closing(self) -> str | None:
        """The shortest text after which ``finish()`` accepts (``""``: it would now), by the
        strict grammar; ``None`` in relaxed mode (healing closes anything) and after a
        failure. A value still to be written is ``0``, a key ``""``; O(depth)."""
        if not self._strict or self._failed is not None:
            return None
        st = self._st
        if st == _NUM:
            head = "" if self._nsub in _N_ENDABLE else "0"
        elif st == _LIT:
            head = self._lit
        elif _STR <= st <= _LOW_U:
            head = self._string_closing()
        else:
            head = _BETWEEN_CLOSING.get(st, "")
        return head + "".join(_CLOSER[c] for c in reversed(self._stack))

    def _string_closing(self) -> str:
        """What ends the open string (and, for a key, its member): an escape completed first."""
        st = self._st
        text = ""
        if st == _ESC:
            text = "n"
        elif st == _HEX:
            h = self._hex
            if self._high >= 0:  # the low half of a pair: what was read is a prefix of dc00-dfff
                text = "dc00"[len(h) :]
            else:
                full = h + "0" * (4 - len(h))
                text = full[len(h) :] + ("\\udc00" if 0xD800 <= int(full, 16) <= 0xDBFF else "")
        elif st == _LOW_BS:
            text = "\\udc00"
        elif st == _LOW_U:
            text = "udc00"
        return text + ('"' if self._collect else '":0')

    # --- details --------------------------------------------------------------------------
    @property
    def position(self) -> int:
        """How many characters have been fed."""
        return self._pos

    @property
    def depth(self) -> int:
        """How many containers are open."""
        return len(self._stack)

    def _end_reason(self) -> str:
        st = self._st
        if st == _VALUE and not self._stack:
            return "empty document: no JSON value"
        if _STR <= st <= _LOW_U:
            return "unexpected end of input inside a string"
        if st in (_NUM, _LIT):
            return "unexpected end of input inside a value"
        if self._stack:
            kind = "object" if self._stack[-1] == "{" else "array"
            return f"unexpected end of input: {len(self._stack)} container(s) still open (innermost an {kind})"
        return "unexpected end of input"

    def _relaxed_finish(self) -> StreamStatus:
        st = self._st
        if not self._started:
            # No container seen: the reply may still be a bare JSON scalar — the whole
            # reply first (``"<think>"`` is a string, as locate takes it), then what is
            # left without think blocks and fences.
            prose = "".join(self._prose or ())
            status = _bare_scalar(prose.strip(" \t\n\r")) or _bare_scalar(_without_thoughts_and_fences(prose))
            if status is not None:
                return status
            return StreamStatus(False, "no JSON object or array found in the reply", self._pos)
        values: tuple[str, ...] = ()
        if (_STR <= st <= _LOW_U or st == _QEND) and self._collect and self._esc != _ESC_UNKNOWN:
            text = "".join(self._parts)
            if text.strip():
                values = (text,)  # healing closes a cut string and keeps its text
        elif st == _RNUM and not self._bare_key:
            number = _json_number("".join(self._numparts))
            if number is not None:
                values = (number,)  # as healing writes it (02134 -> 2134)
        elif st == _BARE and not self._bare_key:
            word = "".join(self._numparts).lower()
            if word in ("true", "false"):
                values = (word,)
        return _status(values=values)

    def _fail(self, position: int, reason: str) -> StreamStatus:
        self._failed = StreamStatus(False, reason, position)
        self._st = _FAILED
        return self._failed

    def _run(self, chunk: str) -> StreamStatus:  # noqa: C901 - one loop keeps the hot path fast
        if self._failed is not None:
            return self._failed
        if self._cut:  # relaxed: nothing after a fence line or a mismatched bracket is read
            self._pos += len(chunk)
            return _OK
        strict = self._strict
        st = self._st
        stack = self._stack
        parts = self._parts
        collect = self._collect
        quote = self._quote
        strrun = _STRICT_STR_RUN if strict else _RELAXED_STR_RUN[quote]
        numparts = self._numparts
        nsub = self._nsub
        base = self._pos
        n = len(chunk)
        i = 0
        nstart = 0  # where the number / bare word being read starts in this chunk
        # parts[open_from:] are appended by this chunk (a string opened here resets it to 0)
        open_from = len(parts) if _STR <= st <= _LOW_U else 0
        vals: list[str] = []
        if not self._started and self._prose is not None:
            self._prose.append(chunk)  # kept only until a container opens (see finish)
        if st == _QEND:
            held = self._held
            blank_run = len(chunk) - len(chunk.lstrip(_BLANKS))
            if held[-1][-1] == "/":
                closes = _closes("/" + chunk[:1], False)
            else:
                closes = _closes(chunk[blank_run : blank_run + 2], blank_run > 0 or len(held[0]) > 1 or len(held) > 1)
            if closes is None:
                held.append(chunk)  # blanks (and perhaps a slash): pieces, never re-copied
                self._pos = base + n
                return _OK
            self._held = []
            if not closes:  # an inner quote: the held text is part of the string
                st = _STR
                if collect:
                    open_from = len(parts)
                    parts.extend(held)
            else:
                if collect:
                    s = "".join(parts)
                    if s and not s.isspace() and self._esc != _ESC_UNKNOWN:
                        vals.append(s)
                    parts = []
                    open_from = 0
                    st = _AFTER if stack else _DONE
                else:
                    st = _COLON
                self._esc = _ESC_NONE
                if held[-1][-1] == "/":  # the slash held back starts a comment
                    self._ret = st
                    st = _SLASH

        while i < n:
            if st == _STR:
                j = strrun(chunk, i).end()
                if j != i:
                    if collect:
                        parts.append(chunk[i:j])
                    if j == n:
                        i = n
                        break
                c = chunk[j]
                if c == quote:
                    i = j + 1
                    if not strict and (i == n or chunk[i] not in _CLOSING_NEXT):  # (else: it closes)
                        k = i
                        while k < n and chunk[k] in _BLANKS:
                            k += 1
                        closes = _closes(chunk[k : k + 2], k > i)
                        if closes is None:  # the next chunk (or the end) will tell
                            self._held = [chunk[j:]]
                            st = _QEND
                            i = n
                            break
                        if not closes:  # an inner quote: part of the string
                            if collect:
                                parts.append(c)
                            continue
                    if collect:
                        s = "".join(parts) if len(parts) != 1 else parts[0]
                        if s and not s.isspace() and self._esc != _ESC_UNKNOWN:
                            vals.append(s)
                        parts = []
                        open_from = 0
                        st = _AFTER if stack else _DONE
                    else:
                        st = _COLON
                    self._esc = _ESC_NONE
                    continue
                if c == "\\":
                    i = j + 1
                    st = _ESC
                    continue
                return self._fail(base + j, f"raw control character U+{ord(c):04X} inside a string (must be escaped)")

            if st < _STR:
                c = chunk[i]
                if c in _WS:
                    i += 1
                    if i < n and chunk[i] in _WS:  # a run (indentation): skipped at once
                        i = _WS_RUN(chunk, i).end()
                    continue
                if not stack and st == _VALUE and strict and c in _SPACES:
                    i += 1
                    continue
                if st <= _KEY and stack:
                    # a member ("key": scalar) or a scalar in a container, plainly written
                    # and ended (what follows it ends it): at once, what the steps below
                    # would do with it
                    m = (_MEMBER if st >= _OBJ_FIRST else _SCALAR)(chunk, i)
                    if m is not None:
                        text, number, word = m.groups()
                        if text is not None:
                            if text and not text.isspace():
                                vals.append(text)
                        elif number is not None:
                            vals.append(number)
                        elif word != "null":
                            vals.append(word)
                        i = m.end()
                        st = _AFTER
                        continue
                if st == _AFTER:
                    if c == ",":
                        st = _VALUE if stack[-1] == "[" else _KEY
                        i += 1
                        continue
                    if c == "}" or c == "]":
                        mismatched = _CLOSER[stack[-1]] != c
                        if strict and mismatched:
                            return self._fail(
                                base + i,
                                f"'{c}' does not close the open '{stack[-1]}' (expected ',' or '{_CLOSER[stack[-1]]}')",
                            )
                        stack.pop()
                        st = _AFTER if stack else _DONE
                        i += 1
                        if mismatched:
                            self._cut = True  # relaxed: see _MISMATCHED
                            break
                        continue
                    if strict:
                        return self._fail(base + i, f"expected ',' or '{_CLOSER[stack[-1]]}' after a value, got {c!r}")
                    if c == "/":
                        self._ret = st
                        st = _SLASH
                        i += 1
                        continue
                    if c in _LOOSE_QUOTES:  # see _LOOSE_QUOTES
                        self._cut = True
                        break
                    st = _VALUE if stack[-1] == "[" else _KEY  # a missing comma
                    continue
                if st == _VALUE or st == _ARR_FIRST:
                    if c == '"':
                        st = _STR
                        collect = True
                        parts = []
                        open_from = 0
                        quote = '"'
                        strrun = _STRICT_STR_RUN if strict else _RELAXED_STR_RUN[quote]
                        i += 1
                        continue
                    if c == "{" or c == "[":
                        if len(stack) >= self._max_depth:
                            return self._fail(base + i, f"nesting deeper than {self._max_depth} levels")
                        stack.append(c)
                        st = _OBJ_FIRST if c == "{" else _ARR_FIRST
                        i += 1
                        continue
                    if strict:
                        if c in _DIGITS or c == "-":
                            st = _NUM
                            nsub = _N_MINUS if c == "-" else (_N_ZERO if c == "0" else _N_INT)
                            numparts = []
                            nstart = i
                            i += 1
                            continue
                        lit = _LITERALS.get(c)
                        if lit is not None:
                            st = _LIT
                            self._lit, self._litword = lit
                            i += 1
                            continue
                        if c == "]" and st == _ARR_FIRST:
                            stack.pop()
                            st = _AFTER if stack else _DONE
                            i += 1
                            continue
                        if (c == "]" or c == "}") and st == _VALUE and stack and stack[-1] == "[":
                            return self._fail(base + i, f"expected a value after ',', got {c!r} (a trailing comma?)")
                        return self._fail(base + i, f"expected a JSON value, got {c!r}")
                    # relaxed
                    q = _RELAXED_QUOTES.get(c)
                    if q is not None:
                        st = _STR
                        collect = True
                        parts = []
                        open_from = 0
                        quote = q
                        strrun = _RELAXED_STR_RUN[q]
                        i += 1
                        continue
                    if c in _DIGITS or c in "-+.":
                        st = _RNUM
                        self._bare_key = False
                        numparts = []
                        nstart = i
                        i += 1
                        continue
                    if (c.isalnum() and not c.isdecimal()) or c == "_" or c == "$":  # the lexer's [^\W\d]|\$
                        st = _BARE
                        self._bare_key = False
                        numparts = []
                        nstart = i
                        i += 1
                        continue
                    if c == "]" or c == "}":
                        mismatched = _CLOSER[stack[-1]] != c
                        stack.pop()  # a trailing comma, or a mismatched bracket
                        st = _AFTER if stack else _DONE
                        i += 1
                        if mismatched:
                            self._cut = True  # see _MISMATCHED
                            break
                        continue
                    if c == "/":
                        self._ret = st
                        st = _SLASH
                    elif c == "(":  # a Python tuple, which healing makes an array: not counted
                        self._cut = True
                        break
                    i += 1  # a stray character: healing drops it
                    continue
                if st == _OBJ_FIRST or st == _KEY:
                    if c == '"':
                        st = _STR
                        collect = False
                        quote = '"'
                        strrun = _STRICT_STR_RUN if strict else _RELAXED_STR_RUN[quote]
                        i += 1
                        continue
                    if c == "}" and (st == _OBJ_FIRST or not strict):
                        stack.pop()
                        st = _AFTER if stack else _DONE
                        i += 1
                        continue
                    if strict:
                        if c == "}":
                            return self._fail(base + i, "expected a key string after ',', got '}' (a trailing comma?)")
                        return self._fail(base + i, f"expected a key string, got {c!r}")
                    q = _RELAXED_QUOTES.get(c)
                    if q is not None:
                        st = _STR
                        collect = False
                        quote = q
                        strrun = _RELAXED_STR_RUN[q]
                        i += 1
                        continue
                    if c in _DIGITS or c == "-":
                        # a key read as healing's lexer reads a number-like token (heal.lexer
                        # group 6): '0+1' and '-1.5' are one key each, never a key and a value
                        st = _RNUM
                        self._bare_key = True
                        numparts = []
                        nstart = i
                        i += 1
                        continue
                    if c.isalnum() or c in "_$":
                        st = _BARE
                        self._bare_key = True
                        numparts = []
                        nstart = i
                        i += 1
                        continue
                    if c == "]":  # (relaxed) mismatched: the open container is an object
                        stack.pop()
                        st = _AFTER if stack else _DONE
                        i += 1
                        self._cut = True  # see _MISMATCHED
                        break
                    if c == "/":
                        self._ret = st
                        st = _SLASH
                    i += 1
                    continue
                if st == _COLON:
                    if c == ":":
                        st = _VALUE
                        i += 1
                        continue
                    if strict:
                        return self._fail(base + i, f"expected ':' after the key, got {c!r}")
                    if c == "/":
                        self._ret = st
                        st = _SLASH
                        i += 1
                        continue
                    if c in _LOOSE_QUOTES:  # see _LOOSE_QUOTES
                        self._cut = True
                        break
                    if c == "=":
                        i += 1
                    st = _VALUE  # a missing colon
                    continue
                # _DONE
                if c in _SPACES:  # white space around the document: spans.SPACES (syntax.py)
                    i += 1
                    continue
                if strict:
                    return self._fail(base + i, f"unexpected {c!r} after the end of the JSON document")
                i = n  # relaxed: whatever follows the payload is set aside
                break

            if st == _NUM:
                if nsub == _N_INT or nsub == _N_FRAC or nsub == _N_EXP:
                    i = _DIGIT_RUN(chunk, i).end()
                    if i == n:
                        break
                    c = chunk[i]
                    if c == "." and nsub == _N_INT:
                        nsub = _N_DOT
                        i += 1
                        continue
                    if (c == "e" or c == "E") and nsub != _N_EXP:
                        nsub = _N_E
                        i += 1
                        continue
                else:
                    c = chunk[i]
                    if nsub == _N_ZERO:
                        if c == ".":
                            nsub = _N_DOT
                            i += 1
                            continue
                        if c == "e" or c == "E":
                            nsub = _N_E
                            i += 1
                            continue
                        if c in _DIGITS:
                            return self._fail(base + i, "a number may not have a leading zero")
                    elif nsub == _N_MINUS:
                        if c in _DIGITS:
                            nsub = _N_ZERO if c == "0" else _N_INT
                            i += 1
                            continue
                        return self._fail(base + i, f"expected a digit after '-', got {c!r}")
                    elif nsub == _N_DOT:
                        if c in _DIGITS:
                            nsub = _N_FRAC
                            i += 1
                            continue
                        return self._fail(base + i, f"expected a digit after the decimal point, got {c!r}")
                    elif nsub == _N_E:
                        if c in _DIGITS:
                            nsub = _N_EXP
                            i += 1
                            continue
                        if c == "+" or c == "-":
                            nsub = _N_ESIGN
                            i += 1
                            continue
                        return self._fail(base + i, f"expected a digit or sign in the exponent, got {c!r}")
                    else:  # _N_ESIGN
                        if c in _DIGITS:
                            nsub = _N_EXP
                            i += 1
                            continue
                        return self._fail(base + i, f"expected a digit in the exponent, got {c!r}")
                # The number ends before chunk[i]; that character is read again below.
                numparts.append(chunk[nstart:i])
                number = "".join(numparts)
                if nsub == _N_EXP and beyond_range(number):
                    return self._fail(base + i, "a number too large to represent (its exponent is 10**17 or more)")
                vals.append(number)
                numparts = []
                st = _AFTER if stack else _DONE
                continue

            if st == _ESC:
                c = chunk[i]
                e = _ESCAPES.get(c)
                i += 1
                if not strict and (e is not None or c == "u") and c not in _KEPT_ESCAPES:
                    # relaxed: \n, \uXXXX... are text in a string whose backslashes are literal
                    if self._esc == _ESC_LITERAL and c != "u":  # \u: once its digits are read
                        if collect:
                            parts.append("\\" + c)
                        st = _STR
                        continue
                    if self._esc == _ESC_NONE and c != "u":  # \u: once its digits are read
                        self._esc = _ESC_DECODED
                if e is not None:
                    if collect:
                        parts.append(e)
                    st = _STR
                elif c == "u":
                    self._hex = ""
                    st = _HEX
                elif strict:
                    return self._fail(base + i - 1, f"invalid escape '\\{c}' in a string")
                else:
                    # relaxed: as healing reads it (heal.strings), a backslash that starts
                    # no escape is kept as a literal backslash, and so are the string's
                    # others; \' is an apostrophe
                    if c != "'":
                        self._esc = _ESC_AFTER_INVALID[self._esc]
                    if collect:
                        parts.append(c if c == "'" else "\\" + c)
                    st = _STR
                continue

            if st == _LIT:
                rem = self._lit
                seg = chunk[i : i + len(rem)]
                if rem.startswith(seg):
                    i += len(seg)
                    rem = rem[len(seg) :]
                    self._lit = rem
                    if not rem:
                        if self._litword != "null":
                            vals.append(self._litword)
                        st = _AFTER if stack else _DONE
                    continue
                same = 0
                while seg[same] == rem[same]:
                    same += 1
                return self._fail(base + i + same, f"invalid literal: expected '{self._litword}'")

            if st == _HEX:
                c = chunk[i]
                if c not in _HEXDIGITS:
                    if strict:
                        return self._fail(base + i, f"invalid \\u escape: expected a hex digit, got {c!r}")
                    # \u without its digits escapes nothing (see _ESC); before a line
                    # break it may be the cut escape healing drops (a fence line may
                    # follow and end the payload): from there on nothing is counted
                    self._esc = _ESC_UNKNOWN if c in "\r\n" else _ESC_AFTER_INVALID[self._esc]
                    if self._high >= 0 and collect:
                        parts.append("\ufffd")
                    if collect:  # relaxed: the broken escape kept literally, as healing keeps it
                        parts.append("\\u" + self._hex)
                    self._high = -1
                    st = _STR  # then c read as content
                    continue
                h = self._hex + c
                self._hex = h
                k = len(h)
                if strict:
                    if self._high >= 0:
                        if (k == 1 and c not in "dD") or (k == 2 and c not in "cdefCDEF"):
                            return self._fail(
                                base + i,
                                "a high surrogate escape must be followed by a low surrogate (\\uDC00-\\uDFFF)",
                            )
                    elif k == 2 and h[0] in "dD" and c in "cdefCDEF":
                        return self._fail(
                            base + i, "lone low surrogate escape (\\uDC00-\\uDFFF) without a high surrogate"
                        )
                i += 1
                if k == 4:
                    if not strict and self._esc == _ESC_NONE:
                        self._esc = _ESC_DECODED
                    elif not strict and self._esc == _ESC_LITERAL:
                        # text, as healing keeps it; a high surrogate may be the cut
                        # escape healing drops at the end: not counted from there on
                        if collect:
                            parts.append("\\u" + h)
                        if h[0] in "dD" and h[1] in "89abAB":
                            self._esc = _ESC_UNKNOWN
                        st = _STR
                        continue
                    cp = int(h, 16)
                    high = self._high
                    if high >= 0:
                        self._high = -1
                        if 0xDC00 <= cp <= 0xDFFF:
                            ch = chr(0x10000 + ((high - 0xD800) << 10) + (cp - 0xDC00))
                        elif 0xD800 <= cp <= 0xDBFF:  # relaxed only: the first high is lone,
                            if collect:  # the second may pair with what follows (as healing reads it)
                                parts.append("\ufffd")
                            self._high = cp
                            st = _LOW_BS
                            continue
                        else:  # relaxed only
                            ch = "\ufffd" + chr(cp)
                        if collect:
                            parts.append(ch)
                        st = _STR
                    elif 0xD800 <= cp <= 0xDBFF:
                        self._high = cp
                        st = _LOW_BS
                    else:
                        if collect:
                            parts.append("\ufffd" if 0xDC00 <= cp <= 0xDFFF else chr(cp))
                        st = _STR
                continue

            if st == _LOW_BS or st == _LOW_U:
                c = chunk[i]
                if st == _LOW_BS and c == "\\":
                    st = _LOW_U
                    i += 1
                    continue
                if st == _LOW_U and c == "u":
                    self._hex = ""
                    st = _HEX
                    i += 1
                    continue
                if strict:
                    return self._fail(base + i, "a high surrogate escape must be followed by a low surrogate escape")
                if collect:
                    parts.append("\ufffd")
                self._high = -1
                st = _STR if st == _LOW_BS else _ESC  # relaxed: read c again
                continue

            # --- relaxed-only states ---------------------------------------------------
            if st == _PROSE:  # the first bracket outside think blocks opens the payload
                scanner = self._before
                assert scanner is not None  # set whenever the state is _PROSE
                taken = scanner.taken
                at = _first_bracket(scanner.feed(chunk[i:]))
                if at is None:
                    i = n
                    break
                i += at - taken + 1
                c = chunk[i - 1]
                stack.append(c)
                self._started = True
                self._prose = None
                self._before = None
                st = _OBJ_FIRST if c == "{" else _ARR_FIRST
                continue
            if st == _BARE or st == _RNUM:
                j = (_BARE_RUN if st == _BARE else _RNUM_RUN)(chunk, i).end()
                if j == n:
                    i = n
                    break
                numparts.append(chunk[nstart:j])
                word = "".join(numparts)
                numparts = []
                i = j
                if self._bare_key:
                    st = _COLON
                    continue
                value = _word_value(st, word)
                if value is not None:
                    vals.append(value)
                st = _AFTER if stack else _DONE
                continue
            if st == _SLASH:
                c = chunk[i]
                if c == "/":
                    st = _LCOMMENT
                    i += 1
                elif c == "*":
                    st = _BCOMMENT
                    i += 1
                else:
                    st = self._ret  # a lone '/': dropped, read c again
                continue
            if st == _LCOMMENT:
                k = chunk.find("\n", i)
                if k < 0:
                    i = n
                    break
                i = k + 1
                st = self._ret
                continue
            if st == _BCOMMENT:
                k = chunk.find("*/", i)
                if k < 0:
                    if chunk[n - 1] == "*":
                        st = _BSTAR
                    i = n
                    break
                i = k + 2
                st = self._ret
                continue
            if st == _BSTAR:
                if chunk[i] == "/":
                    i += 1
                    st = self._ret
                else:
                    st = _BCOMMENT
                continue
            raise AssertionError(f"unknown checker state {st}")  # pragma: no cover

        # --- save the state --------------------------------------------------------------
        self._st = st
        self._pos = base + n
        if st < _STR:
            if vals:
                return _status(tuple(vals), "", st == _DONE)
            return _COMPLETE if st == _DONE else _OK
        # Inside a token: keep what the next chunk needs.
        opened = ""
        complete = False
        if st <= _LOW_U or st == _QEND:
            self._parts = parts
            self._collect = collect
            self._quote = quote
            if collect and len(parts) > open_from and self._esc in (_ESC_NONE, _ESC_LITERAL):
                opened = parts[open_from] if len(parts) == open_from + 1 else "".join(parts[open_from:])
                if opened.isspace():
                    opened = ""  # see _blank_free
        elif st == _NUM or st == _BARE or st == _RNUM:
            if nstart < n:
                numparts.append(chunk[nstart:])
            self._numparts = numparts
            self._nsub = nsub
            complete = st == _NUM and not stack and nsub in _N_ENDABLE
        if vals or opened or complete:
            return _status(tuple(vals), opened, complete)
        return _OK


def can_be_valid(partial: str, *, max_depth: int = MAX_DEPTH, max_size: int = MAX_SIZE) -> bool:
    """False only when no continuation of ``partial`` can be valid JSON (RFC 8259, lone
    surrogate escapes rejected). Never raises: anything that is not a ``str`` is False,
    and so is a partial longer than ``max_size`` characters."""
    if not isinstance(partial, str) or len(partial) > max_size:
        return False
    try:
        return bool(JsonChecker(True, max_depth=max_depth).feed(partial))
    except Exception:  # pragma: no cover - the checker is total; this is a last guard
        return False


# _MISMATCHED: a closing bracket of the other kind than the open container's. The
# relaxed checker pops one container, as the locator pairs brackets (the candidate's end);
# healing closes up to the matching open bracket when one is open deeper (inserting the
# missing closers), drops it when none is, and replaces it when only the root matches and
# text follows. What follows is then read in a context the stream cannot know, so, as
# after a fence line, nothing more is fed (nothing reported, nothing fails): its counts
# stay a lower bound of check()'s ('{"": ["", {a""] "aa' is healed with "aa" a key cut off).

# A fence line's start (at most three spaces, then ``` or ~~~, as FENCE_LINE), and the
# start of a line that may still become one, at the end of the text.
_FENCE_AT = re.compile(r"(?<=[\n\r]) {0,3}(?:```|~~~)")
_FENCE_HEAD = re.compile(r"(?<=[\n\r]) {0,3}(?:`{0,2}|~{0,2})\Z")

# A relaxed checker's stage: the relaxed checker itself, or StreamGuard's committed one
# (CommittedChecker) once the payload is certain, before that, or once it is not the payload.
_PLAIN, _CERTAIN, _PENDING, _DROPPED = 0, 1, 2, 3

# CommittedChecker.quiet(): what its answers depend on; its promises once nothing more is
# read, and after the payload
_CLOSERS = "}]"
_UNREAD = Quiet()
_FINISHED = Quiet(complete=True)
# CommittedChecker.feed_chunks. In a string, what may change what is reported of it, or end
# it: its quote, an escape, a line break, a fence character; what may open a string
_IN_STRING_SPECIAL = {q: re.compile("[" + re.escape(q + "\\\n\r`~") + "]").search for q in _RELAXED_QUOTES.values()}
_ANY_QUOTE = re.compile("[" + "".join(_RELAXED_QUOTES) + "]").search
# The rest of a string with none of those before its quote, when what follows the quote
# shows that it ends the string (see _closes)
_ENDS = r"(?=[ \t]*(?:[,:}\]\n\r]|/[/*])|[ \t]+[" + "".join(_RELAXED_QUOTES) + "])"
_REST = {q: "[^" + re.escape(q + "\\\n\r`~") + "]*" + re.escape(q) + _ENDS for q in _RELAXED_QUOTES.values()}
_STRING_ENDS = {q: re.compile(rest).match for q, rest in _REST.items()}
# Text between tokens and such strings, with no comment: each string's bounds are fixed by its
# quotes (none inside it, none before it in its stretch), so the engine never tries two ways
_ALTERNATIVES = "|".join(re.escape(o) + _REST[c] for o, c in _RELAXED_QUOTES.items())
_CLEAN = re.compile("(?:[^/" + "".join(_RELAXED_QUOTES) + "]*(?:" + _ALTERNATIVES + "))*").match


class _RelaxedChecker(JsonChecker):
    """``JsonChecker(strict=False)``: the automaton fed through a watch for fence lines.

    Once the payload has begun, a line starting with ```` ``` ```` or ``~~~`` ends it for
    the stream, inside a string or not: the locator ends the candidate there and healing
    settles what came before, unless the container goes on after the fence line and
    closes (``formatbook_json.locate``: then check() takes it whole when the fence line
    is inside a string, and refuses it, ``json.fence_inside``, when not; either way what
    the stream counted before the fence is a lower bound of check()'s counts). So the text
    from such a line on is never fed (nothing after it is reported, and nothing can fail),
    and the start of a line that may still become a fence line (up to three spaces and
    one or two backticks or tildes) is held back, unreported, until the line tells: where
    the stream cannot know how healing will settle a text, it does not count it.
    """

    __slots__ = ("_stage", "_tail")

    #: The automaton behind the watch, short paths included (an alias, not a wrapper: no
    #: extra call on the hot path; a test puts the general automaton here).
    _automaton = JsonChecker.feed

    def __init__(self, strict: bool = False, *, max_depth: int = MAX_DEPTH) -> None:
        JsonChecker.__init__(self, strict, max_depth=max_depth)
        # _PLAIN: the relaxed checker itself; _CERTAIN and on: StreamGuard's, committed to
        # a payload (see CommittedChecker, which keeps the commitment in one object with
        # the watch and the automaton, so that a chunk costs one call)
        self._stage = _PLAIN
        self._tail = ""  # committed: white space ending the open text, held back

    def feed(self, chunk: str) -> StreamStatus:  # noqa: C901 - the hot path: short paths inline
        """Consume the next piece of the reply; O(len(chunk))."""
        stage = self._stage
        if stage > _CERTAIN:
            return self._uncommitted(chunk)
        if self._st == _STR and not (self._esc or self._cut or self._hold):
            # the commonest chunk, plain text wholly inside a string, seen before (_OPEN),
            # with no fence character and no indentation to hold: what the watch and
            # the automaton's own short path (and a committed checker's hold-back) do with
            # it, in one call
            status = _QUIET.get(chunk)
            if status is not None:  # (the held-back test below without its white space end)
                self._last = chunk
                self._pos += len(chunk)
                if self._collect:
                    self._parts.append(chunk)
                    if stage and self._tail:
                        return self._held_back(status)
                    return status
                return _OK
            status = _OPEN.get(chunk)
            if status is not None and "`" not in chunk and "~" not in chunk and (chunk[-1:] != " " or len(chunk) > 3):
                self._last = chunk
                self._pos += len(chunk)
                if self._collect:
                    self._parts.append(chunk)
                    if stage and (self._tail or chunk[-1:].isspace()):
                        return self._held_back(status)
                    return status
                return _OK
        if self._cut or "`" in chunk or "~" in chunk:
            status = self._watched(chunk)
        elif self._hold and (
            "`" in self._hold or "~" in self._hold or (len(self._hold) + len(chunk) < 4 and not chunk.strip(" "))
        ):
            status = self._watched(chunk)
        else:
            if self._hold:
                # the line held back goes on with text that makes it no fence line (no
                # fence character, and more than three spaces or a character that is
                # none): fed with that text (_watched's outcome without its scans: an
                # indented line costs one feed, not two)
                chunk = self._hold + chunk
                self._hold = ""
            if chunk[-1:] == " " and (len(chunk) < 4 or "\n" in chunk or "\r" in chunk) and self._indent(chunk):
                # a line break then one to three spaces end the text: the spaces are held
                # (what _watched does with a chunk that holds no fence character)
                body = chunk.rstrip(" ")
                status = self._automaton(body) if body else (_COMPLETE if self._st == _DONE else _OK)
                if not status:
                    return status
                if self._cut:  # a mismatched closing bracket (_MISMATCHED)
                    self._pos += len(chunk) - len(body)
                else:
                    if body:
                        self._last = body
                    self._hold = chunk[len(body) :]
            else:
                if chunk:
                    self._last = chunk
                status = self._automaton(chunk)
        if stage and status is not _OK:  # committed: the white space ending the open text is held back
            if status.values:
                self._tail = ""  # the open string closed: reported whole among the values
            opened = status.open
            if opened and (self._tail or opened[-1].isspace()):
                return self._held_back(status)
        return status

    def _uncommitted(self, chunk: str) -> StreamStatus:
        """Committed checker, the payload not certain yet (or never to be): overridden."""
        raise NotImplementedError

    def _held_back(self, status: StreamStatus) -> StreamStatus:
        """``status`` with the white space that ends the open text held back (``_tail``)."""
        opened = status.open
        if not opened:
            return status
        body = opened.rstrip()
        if not body:  # (the checker reports no blank piece; kept for safety)
            self._tail += opened
            return _with_open(status, "")
        out = self._tail + body if self._tail else body
        self._tail = opened[len(body) :]
        return status if out == opened else _with_open(status, out)

    def copy(self) -> _RelaxedChecker:
        """An independent clone of the current state (O(depth + open token))."""
        clone = cast(_RelaxedChecker, JsonChecker.copy(self))
        clone._stage = self._stage
        clone._tail = self._tail
        return clone

    def _indent(self, chunk: str) -> bool:
        """Whether the text fed ends with a line break and one to three spaces: a fence
        line may start there, so the spaces must be held back (``_watched``)."""
        tail = chunk[-4:]
        if len(tail) < 4:
            tail = (self._last[-4:] + chunk)[-4:]
        k = max(tail.rfind("\n"), tail.rfind("\r"))
        return k >= 0 and not tail[k + 1 :].strip(" ")

    def _watched(self, chunk: str) -> StreamStatus:
        if self._cut:
            self._pos += len(chunk)
            return _OK
        text = self._hold + chunk
        # (a stand-in character before the text says whether a line starts there)
        scan = ("\n" if self._last[-1:] in "\n\r" else "_") + text
        statuses: list[StreamStatus] = []
        start = 0
        for m in _FENCE_AT.finditer(scan):
            at = m.start() - 1
            if at > start:
                status = self._automaton(text[start:at])
                if not status:
                    return status
                statuses.append(status)
                start = at
                if self._cut:  # a mismatched closing bracket (_MISMATCHED)
                    self._pos += len(text) - at
                    return _merged(statuses, self._st == _DONE)
            if self._started and self._st != _DONE:
                # the payload ends at this fence line: what follows is never its text
                self._cut = True
                self._hold = ""
                self._pos += len(text) - at
                return _merged(statuses, self._st == _DONE)
        head = _FENCE_HEAD.search(scan, start + 1)
        end = head.start() - 1 if head is not None else len(text)
        if end > start:
            status = self._automaton(text[start:end])
            if not status:
                return status
            statuses.append(status)
            if self._cut:  # a mismatched closing bracket (_MISMATCHED)
                self._pos += len(text) - end
                return _merged(statuses, self._st == _DONE)
        if end:
            self._last = text[:end]
        self._hold = text[end:]
        return _merged(statuses, self._st == _DONE)

    def finish(self) -> StreamStatus:
        """The reply has ended: a line held back is no fence line, so it is fed first."""
        if self._hold and not self._cut:
            held, self._hold = self._hold, ""
            self._automaton(held)
        return JsonChecker.finish(self)


class CommittedChecker(_RelaxedChecker):
    """The relaxed checker as ``StreamGuard`` uses it: its values count only once the
    payload is certain (:mod:`formatbook_json.commitment`); before that, and when it never
    is, nothing is counted and nothing fails: ``check()`` may take another candidate.

    White space that ends the open string's text so far is held back until more of the
    string follows: a fence line may cut the string there, and the fence body ``check()``
    heals then ends before it (```` ```json\n{"a": "yes \n``` ```` is ``"yes"``).

    The commitment, the watch for fence lines and the automaton are one object (the
    relaxed checker's ``feed`` at stage ``_CERTAIN``), so that once the payload is
    certain a chunk costs one call, as the relaxed checker's own.
    """

    __slots__ = ("_commit", "_measured")

    def __init__(self, *, max_depth: int = MAX_DEPTH) -> None:
        _RelaxedChecker.__init__(self, False, max_depth=max_depth)
        self._commit = Commitment()
        self._stage = _PENDING
        # quiet(): the open string's parts measured so far (the list, how many, their length)
        self._measured: tuple[list[str] | None, int, int] = (None, 0, 0)

    def quiet(self, counted: bool) -> Quiet | None:
        """How long ``StreamGuard`` may spare this checker (see ``Quiet``); None when any
        chunk may change its answer.

        Relaxed, the checker fails only on nesting too deep, and its text is complete only
        once the payload's last container closes; each takes a bracket per level, and a
        bracket opens or closes at most one (one in a string or a comment, none). So, once
        the payload is certain, fewer closing brackets than would close the payload, in
        fewer characters than would nest past ``max_depth``, change no answer. After the
        payload, or once nothing more is read (a fence line ended the payload, or the
        payload was never certain), nothing does.

        ``counted``: what the chunks report counts too. It is their own text (a string's
        decoded: never longer; a number as healing writes it: at most two characters for
        each one of it), plus, when the token still open ends, its text so far and what
        is held back (the start of a line that may be a fence line): ``owed``."""
        stage = self._stage
        if stage != _CERTAIN:
            return _UNREAD if stage == _DROPPED else None
        if self._cut:
            return _UNREAD
        st = self._st
        if st == _DONE:
            return _FINISHED
        if st == _FAILED:
            return None
        depth = len(self._stack)
        allowed = depth - 1
        room = self._max_depth - depth
        if allowed < 0 or room <= 0:
            return None
        if not counted:
            return Quiet(_CLOSERS, allowed, False, 0, room)
        owed = len(self._hold)
        if st > _DONE:  # a token is open
            owed += sum(map(len, self._numparts)) + sum(map(len, self._held)) + 2
            if self._collect and (st <= _LOW_U or st == _QEND):  # the open string's parts, measured once each
                parts = self._parts
                measured, counted_parts, length = self._measured
                if measured is not parts:
                    counted_parts = length = 0
                if counted_parts < len(parts):
                    length += sum(map(len, parts[counted_parts:]))
                    self._measured = (parts, len(parts), length)
                owed += length
        return Quiet(_CLOSERS, allowed, False, 2 * owed, room)

    def feed_chunks(self, chunks: list[str]) -> StreamStatus:
        """``chunks`` fed one by one, answered as one status: the values in order, the open
        text after the last of them, the last completeness (``StreamGuard`` feeds it, under
        limits, the chunks it kept after a ``quiet()`` promise: what it counts is what it
        would count chunk by chunk).

        A value is reported whole, however it came, but the open string's text is not: a
        piece of white space only is left out, and the text of a piece that ends after an
        escape. So the chunks go as one piece where no string value is open where one
        ends and the next begins (see ``_reach``), or in bulk inside a string where none
        of them holds an escape or a line break (``_string_run``); else one by one."""
        text = "".join(chunks)
        ends = list(accumulate(map(len, chunks)))
        statuses: list[StreamStatus] = []
        feed = self.feed
        n = len(chunks)
        k = 0  # the next chunk, at text[a:]
        a = 0
        while k < n:
            if self._cut or self._st == _DONE or self._stage == _DROPPED:
                if a < len(text):
                    statuses.append(feed(text[a:]))  # (nothing is reported)
                break
            e, bulk = self._reach(text, a, ends, k)
            if bulk:
                statuses.append(self._string_run(chunks[k:e]))
            else:
                if e == k + 1:
                    chunk = chunks[k]
                    if not chunk:  # (the guard feeds no empty chunk)
                        k += 1
                        continue
                else:
                    chunk = text[a : ends[e - 1]]
                status = feed(chunk)
                if not status.ok:
                    return status
                statuses.append(status)
            k = e
            a = ends[e - 1]
        return _merged(statuses, self._st == _DONE)

    def _reach(self, text: str, a: int, ends: list[int], k: int) -> tuple[int, bool]:
        """Where the piece of ``feed_chunks`` that starts with chunk ``k`` (at ``text[a]``)
        ends (the chunk after it), and whether it goes in bulk (``_string_run``): a piece
        where no string is open where one chunk ends and the next begins but strings
        that end in it, reported whole (whatever was reported of them before), or keys
        (nothing reported). So it runs on while each string it opens ends before any
        escape, line break or fence character (which may change what is reported of it,
        and whether it ends), see ``_between``. In a string value that does not end so,
        the chunks before the character that tells go in bulk."""
        if self._stage != _CERTAIN or self._esc:
            return k + 1, False
        st = self._st
        if st < _DONE:
            return self._between(text, a, ends), False
        if st != _STR:
            return k + 1, False
        m = _STRING_ENDS[self._quote](text, a)
        if m is not None:
            return self._between(text, m.end(), ends), False
        if not self._collect:  # a key: to the chunk with the second quote (no string value before)
            for _ in range(2):
                m = _ANY_QUOTE(text, a)
                if m is None:
                    return len(ends), False
                a = m.end()
            return bisect_right(ends, a - 1) + 1, False
        m = _IN_STRING_SPECIAL[self._quote](text, a)
        j = bisect_right(ends, m.start()) if m is not None else len(ends)
        if j > k and not self._hold and "\n" not in self._last[-3:] and "\r" not in self._last[-3:]:
            return j, True  # (after a line break, the first chunk may start a fence line)
        return k + 1, False

    @staticmethod
    def _between(text: str, a: int, ends: list[int]) -> int:
        """The chunk after the piece that starts between tokens at ``text[a]``: past every
        string that ends before any escape, line break or fence character (see
        ``_STRING_ENDS``), with only white space, punctuation, numbers and bare words
        between them (``_CLEAN``), up to the chunk with the next quote, taking it (a
        string that opens there is open where it ends, as chunk by chunk). (A comment may
        hold a quote that opens nothing: the piece ends at the first quote after one.)"""
        clean = _CLEAN(text, a)  # (it matches, if only the empty string)
        m = _ANY_QUOTE(text, clean.end() if clean is not None else a)
        return len(ends) if m is None else bisect_right(ends, m.start()) + 1

    def _string_run(self, run: list[str]) -> StreamStatus:
        """The chunks of ``run``, inside a string and holding none of its quote, a
        backslash, a line break or a fence character, fed at once as one by one: each
        piece is the string's text, reported unless it is white space only, with the
        white space ending what was reported held back until more comes (``_tail``)."""
        text = "".join(run)
        self._pos += len(text)
        last = run[-1] or next((c for c in reversed(run) if c), "")
        if last:
            self._last = last
        if not self._collect:
            return _OK
        self._parts.append(text)
        if any(map(str.isspace, run)):
            text = "".join([c for c in run if not c.isspace()])
        body = text.rstrip()
        if not body:
            return _OK
        out = self._tail + body if self._tail else body
        self._tail = text[len(body) :]
        return _with_open(_OK, out)

    @property
    def state(self) -> int:
        """Whether the first bracket is the payload: ``PENDING``, ``CERTAIN`` or ``UNCERTAIN``."""
        return self._commit.state

    def _uncommitted(self, chunk: str) -> StreamStatus:
        """Before the payload is certain: the relaxed checker reads on, nothing counts and
        nothing fails; once the commitment says UNCERTAIN, only the commitment reads."""
        commit = self._commit
        if self._stage == _DROPPED:
            commit.feed(chunk)
            return _OK
        self._stage = _PLAIN
        try:
            status = self.feed(chunk)
        finally:
            self._stage = _PENDING
        state = commit.feed(chunk)
        if state == CERTAIN:
            self._stage = _CERTAIN
            if status.values:
                self._tail = ""
            return self._held_back(status)
        # PENDING (no value can have been read yet: the decision comes at the first
        # character after the bracket) or UNCERTAIN: nothing counts, nothing fails
        if state == UNCERTAIN:
            self._stage = _DROPPED
        return _COMPLETE if status.ok and status.complete else _OK

    def finish(self) -> StreamStatus:
        """The reply has ended: the relaxed checker's answer once the payload is certain."""
        if self._stage != _CERTAIN:
            return _OK
        return _RelaxedChecker.finish(self)

    def copy(self) -> CommittedChecker:
        """An independent clone (O(depth + open token))."""
        clone = cast(CommittedChecker, _RelaxedChecker.copy(self))
        clone._measured = (None, 0, 0)  # (its parts are a list of its own)
        commit = Commitment()
        for name in Commitment.__slots__:
            value = getattr(self._commit, name)
            setattr(commit, name, list(value) if isinstance(value, list) else value)
        clone._commit = commit
        return clone


def _with_open(status: StreamStatus, opened: str) -> StreamStatus:
    """``status`` with ``open`` replaced (``dataclasses.replace`` without its generic cost;
    a short open text alone, the usual case, is a status shared from ``_TRIMMED``)."""
    if status.scoped or status.open_scope is not None:
        return replace(status, open=opened)
    if status.values or status.complete:
        return ok_status(status.values, opened, status.complete)
    trimmed = _TRIMMED.get(opened)
    if trimmed is None:
        trimmed = ok_status(open=opened)
        if len(opened) <= 16 and len(_TRIMMED) < 4096:  # bounded: a token stream repeats its words
            _TRIMMED[opened] = trimmed
    return trimmed


_TRIMMED: dict[str, StreamStatus] = {}  # open text -> its status (immutable: shared)


def _merged(statuses: list[StreamStatus], done: bool) -> StreamStatus:
    """One status for consecutive pieces of a chunk, all truthy; with none (all of the
    chunk held back), the status of what came before: complete when ``done``."""
    if not statuses:
        return _COMPLETE if done else _OK
    if len(statuses) == 1:
        return statuses[0]
    values: tuple[str, ...] = ()
    opened = ""
    for status in statuses:
        values += tuple(status.values)
        opened = status.open if status.values else opened + (status.open or "")
    return _status(values, opened, statuses[-1].complete)
