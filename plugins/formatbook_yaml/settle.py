"""The values a strict YAML stream settles, fed to the core's schema checker as they settle.

:class:`Settler` follows the lines the :class:`~.lines.LineScanner` accepted and drives a
:class:`~formatbook_core.data_schema.prefix.PrefixChecker` with value events: block
mappings and sequences open and close by indentation (``start_object``/``end_object``,
``start_array``/``end_array``), keys are fed when their line shows them whole, and
scalars typed as the loader types them (:func:`.loading.plain`: the YAML 1.2 core schema;
quoted scalars are strings; a plain number where the schema asks for text is the text as
written, :mod:`.written`).

A scalar is judged once its text is settled: a quoted one at its closing quote, a plain
one before a comment, or at its line's end when the next line's indentation closes it (a
plain scalar goes on over lines indented deeper). At the line's end it is judged already
when no reading can pass (neither its value on one line nor a string that begins with
it). The line being written is peeked at (its first 200 characters): its indentation
closes what it closes (a mapping closed with a required key missing fails there), a
``- `` counts an item (``maxItems``), a key of a mapping with closed keys is judged as it
grows, and so is a value that can only be a string (``maxLength``, an ``enum`` prefix).

What it cannot read reliably is never guessed: a flow collection, an alias, a value with
an anchor or a tag is :meth:`~PrefixChecker.skip`-ped (its lines, indented deeper, with
it); a block scalar or a quoted scalar over lines is a string whose text is not judged;
a plain scalar over lines is a string judged on its first line only. A key it cannot
read (``? `` complex keys, anchors, tags, aliases, flow keys, escapes, ``<<``), a tab in
an indentation, a second document, a scalar root, or any line whose structure disagrees
with the scanner's: nothing more is judged (``give_up``). ``finish()`` judges the whole.
"""

from __future__ import annotations

import re
from typing import Any

from formatbook_core.data_schema.prefix import PrefixChecker

from .lines import quote_end
from .loading import plain
from .prose import labelled_sentence

#: The first characters that open no plain scalar (an indicator) in block context.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
#: A plain key's end (``: ``) or a comment (`` #``): one character class each, linear.
_KEY_END = re.compile(r":(?=[ \t]|$)|[ \t]#")
_COMMENT = re.compile(r"[ \t]#")
#: Texts a plain scalar may still resolve to a non-string from (numbers, words, .inf).
_NUMBERISH = re.compile(r"[-+]?(?:[0-9.]+(?:[eE][-+]?[0-9]*)?)?|0[oxX]?[0-9a-fA-F]*")
_WORDS = (
    "~",
    "null",
    "Null",
    "NULL",
    "true",
    "True",
    "TRUE",
    "false",
    "False",
    "FALSE",
    *(s + w for s in ("", "+", "-") for w in (".inf", ".Inf", ".INF")),
    ".nan",
    ".NaN",
    ".NAN",
)
#: How much of the line being written is peeked at (peeks stay linear in the reply).
PEEK = 200


def maybe_typed(text: str) -> bool:
    """Whether a plain scalar beginning with ``text`` may still resolve to something
    other than a string (over-approximated: True only delays the judgement)."""
    return not text or bool(_NUMBERISH.fullmatch(text)) or any(w.startswith(text) for w in _WORDS)


class _GiveUp(Exception):
    """The text cannot be read reliably: nothing more is judged."""


class Settler:
    """Settled YAML values as events of a :class:`PrefixChecker` (see the module doc);
    ``failed`` is ``(reason, position)`` once no continuation can satisfy the schema."""

    def __init__(self, checker: PrefixChecker):
        self.check = checker
        self.stack: list[list[Any]] = []  # [column, "map" | "seq", a key or item waits for its value]
        # a plain scalar its line left open: [kind, column it must pass to go on, text,
        # its value, a checker with that value fed, a checker with the text as a string begun]
        self.pending: list[Any] | None = None
        self.shadow: int | None = None  # lines indented deeper belong to a value not read
        self.ended = False  # the document ended (``...``, ``---``)
        self.off = False
        self.failed: tuple[str, int] | None = None
        self.keyed = -1  # the start of the line whose key was fed while it was written
        self.peeked = (-1, -1)  # (line start, length) last peeked at
        self.unwatched = -1  # where the line being written has a string no keyword judges
        self.margin_keys = 0  # keys of a root mapping at the margin settled so far

    def copy(self) -> Settler:
        clone = Settler.__new__(Settler)
        clone.__dict__.update(self.__dict__)
        clone.check = self.check.copy()
        clone.stack = [list(x) for x in self.stack]
        if self.pending is not None:
            clone.pending = [x.copy() if isinstance(x, PrefixChecker) else x for x in self.pending]
        return clone

    # --- what the stream calls ----------------------------------------------------------
    def line(self, s: str, start: int, cont: int | None, levels: list[list[Any]]) -> None:
        """A complete line the scanner accepted (``cont``: its continuation column before
        the line, ``levels``: its open block collections after it)."""
        if self.off or self.failed is not None:
            return
        try:
            s = s[:-1] if s.endswith("\r") else s
            if "\r" in s:
                raise _GiveUp  # a carriage return inside a line: a break to YAML, not to the scanner
            self._line(s, start, cont)
            if self.shadow is None and not self.ended and [x[:2] for x in self.stack] != levels:
                raise _GiveUp  # the scanner reads the structure otherwise: no guess
        except _GiveUp:
            self._give_up()

    def peek(self, s: str, start: int, cont: int | None) -> None:
        """The line being written (its first characters): settle what it already settles."""
        if self.off or self.failed is not None or (start, len(s)) == self.peeked:
            return
        self.peeked = (start, len(s))
        s = s[:-1] if s.endswith("\r") else s
        if "\r" in s:
            return  # (the whole line tells)
        try:
            self._peek(s, start, cont)
        except _GiveUp:
            self._give_up()

    # --- lines ------------------------------------------------------------------------------
    def _line(self, s: str, start: int, cont: int | None) -> None:
        if s[:3] in ("---", "...") and (len(s) == 3 or s[3] in " \t"):
            rest = s[3:].strip(" \t")
            if rest and rest[0] != "#":
                raise _GiveUp  # a node on a marker line
            self.shadow = None
            if self.stack:  # the document ends
                self._settle(start)
                while self.stack and self.failed is None:
                    self._close_top(start)
                self.ended = True
            return
        text = s.lstrip(" ")
        ind = len(s) - len(text)
        if not text.strip(" \t") or text[0] == "#":
            return  # blank, or a comment
        if self.shadow is not None and ind > self.shadow:
            return  # inside a value not read
        if text[0] == "\t" or (text[0] == "%" and ind == 0):
            raise _GiveUp
        continues = cont is not None and ind > cont
        if self.pending is not None and continues:
            self._continued(start + ind)
            return
        if continues or self.ended:
            raise _GiveUp
        dash = _dash(text)
        self._open_entry(ind, dash, True, start + ind)
        if self.failed is not None:
            return
        self._entry(s, ind, dash, start)

    def _peek(self, s: str, start: int, cont: int | None) -> None:
        text = s.lstrip(" ")
        ind = len(s) - len(text)
        if not text.strip() or text[0] in "#\t\r" or self.ended:
            return  # (white space beyond ASCII may yet end the payload: see the stream's doc)
        if self.shadow is not None and ind > self.shadow:
            return
        if ind == 0 and text[0] in ".%":
            return  # a marker or a directive may be on the way: the whole line tells
        if text[0] == "-" and (len(text) < 2 or (ind == 0 and text.startswith("--"))):
            return  # an item, a marker or a plain text: not yet told
        if cont is not None and ind > cont:
            if self.pending is not None:
                self._continued(start + ind)  # a plain scalar goes on over this line
            return
        dash = _dash(text)
        self._open_entry(ind, dash, True, start + ind)
        if self.failed is not None:
            return
        found = _KEY_END.search(s, ind)
        if found is not None and s[found.start()] == ":" and found.start() + 1 == len(s):
            found = None  # "key:" may go on as "key:x"
        keyed = found is not None and s[found.start()] == ":" and text[0] not in _INDICATORS
        if not self.stack:  # the root opens
            if dash:
                self._open("seq", ind, start + ind + 1)
            elif keyed:
                assert found is not None
                self._open("map", ind, start + found.start() + 1)
            if self.failed is not None or not self.stack:
                return
        self._peek_entry(s, start, ind, dash, found if keyed else None)

    def _peek_entry(self, s: str, start: int, ind: int, dash: bool, found: re.Match[str] | None) -> None:
        """The entry the line being written begins at column ``ind`` (``found``: the ``:``
        after its key, when it shows)."""
        col, kind, waits = self.stack[-1]
        keyed = found is not None
        if col < ind and waits and (dash or keyed):
            trial = self.check.copy()  # a collection opens as the value of what waits
            if dash:
                trial.start_array()
                trial.skip()
            else:
                trial.start_object()
            if not trial.alive:
                self._fail(trial, start + ind + 1 if found is None else start + found.start() + 1)
            return
        if dash and col == ind and (kind == "seq" or waits):
            trial = self.check.copy()  # an item begins: does the list take one more?
            if kind == "map":
                trial.start_array()
            trial.skip()
            if not trial.alive:
                self._fail(trial, start + ind + 1)
            return
        if kind != "map" or col != ind or s[ind] in _INDICATORS or self._may_be_prose(s[ind]):
            return
        if found is None:
            # a key being written: judged as it grows where the keys are closed
            if self.check.closed_keys():
                end = _KEY_END.search(s, ind)
                prefix = s[ind : end.start() if end else len(s)].rstrip().rstrip(":").rstrip()
                if prefix:
                    self._trial_key(self.check, prefix, start + ind)
            return
        if self.keyed != start:
            self._key(s[ind : found.start()].rstrip(" \t"), start + found.start())
            self.keyed = start
            if self.failed is not None:
                return
        j = _skip_blank(s, found.end() + 1)
        if j >= len(s) or s[j] in _INDICATORS:
            return
        hit = _COMMENT.search(s, j)
        value = s[j : hit.start() if hit else len(s)].rstrip()
        if value and not maybe_typed(value) and self.unwatched != start + j:
            self._trial_string(self.check, value, start + j)  # a string being written

    def _open_entry(self, ind: int, dash: bool, told: bool, at: int) -> None:
        """A node line at column ``ind`` (``dash``: an item; ``told``: whether it is one is
        known): settle the plain scalar it closes, close the collections it closes, and give
        a key or item left waiting at its column a null."""
        self.shadow = None if self.shadow is not None and ind <= self.shadow else self.shadow
        self._settle(at)
        stack = self.stack
        while stack and self.failed is None:
            col, kind, _waits = stack[-1]
            if col > ind or (
                col == ind and kind == "seq" and told and not dash and len(stack) > 1 and stack[-2][0] == col
            ):
                self._close_top(at)
            else:
                break
        if stack and self.failed is None and told:
            top = stack[-1]
            if top[0] == ind and top[2] and (top[1] == "seq" or not dash):
                top[2] = False
                self._event(self.check.literal("null"), at)

    def _entry(self, s: str, ind: int, dash: bool, start: int) -> None:
        """The node line's entry at column ``ind``, its collections settled."""
        stack = self.stack
        if not stack:
            self._block_node(s, ind, start)  # the root
            return
        top = stack[-1]
        col, kind, waits = top
        if col == ind:
            if kind == "seq" and dash:
                self._item(s, ind, start)
            elif kind == "map" and dash and waits:
                top[2] = False  # "key:" over "- x": the key's value is a list at its column
                self._open("seq", ind, start + ind + 1)
                self._item(s, ind, start)
            elif kind == "map" and not dash:
                self._member(s, ind, start)
            else:
                raise _GiveUp
        elif col < ind and waits:
            top[2] = False  # the value of the key or item above, on its own line
            self._block_node(s, ind, start)
        else:
            raise _GiveUp

    def _block_node(self, s: str, i: int, start: int) -> None:
        """A node at ``s[i]`` that is the value of what is open (or the root)."""
        c = s[i]
        if _dash(s[i:]):
            self._open("seq", i, start + i + 1)
            if self.failed is None:
                self._item(s, i, start)
            return
        if c in "&!*" or (c == "?" and _dash_like(s, i)):
            raise _GiveUp  # properties or a complex key: a key or a value, not told here
        if c in "[{":
            if not self.stack or ":" in s[i:]:
                raise _GiveUp  # a flow root, or maybe a flow key
            self._scalar(s, i, start)
            return
        found = self._key_at(s, i)
        if found is not None:
            self._open("map", i, start + found[1] + 1)
            if self.failed is None:
                self._member(s, i, start)
            return
        if not self.stack:
            raise _GiveUp  # a scalar root (root="any")
        self._scalar(s, i, start)

    def _item(self, s: str, i: int, start: int) -> None:
        """``- `` at ``s[i]``: an item of the innermost list."""
        j = _skip_blank(s, i + 1)
        if j >= len(s) or s[j] == "#":
            self.stack[-1][2] = True  # its value on later lines, or null
            return
        if "\t" in s[i + 1 : j]:
            raise _GiveUp
        self._block_node(s, j, start)

    def _member(self, s: str, i: int, start: int) -> None:
        """A ``key: value`` at ``s[i]`` in the innermost mapping."""
        found = self._key_at(s, i)
        if found is None:
            raise _GiveUp
        key, colon = found
        if len(self.stack) == 1 and i == 0:  # a key at the margin: prose check() may set aside?
            if labelled_sentence(s) or (
                not self.margin_keys and len(key.split()) >= 3 and not s[colon + 1 :].strip(" \t")
            ):
                raise _GiveUp  # "Note: you can change it later.", "Here is the YAML:"
            self.margin_keys += 1
        if self.keyed != start:
            self._key(key, start + colon)
            if self.failed is not None:
                return
        self.keyed = -1
        j = _skip_blank(s, colon + 1)
        if j >= len(s) or s[j] == "#":
            self.stack[-1][2] = True  # its value on later lines, or null
            return
        if _dash(s[j:]) or (s[j] == "?" and _dash_like(s, j)):
            raise _GiveUp
        self._scalar(s, j, start)

    def _may_be_prose(self, first: str) -> bool:
        """A key of the root mapping at the margin beginning with ``first`` may be a line of
        prose that locating sets aside (a labelled sentence, an introduction ending with a
        colon): judged only once its line is whole (:meth:`_member`)."""
        stack = self.stack
        return (
            len(stack) == 1 and stack[0][0] == 0 and (not self.margin_keys or (first.isalpha() and not first.islower()))
        )

    def _key_at(self, s: str, i: int) -> tuple[str, int] | None:
        """The key at ``s[i]`` and the offset of its ``:``; ``None``: no key starts there."""
        c = s[i]
        if c in "'\"":
            end = quote_end(s, i + 1, c)
            if end < 0:
                return None
            k = _skip_blank(s, end)
            if k < len(s) and s[k] == ":" and (k + 1 == len(s) or s[k + 1] in " \t"):
                text = _quoted(s[i + 1 : end - 1], c)
                if text is None:
                    raise _GiveUp
                return text, k
            return None
        if c in "&!*[{|>%@`" or (c in "?:-" and _dash_like(s, i)):
            raise _GiveUp
        found = _KEY_END.search(s, i)
        if found is None or s[found.start()] != ":":
            return None
        key = s[i : found.start()].rstrip(" \t")
        if key == "<<":
            raise _GiveUp  # a merge key
        return key, found.start()

    def _scalar(self, s: str, j: int, start: int) -> None:
        """A value node at ``s[j]`` on the line of its key or item."""
        c = s[j]
        col = self.stack[-1][0]
        end = start + len(s)
        if c in "&!*[{":
            self._event(self.check.skip(), end)  # an alias, a tag, an anchor, a flow collection
            self.shadow = col
            return
        if c in "|>":
            self._string_not_read(end)  # a block scalar
            self.shadow = col
            return
        if c in "'\"":
            close = quote_end(s, j + 1, c)
            if close < 0:
                self._string_not_read(end)  # over lines
                self.shadow = col
                return
            rest = s[close:].lstrip(" \t")
            if rest and rest[0] != "#":
                raise _GiveUp
            text = _quoted(s[j + 1 : close - 1], c)
            if text is None:
                self._string_not_read(start + close)
                return
            if self._string(text, start + j + 1):
                self._event(self.check.end_string(), start + close - 1)
            return
        if c in _INDICATORS and not (c in "-?:" and not _dash_like(s, j)):
            raise _GiveUp
        hit = _COMMENT.search(s, j)
        text = s[j : hit.start() if hit else len(s)].rstrip(" \t")
        value = plain(text)
        if hit is not None:  # a comment ends it
            self._typed(text, value, start + j + len(text), start + j)
            return
        # its line's end: it may go on over lines indented deeper than ``col``
        if isinstance(value, str):
            if self._string(text, start + j):
                self.pending = ["string", col, text, value, None, None]
            return
        one = self.check.copy()
        self._feed(one, text, value)
        more = None
        if not one.alive:  # unless it goes on over lines as text, it is doomed
            more = self.check.copy()
            more.start_string()
            if not more.string(text):
                self._fail(one, start + j + len(text))
                return
        self.pending = ["typed", col, text, value, one, more]

    # --- events -------------------------------------------------------------------------
    def _key(self, key: str, at: int) -> None:
        """The key ``key`` whole, its ``:`` at ``at``."""
        check = self.check
        before = check.copy() if len(key) > 8 and check.closed_keys() else None
        check.start_key()
        check.key(key, True)
        if not check.end_key() and self.failed is None:
            found = _shortest(before, key, key=True) if before is not None else None
            # (the first character no key allowed begins with)
            self.failed = (found[1], at - len(key) + found[0] - 1) if found else (check.reason or "", at)

    def _trial_key(self, check: PrefixChecker, key: str, at: int) -> None:
        """Fail where ``check`` refuses the key ``key`` (at ``at``) as it is written."""
        found = _shortest(check, key, key=True)
        if found is not None:
            self.failed = (found[1], at + found[0] - 1)

    def _trial_string(self, check: PrefixChecker, text: str, at: int) -> None:
        """Fail where ``check`` refuses a string beginning with ``text`` (at ``at``)."""
        trial = check.copy()
        trial.start_string()
        if trial.alive and not trial.watching:
            self.unwatched = at  # its text is not judged: no more trials on this line
            return
        found = _shortest(check, text, key=False)
        if found is not None:
            self.failed = (found[1], at + found[0] - 1)

    def _string(self, text: str, at: int) -> bool:
        """A string value begins with ``text`` (at ``at``): fed, and judged as written."""
        check = self.check
        check.start_string()
        before = check.copy() if len(text) > 8 and check.watching else None
        if check.string(text):
            return True
        if before is not None:
            found = _shortest(before, text, key=False, opened=True)
            if found is not None:
                self.failed = (found[1], at + found[0] - 1)
                return False
        self._fail(check, at + len(text) - 1)
        return False

    def _open(self, kind: str, col: int, at: int) -> None:
        self.stack.append([col, kind, False])
        self._event(self.check.start_object() if kind == "map" else self.check.start_array(), at)

    def _close_top(self, at: int) -> None:
        _col, kind, waits = self.stack.pop()
        if waits:
            self._event(self.check.literal("null"), at)
        if self.failed is None:
            self._event(self.check.end_object() if kind == "map" else self.check.end_array(), at)

    def _settle(self, at: int) -> None:
        """The open plain scalar is complete (the line at ``at`` does not go on with it)."""
        pending, self.pending = self.pending, None
        if pending is None:
            return
        kind, _col, text, value, one, more = pending
        if kind in ("string", "over lines"):
            self._event(self.check.end_string(), at)
        else:
            self._typed(text, value, at, one=one, text_ok=more is None or more.alive)

    def _continued(self, at: int) -> None:
        """The open plain scalar goes on over the line at ``at``: a string, its first line
        judged."""
        pending = self.pending
        assert pending is not None
        kind, _col, text, _value, _one, more = pending
        if kind == "over lines":
            return
        pending[0] = "over lines"
        if kind == "typed":
            if more is None:  # (the checker is as the line's end left it)
                more = self.check
                more.start_string()
                more.string(text)
            self.check = more
            if not more.alive:
                self._fail(more, at)
                return
        self.check.opaque()

    def _typed(
        self,
        text: str,
        value: Any,
        at: int,
        where: int = -1,
        one: PrefixChecker | None = None,
        text_ok: bool = True,
    ) -> None:
        """A plain scalar settled at ``at`` as ``text`` (at ``where``, read as ``value``;
        ``one``: a checker with it fed already; ``text_ok``: a string beginning with it may
        pass)."""
        if isinstance(value, str):
            if self._string(text, where):
                self._event(self.check.end_string(), at)
            return
        if one is None:
            one = self.check.copy()
            self._feed(one, text, value)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and text_ok:
            written = self.check.copy()  # a plain number where text is asked: its text
            written.start_string()
            written.string(text)
            written.end_string()
            if written.alive:
                if one.alive:
                    self._event(self.check.skip(), at)  # two readings may pass: not told here
                    return
                one = written
        self.check = one
        if not one.alive:
            self._fail(one, at)

    @staticmethod
    def _feed(check: PrefixChecker, text: str, value: Any) -> None:
        if value is None or isinstance(value, bool):
            check.literal("null" if value is None else "true" if value else "false")
        elif isinstance(value, int) or (isinstance(value, float) and value == value and abs(value) != float("inf")):
            check.number(repr(value))
            check.end_number()
        else:
            check.skip()  # .inf, .nan: no JSON spelling

    def _string_not_read(self, at: int) -> None:
        """A string whose text is not judged (a block scalar, a quoted scalar over lines)."""
        check = self.check
        check.start_string()
        check.opaque()
        self._event(check.end_string(), at)

    def _event(self, alive: bool, at: int) -> None:
        if not alive and self.failed is None:
            self._fail(self.check, at)

    def _fail(self, check: PrefixChecker, at: int) -> None:
        self.failed = (check.reason or "the schema refuses this value", at)

    def _give_up(self) -> None:
        self.off = True
        self.check.give_up()


def _shortest(check: PrefixChecker, text: str, *, key: bool, opened: bool = False) -> tuple[int, str] | None:
    """The length of the shortest prefix of ``text`` that ``check`` refuses as a key (or a
    string; ``opened``: its string is begun already) and why; ``None``: none is refused.
    A refused prefix stays refused as it grows: a binary search, O(log n) copies."""

    def refused(n: int) -> str | None:
        trial = check.copy()
        if key:
            trial.start_key()
            alive = trial.key(text[:n])
        else:
            if not opened:
                trial.start_string()
            alive = trial.string(text[:n])
        return None if alive else (trial.reason or "")

    last = refused(len(text))
    if last is None:
        return None
    low, high = 1, len(text)
    while low < high:
        mid = (low + high) // 2
        if refused(mid) is None:
            low = mid + 1
        else:
            high = mid
    return low, refused(low) or last


def _dash(text: str) -> bool:
    """``text`` opens with a block sequence's ``-`` indicator."""
    return text[:1] == "-" and (len(text) == 1 or text[1] in " \t")


def _dash_like(s: str, i: int) -> bool:
    return i + 1 >= len(s) or s[i + 1] in " \t"


def _skip_blank(s: str, i: int) -> int:
    n = len(s)
    while i < n and s[i] in " \t":
        i += 1
    return i


def _quoted(inner: str, quote: str) -> str | None:
    """A one-line quoted scalar's text; ``None`` where escapes would have to be read."""
    if quote == "'":
        return inner.replace("''", "'")
    return None if "\\" in inner else inner
