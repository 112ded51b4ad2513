"""RFC 6350 content lines: the layer under every vCard (and iCalendar) check.

A vCard is a sequence of *physical* lines ended by CRLF. A physical line that starts with
a space or a tab continues the previous one (*folding*): unfolding removes the line break
and that one white-space character. The *logical* line so obtained is a content line::

    contentline = [group "."] name *(";" param) ":" value CRLF
    name, group = 1*(ALPHA / DIGIT / "-")
    param       = param-name "=" param-value *("," param-value)
    param-value = *SAFE-CHAR / DQUOTE *QSAFE-CHAR DQUOTE
    value       = *VALUE-CHAR          (no control character but HTAB)

The API:

* :func:`physical_lines` — ``(start, end, break)`` for each physical line of a text;
* :func:`unfold` — the logical lines (:class:`Logical`: unfolded text and source span);
* :func:`parse` — one logical line into a :class:`ContentLine`, or :class:`ContentLineError`
  naming the column; :class:`LineScanner` is the same grammar fed a piece at a time (the
  streaming checker uses it, so the two can never disagree);
* :func:`fold` — a logical line folded at 75 octets (never inside a UTF-8 sequence);
  it, :func:`physical_lines`, :func:`octets`, :func:`split_unescaped` and
  :func:`unescape_text` come from
  :mod:`formatbook_core.contentlines`, shared with the iCalendar plugin;
* :func:`escape_text` / :func:`unescape_text` — backslash escapes of text values.

Everything here is linear in its input: plain string scanning, and two regular
expressions over single character classes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# the layer RFC 5545 shares (physical lines, folding, splitting at unescaped separators)
from formatbook_core.contentlines import (
    CRLF,
    FOLD_OCTETS,
    fold,
    octets,
    physical_lines,
    split_unescaped,
    unescape_text,
)
from formatbook_core.runs import run

__all__ = [
    "CRLF",
    "FOLD_OCTETS",
    "ContentLine",
    "ContentLineError",
    "LineScanner",
    "Logical",
    "escape_text",
    "fold",
    "octets",
    "parse",
    "physical_lines",
    "split_unescaped",
    "unescape_text",
    "unfold",
]


_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
# Characters a value may not hold: controls but HTAB, and DEL (VALUE-CHAR = WSP / VCHAR / NON-ASCII).
_BAD_VALUE_CHAR = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_VALUE_RUN = run(r"[^\x00-\x08\x0a-\x1f\x7f]*")
# An unquoted parameter value: SAFE-CHAR (no control, DQUOTE, ";", ":" or ",").
_SAFE_RUN = run(r'[^\x00-\x08\x0a-\x1f\x7f";:,]*')
_QSAFE_RUN = run(r'[^\x00-\x08\x0a-\x1f\x7f"]*')


class ContentLineError(ValueError):
    """A logical line that is no content line; ``column`` is where the text shows it."""

    def __init__(self, message: str, column: int):
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class ContentLine:
    """A parsed content line. ``name`` and parameter names are upper case; ``params``
    keeps their order; ``value`` is as written (still escaped)."""

    name: str
    value: str
    params: tuple[tuple[str, tuple[str, ...]], ...] = ()
    group: str | None = None

    def param(self, name: str) -> tuple[str, ...]:
        """Every value of the parameter ``name`` (any case), in order."""
        wanted = name.upper()
        return tuple(v for n, values in self.params for v in values if n == wanted)


@dataclass(frozen=True)
class Logical:
    """One logical line: ``text`` unfolded; ``start``/``end`` its span in the source
    (line break excluded); ``brk`` the break that ends its last physical line (``""`` at
    the end of the text); ``pieces`` the spans of its physical lines."""

    text: str
    start: int
    end: int
    brk: str
    pieces: tuple[tuple[int, int], ...]


def unfold(text: str, lines: list[tuple[int, int, str]] | None = None) -> list[Logical]:
    """The logical lines of ``text``: a physical line starting with a space or a tab
    continues the previous one (whatever break ended it: callers check breaks apart)."""
    if lines is None:
        lines = physical_lines(text)
    out: list[Logical] = []
    parts: list[str] = []
    pieces: list[tuple[int, int]] = []
    for start, end, brk in lines:
        if pieces and start < end and text[start] in " \t":
            parts.append(text[start + 1 : end])
            pieces.append((start, end))
            last_brk = brk
            continue
        if pieces:
            out.append(Logical("".join(parts), pieces[0][0], pieces[-1][1], last_brk, tuple(pieces)))
        parts = [text[start:end]]
        pieces = [(start, end)]
        last_brk = brk
    if pieces:
        out.append(Logical("".join(parts), pieces[0][0], pieces[-1][1], last_brk, tuple(pieces)))
    return out


# --- the content-line grammar, fed a piece at a time ------------------------------------
_NAME, _PNAME, _PVSTART, _PUNQ, _PQ, _PAFTERQ, _VALUE = range(7)


class LineScanner:
    """The content-line grammar as a state machine over one logical line, fed in pieces.

    ``feed(piece)`` returns ``None`` while the line can still be a content line, else a
    :class:`ContentLineError` (column counted from the line's start). ``end()`` says
    whether what was fed is a whole content line. ``feed`` costs time in proportion to
    its piece: the value is consumed by one regular expression over a character class.
    """

    __slots__ = ("state", "column", "token", "seen_group", "error")

    def __init__(self) -> None:
        self.state = _NAME
        self.column = 0
        self.token = 0  # length of the name, group or parameter name being read
        self.seen_group = False
        self.error: ContentLineError | None = None

    def copy(self) -> LineScanner:
        clone = LineScanner()
        clone.state, clone.column, clone.token = self.state, self.column, self.token
        clone.seen_group, clone.error = self.seen_group, self.error
        return clone

    def _fail(self, message: str, column: int) -> ContentLineError:
        self.error = ContentLineError(message, column)
        return self.error

    def feed(self, piece: str) -> ContentLineError | None:
        if self.error is not None:
            return self.error
        i = 0
        n = len(piece)
        base = self.column
        while i < n:
            state = self.state
            if state == _VALUE:
                m = _VALUE_RUN.match(piece, i)
                i = m.end()
                if i < n:
                    return self._fail(f"control character {piece[i]!r} in the value", base + i)
                break
            ch = piece[i]
            if state == _NAME or state == _PNAME:
                if ch in _NAME_CHARS:
                    self.token += 1
                elif self.token == 0:
                    what = "property name" if state == _NAME else "parameter name"
                    return self._fail(f"{ch!r} where a {what} should start", base + i)
                elif state == _NAME and ch == "." and not self.seen_group:
                    self.seen_group = True
                    self.token = 0
                elif state == _NAME and ch in ";:":
                    self.state = _PNAME if ch == ";" else _VALUE
                    self.token = 0
                elif state == _PNAME and ch == "=":
                    self.state = _PVSTART
                else:
                    where = "a property name" if state == _NAME else "a parameter name (NAME=value)"
                    return self._fail(f"{ch!r} in {where}", base + i)
                i += 1
            elif state == _PVSTART or state == _PUNQ:
                if ch == '"' and state == _PVSTART:
                    self.state = _PQ
                    i += 1
                    continue
                m = _SAFE_RUN.match(piece, i)
                if m.end() > i:
                    self.state = _PUNQ
                    i = m.end()
                    continue
                i = self._after_param_value(piece, i, base)
                if i < 0:
                    return self.error
            elif state == _PQ:
                m = _QSAFE_RUN.match(piece, i)
                i = m.end()
                if i < n:
                    if piece[i] != '"':
                        return self._fail(f"control character {piece[i]!r} in a quoted parameter value", base + i)
                    self.state = _PAFTERQ
                    i += 1
            else:  # _PAFTERQ
                i = self._after_param_value(piece, i, base)
                if i < 0:
                    return self.error
        self.column = base + n
        return None

    def _after_param_value(self, piece: str, i: int, base: int) -> int:
        ch = piece[i]
        if ch == ",":
            self.state = _PVSTART
        elif ch == ";":
            self.state = _PNAME
            self.token = 0
        elif ch == ":":
            self.state = _VALUE
        else:
            self._fail(f"{ch!r} in a parameter value", base + i)
            return -1
        return i + 1

    def end(self) -> ContentLineError | None:
        """``None`` when the line fed is a whole content line, else why not."""
        if self.error is not None:
            return self.error
        if self.state == _VALUE:
            return None
        if self.state == _PQ:
            return self._fail("a quoted parameter value is not closed", self.column)
        return self._fail("no ':' before the value: not a content line", self.column)


def parse(line: str) -> ContentLine:
    """The content line ``line`` (one logical line, unfolded, without its break).

    Raises :class:`ContentLineError` when it is not one (the column says where)."""
    scanner = LineScanner()
    error = scanner.feed(line) or scanner.end()
    if error is not None:
        raise error
    return _split(line)


def _split(line: str) -> ContentLine:
    """Split a line the grammar accepted: the first ':' outside quotes ends the params."""
    i = 0
    n = len(line)
    while i < n and line[i] not in ".;:":
        i += 1
    group = None
    if line[i] == ".":
        group = line[:i]
        start = i + 1
        i = start
        while line[i] not in ";:":
            i += 1
        name = line[start:i].upper()
    else:
        name = line[:i].upper()
    params: list[tuple[str, tuple[str, ...]]] = []
    while line[i] == ";":
        eq = line.index("=", i)
        pname = line[i + 1 : eq].upper()
        values: list[str] = []
        i = eq + 1
        while True:
            if i < n and line[i] == '"':
                close = line.index('"', i + 1)
                values.append(line[i + 1 : close])
                i = close + 1
            else:
                j = i
                while line[j] not in ",;:":
                    j += 1
                values.append(line[i:j])
                i = j
            if line[i] == ",":
                i += 1
                continue
            break
        params.append((pname, tuple(values)))
    return ContentLine(name, line[i + 1 :], tuple(params), group)


def has_control(value: str) -> bool:
    """Whether ``value`` holds a character no value may hold."""
    return _BAD_VALUE_CHAR.search(value) is not None


def escape_text(value: str, *, separators: str = ",;") -> str:
    """``value`` (plain text) as a text value: ``\\`` ``,`` ``;`` and newlines escaped.
    ``separators`` are the characters to escape besides the backslash and newlines."""
    out = value.replace("\\", "\\\\")
    for ch in separators:
        out = out.replace(ch, "\\" + ch)
    return out.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")
