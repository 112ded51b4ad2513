"""RFC 5545's content-line layer (section 3.1), and nothing else.

    contentline = name *(";" param) ":" value CRLF
    name        = iana-token / x-name            (letters, digits, "-")
    param       = param-name "=" param-value *("," param-value)
    param-value = paramtext / DQUOTE *QSAFE-CHAR DQUOTE

Long lines are folded: a line break followed by one space or tab is removed when the
text is read (unfolding); a writer breaks lines longer than 75 octets (folding).

The API:

- :func:`physical_lines` — ``(start, end, break)`` for every line of a text, any of
  ``\\r\\n``, ``\\n`` or ``\\r`` ending it (``break`` is the break as written, ``""`` at the
  end of the text), so that callers can tell CRLF from the rest. It, :func:`fold`,
  :func:`octets`, ``CRLF`` and ``FOLD_OCTETS`` come from
  :mod:`formatbook_core.contentlines` (RFC 6350 defines them alike).
- :func:`unfold` — the logical lines: ``LogicalLine(text, start, end)``, a fold being any
  line break followed by a space or tab; offsets are those of the first and last
  physical line in the original text.
- :func:`split` — one logical line into a :class:`ContentLine` (name, params, value), or
  a :class:`LineError` saying where and why it is no content line.
- :class:`LineScanner` — the same grammar, fed piece by piece (a streaming checker uses
  it to fail at the first character that no content line can have).
- :func:`fold` and :func:`serialize` — write a line back, folded at 75 octets, CRLF.

Everything here is a plain scan, linear in its input; no regular expression backtracks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from formatbook_core.contentlines import CRLF, FOLD_OCTETS, fold, octets, physical_lines

__all__ = [
    "CRLF",
    "FOLD_OCTETS",
    "ContentLine",
    "LineError",
    "LineScanner",
    "LogicalLine",
    "fold",
    "format_line",
    "octets",
    "physical_lines",
    "serialize",
    "split",
    "unfold",
]


# Control characters no value may hold (RFC 5545 3.1: CONTROL, HTAB allowed).
_CTL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

# The scanner's states.
NAME, PARAM_NAME, PARAM_VALUE, QUOTED, AFTER_QUOTE, VALUE = range(6)
_STATE_WORDS = {
    NAME: "the property name",
    PARAM_NAME: "a parameter name",
    PARAM_VALUE: "a parameter value",
    QUOTED: "a quoted parameter value",
    AFTER_QUOTE: "a quoted parameter value",
    VALUE: "the value",
}


def _is_name_char(ch: str) -> bool:
    return ch == "-" or ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ("0" <= ch <= "9")


def _is_ctl(ch: str) -> bool:
    return (ch < " " and ch != "\t") or ch == "\x7f"


@dataclass(frozen=True)
class ContentLine:
    """A content line split into its parts. ``name`` is upper case; ``params`` keeps the
    parameters in order as ``(NAME, (values...))`` with quotes removed; ``value`` is the
    raw (still escaped) value."""

    name: str
    params: tuple[tuple[str, tuple[str, ...]], ...]
    value: str

    def param(self, name: str) -> str | None:
        """The first value of the parameter ``name`` (upper case), or ``None``."""
        for key, values in self.params:
            if key == name:
                return values[0] if values else ""
        return None

    def param_values(self, name: str) -> tuple[str, ...]:
        for key, values in self.params:
            if key == name:
                return values
        return ()


@dataclass(frozen=True)
class LineError:
    """Why a text is no content line: ``offset`` into the logical line, and a message."""

    offset: int
    message: str


@dataclass(frozen=True)
class LogicalLine:
    """An unfolded line: its ``text`` and the span ``[start, end)`` it covers in the
    original text (line breaks of the folds included, its own final break excluded)."""

    text: str
    start: int
    end: int


def unfold(text: str) -> list[LogicalLine]:
    """The logical lines of ``text``: a line starting with a space or tab continues the
    one before it (its first character dropped). Any line break counts here; whether the
    breaks are CRLF is the caller's question."""
    out: list[LogicalLine] = []
    pieces: list[str] = []
    start = end = -1
    for s, e, _ in physical_lines(text):
        if pieces and e > s and text[s] in " \t":
            pieces.append(text[s + 1 : e])
            end = e
            continue
        if pieces:
            out.append(LogicalLine("".join(pieces), start, end))
        pieces = [text[s:e]]
        start, end = s, e
    if pieces:
        out.append(LogicalLine("".join(pieces), start, end))
    return out


class LineScanner:
    """RFC 5545's content-line grammar, fed one piece of a logical line at a time.

    ``feed(piece)`` returns ``None`` while the text so far can still begin a content
    line, else a :class:`LineError` (offsets count from the start of the line). ``done()``
    says whether the text so far is a whole content line. It records where the name ends,
    where each parameter sits and where the value starts, which :func:`split` reads.
    """

    __slots__ = ("state", "length", "name_end", "value_start", "marks", "error")

    def __init__(self) -> None:
        self.state = NAME
        self.length = 0
        self.name_end = -1
        self.value_start = -1
        # (kind, offset): "p" a parameter name starts, "=" its value starts, "," another
        # value starts, "e" a value ends
        self.marks: list[tuple[str, int]] = []
        self.error: LineError | None = None

    def copy(self) -> LineScanner:
        clone = LineScanner()
        clone.state = self.state
        clone.length = self.length
        clone.name_end = self.name_end
        clone.value_start = self.value_start
        clone.marks = list(self.marks)
        clone.error = self.error
        return clone

    def feed(self, piece: str) -> LineError | None:
        if self.error is not None:
            return self.error
        base = self.length
        self.length += len(piece)
        i = 0
        n = len(piece)
        state = self.state
        while i < n:
            if state == VALUE:  # the bulk of most lines: one search for a control character
                m = _CTL.search(piece, i)
                if m is not None:
                    return self._fail(base + m.start(), f"a control character {m.group()!r} in the value")
                break
            ch = piece[i]
            at = base + i
            if state == NAME:
                if _is_name_char(ch):
                    pass
                elif ch in ";:" and at > 0:
                    self.name_end = at
                    if ch == ":":
                        self.value_start = at + 1
                        state = VALUE
                    else:
                        self.marks.append(("p", at + 1))
                        state = PARAM_NAME
                elif at == 0:
                    return self._fail(at, f"a line must start with a property name, not {ch!r}")
                else:
                    return self._fail(at, f"{ch!r} cannot be part of a property name")
            elif state == PARAM_NAME:
                if _is_name_char(ch):
                    pass
                elif ch == "=" and self.marks[-1][1] < at:
                    self.marks.append(("=", at + 1))
                    state = PARAM_VALUE
                else:
                    return self._fail(at, f"{ch!r} where a parameter name (NAME=value) was expected")
            elif state == PARAM_VALUE:
                if ch == '"' and self.marks[-1][1] == at:
                    state = QUOTED
                elif ch == ",":
                    self.marks.append(("e", at))
                    self.marks.append((",", at + 1))
                elif ch == ";":
                    self.marks.append(("e", at))
                    self.marks.append(("p", at + 1))
                    state = PARAM_NAME
                elif ch == ":":
                    self.marks.append(("e", at))
                    self.value_start = at + 1
                    state = VALUE
                elif ch == '"' or _is_ctl(ch):
                    return self._fail(at, f"{ch!r} in an unquoted parameter value")
            elif state == QUOTED:
                if ch == '"':
                    state = AFTER_QUOTE
                elif _is_ctl(ch):
                    return self._fail(at, f"a control character {ch!r} in a quoted parameter value")
            else:  # AFTER_QUOTE: the value ended; a separator must follow
                if ch == ",":
                    self.marks.append(("e", at))
                    self.marks.append((",", at + 1))
                    state = PARAM_VALUE
                elif ch == ";":
                    self.marks.append(("e", at))
                    self.marks.append(("p", at + 1))
                    state = PARAM_NAME
                elif ch == ":":
                    self.marks.append(("e", at))
                    self.value_start = at + 1
                    state = VALUE
                else:
                    return self._fail(at, f"{ch!r} after a closing quote (expected , ; or :)")
            i += 1
        self.state = state
        return None

    def _fail(self, offset: int, message: str) -> LineError:
        self.error = LineError(offset, message)
        return self.error

    def done(self) -> LineError | None:
        """``None`` when the text fed is a whole content line, else why not."""
        if self.error is not None:
            return self.error
        if self.state == VALUE:
            return None
        if self.length == 0:
            return LineError(0, "an empty line (RFC 5545 allows none)")
        if self.state == NAME:
            return LineError(self.length, "the line has no ':' before its value")
        return LineError(self.length, f"the line ends inside {_STATE_WORDS[self.state]}")


def split(line: str) -> ContentLine | LineError:
    """``line`` (one logical line, unfolded, without its break) as a :class:`ContentLine`,
    or the :class:`LineError` that says why it is none."""
    scanner = LineScanner()
    problem = scanner.feed(line) or scanner.done()
    if problem is not None:
        return problem
    params: list[tuple[str, tuple[str, ...]]] = []
    name = ""
    values: list[str] = []
    value_at = -1
    for kind, offset in scanner.marks:
        if kind == "p":
            name_start = offset
        elif kind == "=":
            name = line[name_start : offset - 1].upper()
            values = []
            params.append((name, ()))
            value_at = offset
        elif kind == ",":
            value_at = offset
        else:  # "e"
            raw = line[value_at:offset]
            if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
                raw = raw[1:-1]
            values.append(raw)
            params[-1] = (name, tuple(values))
    return ContentLine(line[: scanner.name_end].upper(), tuple(params), line[scanner.value_start :])


def format_line(name: str, params: tuple[tuple[str, tuple[str, ...]], ...], value: str) -> str:
    """One logical line from its parts; a parameter value holding ``:``, ``;`` or ``,``
    is quoted."""
    out = [name]
    for key, vals in params:
        out.append(";" + key + "=" + ",".join(_quote(v) for v in vals))
    out.append(":" + value)
    return "".join(out)


def _quote(value: str) -> str:
    if any(ch in value for ch in ":;,"):
        return '"' + value + '"'
    return value


def serialize(lines: list[str]) -> str:
    """Logical lines written as RFC 5545 text: each folded, each ended by CRLF."""
    return "".join(fold(line) + CRLF for line in lines)
