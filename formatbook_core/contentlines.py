"""RFC 5545 / RFC 6350 content lines: the parts both RFCs define alike.

Both texts are sequences of physical lines ended by CRLF, long lines folded at 75 octets
(a line break followed by one space or tab continues the line), and text values escape
``\\``, ``,``, ``;`` and line breaks with a backslash. The plugins that read such texts
keep their own grammar of a logical line (names, parameters, groups differ) and share
this layer:

- :func:`physical_lines` — ``(start, end, break)`` for each physical line;
- :func:`unfold` — the logical lines (:class:`Logical`: unfolded text and source span);
- :class:`LineScanner` — the grammar of a content line, fed a piece at a time, with
  ``groups`` (``group.NAME``, RFC 6350) or without (RFC 5545); it reports a
  :class:`LineFault` (what went wrong, where), which each plugin words its own way;
  :func:`split_line` cuts a line the scanner accepted into its parts;
- :func:`octets` and :func:`fold` — write a logical line back, folded at 75 octets;
- :func:`split_unescaped` — a value split at a separator no backslash escapes;
- :func:`unescape_text` — a text value's escapes decoded;
- :func:`raw_backslashes` — whether a value's backslashes were written raw (a Windows
  path), so that none of them is an escape;
- :func:`is_fence_line` — a Markdown fence line, markup around the payload: a healer sets
  it aside, never reads it as the rest of a value broken by a line break;
- what lies between content lines and is no part of a value (a model's note) is set
  aside by the prepared reply: :func:`formatbook_core.reply.set_aside_between`.

Everything here is a plain scan, linear in its input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from .reply import FENCE_LINE

__all__ = [
    "CRLF",
    "FOLD_OCTETS",
    "LineFault",
    "LineScanner",
    "Logical",
    "fold",
    "is_fence_line",
    "octets",
    "physical_lines",
    "raw_backslashes",
    "read_line",
    "split_line",
    "split_unescaped",
    "unescape_text",
    "unfold",
]

CRLF = "\r\n"
#: RFC 5545 3.1 and RFC 6350 3.2: lines SHOULD NOT be longer than this many octets,
#: line break excluded.
FOLD_OCTETS = 75


def physical_lines(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, break)`` for each physical line; ``break`` is ``"\\r\\n"``,
    ``"\\n"``, ``"\\r"`` or ``""`` (the last line, unterminated). A text ending with a
    break has no empty line after it."""
    out: list[tuple[int, int, str]] = []
    n = len(text)
    pos = 0
    find = text.find
    while pos < n:
        lf = find("\n", pos)
        cr = find("\r", pos, lf if lf >= 0 else n)
        if cr >= 0:
            if cr + 1 < n and text[cr + 1] == "\n":
                out.append((pos, cr, CRLF))
                pos = cr + 2
            else:
                out.append((pos, cr, "\r"))
                pos = cr + 1
        elif lf >= 0:
            out.append((pos, lf, "\n"))
            pos = lf + 1
        else:
            out.append((pos, n, ""))
            pos = n
    return out


def octets(text: str) -> int:
    """The length of ``text`` in UTF-8 octets (a lone surrogate counted as written)."""
    return len(text.encode("utf-8", "surrogatepass"))


def fold(line: str, limit: int = FOLD_OCTETS) -> str:
    """``line`` folded so that no physical line exceeds ``limit`` octets (a continuation
    line's leading space counted), never inside a UTF-8 character; CRLF and a space
    between the parts, none at the end."""
    if len(line) * 4 <= limit:
        return line
    data = line.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return line
    if limit < 5:  # a character of 4 octets may not fit a continuation line
        return _fold_characters(line, limit)
    # cut the octets, each cut moved back to the start of a character (never before a
    # continuation octet, 0b10xxxxxx): a few steps per physical line, not per character
    out: list[str] = []
    start = 0
    room = limit
    n = len(data)
    while n - start > room:
        cut = start + room
        while data[cut] & 0xC0 == 0x80:
            cut -= 1
        out.append(data[start:cut].decode("utf-8", "surrogatepass"))
        start = cut
        room = limit - 1  # the continuation's leading space
    out.append(data[start:].decode("utf-8", "surrogatepass"))
    return (CRLF + " ").join(out)


def _fold_characters(line: str, limit: int) -> str:
    """:func:`fold` one character at a time (a ``limit`` some character may exceed)."""
    out: list[str] = []
    start = 0
    size = 0
    room = limit
    for i, ch in enumerate(line):
        w = len(ch.encode("utf-8", "surrogatepass"))
        if size + w > room:
            out.append(line[start:i])
            start = i
            size = 0
            room = limit - 1  # the continuation's leading space
        size += w
    out.append(line[start:])
    return (CRLF + " ").join(out)


def split_unescaped(value: str, sep: str) -> list[str]:
    """``value`` split at each ``sep`` no backslash escapes (the escapes kept)."""
    parts: list[str] = []
    start = 0
    i = 0
    n = len(value)
    while i < n:
        ch = value[i]
        if ch == "\\":
            i += 2
            continue
        if ch == sep:
            parts.append(value[start:i])
            start = i + 1
        i += 1
    parts.append(value[start:])
    return parts


_UNESCAPE = {"n": "\n", "N": "\n", "\\": "\\", ",": ",", ";": ";"}


def unescape_text(value: str) -> str:
    """A text value with its backslash escapes decoded (``\\n`` newline, ``\\,``,
    ``\\;``, ``\\\\``); an unknown escape keeps its backslash."""
    if "\\" not in value:
        return value
    out: list[str] = []
    i = 0
    n = len(value)
    while i < n:
        j = value.find("\\", i)
        if j < 0 or j == n - 1:
            out.append(value[i:])
            break
        out.append(value[i:j])
        nxt = value[j + 1]
        out.append(_UNESCAPE.get(nxt, "\\" + nxt))
        i = j + 2
    return "".join(out)


def raw_backslashes(value: str, escapable: str = "\\;,nN") -> bool:
    """Some backslash in ``value`` escapes nothing (``C:\\Users``): the writer wrote
    backslashes as they are, so none of them is an escape (``\\notes`` is no newline)."""
    i = value.find("\\")
    while i >= 0:
        if i + 1 >= len(value) or value[i + 1] not in escapable:
            return True
        i = value.find("\\", i + 2)
    return False


def is_fence_line(line: str) -> bool:
    """``line`` (one logical line, no line break) is a Markdown fence line: up to three
    spaces, a run of three or more backticks or tildes, an info string or nothing
    (```` ``` ````, ```` ```ics ````, ``~~~``). No content line starts so, and a reply puts
    one around a payload, not inside a value."""
    return FENCE_LINE.match(line) is not None


@dataclass(frozen=True, slots=True)
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
    continues the previous one, its first character dropped (whatever break ended it:
    whether the breaks are CRLF is the caller's question)."""
    if lines is None:
        lines = physical_lines(text)
    out: list[Logical] = []
    parts: list[str] = []
    pieces: list[tuple[int, int]] = []
    last_brk = ""
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
#
#     contentline = [group "."] name *(";" param) ":" value CRLF     (group: RFC 6350 only)
#     name, group = 1*(ALPHA / DIGIT / "-")
#     param       = param-name "=" param-value *("," param-value)
#     param-value = *SAFE-CHAR / DQUOTE *QSAFE-CHAR DQUOTE
#     value       = *VALUE-CHAR          (no control character but HTAB)

_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
# Runs of characters a part may hold (single character classes: linear). No control
# character but HTAB anywhere; an unquoted parameter value holds no DQUOTE, ";", ":", ",";
# a quoted one no DQUOTE.
_NAME_RUN = re.compile(r"[A-Za-z0-9-]*")
_VALUE_RUN = re.compile(r"[^\x00-\x08\x0a-\x1f\x7f]*")
_UNQUOTED_RUN = re.compile(r'[^\x00-\x08\x0a-\x1f\x7f";:,]*(?:,[^\x00-\x08\x0a-\x1f\x7f";:,]*)*')
_QSAFE_RUN = re.compile(r'[^\x00-\x08\x0a-\x1f\x7f"]*')

#: The scanner's states; a line that ends in one but ``VALUE`` is no content line.
NAME, PARAM_NAME, PARAM_VALUE, UNQUOTED, QUOTED, AFTER_QUOTE, VALUE = (
    "name",
    "param_name",
    "param_value",
    "unquoted",
    "quoted",
    "after_quote",
    "value",
)


class LineFault(NamedTuple):
    """Why a line is no content line: ``kind`` says what went wrong, ``column`` where
    (from the line's start), ``char`` the character found there (``""`` at the end).

    Kinds of a character: ``name_start`` (none of a name where a property name starts),
    ``name`` (in a property name), ``param_name_start``, ``param_name``, ``param_value``
    (in an unquoted parameter value), ``quoted`` (a control character in a quoted one),
    ``after_quote`` (no ``,`` ``;`` ``:`` after a closing quote), ``value`` (a control
    character in the value). At the end: ``empty``, or ``ends_`` and the state the line
    ended in (``ends_name``: no ``:`` came; ``ends_quoted``: a quote is not closed)."""

    kind: str
    column: int
    char: str = ""


_Scanner = TypeVar("_Scanner", bound="LineScanner")


class LineScanner:
    """The content-line grammar as a state machine over one logical line, fed in pieces.

    ``feed(piece)`` returns ``None`` while the line can still be a content line, else a
    :class:`LineFault` (it stays failed). ``end()`` says whether what was fed is a whole
    content line. ``value_start`` is the column where the value starts once ``in_value``.
    ``feed`` costs time in proportion to its piece: runs of plain characters are consumed
    by one regular expression over a character class."""

    __slots__ = ("state", "column", "token", "groups", "value_start", "error")

    def __init__(self, *, groups: bool = False) -> None:
        self.state = NAME
        self.column = 0
        self.token = 0  # length of the name, group or parameter name being read
        self.groups = groups  # a group may still come (RFC 6350: "group.NAME")
        self.value_start = -1
        self.error: LineFault | None = None

    @property
    def in_value(self) -> bool:
        """Whether the scanner is reading the value (the name and parameters are done)."""
        return self.state is VALUE

    def copy(self: _Scanner) -> _Scanner:
        """An independent clone, of the caller's class (a format's subclass stays one)."""
        clone = type(self).__new__(type(self))
        clone.state, clone.column, clone.token, clone.groups = self.state, self.column, self.token, self.groups
        clone.value_start, clone.error = self.value_start, self.error
        return clone

    def _fail(self, kind: str, column: int, char: str) -> LineFault:
        self.error = LineFault(kind, column, char)
        return self.error

    def feed(self, piece: str) -> LineFault | None:
        if self.error is not None:
            return self.error
        i = 0
        n = len(piece)
        base = self.column
        while i < n:
            state = self.state
            if state is VALUE:  # the bulk of most lines: one run
                i = _VALUE_RUN.match(piece, i).end()  # type: ignore[union-attr]
                if i < n:
                    return self._fail("value", base + i, piece[i])
                break
            ch = piece[i]
            if state is NAME or state is PARAM_NAME:
                if ch in _NAME_CHARS:  # a run of a name's characters at once
                    end = _NAME_RUN.match(piece, i).end()  # type: ignore[union-attr]
                    self.token += end - i
                    i = end
                    continue
                elif self.token == 0:
                    return self._fail("name_start" if state is NAME else "param_name_start", base + i, ch)
                elif state is NAME and ch == "." and self.groups:
                    self.groups = False
                    self.token = 0
                elif state is NAME and ch in ";:":
                    self._param_or_value(ch, base + i)
                elif state is PARAM_NAME and ch == "=":
                    self.state = PARAM_VALUE
                else:
                    return self._fail("name" if state is NAME else "param_name", base + i, ch)
                i += 1
            elif state is PARAM_VALUE or state is UNQUOTED:
                if ch == '"' and state is PARAM_VALUE:
                    self.state = QUOTED
                    i += 1
                    continue
                # values and the commas between them, at once (to a quote after a comma)
                end = _UNQUOTED_RUN.match(piece, i).end()  # type: ignore[union-attr]
                if end > i:
                    self.state = PARAM_VALUE if piece[end - 1] == "," else UNQUOTED
                    i = end
                    continue
                fault = self._separator(ch, base + i, "param_value")
                if fault is not None:
                    return fault
                i += 1
            elif state is QUOTED:
                i = _QSAFE_RUN.match(piece, i).end()  # type: ignore[union-attr]
                if i < n:
                    if piece[i] != '"':
                        return self._fail("quoted", base + i, piece[i])
                    self.state = AFTER_QUOTE
                    i += 1
            else:  # AFTER_QUOTE
                fault = self._separator(ch, base + i, "after_quote")
                if fault is not None:
                    return fault
                i += 1
        self.column = base + n
        return None

    def _separator(self, ch: str, at: int, kind: str) -> LineFault | None:
        """After a parameter value: ``,`` another value, ``;`` a parameter, ``:`` the
        value; anything else is a fault of ``kind``."""
        if ch == ",":
            self.state = PARAM_VALUE
        elif ch in ";:":
            self._param_or_value(ch, at)
        else:
            return self._fail(kind, at, ch)
        return None

    def _param_or_value(self, ch: str, at: int) -> None:
        """``;`` starts a parameter, ``:`` the value."""
        if ch == ";":
            self.state = PARAM_NAME
            self.token = 0
        else:
            self.state = VALUE
            self.value_start = at + 1

    def end(self) -> LineFault | None:
        """``None`` when the line fed is a whole content line, else why not (the scanner
        may still be fed: the line is not ended by asking)."""
        if self.error is not None:
            return self.error
        if self.state is VALUE:
            return None
        return LineFault("empty" if self.column == 0 else "ends_" + self.state, self.column)


def split_line(line: str) -> tuple[str | None, str, tuple[tuple[str, tuple[str, ...]], ...], str]:
    """The parts of a line :class:`LineScanner` accepted: its group (or ``None``), its
    name and parameter names upper case, its parameters in order (quotes removed) and its
    value as written (still escaped). The first ``:`` outside quotes ends the parameters."""
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
    return group, name, tuple(params), line[i + 1 :]


# The whole grammar as one regular expression, for lines read whole: a line it matches is
# one the scanner accepts, and the other way round. Linear: each repeated part starts with
# its own delimiter (";", ",", '"') and no class holds the delimiter that follows it, so a
# failed match gives each character back at most once, at one step each.
_CTL = r"\x00-\x08\x0a-\x1f\x7f"
_PVAL = rf'(?:"[^{_CTL}"]*"|[^{_CTL}";:,]*)'
_PARAMS = rf"((?:;[A-Za-z0-9-]+={_PVAL}(?:,{_PVAL})*)*):([^{_CTL}]*)"
_WHOLE_GROUPED = re.compile(rf"(?:([A-Za-z0-9-]+)\.)?([A-Za-z0-9-]+){_PARAMS}")
_WHOLE = re.compile(rf"()([A-Za-z0-9-]+){_PARAMS}")
# one parameter, and one of its values, in the parameters of a line the grammar accepted
_PARAM = re.compile(r';([A-Za-z0-9-]+)=((?:"[^"]*"|[^";:,]*)(?:,(?:"[^"]*"|[^";:,]*))*)')
_PARAM_VALUE = re.compile(r'"([^"]*)"|([^",]*)')


def read_line(
    line: str, *, groups: bool = False
) -> tuple[str | None, str, tuple[tuple[str, tuple[str, ...]], ...], str] | None:
    """:func:`split_line`'s parts of ``line`` when it is a content line (``groups``: as
    :class:`LineScanner`'s), else ``None`` (the scanner says why and where). One match
    for the line, one per parameter: a line costs a few steps whatever its length."""
    m = (_WHOLE_GROUPED if groups else _WHOLE).fullmatch(line)
    if m is None:
        return None
    group, name, head, value = m.groups()
    params: list[tuple[str, tuple[str, ...]]] = []
    if head:
        for p in _PARAM.finditer(head):
            written = p.group(2)
            if '"' not in written:
                params.append((p.group(1).upper(), tuple(written.split(","))))
                continue
            values: list[str] = []
            at = 0
            while True:
                v = _PARAM_VALUE.match(written, at)
                quoted, plain = v.groups()  # type: ignore[union-attr]
                values.append(plain if quoted is None else quoted)
                at = v.end() + 1  # type: ignore[union-attr]  # past the comma
                if at > len(written):
                    break
            params.append((p.group(1).upper(), tuple(values)))
    return group or None, name.upper(), tuple(params), value
